"""The sheets folder a director prints or puts on a web server (``rackclock event
sheets LEDGER -o DIR``): per division its pairings, standings, scorecards, wallchart
and (once a round is in) prizes as ``.txt`` and ``.html``, and ``index.html``
linking them.

Every file's text is made before any is written, and each file is written whole
(to a temporary file beside it, then renamed over the old one), so a refused
request leaves the folder as it was and a web server never serves half a sheet.
Our own sheet files the new folder no longer has (the prizes after an earlier
``--round``) are removed; nothing else in the folder is touched.
The sheets themselves are :mod:`engine.tournament.sheets`'.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from clock.tournament.special_prizes import event_prize_lists
from engine.tournament.errors import TournamentError
from engine.tournament.live import complete_rounds
from engine.tournament.prizes import PrizeList
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

__all__ = [
    "INDEX",
    "KINDS",
    "division_sheets",
    "division_stems",
    "prize_lists",
    "sheet_after",
    "sheets_files",
    "stale_files",
    "write_sheets",
]

INDEX = "index.html"
"""The folder's front page."""

KINDS = ("pairings", "standings", "scorecards", "wallchart", "prizes")
"""The sheets of a division, in the index's order."""


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


def prize_lists(
    state: EventState,
    divisions: Sequence[DivisionState],
    after: int | None,
    games: Sequence[Path] | None,
    *,
    base: Path | None = None,
) -> tuple[dict[str, PrizeList], list[str]]:
    """Each division's prize list after round ``after`` (as :func:`sheet_after`:
    default its complete rounds), by name, with the special prizes from the game
    logs under ``games`` (default: those the results name, a relative one found from
    ``base``, the ledger's folder), read once, read-only, as
    ``event prizes`` reads them (:func:`~clock.tournament.special_prizes.event_prize_lists`);
    and a line for each log passed over.

    Raises:
        FileNotFoundError: A path in ``games`` that does not exist.
    """
    lists, skipped = event_prize_lists(state, divisions, games, after, base=base)
    return {plist.division: plist for plist in lists}, skipped


def division_sheets(
    state: EventState, div: DivisionState, after: int, plist: PrizeList | None
) -> dict[str, Sheet]:
    """The division's sheets after round ``after``, by kind (``pairings`` only when a
    round to post is paired: :func:`~engine.tournament.sheets.pairings.pairings_round`;
    ``prizes`` once a round is in and ``plist`` (:func:`prize_lists`) is given)."""
    out: dict[str, Sheet] = {}
    rnd = pairings_round(div, after)
    if rnd:
        out["pairings"] = pairings_sheet(pairings(state, div, rnd))
    out["standings"] = standings_sheet(standings(state, div, after))
    out["scorecards"] = scorecard_sheet(scorecards(state, div, after))
    out["wallchart"] = wallchart_sheet(wallchart(state, div, after))
    if after and plist is not None:  # the prizewinners once a round is in
        out["prizes"] = prizes_sheet(state.spec.name, plist)
    return out


def _slug(name: str) -> str:
    """A division's name as a file name's start: ``A``, ``Open_B``."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name) or "division"


def division_stems(state: EventState) -> dict[str, str]:
    """Each division's file-name start, by name: its name made safe (``A/B``:
    ``A_B``), with its place in the event added where two would make the same one
    (``A/B`` and ``A_B``: ``A_B_1``, ``A_B_2``; ``a`` and ``A`` too, as a
    case-blind file system would). Made from every division, so a division's files
    keep their names whichever ``--division`` is asked.

    Raises:
        TournamentError: Two divisions' files would still share a name.
    """
    slugs = {name: _slug(name) for name in state.divisions}
    count = Counter(s.casefold() for s in slugs.values())
    stems = {
        name: f"{slug}_{i}" if count[slug.casefold()] > 1 else slug
        for i, (name, slug) in enumerate(slugs.items(), 1)
    }
    seen: dict[str, str] = {}
    for name, stem in stems.items():
        if (other := seen.setdefault(stem.casefold(), name)) != name:
            raise TournamentError(
                f"divisions {other!r} and {name!r} would write the same files ({stem}-*): "
                "rename one in the event file"
            )
    return stems


def _names(stem: str, kind: str) -> tuple[str, str]:
    return f"{stem}-{kind}.txt", f"{stem}-{kind}.html"


def sheets_files(
    state: EventState,
    divisions: Sequence[DivisionState],
    after: int | None,
    prizes: Mapping[str, PrizeList],
) -> dict[str, str]:
    """Every file of the folder, by name: ``A-pairings.txt``, ``A-pairings.html``, ...
    and ``index.html``; the prize sheets from ``prizes`` (:func:`prize_lists`).

    Raises:
        TournamentError: ``after`` is past a division's rounds with results, or two
            divisions' files would share a name.
    """
    stems = division_stems(state)
    files: dict[str, str] = {}
    links = []
    for div in divisions:
        upto = sheet_after(div, after)
        entries = []
        for kind, sheet in division_sheets(state, div, upto, prizes.get(div.spec.name)).items():
            txt, html = _names(stems[div.spec.name], kind)
            files[txt] = sheet_text(sheet)
            files[html] = sheet_html(sheet)
            entries += [(sheet.title, html), (f"{kind} (plain text)", txt)]
        when = f"after round {upto}" if upto else "before round 1"
        links.append((f"division {div.spec.name}, {when}", entries))
    files[INDEX] = index_html(f"{state.spec.name or 'the event'}: sheets", links)
    return files


def stale_files(
    state: EventState, divisions: Iterable[DivisionState], files: Mapping[str, str]
) -> list[str]:
    """The names of our own sheet files of ``divisions`` that ``files`` (a new folder)
    no longer has: the only files :func:`write_sheets` may remove."""
    stems = division_stems(state)
    ours = [n for d in divisions for k in KINDS for n in _names(stems[d.spec.name], k)]
    return [name for name in ours if name not in files]


def write_sheets(folder: Path, files: Mapping[str, str], stale: Iterable[str] = ()) -> list[Path]:
    """Write each file (UTF-8) into ``folder`` (made if need be), each whole or not
    at all, then remove the ``stale`` ones (:func:`stale_files`) still there; the
    files written.

    Raises:
        OSError: A file cannot be written or removed (those before it are done).
    """
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in files.items():
        path = folder / name
        tmp = path.with_name(f".{name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)  # a reader sees the old file or the new, never half
        out.append(path)
    for name in stale:  # after the new index is up: it no longer links them
        (folder / name).unlink(missing_ok=True)
    return out
