"""``rackclock director``: the tournament director's console.

Every table at a glance, sorted by what needs attention; a table's timeline,
scrubbed to any instant; rulings (time or score adjustments, resuming the
clock, forfeits); and exports (GCG, the log, NASPA and tsh results files).

Two sources of tables:

- **broker** (``--broker URL``): every table's retained state from the venue
  broker (:class:`firmware_bridge.director_link.DirectorLink`); the running
  clock is extrapolated from the state's publication time; a timeline is
  fetched from the table (``get_log``) and rulings are director commands that
  the table answers (accepted, or refused with the rule);
- **logs** (``--log FILE...``): each file (SQLite or JSON Lines) is a table; the
  table's time "now" is its service's heartbeat (``<log>.alive``) when there is
  one, else its last event; a ruling is checked with the engine and appended to
  the file. A running table service must not be writing that file.

The pure part (rows, flags, sorting, rulings offline, exports) comes first and
imports no Textual; docs/director.md describes the screens and the keys.
"""

from __future__ import annotations

import asyncio
import enum
import json
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from msgspec.structs import replace
from rich.markup import escape
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Header, Input, Label, Static

from clock.heartbeat import read_alive
from engine.errors import EngineError, Refusal
from engine.eventlog import EventLog
from engine.events import (
    Adjusted,
    EndRacks,
    Event,
    Forfeited,
    GameStarted,
    Neutralized,
    Resumed,
    encode_event,
)
from engine.export import ExportError, to_gcg
from engine.gcg import write_gcg
from engine.machine import advance, apply, time_text
from engine.replay import Rejected, replay, report
from engine.results import GameResult, ResultsError, game_result, naspa_lines, tsh_lines
from engine.state import GameState, Phase
from terminal_ui.cmd_replay import load_log
from terminal_ui.table_app import HIGH_CONTRAST
from terminal_ui.widgets import BoardView, clock_text

if TYPE_CHECKING:  # imported when used: offline, the console needs no MQTT
    from firmware_bridge.director_link import DirectorLink

__all__ = [
    "DRIFT_RULE",
    "DirectorApp",
    "DirectorConfig",
    "ExportReport",
    "Flag",
    "KnownGame",
    "Row",
    "RulingScreen",
    "Table",
    "TimelineScreen",
    "export_game",
    "export_results",
    "finished_games",
    "offline_ruling",
    "parse_time_ms",
    "sort_rows",
    "split_games",
    "summarize",
    "table_now",
]

DRIFT_RULE = "device-authoritative clock"
"""Rulings whose rule says this: the clock device and the service disagreed."""
LIVE_WINDOW_MS = 5000
"""A heartbeat younger than this means a service is running on the log."""
_SQLITE_MAGIC = b"SQLite format 3\x00"


# --- rows and flags ---------------------------------------------------------------------------


class Flag(enum.Enum):
    """Why a table needs the director, most urgent first."""

    STALE = "stale"
    """Broker: no fresh state (the table terminal stopped publishing)."""
    OFFLINE = "offline"
    """Broker: the table terminal or its clock device is offline."""
    NEUTRAL = "neutral"
    """The clock has been neutralized longer than the alert threshold."""
    CHALLENGE = "challenge"
    """A challenge (or a hold) is pending."""
    OVERTIME = "overtime"
    """A player is in overtime."""
    DRIFT = "drift"
    """A device-authoritative clock differed from the service: to review."""


_PRIORITY = {
    Flag.STALE: 6,
    Flag.OFFLINE: 5,
    Flag.NEUTRAL: 4,
    Flag.CHALLENGE: 3,
    Flag.OVERTIME: 2,
    Flag.DRIFT: 1,
}
_LIVE_PHASES = {p.value for p in Phase} - {"not_started", "end_racks", "over"}


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the overview."""

    key: str
    """The table's key (``venue/table`` or the log's path)."""
    label: str
    """The table's name on screen."""
    players: tuple[str, str]
    """Both names."""
    scores: tuple[int, int]
    """Both scores."""
    remaining_ms: tuple[int, int]
    """Both clocks, as of now (the running one extrapolated)."""
    running: int | None
    """The seat whose clock runs."""
    phase: str
    """``Phase`` value, or ``no_state``."""
    phase_text: str
    """The phase in words."""
    neutral_ms: int | None
    """How long the clock has been neutralized, if it is and that is known."""
    flags: tuple[Flag, ...]
    """What needs attention."""
    age_ms: int | None = None
    """Broker: how old the state is."""
    source: str = ""
    """``live`` (a service heartbeat), ``log``, or the state's age."""

    @property
    def priority(self) -> int:
        """The most urgent flag's weight (0: nothing to do)."""
        return max((_PRIORITY[f] for f in self.flags), default=0)

    @property
    def group(self) -> int:
        """0 playing, 1 not started or unknown, 2 over."""
        if self.phase in _LIVE_PHASES:
            return 0
        return 2 if self.phase in ("end_racks", "over") else 1


