"""The ``rackclock`` command.

Sub-commands are registered here and implemented in small modules beside this
one; each imports only what it needs, so ``rackclock gcg check`` starts without
loading the terminal UI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from terminal_ui import (
    cmd_director,
    cmd_emulate,
    cmd_gateway,
    cmd_gcg,
    cmd_log,
    cmd_replay,
    cmd_scorekeeper,
    cmd_serve,
    cmd_table,
    cmd_variants,
    cmd_venue,
)

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(
        prog="rackclock",
        description="Rules engine and table clock for tournament crossword games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    cmd_gcg.register(sub)
    cmd_variants.register(sub)
    cmd_replay.register(sub)
    cmd_log.register(sub)
    cmd_serve.register(sub)
    cmd_table.register(sub)
    cmd_scorekeeper.register(sub)
    cmd_emulate.register(sub)
    cmd_gateway.register(sub)
    cmd_director.register(sub)
    cmd_venue.register(sub)
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
