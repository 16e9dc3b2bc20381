"""The game logs the special prizes are read from (read-only), and the event's prize
list with them (:func:`engine.tournament.prizes.prize_list`): one way for ``rackclock
event prizes``, the director's console and the sheets.

Which logs: the files and folders the director names (``--games``: the venue's
archive, the tables' folders), else the files the event's results name (a result
taken from a table names its log as ``event results`` was given it). A log that
cannot be read is passed over and said; its games then count as slips do (high game
and high loss, from the event's scores).
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

__all__ = ["event_prize_lists", "named_logs", "read_logs"]


def named_logs(divisions: Sequence[DivisionState]) -> list[Path]:
    """The game logs the divisions' results name that are here (in name order)."""
    named = {
        res.game.rpartition(" ")[0]
        for div in divisions
        for results in div.results.values()
        for res in results.values()
        if res.game
    }
    return sorted(Path(p) for p in named if p and Path(p).is_file())


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
) -> tuple[list[PrizeList], list[str]]:
    """Each division's prize list after round ``through`` (default: its complete
    rounds) with the special prizes from the logs under ``games`` (default: those
    the results name), and the logs passed over."""
    logs, skipped = read_logs(named_logs(divisions) if games is None else games)
    lists = [
        prize_list(state, div, complete_rounds(div) if through is None else through, logs)
        for div in divisions
    ]
    return lists, skipped
