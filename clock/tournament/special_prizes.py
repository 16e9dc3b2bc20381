"""The game logs the special prizes are read from (read-only), and the event's prize
list with them (:func:`engine.tournament.prizes.prize_list`): one way for ``rackclock
event prizes``, the director's console and the sheets.

Which logs: the files and folders the director names (``--games``: the venue's
archive, the tables' folders), else the files the event's results name (a result
taken from a table names its log as ``event results`` was given it: a relative
path is found from the ledger's folder, where the director runs ``event results``,
else from the current one, so a venue page or a console started elsewhere finds
it too). A log that cannot be found or read is passed over and said; its games then
give no plays (high game and high loss come from the event's scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from clock.log.log_files import load_log, log_files
from engine.errors import EngineError
from engine.events import Event
from engine.tournament.live import complete_rounds
from engine.tournament.prizes import PrizeList, prize_list
from engine.tournament.state import DivisionState, EventState

__all__ = ["event_prize_lists", "named_logs", "prize_lists_of", "read_logs"]


def _found(name: str, base: Path | None) -> Path | None:
    """Where a log a result names is: as named when absolute, else from ``base``
    (the ledger's folder), else from the current folder; None when it is nowhere."""
    path = Path(name)
    for where in ([] if path.is_absolute() or base is None else [base / path]) + [path]:
        if where.is_file():
            return where
    return None


def named_logs(
    divisions: Sequence[DivisionState], base: Path | None = None
) -> tuple[list[Path], list[str]]:
    """The game logs the divisions' results name that are here (in name order; a
    relative name found from ``base``, the ledger's folder, first), and those that
    are not (as the results name them)."""
    named = {
        res.game.rpartition(" ")[0]
        for div in divisions
        for results in div.results.values()
        for res in results.values()
        if res.game
    }
    here: list[Path] = []
    missing: list[str] = []
    for name in sorted(n for n in named if n):
        found = _found(name, base)
        if found is None:
            missing.append(name)
        else:
            here.append(found)
    return here, missing


def read_logs(paths: Sequence[Path]) -> tuple[list[list[tuple[int, Event]]], list[str]]:
    """Every game log under ``paths`` (files, or folders of them), read read-only, and
    a line for each one that could not be read.

    Raises:
        FileNotFoundError: A path named that does not exist.
    """
    logs: list[list[tuple[int, Event]]] = []
    skipped: list[str] = []
    for path in log_files(list(paths)):
        try:
            events, bad = load_log(path)
        except (OSError, EngineError) as exc:
            skipped.append(f"skipped {path}: {exc}")
            continue
        if bad:  # a copy with a line that is no event: its games are the rest's
            skipped.append(f"{path}: line {bad[0].line} is not an event: {bad[0].reason}")
        logs.append(events)
    return logs, skipped


def event_prize_lists(
    state: EventState,
    divisions: Sequence[DivisionState],
    games: Sequence[Path] | None = None,
    through: int | None = None,
    *,
    base: Path | None = None,
    advice: str = "give --games",
) -> tuple[list[PrizeList], list[str]]:
    """Each division's prize list after round ``through`` (default: its complete
    rounds) with the special prizes from the logs under ``games`` (default: those
    the results name, relative ones from ``base``, the ledger's folder), and a line
    for each log passed over. ``advice``: how the caller's user brings a log that
    is not at hand (the venue page has no ``--games``)."""
    missing: list[str] = []
    if games is None:
        games, missing = named_logs(divisions, base)
    logs, skipped_read = read_logs(games)
    where = f" (from {base})" if base is not None else ""
    skipped = [f"the game log {name} the results name is not here{where}" for name in missing]
    skipped += skipped_read
    return prize_lists_of(state, divisions, logs, through, advice=advice), skipped


def prize_lists_of(
    state: EventState,
    divisions: Sequence[DivisionState],
    logs: Sequence[Sequence[tuple[int, Event]]],
    through: int | None = None,
    *,
    advice: str = "give --games",
) -> list[PrizeList]:
    """Each division's prize list after round ``through`` (default: its complete
    rounds) with the special prizes from ``logs``, the game logs already read (the
    events of each): :func:`event_prize_lists` once it has read them, and the
    director's console with the logs it holds."""
    return [
        prize_list(state, div, complete_rounds(div) if through is None else through, logs, advice)
        for div in divisions
    ]
