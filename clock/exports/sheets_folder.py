"""The sheets folder a director prints or puts on a web server (``rackclock event
sheets LEDGER -o DIR``): per division its pairings, standings, scorecards and
wallchart as ``.txt`` and ``.html``, and ``index.html`` linking them.

Every file's text is made before any is written, and each file is written whole
(to a temporary file beside it, then renamed over the old one), so a refused
request leaves the folder as it was and a web server never serves half a sheet.
The sheets themselves are :mod:`engine.tournament.sheets`'.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from clock.tournament.special_prizes import event_prize_lists
from engine.tournament.live import complete_rounds
from engine.tournament.report import check_played_through
from engine.tournament.sheets.html import index_html, sheet_html
from engine.tournament.sheets.pairings import pairings, pairings_round, pairings_sheet
from engine.tournament.sheets.prizes import prizes_sheet
from engine.tournament.sheets.scorecard import scorecard_sheet, scorecards
from engine.tournament.sheets.sheet import Sheet
from engine.tournament.sheets.standings import standings, standings_sheet
from engine.tournament.sheets.text import sheet_text
from engine.tournament.sheets.wallchart import wallchart, wallchart_sheet
from engine.tournament.state import DivisionState, EventState

__all__ = ["INDEX", "division_sheets", "sheet_after", "sheets_files", "write_sheets"]

INDEX = "index.html"
"""The folder's front page."""


def sheet_after(div: DivisionState, after: int | None) -> int:
    """The round the sheets are after: ``after`` as asked (checked: a round with a
    result, or 0), else the division's complete rounds (as ``event standings``).

    Raises:
        TournamentError: ``after`` is past the rounds with results.
    """
    if after is None:
        return complete_rounds(div)
    if after:
        check_played_through([div], after)
    return after


def division_sheets(state: EventState, div: DivisionState, after: int) -> dict[str, Sheet]:
    """The division's sheets after round ``after``, by kind (``pairings`` only when a
    round to post is paired: :func:`~engine.tournament.sheets.pairings.pairings_round`)."""
    out: dict[str, Sheet] = {}
    rnd = pairings_round(div, after)
    if rnd:
        out["pairings"] = pairings_sheet(pairings(state, div, rnd))
    out["standings"] = standings_sheet(standings(state, div, after))
    out["scorecards"] = scorecard_sheet(scorecards(state, div, after))
    out["wallchart"] = wallchart_sheet(wallchart(state, div, after))
    if after:  # the prizewinners once a round is in (the logs the results name: read-only)
        out["prizes"] = prizes_sheet(
            state.spec.name, event_prize_lists(state, [div], None, after)[0][0]
        )
    return out


def _slug(name: str) -> str:
    """A division's name as a file name's start: ``A``, ``Open_B``."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name) or "division"


def sheets_files(
    state: EventState, divisions: Sequence[DivisionState], after: int | None
) -> dict[str, str]:
    """Every file of the folder, by name: ``A-pairings.txt``, ``A-pairings.html``, ...
    and ``index.html``.

    Raises:
        TournamentError: ``after`` is past a division's rounds with results.
    """
    files: dict[str, str] = {}
    links = []
    for div in divisions:
        upto = sheet_after(div, after)
        entries = []
        for kind, sheet in division_sheets(state, div, upto).items():
            stem = f"{_slug(div.spec.name)}-{kind}"
            files[f"{stem}.txt"] = sheet_text(sheet)
            files[f"{stem}.html"] = sheet_html(sheet)
            entries += [(sheet.title, f"{stem}.html"), (f"{kind} (plain text)", f"{stem}.txt")]
        when = f"after round {upto}" if upto else "before round 1"
        links.append((f"division {div.spec.name}, {when}", entries))
    files[INDEX] = index_html(f"{state.spec.name or 'the event'}: sheets", links)
    return files


def write_sheets(folder: Path, files: Mapping[str, str]) -> list[Path]:
    """Write each file (UTF-8) into ``folder`` (made if need be), each whole or not
    at all; the files written.

    Raises:
        OSError: A file cannot be written (those before it are written).
    """
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in files.items():
        path = folder / name
        tmp = path.with_name(f".{name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)  # a reader sees the old file or the new, never half
        out.append(path)
    return out
