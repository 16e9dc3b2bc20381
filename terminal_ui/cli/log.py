"""``rackclock log verify|export|import``: a table's hash-chained game log (an event's
ledger is checked with ``rackclock event verify``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clock.log.eventlog import VerifyResult, export_jsonl, import_jsonl, verify
from clock.log.lock import WriterLock
from clock.log.log_files import is_sqlite, load_log
from engine.errors import EngineError
from engine.rules.replay import replay

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``log`` command group."""
    log = sub.add_parser("log", help="verify, export or import a table's game log")
    lsub = log.add_subparsers(dest="log_command", metavar="ACTION", required=True)
    ver = lsub.add_parser(
        "verify",
        help="check the hash chain: detects any alteration or truncation",
        description="Recomputes the SHA-256 chain of a log; exit status 0 only if it is intact.",
    )
    ver.add_argument("file", metavar="FILE")
    ver.add_argument("--json", action="store_true")
    ver.set_defaults(handler=run_verify)
    exp = lsub.add_parser("export", help="write the log as JSON Lines")
    exp.add_argument("file", metavar="FILE")
    exp.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    exp.add_argument(
        "--include-refused", action="store_true", help="also write refused commands, marked refused"
    )
    exp.set_defaults(handler=run_export)
    imp = lsub.add_parser("import", help="build a new log from JSON Lines")
    imp.add_argument("jsonl", metavar="JSONL")
    imp.add_argument("-o", "--output", metavar="FILE", required=True, help="new log file")
    imp.set_defaults(handler=run_import)


def _verify_jsonl(path: Path) -> VerifyResult:
    """What a JSON Lines export can prove: every line is an event and the games replay.
    It carries no hash chain, so nothing proves it is what the table logged."""
    events, bad = load_log(path)
    _, refused = replay(events)
    problems = tuple((r.line, f"{r.reason} ({r.rule})") for r in bad + refused)
    if not events and not bad:
        problems = ((0, "no events in the file"),)
    return VerifyResult(ok=not problems, count=len(events), head_hash="", problems=problems)


def run_verify(args: argparse.Namespace) -> int:
    """Verify one log: the SQLite log's hash chain, or what a JSON Lines export can show."""
    path = Path(args.file)
    try:
        jsonl = path.is_file() and not is_sqlite(path)
        result = _verify_jsonl(path) if jsonl else verify(args.file)
    except (OSError, EngineError) as exc:
        sys.stderr.write(f"rackclock log verify: {path}: {exc}\n")
        return 1
    if jsonl and not args.json:
        sys.stderr.write(
            f"{path}: JSON Lines carries no hash chain: checked that every line is an event "
            "and the games replay; only the table's SQLite log can prove nothing was changed\n"
        )
    if args.json:
        doc = {
            "file": args.file,
            "ok": result.ok,
            "count": result.count,
            "head_hash": result.head_hash,
            "chain": not jsonl,
            "problems": [{"seq": s, "message": m} for s, m in result.problems],
        }
        sys.stdout.write(json.dumps(doc) + "\n")
    elif result.ok:
        sys.stdout.write(
            f"OK    {args.file}  ({result.count} events"
            + (")\n" if jsonl else f", head {result.head_hash[:16]})\n")
        )
    else:
        sys.stdout.write(f"FAIL  {args.file}\n")
        for seq, message in result.problems:
            where = ("line" if jsonl else "seq") + f" {seq}" if seq else "file"
            sys.stdout.write(f"  {where}: {message}\n")
    return 0 if result.ok else 1


def run_export(args: argparse.Namespace) -> int:
    """Export a log to JSON Lines."""
    try:
        if args.output:
            with open(args.output, "w", encoding="utf-8") as out:
                n = export_jsonl(args.file, out, include_refused=args.include_refused)
        else:
            n = export_jsonl(args.file, sys.stdout, include_refused=args.include_refused)
    except (OSError, EngineError) as exc:
        sys.stderr.write(f"rackclock log export: {exc}\n")
        return 1
    if args.output:
        sys.stderr.write(f"{n} events written to {args.output}\n")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Import JSON Lines into a new log; report unreadable lines."""
    try:
        lines = Path(args.jsonl).read_text(encoding="utf-8").splitlines()
        # a log a table service holds (even one that has just made it) has one writer
        with WriterLock(args.output, "rackclock log import"):
            result = import_jsonl(lines, args.output)
    except (OSError, UnicodeDecodeError, EngineError) as exc:
        sys.stderr.write(f"rackclock log import: {exc}\n")
        return 1
    for line, message in result.errors:
        sys.stderr.write(f"{args.jsonl}:{line}: {message}\n")
    sys.stdout.write(f"{result.count} events imported into {args.output}\n")
    return 0 if not result.errors else 1
