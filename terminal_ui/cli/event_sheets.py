"""``rackclock event sheets LEDGER``: the sheets a venue posts and a director checks.

``-o DIR`` writes the folder (:mod:`clock.exports.sheets_folder`): per division the
pairings, standings, scorecards, wallchart and prizes as ``.txt`` and ``.html``, and
``index.html``; ``--show SHEET`` prints one sheet as text instead
(``--show scorecard 3``: player 3's card). ``--round N``: after round N (0: before
round 1); default: after the complete rounds, with the next round's pairings when
it is paired. ``--games DIR...``: the game logs the prize sheet's special prizes come
from, as ``event prizes --games`` (default: the logs the results name); a log passed
over is said on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from terminal_ui.cli.event_divisions import divisions as chosen_divisions
from terminal_ui.cli.event_divisions import several_divisions

if TYPE_CHECKING:
    from engine.tournament.prizes import PrizeList
    from engine.tournament.state import DivisionState, EventState

__all__ = ["register"]

_SHEETS = ("pairings", "standings", "scorecard", "wallchart", "prizes")


def register(action: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``event sheets`` through ``event``'s own ``action`` helper."""
    p = action(
        "sheets",
        "the sheets to post and check (pairings, standings, scorecards, wallchart, prizes): "
        "a folder of text and HTML (-o DIR), or one sheet shown (--show)",
        _sheets,
    )
    p.add_argument("-o", "--output", type=Path, metavar="DIR", help="write the folder here")
    p.add_argument(
        "--show",
        nargs="+",
        metavar="SHEET",
        help="print one: pairings, standings, scorecard [N|NAME] (a number or the start of a "
        "name), wallchart, prizes",
    )
    p.add_argument(
        "--games",
        nargs="+",
        type=Path,
        metavar="GAMELOG",
        help="game logs or folders of them, for the prize sheet (default: the logs the "
        "results name)",
    )
    p.add_argument("--round", type=int, metavar="N", help="after round N (default: complete ones)")
    p.add_argument("--division", metavar="NAME")


def _say(line: str) -> None:
    sys.stderr.write(f"rackclock event sheets: {line}\n")


def _bad_input(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments themselves (exit 2, before the ledger is read)."""
    if (args.output is None) == (args.show is None):
        return "give -o DIR (the folder) or --show SHEET (one sheet), one of the two"
    if args.round is not None and args.round < 0:
        return f"--round {args.round}: after round 0 (before round 1) at the earliest"
    if args.show is not None:
        what, *rest = args.show
        if what not in _SHEETS:
            return f"--show {what!r}: expected one of {', '.join(_SHEETS)}"
        if rest and (what != "scorecard" or len(rest) > 1):
            return f"--show {' '.join(args.show)!r}: only scorecard takes one player (N or NAME)"
        if args.games is not None and what != "prizes":
            return f"--games is for the prize sheet (-o DIR or --show prizes), not --show {what}"
    return None


def _show(
    args: argparse.Namespace,
    state: EventState,
    divisions: list[DivisionState],
    prizes: dict[str, PrizeList],
) -> None:
    """Print the sheet ``--show`` names, as text, for each division."""
    from clock.exports.sheets_folder import division_sheets, sheet_after
    from engine.tournament.sheets.scorecard import scorecard_sheet, scorecards
    from engine.tournament.sheets.text import sheet_text
    from engine.tournament.slips import find_player

    what, *who = args.show
    if who and len(divisions) > 1:  # a player's number is the division's
        several_divisions(d.spec.name for d in divisions)
    for div in divisions:
        after = sheet_after(div, args.round)
        if what == "scorecard" and who:
            sheet = scorecard_sheet(scorecards(state, div, after, [find_player(div, who[0])]))
        else:
            sheets = division_sheets(state, div, after, prizes.get(div.spec.name))
            kind = "scorecards" if what == "scorecard" else what
            if kind not in sheets:
                yet = "has results" if kind == "prizes" else "is paired"
                sys.stdout.write(f"division {div.spec.name}: no round {yet} yet\n")
                continue
            sheet = sheets[kind]
        sys.stdout.write(sheet_text(sheet))


def _sheets(args: argparse.Namespace) -> int:
    from clock.exports.sheets_folder import (
        prize_lists,
        sheet_after,
        sheets_files,
        stale_files,
        write_sheets,
    )
    from clock.log.eventlog import LogError
    from clock.tournament.ledger import EventLedger
    from engine.errors import EngineError

    bad = _bad_input(args)
    if bad is not None:
        _say(bad)
        return 2
    try:
        with EventLedger.open(args.log, readonly=True) as ledger:
            state = ledger.state
        divisions = chosen_divisions(state, args.division)
        for div in divisions:  # a round past the results is refused before a log is read
            sheet_after(div, args.round)
        wants_prizes = args.show is None or args.show[0] == "prizes"
        prizes, skipped = (
            prize_lists(state, divisions, args.round, args.games, base=Path(args.log).parent)
            if wants_prizes
            else ({}, [])
        )
        if args.show is not None:
            _show(args, state, divisions, prizes)
        else:
            files = sheets_files(state, divisions, args.round, prizes)  # all before any is written
            written = write_sheets(args.output, files, stale_files(state, divisions, files))
    except (LogError, EngineError, OSError) as exc:
        _say(str(exc))
        return 1
    for line in skipped:  # as event prizes says them: its games count as slips do
        _say(line)
    if args.show is None:
        print(f"wrote {len(written)} files in {args.output}: open {args.output / 'index.html'}")
    return 0
