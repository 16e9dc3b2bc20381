"""Argument types shared by the ``rackclock`` commands."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.tournament.assignment import Assignment

__all__ = ["add_assignment", "assignment", "players"]


def players(text: str) -> tuple[str, str]:
    """``--players "Ann,Ben"``: two non-empty names; argparse reports anything else."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise argparse.ArgumentTypeError(f"needs two names separated by a comma, got {text!r}")
    return (names[0], names[1])


def add_assignment(cmd: argparse.ArgumentParser) -> None:
    """``--assignment SOURCE`` (the table terminal and the scorekeeper)."""
    cmd.add_argument(
        "--assignment",
        metavar="SOURCE",
        help="the players, rules and round from the event: mqtt://broker/VENUE/TABLE "
        "(published by 'rackclock event publish') or EVENTLOG@TABLE",
    )


def assignment(args: argparse.Namespace) -> Assignment | None:
    """The game ``--assignment`` names, if given; its variant is checked.

    Raises:
        ValueError, EngineError: It cannot be had, with the reason.
    """
    if not args.assignment:
        return None
    from clock.files import load_variant
    from terminal_ui.shared.assignment import load_assignment

    game = load_assignment(args.assignment)
    load_variant(game.variant)
    return game
