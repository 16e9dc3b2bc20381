"""``rackclock director``: the tournament director's console (docs/director.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``director`` command."""
    cmd = sub.add_parser(
        "director",
        help="the director's console: every table, timelines, rulings, exports",
        description=(
            "Shows every table sorted by what needs attention (overtime, a pending "
            "challenge, a long neutralization, a device offline, clock drift). Enter opens a "
            "table's timeline, to scrub to any instant. Rulings: a adjust, r resume, "
            "f forfeit, n neutralize. x exports GCG, the log and the results files. "
            "Tables come from the venue broker (--broker) or from log files (--log)."
        ),
    )
    src = cmd.add_mutually_exclusive_group(required=True)
    src.add_argument("--broker", metavar="URL", help="the venue broker, mqtt[s]://host[:port]")
    src.add_argument(
        "--log",
        nargs="+",
        type=Path,
        metavar="FILE",
        help=(
            "game logs (SQLite or JSON Lines), or folders of them (e.g. the venue archive); "
            "rulings go into a log no running table holds (a running table is ruled "
            "over --broker)"
        ),
    )
    cmd.add_argument("--venue", help="with --broker: follow only this venue's tables")
    cmd.add_argument(
        "--name",
        help="your name, logged with every ruling and result (default: the OS user)",
    )
    cmd.add_argument("--desk", default="desk", help="this console's name on the broker")
    cmd.add_argument(
        "--neutral-alert-s",
        type=int,
        default=60,
        metavar="S",
        help="flag a clock neutralized longer than this (default 60)",
    )
    cmd.add_argument(
        "--export-dir", type=Path, default=Path("."), help="where exports go (default: here)"
    )
    cmd.add_argument(
        "--round", type=int, help="the round of finished games whose logs do not give one"
    )
    cmd.add_argument("--high-contrast", action="store_true", help="the high-contrast theme")
    cmd.add_argument(
        "--event",
        type=Path,
        metavar="LEDGER",
        help=(
            "the event's ledger: results taken from the tables as games are signed; "
            "key S shows the event, key I takes results from paper slips"
        ),
    )
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Open the console."""
    from clock.log.eventlog import LogError
    from clock.log.log_files import log_files
    from engine.errors import EngineError
    from terminal_ui.cli.args import who
    from terminal_ui.director.app import DirectorApp
    from terminal_ui.director.config import DirectorConfig

    if args.venue is not None:
        from firmware_bridge.mqtt.topics import TableTopics, TopicError

        try:
            TableTopics(args.venue, "t1")
        except TopicError as exc:
            sys.stderr.write(f"rackclock director: --venue: {exc}\n")
            return 2
    logs: list[Path] = []
    if args.log:
        try:
            logs = log_files(args.log)
        except FileNotFoundError as exc:
            sys.stderr.write(f"rackclock director: {exc}\n")
            return 2
        if not logs:
            sys.stderr.write("rackclock director: no .sqlite or .jsonl log found\n")
            return 2
    if args.broker:
        from firmware_bridge.mqtt.connection import parse_url

        try:
            parse_url(args.broker)
        except ValueError as exc:
            sys.stderr.write(f"rackclock director: {exc}\n")
            return 2
    if args.round is not None and args.round < 1:
        sys.stderr.write("rackclock director: --round starts at 1\n")
        return 2
    cfg = DirectorConfig(
        broker=args.broker,
        logs=tuple(logs),
        name=who(args.name),  # as event slips and event result name who records
        desk=args.desk,
        neutral_alert_s=args.neutral_alert_s,
        export_dir=args.export_dir,
        round=args.round,
        high_contrast=args.high_contrast,
        event=args.event,
        venue=args.venue,
    )
    try:
        app = DirectorApp(cfg)  # opens --event: refused here, before the screen
    except (OSError, EngineError, LogError) as exc:
        sys.stderr.write(f"rackclock director: --event {args.event}: {exc}\n")
        return 1
    result = app.run()
    return result or 0