def summarize(
    key: str,
    label: str,
    rep: Mapping[str, Any],
    *,
    elapsed_ms: int = 0,
    neutral_since_ms: int | None = None,
    device_online: bool | None = None,
    table_online: bool | None = None,
    stale: bool = False,
    age_ms: int | None = None,
    neutral_alert_ms: int = 60_000,
    source: str = "",
) -> Row:
    """A row from a report (``engine.replay.report``) read ``elapsed_ms`` ago.

    The running clock is moved on by ``elapsed_ms``; ``neutral_since_ms`` is on
    the report's timeline (``at_ms``).
    """
    clocks = rep["clocks"]
    running = next((seat for seat in (0, 1) if clocks[seat]["running"]), None)
    remaining = tuple(
        c["remaining_ms"] - (elapsed_ms if seat == running else 0) for seat, c in enumerate(clocks)
    )
    phase = str(rep["phase"])
    live = phase in _LIVE_PHASES
    now = int(rep["at_ms"]) + elapsed_ms
    neutral_ms = (
        max(0, now - neutral_since_ms)
        if rep["neutralized"] and neutral_since_ms is not None
        else None
    )
    flags: list[Flag] = []
    if live and stale:
        flags.append(Flag.STALE)
    if live and (table_online is False or device_online is False):
        flags.append(Flag.OFFLINE)
    if live and neutral_ms is not None and neutral_ms > neutral_alert_ms:
        flags.append(Flag.NEUTRAL)
    if phase in ("challenge", "hold"):
        flags.append(Flag.CHALLENGE)
    if live and any(r < 0 for r in remaining):
        flags.append(Flag.OVERTIME)
    if any(DRIFT_RULE in r["rule"] for r in rep["rulings"]):
        flags.append(Flag.DRIFT)
    players = rep["players"]
    scores = rep["scores"]
    return Row(
        key,
        label,
        (players[0], players[1]),
        (scores[0], scores[1]),
        (remaining[0], remaining[1]),
        running,
        phase,
        str(rep["phase_text"]),
        neutral_ms,
        tuple(flags),
        age_ms,
        source,
    )


def sort_rows(rows: Iterable[Row]) -> list[Row]:
    """Most urgent first; then tables in play, not started, over; then by name."""
    return sorted(rows, key=lambda r: (-r.priority, r.group, r.label))


def _empty_row(key: str, label: str, *, online: bool | None) -> Row:
    flags = (Flag.STALE,) + ((Flag.OFFLINE,) if online is False else ())
    return Row(key, label, ("", ""), (0, 0), (0, 0), None, "no_state", "no state", None, flags)


# --- tables -----------------------------------------------------------------------------------


def split_games(events: Sequence[tuple[int, Event]]) -> list[list[tuple[int, Event]]]:
    """The games of a log, each from its ``game_started`` (lines before the first are dropped)."""
    games: list[list[tuple[int, Event]]] = []
    for item in events:
        if isinstance(item[1], GameStarted):
            games.append([])
        if games:
            games[-1].append(item)
    return games


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a SQLite file (an event log) rather than JSON Lines."""
    with path.open("rb") as f:
        return f.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC


def table_now(path: Path | None, state: GameState, wall_ms: int) -> tuple[int, bool]:
    """The table's time now, and whether a service is running on the log.

    A fresh heartbeat (``<log>.alive``) is moved on by the wall clock since it
    was written; an old one still says the service was alive until then;
    without one, the log's last event is the latest instant known.
    """
    alive = read_alive(path) if path is not None else None
    if alive is None:
        return state.t, False
    since = wall_ms - alive.wall_ms
    if 0 <= since <= LIVE_WINDOW_MS:
        return max(state.t, alive.t + since), True
    return max(state.t, alive.t), False


def _signature(path: Path) -> tuple[int, ...]:
    out: list[int] = []
    for p in (path, Path(f"{path}-wal")):
        try:
            st = p.stat()
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
    state: GameState = field(default_factory=GameState)
    """The state after the whole log."""
    has_log: bool = False
    """Whether ``events`` was loaded (always offline; after ``get_log`` on the broker)."""
    signature: tuple[int, ...] = ()
    """The file's modification times and sizes when it was read."""
    feedback: str = ""
    """The answer to the last ruling."""

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
        self.signature = _signature(self.path)
        events, bad = load_log(self.path)
        self.set_events(events, bad)

    def changed(self) -> bool:
        """Whether the file changed since it was read."""
        return self.path is not None and _signature(self.path) != self.signature

    def set_events(self, events: list[tuple[int, Event]], bad: Sequence[Rejected] = ()) -> None:
        """Take a log and replay it."""
        self.events = events
        self.state, refused = replay(events)
        self.rejected = sorted([*bad, *refused], key=lambda r: r.line)
        self.has_log = True

    def games(self) -> list[list[tuple[int, Event]]]:
        """The log's games, in order."""
        return split_games(self.events)


