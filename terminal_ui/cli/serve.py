"""``rackclock serve``: one table, headless."""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import logging
import sys
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from terminal_ui.cli.args import add_assignment, add_clock, game_fields, players

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``serve`` command."""
    cmd = sub.add_parser(
        "serve",
        help="run one table headless (a table computer without a screen)",
        description=(
            "Runs one table's clock service. Reopens an existing log and resumes its game "
            "(neutralized, with the time it was down logged); otherwise starts a new game. "
            "Commands on standard input: 'press 0', 'press 1', 'pause', JSON events, 'state', "
            "'quit'. Each outcome is printed as a JSON line after its commit."
        ),
    )
    cmd.add_argument(
        "--variant",
        help="rule variant name or TOML file of a new game (or from --assignment; "
        "default: an existing log's own, its last game's)",
    )
    cmd.add_argument("--log", required=True, type=Path, help="SQLite game log (created if new)")
    add_clock(cmd)
    cmd.add_argument(
        "--players", type=players, default="Player 1,Player 2", help="two names, comma-separated"
    )
    cmd.add_argument("--first", type=int, default=0, choices=(0, 1))
    cmd.add_argument("--mode", choices=("board", "scoresheet"), help="override the variant's mode")
    cmd.add_argument(
        "--authority",
        choices=("host", "device"),
        default="host",
        help="whose times rule: the service's (host) or the device's",
    )
    cmd.add_argument(
        "--drift-ms",
        type=int,
        default=250,
        help="device-authoritative: a gap beyond this becomes a ruling",
    )
    add_assignment(cmd)
    cmd.add_argument(
        "--new-game",
        action="store_true",
        help="start a new game after the log's finished one (a finished game is shown otherwise)",
    )
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the service until quit or end of input."""
    from clock.table.serve import logged_variant, serve
    from clock.table.session import SessionError, TableSpec
    from firmware_bridge.table_setup import open_table

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if args.variant is None and not args.assignment:
        # An existing log resumes its own game: the variant is in its game_started.
        try:
            args.variant = logged_variant(args.log)
        except (OSError, EngineError) as exc:
            sys.stderr.write(f"rackclock serve: {exc}\n")
            return 2
        if args.variant is None:
            sys.stderr.write(
                f"rackclock serve: {args.log} holds no game to resume: give --variant "
                "(or --assignment) for a new one\n"
            )
            return 2
    try:
        game = game_fields(args)
    except (EngineError, ValueError) as exc:
        sys.stderr.write(f"rackclock serve: {exc}\n")
        return 2
    spec = TableSpec(
        log=args.log,
        **game,
        mode=args.mode,
        clock=args.clock,
        authority=args.authority,
        drift_ms=args.drift_ms,
        new_game=args.new_game,
    )

    async def main() -> int:
        try:
            session = open_table(spec)
        except SessionError as exc:
            sys.stdout.write(json.dumps({"error": str(exc)}) + "\n")
            return 2
        follow = None
        if args.assignment:  # the next round's game, once the director publishes it
            from firmware_bridge.venue.assignment_feed import follow_assignments

            follow = functools.partial(follow_assignments, args.assignment)
        return await serve(session, follow=follow)

    try:
        return asyncio.run(main())
    except EngineError as exc:
        sys.stderr.write(f"rackclock serve: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130
