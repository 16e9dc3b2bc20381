"""Argument types shared by the ``rackclock`` commands."""

from __future__ import annotations

import argparse

__all__ = ["players"]


def players(text: str) -> tuple[str, str]:
    """``--players "Ann,Ben"``: two non-empty names; argparse reports anything else."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise argparse.ArgumentTypeError(f"needs two names separated by a comma, got {text!r}")
    return (names[0], names[1])