def _unique_labels(paths: Sequence[Path]) -> list[str]:
    stems = [p.stem for p in paths]
    return [f"{p.parent.name}/{p.stem}" if stems.count(p.stem) > 1 else p.stem for p in paths]


def file_row(table: Table, wall_ms: int, neutral_alert_ms: int) -> Row:
    """The overview row of a log file's table, as of now."""
    now, live = table_now(table.path, table.state, wall_ms)
    st = table.state
    if st.variant is None:
        return Row(
            table.key, table.label, ("", ""), (0, 0), (0, 0), None, "not_started",
            "no game in the log", None, (), source="log",
        )  # fmt: skip
    if now > st.t:
        st = advance(st, now)
    rep = report(st, now)
    since = st.clock.since_ms if st.clock.neutral else None
    return summarize(
        table.key,
        table.label,
        rep,
        neutral_since_ms=since,
        neutral_alert_ms=neutral_alert_ms,
        source="live" if live else "log",
    )


# --- rulings offline --------------------------------------------------------------------------


def offline_ruling(path: Path, event: Event, wall_ms: int | None = None) -> tuple[bool, str]:
    """Check ``event`` on the log's current state with the engine, then append it.

    It is stamped at the table's time now (:func:`table_now`). Returns whether
    it was appended, and the answer in words (the reason and rule if refused).
    A running table service must not be writing the same file: it would not
    know of the new event.

    Raises:
        OSError, EngineError: The file cannot be read or written.
    """
    wall = wall_ms if wall_ms is not None else time.time_ns() // 1_000_000
    events, _ = load_log(path)
    state, _ = replay(events)
    now, _ = table_now(path, state, wall)
    stamped = replace(event, t=max(now, state.t))
    try:
        apply(state, stamped)
    except Refusal as exc:
        return False, f"refused: {exc.reason} ({exc.rule})"
    if is_sqlite(path):
        with EventLog.open(path, create=False) as log:
            seq = log.append(stamped)
    else:
        data = path.read_bytes()
        with path.open("ab") as f:
            if data and not data.endswith(b"\n"):
                f.write(b"\n")
            f.write(encode_event(stamped) + b"\n")
        seq = len(data.splitlines()) + 1  # its line number
    return True, f"accepted: {type(event).__name__} (#{seq}), appended to {path}"


def parse_time_ms(text: str) -> int:
    """Signed seconds or minutes:seconds as milliseconds.

    >>> parse_time_ms("+1:30"), parse_time_ms("-45"), parse_time_ms("")
    (90000, -45000, 0)

    Raises:
        ValueError: Not a time.
    """
    s = text.strip()
    if not s:
        return 0
    m = re.fullmatch(r"([+-]?)(?:(\d+):)?(\d+(?:\.\d+)?)", s)
    if m is None:
        raise ValueError(f"not a time: {text!r} (seconds, or m:ss, with a sign)")
    ms = round((int(m.group(2) or 0) * 60 + float(m.group(3))) * 1000)
    return -ms if m.group(1) == "-" else ms


# --- exports ----------------------------------------------------------------------------------


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


# --- screens ----------------------------------------------------------------------------------

RulingKind = Literal["adjust", "resume", "forfeit", "neutralize"]

_TITLES: dict[str, str] = {
    "adjust": "Adjust time or score",
    "resume": "Resume the clock",
    "forfeit": "Declare a forfeit",
    "neutralize": "Neutralize the clock",
}


