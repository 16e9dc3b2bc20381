"""A table's log and its games as files: the log as JSON Lines and each board game
as GCG, as the console's export and ``rackclock export gcg`` write them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.events import Event, encode_event
from engine.exports.gcg import ExportError, to_gcg
from engine.gcg import read_gcg, write_gcg
from engine.gcg.check import UNKNOWN_RACK_PRAGMA
from engine.gcg.record import EventKind
from engine.rules.replay import replay, split_games

__all__ = ["ExportReport", "GcgFile", "export_game", "game_path", "gcg_files"]


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


_WHAT = {EventKind.PASS: "pass", EventKind.PLACEMENT: "play", EventKind.EXCHANGE: "exchange"}
"""What a line with stand-in tiles is, in the note (docs/gcg.md)."""


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
        text = write_gcg(record)
        # Named by the written file's line (read back): a count of moves would count a
        # withdrawn play's line too, and the director opens the file, not the log.
        notes = tuple(
            f"{label} game {n} line {ev.line}: {ev.nick}'s {_WHAT.get(ev.kind, 'line')}, whose "
            f"rack nothing shows, is written with the stand-in tile{'s' * (len(pr.value) > 1)} "
            f"{pr.value} (#{UNKNOWN_RACK_PRAGMA})"
            for ev in read_gcg(text).events
            for pr in ev.pragmas
            if pr.name == UNKNOWN_RACK_PRAGMA
        )
        out.append(GcgFile(n, text.encode(record.encoding), notes))
    return out, problems


def game_path(path: Path, number: int, several: bool) -> Path:
    """Where game ``number`` of a log goes when ``path`` is asked for: ``path`` for
    a log of one game, ``<stem>-<number><suffix>`` (``.gcg`` without a suffix) when
    the log holds several (the console's export and ``rackclock export gcg -o``).

    >>> game_path(Path("t1.gcg"), 2, True).name, game_path(Path("t1.gcg"), 1, False).name
    ('t1-2.gcg', 't1.gcg')
    """
    return path.with_name(f"{path.stem}-{number}{path.suffix or '.gcg'}") if several else path


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
        gcg = game_path(directory / f"{name}.gcg", f.number, several)
        gcg.write_bytes(f.data)
        out.paths.append(gcg)
        out.notes.extend(f.notes)
    return out
