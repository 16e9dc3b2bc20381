"""``rackclock event prizes LEDGER [--games DIR...] [--round N] [--division NAME]``:
the prizewinners (places, rating-class places, the special prizes from the tables'
game logs), as :mod:`engine.tournament.prizes` lists them. The logs are read
read-only (:mod:`clock.tournament.special_prizes`), the ledger too: the console may
be writing both."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["register"]


def register(action: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``event prizes`` through ``event``'s own ``action`` (the LEDGER argument)."""
    p = action("prizes", "the prizewinners: places, rating classes, high game and plays", _prizes)
    p.add_argument("--division", metavar="NAME")
    p.add_argument("--round", type=int, metavar="N", help="after round N (default: the last done)")
    p.add_argument(
        "--games",
        nargs="+",
        type=Path,
        metavar="GAMELOG",
        help="game logs or folders of them (default: the logs the results name)",
    )


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def _prizes(args: argparse.Namespace) -> int:
    from clock.log.eventlog import LogError
    from engine.errors import EngineError

    if args.round is not None and args.round < 1:
        _say(f"rackclock event prizes: --round {args.round}: rounds are numbered from 1")
        return 2
    try:
        return _run(args)
    except (LogError, EngineError, OSError) as exc:
        _say(f"rackclock event prizes: {exc}")
        return 1


def _run(args: argparse.Namespace) -> int:
    from clock.tournament.ledger import EventLedger
    from clock.tournament.special_prizes import event_prize_lists
    from engine.tournament.report import check_played_through
    from engine.tournament.sheets.prizes import prizes_text

    with EventLedger.open(args.log, readonly=True) as ledger:
        state = ledger.state
        divisions = (
            [state.division(args.division)]
            if args.division is not None
            else list(state.divisions.values())
        )
        check_played_through(divisions, args.round)
        lists, skipped = event_prize_lists(
            state, divisions, args.games, args.round, base=Path(args.log).parent
        )
    for line in skipped:
        _say(line)
    print("\n".join(prizes_text(state.spec.name, plist) for plist in lists), end="")
    return 0
