"""The ``rackclock`` command.

Sub-commands are registered here and implemented in small modules beside this
one; each imports only what it needs, so ``rackclock gcg check`` starts without
loading the terminal UI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from terminal_ui.cli import (
    director,
    emulate,
    gateway,
    gcg,
    log,
    replay,
    scorekeeper,
    serve,
    table,
    variants,
    venue,
)

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(
        prog="rackclock",
        description="Rules engine and table clock for tournament crossword games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    gcg.register(sub)
    variants.register(sub)
    replay.register(sub)
    log.register(sub)
    serve.register(sub)
    table.register(sub)
    scorekeeper.register(sub)
    emulate.register(sub)
    gateway.register(sub)
    director.register(sub)
    venue.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    status: int = handler(args)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
