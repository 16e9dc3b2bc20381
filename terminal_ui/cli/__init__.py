"""The ``rackclock`` command.

Sub-commands are registered here and implemented in small modules beside this
one; each imports only what it needs, so ``rackclock gcg check`` starts without
loading the terminal UI.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from terminal_ui.cli import (
    director,
    emulate,
    event,
    export,
    gateway,
    gcg,
    log,
    pi_clock,
    replay,
    scorekeeper,
    serve,
    table,
    variants,
    venue,
)
from terminal_ui.shared.datadir import data_dir

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(
        prog="rackclock",
        description="Rules engine and table clock for tournament crossword games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    gcg.register(sub)
    export.register(sub)
    event.register(sub)
    variants.register(sub)
    replay.register(sub)
    log.register(sub)
    serve.register(sub)
    table.register(sub)
    scorekeeper.register(sub)
    emulate.register(sub)
    pi_clock.register(sub)
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
    try:
        status: int = handler(args)
    except BrokenPipeError:
        # Whoever read the output stopped (rackclock variants | head): nothing is wrong.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        # A user never sees a traceback: one line, and the details kept for a report.
        report = _crash_report(args.command)
        sys.stderr.write(
            f"rackclock {args.command}: internal error ({type(exc).__name__}: {exc}); "
            f"please report it with {report}\n"
        )
        return 70
    return status


def _crash_report(command: str) -> Path:
    """Write the current exception's traceback to a file in the data folder."""
    folder = data_dir("crashes")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{command}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    path.write_text(traceback.format_exc(), encoding="utf-8")
    return path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
