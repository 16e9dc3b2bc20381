"""``rackclock gcg check FILE... [--variant NAME|FILE] [--json]``: replay game records
through the engine."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from clock.user_files import check_file, load_variant
from engine import Variant
from engine.errors import DataFileError
from engine.gcg import CheckResult, Problem

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``gcg`` command group to a sub-parser collection."""
    gcg = sub.add_parser("gcg", help="work with GCG game records")
    gsub = gcg.add_subparsers(dest="gcg_command", metavar="ACTION", required=True)
    check = gsub.add_parser(
        "check",
        help="replay records and verify every placement, rack, score and the end of game",
        description=(
            "Replays each record through the engine: validates every placement, checks racks "
            "against the tile set and from turn to turn, recomputes every score and total, and "
            "checks the turn order and the end of the game. Exit status 0 only if every file "
            "is consistent."
        ),
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="GCG files")
    check.add_argument(
        "--variant",
        default="nzasp",
        metavar="NAME|FILE",
        help="the rules the games were played under: tile set, board, the scoreless turns "
        "that end a game, the fewest tiles in the bag for an exchange (default nzasp)",
    )
    check.add_argument("--json", action="store_true", help="one JSON object per file, per line")
    check.add_argument(
        "--strict",
        action="store_true",
        help="fail on warnings too (a rack that lacks tiles kept from the previous one, a "
        "score settled at the table): for records a program wrote, not an annotator",
    )
    check.set_defaults(handler=run_check)


def _human(result: CheckResult, *, strict: bool) -> str:
    scores = ", ".join(f"{nick} {score}" for nick, score in result.final_scores.items())
    if result.ok:
        state = "complete" if result.complete else "incomplete"
        # The first word is the verdict the exit status gives: --strict fails on warnings.
        verdict = "OK   "
        if result.warnings:
            verdict = "FAIL  (warnings, --strict)" if strict else "OK with warnings"
        lines = [f"{verdict} {result.file}  ({state}; {scores})"]
    else:
        lines = [f"FAIL  {result.file}"]
    for p in result.errors:
        where = f"line {p.line}" if p.line else "file"
        lines.append(f"  {where}: {p.message}")
    for p in result.warnings:
        where = f"line {p.line}" if p.line else "file"
        lines.append(f"  {where}: warning: {p.message}")
    return "\n".join(lines)


def _checked(path: str, variant: Variant) -> CheckResult:
    """One file's result; a file that trips the checker itself is reported, and the next
    file is still checked."""
    try:
        return check_file(path, variant)
    except Exception as exc:
        problem = Problem(
            0, f"the checker could not read this record ({type(exc).__name__}: {exc})"
        )
        return CheckResult(path, False, False, (problem,))


def run_check(args: argparse.Namespace) -> int:
    """Check each file; print one result per file."""
    try:
        variant = load_variant(args.variant)
    except DataFileError as exc:
        sys.stderr.write(f"rackclock gcg check: {exc}\n")
        return 2
    all_ok = True
    for path in args.files:
        result = _checked(path, variant)
        all_ok &= result.ok and not (args.strict and result.warnings)
        if args.json:
            sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(_human(result, strict=args.strict) + "\n")
    return 0 if all_ok else 1