class RulingScreen(ModalScreen[Event | None]):
    """A director's ruling on one table: its fields, checked before it is sent."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("enter", "submit", "Apply"),
    ]

    def __init__(self, kind: RulingKind, label: str, players: tuple[str, str], director: str,
                 note: str = "") -> None:  # fmt: skip
        super().__init__()
        self.kind: RulingKind = kind
        self.label = label
        self.players = players
        self.director = director
        self.note = note

    def compose(self) -> ComposeResult:
        p = self.players
        with Vertical(id="dialog"):
            yield Label(
                f"[b]{_TITLES[self.kind]}[/b]: {escape(self.label)} "
                f"({escape(p[0])} v {escape(p[1])}), by {escape(self.director)}"
            )
            if self.kind in ("adjust", "forfeit"):
                yield Input(placeholder=f"player: 1 = {p[0]}, 2 = {p[1]}", id="player")
            if self.kind == "adjust":
                yield Input(placeholder="score change, e.g. -10 (blank: none)", id="score")
                yield Input(placeholder="time change, e.g. +1:00 or -30 (blank: none)", id="time")
            if self.kind != "resume":
                yield Input(placeholder="reason (logged with your name)", id="reason")
            else:
                yield Label("Enter resumes the clock; Esc cancels.")
            yield Static("", id="error")
            if self.note:
                yield Static(f"[b]{escape(self.note)}[/b]", id="note")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_submit()

    def _value(self, ident: str) -> str:
        return self.query_one(f"#{ident}", Input).value.strip()

    def _player(self) -> int:
        text = self._value("player").casefold()
        if text in ("1", "2"):
            return int(text) - 1
        hits = [i for i in (0, 1) if text and self.players[i].casefold().startswith(text)]
        if len(hits) != 1:
            raise ValueError("player: 1 or 2, or the start of a name")
        return hits[0]

    def build(self) -> Event:
        """The ruling as an event.

        Raises:
            ValueError: A field that does not make sense.
        """
        by = self.director
        if self.kind == "resume":
            return Resumed(by=by, director=True)
        reason = self._value("reason")
        if not reason:
            raise ValueError("a ruling needs a reason")
        if self.kind == "neutralize":
            return Neutralized(by=by, reason=reason)
        player = self._player()
        if self.kind == "forfeit":
            return Forfeited(player=player, reason=reason, by=by)
        try:
            score = int(self._value("score") or 0)
        except ValueError:
            raise ValueError("score change: a whole number, e.g. -10") from None
        ms = parse_time_ms(self._value("time"))
        if not score and not ms:
            raise ValueError("an adjustment changes the score or the time")
        return Adjusted(by=by, player=player, score_delta=score, time_delta_ms=ms, reason=reason)

    def action_submit(self) -> None:
        """Check the fields and return the event."""
        try:
            event = self.build()
        except ValueError as exc:
            self.query_one("#error", Static).update(f"[red]{escape(str(exc))}[/red]")
            return
        self.dismiss(event)


def _offset(ms: int) -> str:
    sign = "-" if ms < 0 else "+"
    tenths = abs(ms) // 100
    secs, tenth = divmod(tenths, 10)
    return f"{sign}{secs // 60}:{secs % 60:02d}.{tenth}"


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


class TimelineScreen(Screen[None]):
    """One table's game, at any instant: board, racks, clocks, scores, rulings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Overview"),
        Binding("up,k", "step(-1)", "Prev event"),
        Binding("down,j", "step(1)", "Next event"),
        Binding("left", "seconds(-1)", "-1 s"),
        Binding("right", "seconds(1)", "+1 s"),
        Binding("shift+left", "seconds(-10)", "-10 s", show=False),
        Binding("shift+right", "seconds(10)", "+10 s", show=False),
        Binding("pageup", "seconds(-60)", "-1 min", show=False),
        Binding("pagedown", "seconds(60)", "+1 min", show=False),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(1)", "End", show=False),
        Binding("g", "next_game", "Game"),
        Binding("u", "reload", "Reload"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        """The table shown."""
        self.game_index = -1
        """Which game of the log (-1: the last)."""
        self.at: int | None = None
        """The instant shown (table time); None: the end."""
        self.state: GameState = GameState()
        """The game at ``at``."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="timeline"):
            with Vertical(id="left"):
                yield Static("", id="when")
                yield Static("", id="clocks")
                yield Static("", id="phase")
                yield Static("", id="racks")
                yield Static("", id="events")
                yield Static("", id="rulings")
                yield Static("", id="feedback")
            yield BoardView(id="board")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"timeline of {self.table.label}"
        if self.table.has_log:
            self.show()
        else:
            self.action_reload()

    def action_reload(self) -> None:
        """Read the log again (fetch it from the table on the broker)."""
        self.query_one("#when", Static).update(f"reading the log of {escape(self.table.label)}...")
        self.run_worker(self._reload(), exclusive=True, group="timeline")

    async def _reload(self) -> None:
        app = self.app
        assert isinstance(app, DirectorApp)
        error = await app.load_log(self.table)
        if error:
            self.query_one("#when", Static).update(f"[red]{escape(error)}[/red]")
            return
        self.show()

    # --- moving -------------------------------------------------------------------------------
    def _game(self) -> list[tuple[int, Event]]:
        games = self.table.games()
        if not games:
            return []
        return games[self.game_index if -len(games) <= self.game_index < len(games) else -1]

    def _times(self) -> list[int]:
        return [ev.t or 0 for _, ev in self._game()]

    def _end(self) -> int:
        times = self._times()
        end = times[-1] if times else 0
        if self.game_index in (-1, len(self.table.games()) - 1) and self.table.path is not None:
            end, _ = table_now(self.table.path, self.table.state, time.time_ns() // 1_000_000)
        return max(end, times[-1] if times else 0)

    def _index(self) -> int:
        """The last event at or before ``at``."""
        at = self._at()
        times = self._times()
        return max(0, sum(1 for t in times if t <= at) - 1)

    def _at(self) -> int:
        times = self._times()
        if not times:
            return 0
        at = self._end() if self.at is None else self.at
        return min(max(at, times[0]), self._end())

    def move_to(self, at: int) -> None:
        """Show the instant ``at`` (clamped to the game)."""
        self.at = at
        self.at = self._at()
        self.show()

    def action_step(self, n: int) -> None:
        """To the previous or next event."""
        times = self._times()
        if not times:
            return
        at = self._at()
        i = self._index()
        if n < 0 and at > times[i]:  # between events: back to the one shown
            self.move_to(times[i])
        else:
            self.move_to(times[max(0, min(len(times) - 1, i + n))])

    def action_seconds(self, n: int) -> None:
        """Move by ``n`` seconds."""
        self.move_to(self._at() + n * 1000)

    def action_jump(self, end: int) -> None:
        """To the start (0) or the end (1)."""
        times = self._times()
        if times:
            self.move_to(self._end() if end else times[0])

    def action_next_game(self) -> None:
        """The next game of the log (round the end)."""
        n = len(self.table.games())
        if n:
            self.game_index = (self.game_index % n + 1) % n
            self.at = None
            self.show()

    # --- drawing ------------------------------------------------------------------------------
    def show(self) -> None:
        """Replay the game to the instant and draw it."""
        game = self._game()
        if not game:
            self.query_one("#when", Static).update("no game in this log")
            return
        at = self._at()
        t0 = game[0][1].t or 0
        state, _ = replay(game, at=at)
        self.state = state
        rep = report(state, at)
        players = state.players
        i = self._index()
        n_games = len(self.table.games())
        number = self.game_index % n_games + 1
        self.query_one("#when", Static).update(
            f"[b]{escape(self.table.label)}[/b] game {number}/{n_games}: "
            f"{escape(players[0])} v {escape(players[1])}   at [b]{_offset(at - t0)}[/b] "
            f"(table time {at} ms), event {i + 1}/{len(game)}"
        )
        clocks = []
        for seat in (0, 1):
            c = rep["clocks"][seat]
            extra = " running" if c["running"] else ""
            if c["penalty"]:
                extra += f" penalty {c['penalty']}"
            clocks.append(
                f"{escape(players[seat])} [b]{rep['scores'][seat]}[/b]  "
                f"{clock_text(c['remaining_ms'])}{extra}"
            )
        self.query_one("#clocks", Static).update("   |   ".join(clocks))
        phase = rep["phase_text"]
        if rep["result"]:
            res = rep["result"]
            who = "tie" if res["winner"] is None else f"{players[res['winner']]} wins"
            phase += f"; result {res['scores'][0]}-{res['scores'][1]}, {who} ({res['reason']})"
        self.query_one("#phase", Static).update(escape(phase))
        racks = [ev.racks for _, ev in game if isinstance(ev, EndRacks) and (ev.t or 0) <= at]
        if racks:
            r = racks[-1]
            rack_text = f"end racks: {players[0]} {r[0] or '-'}, {players[1]} {r[1] or '-'}"
        else:
            rack_text = "racks: not tracked (only the end racks are logged)"
        self.query_one("#racks", Static).update(escape(rack_text))
        lines = []
        for j in range(max(0, i - 6), min(len(game), i + 7)):
            seq, ev = game[j]
            mark = ">" if j == i else " "
            text = f"{mark} {seq:>4} {_offset((ev.t or 0) - t0)} {event_text(ev, players)}"
            lines.append(f"[reverse]{escape(text)}[/reverse]" if j == i else escape(text))
        self.query_one("#events", Static).update("\n".join(lines))
        rulings = [
            f"{_offset(r.t - t0)} [b]{escape(r.rule)}[/b]: {escape(r.text)}"
            for r in state.rulings[-4:]
        ]
        self.query_one("#rulings", Static).update("\n".join(rulings))
        self.query_one("#feedback", Static).update(escape(self.table.feedback))
        self.query_one("#board", BoardView).show(state.board)


class ExportScreen(ModalScreen[None]):
    """Exports: the table's game (GCG, log) and the results of every finished game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("enter", "export", "Export"),
    ]

    def __init__(self, table: Table | None, directory: Path, default_round: int | None) -> None:
        super().__init__()
        self.table = table
        self.directory = directory
        self.default_round = default_round
        self.games: list[KnownGame] = []
        """The finished games known, once gathered."""
        self.report: ExportReport | None = None
        """The last export's outcome."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            what = f"the game at {self.table.label}, and " if self.table else ""
            yield Label(
                f"[b]Export[/b] {escape(what)}results of every finished game, "
                f"into {escape(str(self.directory))}"
            )
            yield Static("gathering the finished games...", id="games")
            yield Vertical(id="rounds")
            yield Static("", id="paths")
            yield Label("Enter exports; Esc closes.")

    def on_mount(self) -> None:
        self.run_worker(self._gather(), exclusive=True, group="export")

    async def _gather(self) -> None:
        app = self.app
        assert isinstance(app, DirectorApp)
        self.games, problems = await app.known_games()
        lacking = [g for g in self.games if g.state.round is None]
        text = f"{len(self.games)} finished game(s)"
        if lacking:
            text += f"; {len(lacking)} without a round number: give them below"
        text += "".join(f"\n[yellow]{escape(p)}[/yellow]" for p in problems)
        self.query_one("#games", Static).update(text)
        rounds = self.query_one("#rounds", Vertical)
        for n, g in enumerate(lacking):
            value = str(self.default_round) if self.default_round is not None else ""
            await rounds.mount(
                Horizontal(
                    Label(escape(g.describe()) + "  round: "),
                    Input(value=value, placeholder="round", id=f"round-{n}", classes="round"),
                    classes="round-row",
                )
            )
        if lacking:
            self.query_one("#round-0", Input).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_export()

    def rounds(self) -> tuple[dict[str, int], list[str]]:
        """The rounds typed, by game key, and the fields that are not numbers."""
        out: dict[str, int] = {}
        bad: list[str] = []
        lacking = [g for g in self.games if g.state.round is None]
        for n, g in enumerate(lacking):
            text = self.query_one(f"#round-{n}", Input).value.strip()
            if not text:
                continue
            if text.isdigit() and int(text) > 0:
                out[g.key] = int(text)
            else:
                bad.append(f"{g.describe()}: round {text!r} is not a number from 1")
        return out, bad

    def action_export(self) -> None:
        """Write the files and show their paths."""
        app = self.app
        assert isinstance(app, DirectorApp)
        rounds, bad = self.rounds()
        rep = app.export(self.table, self.games, rounds)
        rep.problems[:0] = bad
        self.report = rep
        lines = [f"wrote {escape(str(p))}" for p in rep.paths]
        lines += [f"[red]{escape(p)}[/red]" for p in rep.problems]
        self.query_one("#paths", Static).update("\n".join(lines) or "nothing to export")


# --- the app ----------------------------------------------------------------------------------


@dataclass
class DirectorConfig:
    """How the console was started."""

    broker: str | None = None
    """The venue broker's URL (broker mode)."""
    logs: tuple[Path, ...] = ()
    """Log files (offline mode)."""
    name: str = "director"
    """The director's name: ``by`` on every ruling."""
    desk: str = "desk"
    """This console's name in MQTT reply topics."""
    neutral_alert_s: int = 60
    """Flag a clock neutralized longer than this."""
    export_dir: Path = field(default_factory=Path.cwd)
    """Where exports go."""
    round: int | None = None
    """The round of finished games whose logs do not say."""
    high_contrast: bool = False
    """The high-contrast theme."""
    refresh_s: float = 0.5
    """How often the overview is redrawn."""


