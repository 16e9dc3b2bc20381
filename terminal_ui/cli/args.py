"""Argument types shared by the ``rackclock`` commands."""

from __future__ import annotations

import argparse
import getpass
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from pathlib import Path

    from engine.tournament.assignment import Assignment

__all__ = [
    "GameFields",
    "add_assignment",
    "add_clock",
    "add_t_encoding",
    "game_fields",
    "log_refusal",
    "players",
    "who",
]


def players(text: str) -> tuple[str, str]:
    """``--players "Ann,Ben"``: two non-empty names; argparse reports anything else."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise argparse.ArgumentTypeError(f"needs two names separated by a comma, got {text!r}")
    return (names[0], names[1])


def add_clock(cmd: argparse.ArgumentParser) -> None:
    """``--clock CLOCK`` (serve, the table terminal, the scorekeeper): its forms and their
    help are the transports' registry's (:mod:`firmware_bridge.host.transports`)."""
    from firmware_bridge.host.transports import TRANSPORTS

    cmd.add_argument("--clock", metavar="CLOCK", default="emulated", help=TRANSPORTS.help())


def log_refusal(log: Path, program: str) -> str | None:
    """Why ``program`` (``rackclock table``, ``rackclock scorekeeper``) cannot take the
    game log ``log``, said before its screen opens; None when it can. A log a running
    table holds (clock/log/lock.py) is refused, saying who holds it."""
    from clock.log.eventlog import EventLog, LogError
    from clock.log.lock import WriterLock

    try:
        # Harmless to the log: no other connection of this process is open yet, and
        # another process's writer keeps its locks, so this close removes no -wal of
        # its (docs/events.md, "Who opens a log").
        with WriterLock(log, program):
            EventLog.open(log).close()
    except LogError as exc:
        return str(exc)
    return None


def add_assignment(cmd: argparse.ArgumentParser) -> None:
    """``--assignment SOURCE`` (the table terminal and the scorekeeper)."""
    cmd.add_argument(
        "--assignment",
        metavar="SOURCE",
        help="the players, rules and round from the event: mqtt://broker/VENUE/TABLE "
        "(published by 'rackclock event publish') or LEDGER@TABLE",
    )


def add_t_encoding(cmd: argparse.ArgumentParser) -> None:
    """``--encoding`` of tsh's ``.t`` files (``export tsh``, ``event export tsh``): the
    one writer's (:func:`clock.exports.results_files.write_t_files`) ISO-8859-1 by
    default, as :data:`engine.exports.tfile.TSH_ENCODING` (not imported: the command
    line loads the engine only when a command runs)."""
    cmd.add_argument(
        "--encoding",
        choices=("iso-8859-1", "utf-8"),
        default="iso-8859-1",
        help="tsh's default is ISO-8859-1; utf-8 for a config that sets tfile_encoding",
    )


class GameFields(TypedDict):
    """A new game's part of a table's configuration: from ``--assignment``, or from
    ``--variant``, ``--players`` and ``--first``."""

    variant: str
    players: tuple[str, str]
    first: int
    round: int | None
    division: str | None
    table: str | None
    event: str | None
    event_id: str | None


def game_fields(args: argparse.Namespace) -> GameFields:
    """The new game's fields; ``--assignment`` wins over the separate options.

    Raises:
        ValueError, EngineError: The assignment cannot be had, with the reason.
    """
    game = _assignment(args)
    if game is None:
        return GameFields(
            variant=args.variant,
            players=args.players,
            first=args.first,
            round=None,
            division=None,
            table=None,
            event=None,
            event_id=None,
        )
    return GameFields(
        variant=game.variant,
        players=game.players,
        first=0,  # the assignment names the starter first
        round=game.round,
        division=game.division,
        table=game.table_name,
        event=game.event or None,
        event_id=game.event_id or None,
    )


def _assignment(args: argparse.Namespace) -> Assignment | None:
    """The game ``--assignment`` names, if given; its variant is checked.

    Raises:
        ValueError, EngineError: It cannot be had, with the reason.
    """
    if not args.assignment:
        return None
    from clock.user_files import load_variant
    from firmware_bridge.venue.assignment_feed import load_assignment

    game = load_assignment(args.assignment)
    load_variant(game.variant)
    return game


def who(by: str | None) -> str:
    """Who records a result typed here: ``--by``, else the OS user (else ``director``,
    the ledger's default, where the system names no user)."""
    if by:
        return by
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment nor the user database
        return "director"
