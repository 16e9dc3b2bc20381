"""The exports, one way for the director console and ``rackclock export``: a table's
log and its games as GCG, and the results files.

Results are NASPA (``results-naspa.txt``, ASCII) and tsh (one ``.t`` per division,
``a.t`` for a single unnamed one, ISO-8859-1 unless told otherwise) from every
finished game. Pure: no Textual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.events import Event, encode_event
from engine.exports.gcg import ExportError, to_gcg
from engine.exports.results import (
    GameResult,
    ResultsError,
    game_result,
    naspa_lines,
    tsh_files,
)
from engine.exports.roster import Roster
from engine.gcg import write_gcg
from engine.gcg.check import UNKNOWN_RACK_PRAGMA
from engine.rules.replay import replay, split_games
from engine.rules.state import GameState
from terminal_ui.director.tables import Table

__all__ = [
    "ExportReport",
    "GcgFile",
    "KnownGame",
    "export_game",
    "export_results",
    "finished_games",
    "gcg_files",
    "results_files",
]


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
    notes: list[str] = field(default_factory=list)
    """What was written but guessed or changed (a rating of 0, an accent dropped), or
    what a strict reader will not take."""


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


@dataclass(frozen=True, slots=True)
class GcgFile:
    """One game of a log as GCG."""

    number: int
    """The game's number in its log, from 1."""
    data: bytes
    """The record, encoded as it declares."""
    notes: tuple[str, ...]
    """What a strict reader will not take, and why (docs/gcg.md)."""


def gcg_files(label: str, events: Sequence[tuple[int, Event]]) -> tuple[list[GcgFile], list[str]]:
    """Each board game of a log as GCG, and the games that cannot be (with why)."""
    out: list[GcgFile] = []
    problems: list[str] = []
    for n, game in enumerate(split_games(events), start=1):
        state, _ = replay(game)
        try:
            record = to_gcg(state, title=f"{label} game {n}")
        except ExportError as exc:
            problems.append(f"{label} game {n}: no GCG: {exc}")
            continue
        notes = tuple(
            f"{label} game {n} move {i}: {ev.nick}'s pass, whose rack nothing shows, "
            f"is written with the stand-in tile {ev.rack} (#{UNKNOWN_RACK_PRAGMA})"
            for i, ev in enumerate(record.events, start=1)
            if any(pr.name == UNKNOWN_RACK_PRAGMA for pr in ev.pragmas)
        )
        out.append(GcgFile(n, write_gcg(record).encode(record.encoding), notes))
    return out, problems


def export_game(label: str, events: Sequence[tuple[int, Event]], directory: Path) -> ExportReport:
    """The log as JSON Lines (``<label>.jsonl``) and each board game as GCG
    (``<label>.gcg``; ``<label>-<n>.gcg`` when the log holds several games)."""
    out = ExportReport()
    directory.mkdir(parents=True, exist_ok=True)
    name = _file_name(label)
    log_path = directory / f"{name}.jsonl"
    log_path.write_bytes(b"".join(encode_event(ev) + b"\n" for _, ev in events))
    out.paths.append(log_path)
    files, out.problems = gcg_files(label, events)
    several = len(files) + len(out.problems) > 1  # one file or problem per game
    for f in files:
        gcg = directory / (f"{name}-{f.number}.gcg" if several else f"{name}.gcg")
        gcg.write_bytes(f.data)
        out.paths.append(gcg)
        out.notes.extend(f.notes)
    return out


def results_files(
    results: Sequence[GameResult],
    *,
    roster: Roster | None = None,
    encoding: str = "iso-8859-1",
    notes: list[str] | None = None,
    kinds: tuple[str, ...] = ("naspa", "tsh"),
) -> dict[str, bytes]:
    """``results-naspa.txt`` and one tsh ``.t`` per division (of ``kinds``), by file
    name; ``notes`` gets what the director should know, each once.

    Raises:
        ResultsError: The games do not make a consistent file, or a name cannot be
            written in ``encoding`` (rather than writing it garbled).
    """
    said: list[str] = []
    out: dict[str, bytes] = {}
    if "naspa" in kinds:
        naspa = naspa_lines(results, roster, said)
        out["results-naspa.txt"] = ("\n".join(naspa) + "\n").encode("ascii")
    tsh = tsh_files(results, roster, said) if "tsh" in kinds else {}
    if notes is not None:
        notes.extend(dict.fromkeys(said))
    for name, lines in tsh.items():
        text = "\n".join(lines) + "\n"
        try:
            out[name] = text.encode(encoding)
        except UnicodeEncodeError as exc:
            bad = next(ln for ln in lines if not _encodes(ln, encoding))
            raise ResultsError(
                f"{name}: {bad.split(' ')[0]}... has {exc.object[exc.start : exc.end]!r}, which "
                f"{encoding} cannot hold: use --encoding utf-8 (and tfile_encoding in tsh's "
                "config) or spell the name in the roster"
            ) from None
    return out


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def export_results(
    games: Sequence[KnownGame],
    rounds: Mapping[str, int],
    directory: Path,
    *,
    default_round: int | None = None,
    roster: Roster | None = None,
) -> ExportReport:
    """``results-naspa.txt`` and a tsh ``.t`` per division from the finished games.

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
    notes: list[str] = []
    try:
        files = results_files(results, roster=roster, notes=notes)
    except ResultsError as exc:
        out.problems.append(f"results: {exc}")
        return out
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        path = directory / name
        path.write_bytes(data)
        out.paths.append(path)
    out.notes.extend(notes)
    return out