_COLUMNS = (
    ("flags", "Flags"),
    ("table", "Table"),
    ("players", "Players"),
    ("score", "Score"),
    ("clocks", "Clocks"),
    ("stopped", "Stopped"),
    ("phase", "Phase"),
    ("age", "Age"),
)


def _cells(row: Row) -> tuple[str, ...]:
    flags = " ".join(f.value.upper() for f in row.flags)
    players = f"{row.players[0]} v {row.players[1]}" if row.players[0] else ""
    clocks = "  ".join(
        clock_text(row.remaining_ms[s]) + ("*" if row.running == s else "") for s in (0, 1)
    )
    stopped = "" if row.neutral_ms is None else time_text(row.neutral_ms)
    age = row.source or ("" if row.age_ms is None else f"{row.age_ms // 1000}s")
    score = f"{row.scores[0]}-{row.scores[1]}"
    return (flags, row.label, players, score, clocks, stopped, row.phase_text, age)


class DirectorApp(App[int]):
    """The director's console."""

    TITLE = "rackclock director"
    CSS = """
    #banner { height: auto; color: $text-muted; padding: 0 1; }
    #overview { height: 1fr; }
    #feedback { height: auto; padding: 0 1; }
    #timeline #left { width: 1fr; padding: 0 1; }
    #timeline #left Static { height: auto; margin-bottom: 1; }
    RulingScreen, ExportScreen { align: center middle; }
    #dialog { width: 90; height: auto; max-height: 90%; border: thick $primary;
              background: $surface; padding: 1 2; }
    #rounds { height: auto; }
    .round-row { height: auto; }
    .round-row Label { padding: 1 1 0 0; }
    .round { width: 12; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "ruling('adjust')", "Adjust"),
        Binding("r", "ruling('resume')", "Resume"),
        Binding("f", "ruling('forfeit')", "Forfeit"),
        Binding("n", "ruling('neutralize')", "Neutralize"),
        Binding("x", "export", "Export"),
        Binding("f4", "toggle_contrast", "Contrast"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, config: DirectorConfig) -> None:
        super().__init__()
        self.config = config
        self.tables: dict[str, Table] = {}
        """Every table known, by key."""
        self.rows: list[Row] = []
        """The overview, as last drawn (sorted)."""
        self.link: DirectorLink | None = None
        """Broker mode: the broker connection, once started."""
        self.feedback = ""
        """The answer to the last ruling."""
        self._problems: list[str] = []

    # --- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="banner")
        yield DataTable(id="overview", cursor_type="row", zebra_stripes=True)
        yield Static("", id="feedback")
        yield Footer()

    def on_mount(self) -> None:
        self.register_theme(HIGH_CONTRAST)
        if self.config.high_contrast:
            self.theme = HIGH_CONTRAST.name
        grid = self.query_one("#overview", DataTable)
        for key, label in _COLUMNS:
            grid.add_column(label, key=key)
        if self.config.broker is not None:
            self.sub_title = f"{self.config.name} | broker {self.config.broker}"
            self.run_link()
        else:
            self.sub_title = f"{self.config.name} | {len(self.config.logs)} log file(s)"
            self._load_files()
        self.refresh_overview()
        self.set_interval(self.config.refresh_s, self.refresh_overview)

    def _load_files(self) -> None:
        paths = list(self.config.logs)
        for path, label in zip(paths, _unique_labels(paths), strict=True):
            try:
                self.tables[str(path)] = Table.from_file(path, label)
            except (OSError, EngineError) as exc:
                self._problems.append(f"{path}: {exc}")

    # --- the broker ---------------------------------------------------------------------------
    @work(exclusive=True, group="link")
    async def run_link(self) -> None:
        """Keep the director's broker connection for the app's lifetime."""
        from firmware_bridge.director_link import DirectorLink
        from firmware_bridge.mqtt_client import parse_url

        assert self.config.broker is not None
        link = DirectorLink(parse_url(self.config.broker), desk=self.config.desk)
        self.link = link
        link.start()
        try:
            await asyncio.Future()
        finally:
            await link.close()

    def _broker_rows(self, wall_ms: int, alert_ms: int) -> list[Row]:
        link = self.link
        if link is None:
            return []
        rows = []
        for topics, snap in list(link.tables.items()):
            key = f"{topics.venue}/{topics.table}"
            if key not in self.tables:
                self.tables[key] = Table(key, key, venue=topics.venue, table=topics.table)
            doc = snap.doc
            if doc is None:
                rows.append(_empty_row(key, key, online=snap.online))
                continue
            stale = snap.stale(wall_ms)
            age = snap.age_ms(wall_ms)
            rep = doc["state"]
            since = doc.get("neutralized_since_ms")
            now_ms = doc.get("now_ms")
            if isinstance(since, int) and isinstance(now_ms, int):
                since += int(rep["at_ms"]) - now_ms  # on the report's timeline
            device = doc.get("device") or {}
            rows.append(
                summarize(
                    key,
                    key,
                    rep,
                    elapsed_ms=0 if stale else (age or 0),
                    neutral_since_ms=since if isinstance(since, int) else None,
                    device_online=device.get("online"),
                    table_online=snap.online,
                    stale=stale,
                    age_ms=age,
                    neutral_alert_ms=alert_ms,
                )
            )
        return rows

    async def load_log(self, table: Table) -> str:
        """(Re)load a table's log; returns an error in words, or ""."""
        if table.path is not None:
            try:
                table.reload()
            except (OSError, EngineError) as exc:
                return f"{table.path}: {exc}"
            return ""
        from firmware_bridge.director_link import DirectorError
        from firmware_bridge.topics import TableTopics

        if self.link is None:
            return "not connected to the broker"
        try:
            events, bad = await self.link.get_log(TableTopics(table.venue, table.table))
        except DirectorError as exc:
            return str(exc)
        table.set_events(events, bad)
        return ""

    # --- the overview -------------------------------------------------------------------------
    def refresh_overview(self) -> None:
        """Recompute every row and redraw the overview (keeping the cursor's table)."""
        wall = time.time_ns() // 1_000_000
        alert = self.config.neutral_alert_s * 1000
        if self.config.broker is not None:
            rows = self._broker_rows(wall, alert)
        else:
            rows = []
            for table in self.tables.values():
                if table.changed():
                    try:
                        table.reload()
                    except (OSError, EngineError) as exc:
                        table.feedback = f"cannot read: {exc}"
                rows.append(file_row(table, wall, alert))
        self.rows = sort_rows(rows)
        self._draw_rows()
        self.query_one("#banner", Static).update(escape(self._banner()))

    def _banner(self) -> str:
        if self.config.broker is not None:
            link = self.link
            if link is not None and link.session.connected.is_set():
                state = "connected"
            else:
                err = link.session.stats.last_error if link is not None else ""
                state = "connecting" + (f" ({err})" if err else "")
            return f"broker {self.config.broker}: {state}; {len(self.rows)} table(s)"
        text = (
            f"{len(self.rows)} log file(s); rulings are appended to the files: "
            "a running table service must not be writing the same file"
        )
        return "\n".join([text, *self._problems])

    def _draw_rows(self) -> None:
        grid = self.query_one("#overview", DataTable)
        keys = [r.key for r in self.rows]
        shown = [rk.value for rk in grid.rows]
        if keys == shown:
            for row in self.rows:
                for (col, _), cell in zip(_COLUMNS, _cells(row), strict=True):
                    grid.update_cell(row.key, col, cell)
            return
        selected = self.selected_key()
        grid.clear()
        for row in self.rows:
            grid.add_row(*_cells(row), key=row.key)
        if selected in keys:
            grid.move_cursor(row=keys.index(selected))

    def selected_key(self) -> str | None:
        """The key of the table under the overview's cursor."""
        grid = self.query_one("#overview", DataTable)
        if not self.rows or grid.row_count == 0:
            return None
        row = min(max(grid.cursor_row, 0), grid.row_count - 1)
        key = list(grid.rows)[row].value
        return key

    def current_table(self) -> Table | None:
        """The table on the timeline shown, else the one under the cursor."""
        screen = self.screen
        if isinstance(screen, TimelineScreen):
            return screen.table
        key = self.selected_key()
        return self.tables.get(key) if key is not None else None

    @on(DataTable.RowSelected, "#overview")
    def _open(self, event: DataTable.RowSelected) -> None:
        table = self.tables.get(str(event.row_key.value))
        if table is not None:
            self.push_screen(TimelineScreen(table))

    def action_toggle_contrast(self) -> None:
        self.theme = "textual-dark" if self.theme == HIGH_CONTRAST.name else HIGH_CONTRAST.name

    # --- rulings ------------------------------------------------------------------------------
    def action_ruling(self, kind: RulingKind) -> None:
        """Open the ruling dialog for the current table."""
        if isinstance(self.screen, ModalScreen):
            return
        table = self.current_table()
        if table is None:
            return
        row = next((r for r in self.rows if r.key == table.key), None)
        players = row.players if row is not None and row.players[0] else table.state.players
        note = ""
        if table.path is not None:
            note = (
                f"Offline: the ruling is checked, then appended to {table.path}. "
                "A running table service must not be writing this file."
            )
            _, live = table_now(table.path, table.state, time.time_ns() // 1_000_000)
            if live:
                note += " Its heartbeat is fresh: a service seems to be running on it!"

        def done(event: Event | None) -> None:
            if event is not None:
                self.apply_ruling(table, event)

        self.push_screen(RulingScreen(kind, table.label, players, self.config.name, note), done)

    @work(group="rulings")
    async def apply_ruling(self, table: Table, event: Event) -> None:
        """Send (broker) or append (offline) a ruling, and show the answer."""
        name = type(event).__name__
        if table.path is not None:
            try:
                _, text = offline_ruling(table.path, event)
                table.reload()
            except (OSError, EngineError) as exc:
                text = f"failed: {exc}"
        else:
            from firmware_bridge.director_link import DirectorError, reply_text
            from firmware_bridge.topics import TableTopics

            if self.link is None:
                text = "not connected to the broker"
            else:
                try:
                    reply = await self.link.command(TableTopics(table.venue, table.table), event)
                    text = reply_text(reply)
                    if reply.get("accepted") and table.has_log:
                        await self.load_log(table)
                except DirectorError as exc:
                    text = f"no answer: {exc}"
        self.show_feedback(table, f"{table.label}: {name}: {text}")

    def show_feedback(self, table: Table, text: str) -> None:
        """Show a ruling's answer on the overview and the table's timeline."""
        table.feedback = text
        self.feedback = text
        self.query_one("#feedback", Static).update(escape(text))
        for screen in self.screen_stack:
            if isinstance(screen, TimelineScreen) and screen.table is table:
                screen.show()
        self.refresh_overview()

    # --- exports ------------------------------------------------------------------------------
    def action_export(self) -> None:
        """Open the export dialog."""
        if isinstance(self.screen, ModalScreen):
            return
        self.push_screen(
            ExportScreen(self.current_table(), self.config.export_dir, self.config.round)
        )

    async def known_games(self) -> tuple[list[KnownGame], list[str]]:
        """Every finished game in every table's log (fetched again on the broker)."""
        problems: list[str] = []
        if self.config.broker is not None:
            tables = list(self.tables.values())
            errors = await asyncio.gather(*(self.load_log(t) for t in tables))
            problems += [f"{t.label}: {e}" for t, e in zip(tables, errors, strict=True) if e]
        have = [t for t in self.tables.values() if t.has_log]
        return finished_games(have), problems

    def export(
        self, table: Table | None, games: Sequence[KnownGame], rounds: Mapping[str, int]
    ) -> ExportReport:
        """Write the table's game and log, and the results files."""
        directory = self.config.export_dir
        out = ExportReport()
        if table is not None:
            if table.has_log:
                game = export_game(table.label, table.events, directory)
                out.paths += game.paths
                out.problems += game.problems
            else:
                out.problems.append(f"{table.label}: its log is not loaded (open its timeline)")
        res = export_results(games, rounds, directory, default_round=self.config.round)
        out.paths += res.paths
        out.problems += res.problems
        return out
