"""The director's exports: a table's log and its games as GCG, and the results files.

Results are NASPA (``results-naspa.txt``) and tsh (``results.t``) files from
every finished game. Pure: no Textual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.events import Event, encode_event
from engine.exports.gcg import ExportError, to_gcg
from engine.exports.results import GameResult, ResultsError, game_result, naspa_lines, tsh_lines
from engine.gcg import write_gcg
from engine.rules.replay import replay
from engine.rules.state import GameState
from terminal_ui.director.tables import Table, split_games

__all__ = ["ExportReport", "KnownGame", "export_game", "export_results", "finished_games"]


@dataclass(frozen=True, slots=True)
class KnownGame:
    """A finished game known to the console."""

    key: str
    """``<label>#<n>``: the table and the game's number in its log."""
    label: str
    """The table."""
    number: int
    """1-based, in the log."""
    state: GameState
    """The game at its end."""

    def describe(self) -> str:
        """``t3 game 1: Ann v Ben``."""
        return f"{self.label} game {self.number}: {self.state.players[0]} v {self.state.players[1]}"


@dataclass
class ExportReport:
    """What an export wrote, and what it could not."""

    paths: list[Path] = field(default_factory=list)
    """Files written."""
    problems: list[str] = field(default_factory=list)
    """What was not written, and why."""


def finished_games(tables: Iterable[Table]) -> list[KnownGame]:
    """Every finished game in the tables' logs, by table and order."""
    out = []
    for table in sorted(tables, key=lambda t: t.label):
        for n, game in enumerate(table.games(), start=1):
            state, _ = replay(game)
            if state.result is not None:
                out.append(KnownGame(f"{table.label}#{n}", table.label, n, state))
    return out


def _file_name(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", label).strip("-") or "table"


def export_game(label: str, events: Sequence[tuple[int, Event]], directory: Path) -> ExportReport:
    """The log as JSON Lines (``<label>.jsonl``) and each board game as GCG
    (``<label>.gcg``; ``<label>-<n>.gcg`` when the log holds several games)."""
    out = ExportReport()
    directory.mkdir(parents=True, exist_ok=True)
    name = _file_name(label)
    log_path = directory / f"{name}.jsonl"
    log_path.write_bytes(b"".join(encode_event(ev) + b"\n" for _, ev in events))
    out.paths.append(log_path)
    games = split_games(events)
    for n, game in enumerate(games, start=1):
        state, _ = replay(game)
        try:
            record = to_gcg(state, title=f"{label} game {n}")
        except ExportError as exc:
            out.problems.append(f"{label} game {n}: no GCG: {exc}")
            continue
        gcg = directory / (f"{name}.gcg" if len(games) == 1 else f"{name}-{n}.gcg")
        gcg.write_bytes(write_gcg(record).encode(record.encoding))
        out.paths.append(gcg)
    return out


def export_results(
    games: Sequence[KnownGame],
    rounds: Mapping[str, int],
    directory: Path,
    *,
    default_round: int | None = None,
) -> ExportReport:
    """``results-naspa.txt`` and ``results.t`` from the finished games.

    A game's round is its ``game_started.round``, else ``rounds[game.key]``,
    else ``default_round``; nothing is written while any game has none.
    """
    out = ExportReport()
    results: list[GameResult] = []
    missing: list[str] = []
    for g in games:
        rnd = g.state.round or rounds.get(g.key) or default_round
        if rnd is None:
            missing.append(g.describe())
            continue
        results.append(game_result(g.state, rnd))
    if not games:
        out.problems.append("no finished game: no results file")
        return out
    if missing:
        out.problems.append(
            "no round number for " + "; ".join(missing) + " (give it here, or --round): "
            "no results file written"
        )
        return out
    try:
        naspa, tsh = naspa_lines(results), tsh_lines(results)
    except ResultsError as exc:
        out.problems.append(f"results: {exc}")
        return out
    directory.mkdir(parents=True, exist_ok=True)
    for name, lines in (("results-naspa.txt", naspa), ("results.t", tsh)):
        path = directory / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.paths.append(path)
    return out
