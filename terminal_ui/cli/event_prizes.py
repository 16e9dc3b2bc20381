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
from typing import Any

from terminal_ui.cli.event_divisions import divisions as chosen_divisions

__all__ = ["register"]


def register(action: Callable[..., argparse.ArgumentParser], guard: Any) -> None:
    """Add ``event prizes`` through ``event``'s own ``action`` (the LEDGER argument)
    and ``guard`` (its refusals, one line and exit 2 or 1, are this command's too)."""
    p = action(
        "prizes",
        "the prizewinners: places, rating classes, high game and plays",
        lambda args: guard(args, lambda: _prizes(args)),
    )
    p.add_argument("--division", metavar="NAME")
    p.add_argument("--round", type=int, metavar="N", help="after round N (default: the last done)")
    p.add_argument(
        "--games",
        nargs="+",
        type=Path,
        metavar="GAMELOG",
        help="game logs or folders of them (default: the logs the results name)",
    )


def _prizes(args: argparse.Namespace) -> int:
    from clock.tournament.ledger import EventLedger
    from clock.tournament.special_prizes import event_prize_lists
    from engine.tournament.report import check_played_through
    from engine.tournament.sheets.prizes import prizes_text

    with EventLedger.open(args.log, readonly=True) as ledger:
        state = ledger.state
        divisions = chosen_divisions(state, args.division)
        check_played_through(divisions, args.round)
        lists, skipped = event_prize_lists(
            state, divisions, args.games, args.round, base=Path(args.log).parent
        )
    for line in skipped:
        sys.stderr.write(line + "\n")
    print("\n".join(prizes_text(state.spec.name, plist) for plist in lists), end="")
    return 0
