"""The tables the director's console knows: a log file each, or a table on the broker.

A :class:`Table` holds a log (every game) and the state after it; the table's
time "now" comes from its service's heartbeat when there is one. Also the
log's events in words for the timeline. Pure: no Textual.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from clock.log.heartbeat import Alive, alive_path, now_from, read_alive
from clock.log.log_files import load_log_with_refused
from engine.events import Event, encode_event
from engine.rules.game_report import LiveReport
from engine.rules.machine import advance, next_deadline
from engine.rules.replay import (
    Refused,
    Rejected,
    live_report,
    replay,
    split_games,
    split_games_with_refused,
)
from engine.rules.state import GameState
from terminal_ui.director.rows import Row, summarize

__all__ = [
    "Table",
    "event_text",
    "file_row",
    "unique_labels",
]


def _signature(*paths: str) -> tuple[int, ...]:
    """The files' modification times and sizes (a missing file adds nothing)."""
    out: list[int] = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        out += [st.st_mtime_ns, st.st_size]
    return tuple(out)


@dataclass
class Table:
    """One table the console knows: a log file, or a table on the broker."""

    key: str
    """``venue/table`` (broker) or the file's path."""
    label: str
    """Its name on screen and in export file names."""
    path: Path | None = None
    """The log file (offline)."""
    venue: str = ""
    """Broker: the venue."""
    table: str = ""
    """Broker: the table's name."""
    events: list[tuple[int, Event]] = field(default_factory=list)
    """The whole log (every game), once loaded."""
    rejected: list[Rejected] = field(default_factory=list)
    """Lines that could not be read or that the rules refused."""
    refused: list[Refused] = field(default_factory=list)
    """Commands the table refused, kept in its log for forensics (never replayed)."""
    state: GameState = field(default_factory=GameState)
    """The state after the whole log."""
    has_log: bool = False
    """Whether ``events`` was loaded (always offline; after ``get_log`` on the broker)."""
    signature: tuple[int, ...] = ()
    """The file's modification times and sizes when it was read."""
    feedback: str = ""
    """The answer to the last ruling."""
    reported: tuple[GameState, int, LiveReport, GameState] | None = field(default=None, repr=False)
    """The last report made for the overview: (state it was made from, when, the
    report, the state moved on to then). Reused while the game is the same and no
    deadline has passed: only the running clock moves, and the row reads it on."""
    alive: tuple[tuple[int, ...], Alive | None] = ((), None)
    """The service's last sign of life and the sidecar's signature when it was read:
    the console polls every table each second, and rereads only what changed."""
    _rows: list[list[tuple[int, Event, Refused | None]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """:meth:`rows` worked out once per log taken: the timeline asks for it at every step."""

    @cached_property
    def _files(self) -> tuple[str, str, str]:
        """The log, its write-ahead file and its sidecar (worked out once)."""
        assert self.path is not None
        log = os.fspath(self.path)
        return log, f"{log}-wal", os.fspath(alive_path(log))

    @classmethod
    def from_file(cls, path: Path, label: str | None = None) -> Table:
        """Load a log file.

        Raises:
            OSError, EngineError: It cannot be read.
        """
        table = cls(str(path), label or path.stem, path=path)
        table.reload()
        return table

    def reload(self) -> None:
        """Read the log file again.

        Raises:
            OSError, EngineError: It cannot be read.
        """
        assert self.path is not None
        log, wal, _ = self._files
        self.signature = _signature(log, wal)
        events, bad, refused = load_log_with_refused(self.path)
        self.set_events(events, bad, refused)

    def changed(self) -> bool:
        """Whether the file changed since it was read."""
        if self.path is None:
            return False
        log, wal, _ = self._files
        return _signature(log, wal) != self.signature

    def now(self, wall_ms: int) -> tuple[int, bool]:
        """The table's time now and whether a service runs on it
        (:func:`clock.log.heartbeat.table_now`, the sidecar reread only when it changed)."""
        if self.path is None:
            return now_from(None, self.state, wall_ms)
        _, _, side = self._files
        sig = _signature(side)
        if sig != self.alive[0]:
            self.alive = (sig, read_alive(self.path) if sig else None)
        return now_from(self.alive[1], self.state, wall_ms)

    def set_events(
        self,
        events: list[tuple[int, Event]],
        bad: Sequence[Rejected] = (),
        refused: Sequence[Refused] = (),
    ) -> None:
        """Take a log (and the refused commands it keeps) and replay it."""
        self.events = events
        self.refused = list(refused)
        self._rows = None
        self.state, rejected = replay(events)
        self.rejected = sorted([*bad, *rejected], key=lambda r: r.line)
        self.has_log = True

    def games(self) -> list[list[tuple[int, Event]]]:
        """The log's games, in order."""
        return split_games(self.events)

    def rows(self) -> list[list[tuple[int, Event, Refused | None]]]:
        """The log's games with the refused commands in their place, for the timeline."""
        if self._rows is None:
            self._rows = split_games_with_refused(self.events, self.refused)
        return self._rows


def unique_labels(paths: Sequence[Path]) -> list[str]:
    """Each file's name on screen: its stem, with its folder when stems repeat."""
    stems = [p.stem for p in paths]
    return [f"{p.parent.name}/{p.stem}" if stems.count(p.stem) > 1 else p.stem for p in paths]


def file_row(table: Table, wall_ms: int, neutral_alert_ms: int) -> Row:
    """The overview row of a log file's table, as of now."""
    now, live = table.now(wall_ms)
    st = table.state
    if st.variant is None:
        return Row(
            table.key, table.label, ("", ""), (0, 0), (0, 0), None, "not_started",
            "no game in the log", None, (), source="log",
        )  # fmt: skip
    hit = table.reported
    deadline = next_deadline(st)
    if (
        hit is None
        or hit[0] is not st
        or now < hit[1]
        or (deadline is not None and now >= deadline)
    ):
        # the game changed (or a deadline passed): a new report (the live form: what
        # a row reads, as a table on the broker sends it)
        moved = advance(st, now) if now > st.t else st
        hit = table.reported = (st, now, live_report(moved, now), moved)
    _, at, rep, moved = hit
    since = moved.clock.since_ms if moved.clock.neutral else None
    return summarize(
        table.key,
        table.label,
        rep,
        elapsed_ms=now - at,
        neutral_since_ms=since,
        neutral_alert_ms=neutral_alert_ms,
        source="live" if live else "log",
    )


def event_text(event: Event, players: tuple[str, str]) -> str:
    """``tiles_placed Ann move=8D WINDY score=32``."""
    body = json.loads(encode_event(event))
    tag = body.pop("type")
    body.pop("t", None)
    who = ""
    if isinstance(body.get("player"), int) and body["player"] in (0, 1):
        who = " " + players[body.pop("player")]
    rest = " ".join(f"{k}={v}" for k, v in body.items())
    return f"{tag}{who} {rest}".rstrip()
