"""A table's timeline: its game at any instant (board, clocks, scores, rulings).

The director steps from event to event or by seconds, and from game to game
of the log; the log is read again (or fetched from the table) on demand.
"""

from __future__ import annotations

import time
from typing import ClassVar, Protocol, runtime_checkable

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from engine.clocktext import clock_text, penalty_rate
from engine.events import EndRacks, Event
from engine.rules.replay import Refused, replay, report
from engine.rules.state import GameState
from engine.tournament.scores import result_text
from terminal_ui.director.tables import Table, event_text
from terminal_ui.shared.widgets import BoardView

__all__ = ["LogLoader", "TimelineScreen"]


@runtime_checkable
class LogLoader(Protocol):
    """The app that shows the timeline: it (re)loads a table's log."""

    async def load_log(self, table: Table) -> str:
        """(Re)load a table's log; returns an error in words, or ""."""
        ...


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
        self.cursor: int | None = None
        """The row stepped to (several rows may share an instant); None: the last row
        at or before ``at``."""
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
        assert isinstance(app, LogLoader)
        error = await app.load_log(self.table)
        if error:
            self.query_one("#when", Static).update(f"[red]{escape(error)}[/red]")
            return
        self.show()

    # --- moving -------------------------------------------------------------------------------
    def _which(self, n_games: int) -> int:
        return self.game_index if -n_games <= self.game_index < n_games else -1

    def _game(self) -> list[tuple[int, Event]]:
        games = self.table.games()
        return games[self._which(len(games))] if games else []

    def _rows(self) -> list[tuple[int, Event, Refused | None]]:
        """The game's events with the refused commands in their place (never replayed)."""
        games = self.table.rows()
        return games[self._which(len(games))] if games else []

    def _times(self) -> list[int]:
        return [ev.t or 0 for _, ev, _ in self._rows()]

    def _end(self) -> int:
        times = self._times()
        end = times[-1] if times else 0
        if self.game_index in (-1, len(self.table.games()) - 1) and self.table.path is not None:
            end, _ = self.table.now(time.time_ns() // 1_000_000)
        return max(end, times[-1] if times else 0)

    def _index(self) -> int:
        """The row under the cursor: the one stepped to, else the last at or before ``at``."""
        at = self._at()
        times = self._times()
        if self.cursor is not None and 0 <= self.cursor < len(times) and times[self.cursor] == at:
            return self.cursor
        return max(0, sum(1 for t in times if t <= at) - 1)

    def _at(self) -> int:
        times = self._times()
        if not times:
            return 0
        at = self._end() if self.at is None else self.at
        return min(max(at, times[0]), self._end())

    def move_to(self, at: int, cursor: int | None = None) -> None:
        """Show the instant ``at`` (clamped to the game), at row ``cursor`` if given."""
        self.at = at
        self.at = self._at()
        self.cursor = cursor
        self.show()

    def action_step(self, n: int) -> None:
        """To the previous or next row (a refused command is a row too)."""
        times = self._times()
        if not times:
            return
        at = self._at()
        i = self._index()
        if n < 0 and at > times[i]:  # between events: back to the one shown
            self.move_to(times[i], i)
        else:
            j = max(0, min(len(times) - 1, i + n))
            self.move_to(times[j], j)

    def action_seconds(self, n: int) -> None:
        """Move by ``n`` seconds."""
        self.move_to(self._at() + n * 1000)

    def action_jump(self, end: int) -> None:
        """To the start (0) or the end (1)."""
        times = self._times()
        if times:
            self.move_to(self._end(), None) if end else self.move_to(times[0], 0)

    def action_next_game(self) -> None:
        """The next game of the log (round the end)."""
        n = len(self.table.games())
        if n:
            self.game_index = (self.game_index % n + 1) % n
            self.at = self.cursor = None
            self.show()

    # --- drawing ------------------------------------------------------------------------------
    def show(self) -> None:
        """Replay the game to the instant (and row) and draw it."""
        game = self._game()
        rows = self._rows()
        if not game or not rows:
            self.query_one("#when", Static).update("no game in this log")
            return
        at = self._at()
        i = self._index()
        t0 = game[0][1].t or 0
        # Stepped to a row among several at one instant: the events up to it, not past it.
        upto = rows[i][0] if self.cursor is not None else None
        state, _ = replay((e for e in game if upto is None or e[0] <= upto), at=at)
        self.state = state
        rep = report(state, at)
        players = state.players
        n_games = len(self.table.games())
        number = self.game_index % n_games + 1
        self.query_one("#when", Static).update(
            f"[b]{escape(self.table.label)}[/b] game {number}/{n_games}: "
            f"{escape(players[0])} v {escape(players[1])}   "
            f"at [b]{clock_text(at - t0, tenths=True, plus=True)}[/b] game time "
            f"(table time {at} ms), event {rows[i][0]} ({i + 1}/{len(rows)} of this game)"
        )
        rate = f" ({penalty_rate(state.variant)})" if state.variant is not None else ""
        clocks = []
        for seat in (0, 1):
            c = rep["clocks"][seat]
            extra = " running" if c["running"] else ""
            if c["penalty"]:
                extra += f" penalty {c['penalty']}{rate}"
            clocks.append(
                f"{escape(players[seat])} [b]{rep['scores'][seat]}[/b]  "
                f"{clock_text(c['remaining_ms'], tenths=True)}{escape(extra)}"
            )
        self.query_one("#clocks", Static).update("   |   ".join(clocks))
        phase = rep["phase_text"]
        if rep["result"]:
            res = rep["result"]
            names, scores = (players[0], players[1]), (res["scores"][0], res["scores"][1])
            words = result_text(names, scores, res["winner"], res["reason"], res["spread"])
            phase += f"; result: {words}"
        self.query_one("#phase", Static).update(escape(phase))
        racks = [ev.racks for _, ev in game if isinstance(ev, EndRacks) and (ev.t or 0) <= at]
        if racks:
            r = racks[-1]
            rack_text = f"end racks: {players[0]} {r[0] or '-'}, {players[1]} {r[1] or '-'}"
        else:
            rack_text = "racks: not tracked (only the end racks are logged)"
        self.query_one("#racks", Static).update(escape(rack_text))
        lines = []
        for j in range(max(0, i - 6), min(len(rows), i + 7)):
            seq, ev, refused = rows[j]
            mark = ">" if j == i else " "
            when = clock_text((ev.t or 0) - t0, tenths=True, plus=True)
            what = event_text(ev, players)
            if refused is not None:  # kept for forensics, never replayed
                what = f"REFUSED {what}: {refused.reason} [{refused.rule}]"
            text = escape(f"{mark} {seq:>4} {when} {what}")
            if j == i:
                text = f"[reverse]{text}[/reverse]"
            lines.append(f"[red]{text}[/red]" if refused is not None else text)
        self.query_one("#events", Static).update("\n".join(lines))
        rulings = [
            f"{clock_text(r.t - t0, tenths=True, plus=True)} "
            f"[b]{escape(r.rule)}[/b]: {escape(r.text)}"
            for r in state.rulings[-4:]
        ]
        self.query_one("#rulings", Static).update("\n".join(rulings))
        self.query_one("#feedback", Static).update(escape(self.table.feedback))
        self.query_one("#board", BoardView).show(state.board)
