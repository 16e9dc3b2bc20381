"""``rackclock director``: the tournament director's console.

Every table at a glance, sorted by what needs attention; a table's timeline,
scrubbed to any instant; rulings (time or score adjustments, resuming the
clock, forfeits); and exports (GCG, the log, NASPA and tsh results files).

Two sources of tables:

- **broker** (``--broker URL``): every table's retained state from the venue
  broker (:class:`firmware_bridge.venue.director_link.DirectorLink`); the running
  clock is extrapolated from the state's publication time; a timeline is
  fetched from the table (``get_log``) and rulings are director commands that
  the table answers (accepted, or refused with the rule);
- **logs** (``--log FILE...``): each file (SQLite or JSON Lines) is a table; the
  table's time "now" is its service's heartbeat (``<log>.alive``) when there is
  one, else its last event; a ruling is checked with the engine and appended to
  the file, stamped when it is made (:func:`clock.log.ruling.append_ruling`).
  A log a running table service holds (its lock, :mod:`clock.log.lock`) is
  written only by that service: a ruling on it is refused here, saying who holds
  it, and is made from the console on the venue broker instead.

The pure parts import no Textual: rows and flags (:mod:`terminal_ui.director.rows`),
their cells fitted to the terminal's width (:mod:`terminal_ui.director.overview`),
tables (:mod:`terminal_ui.director.tables`), rulings offline
(:mod:`terminal_ui.director.rulings`); the exports are :mod:`clock.exports`;
the screens have modules of their own. This module is the app shell
(:class:`DirectorApp`); docs/director.md describes the screens and the keys.
"""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Header, Static

from clock.exports.game_records import ExportReport, export_game
from clock.exports.results_files import KnownGame, export_results, finished_games
from clock.log.eventlog import LogError
from clock.log.lock import LogHeld, holder
from clock.log.ruling import OFFLINE_ADVICE, append_ruling
from clock.user_files import register_variant_files
from engine.errors import EngineError
from engine.events import Event
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.event import EventDesk, game_identity, signed_result
from terminal_ui.director.overview import COLUMNS, fit_overview
from terminal_ui.director.rows import Row, snapshot_row, sort_rows
from terminal_ui.director.rulings import RulingKind
from terminal_ui.director.screens.event import EventScreen
from terminal_ui.director.screens.export import ExportScreen
from terminal_ui.director.screens.prizes import PrizesScreen, prizes_text
from terminal_ui.director.screens.ruling import RulingScreen
from terminal_ui.director.screens.slips import SlipsScreen
from terminal_ui.director.screens.timeline import TimelineScreen
from terminal_ui.director.tables import Table, file_row, unique_labels
from terminal_ui.shared.help import HelpScreen, help_text
from terminal_ui.shared.keys import bindings
from terminal_ui.shared.theme import HIGH_CONTRAST

if TYPE_CHECKING:  # imported when used: offline, the console needs no MQTT
    from firmware_bridge.venue.director_link import DirectorLink

__all__ = ["DirectorApp", "shown_url"]


def shown_url(url: str) -> str:
    """``url`` as the title shows it: without a password given in it, since a title is
    read over a shoulder, on a projector, in a screenshot (the login name stays).

    >>> shown_url("mqtt://director:s3cret@hall.lan:1883?ca=ca.pem")
    'mqtt://director@hall.lan:1883?ca=ca.pem'
    >>> shown_url("mqtt://hall.lan")
    'mqtt://hall.lan'
    """
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    login = parts.netloc.rpartition("@")[0].partition(":")[0]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{login}@{netloc}"))


class DirectorApp(App[int]):
    """The director's console."""

    TITLE = "rackclock director"
    CSS = """
    #banner { height: auto; color: $text-muted; padding: 0 1; }
    #overview { height: 1fr; }
    #feedback { height: auto; padding: 0 1; }
    #timeline #left { width: 1fr; padding: 0 1; }
    #timeline #left Static { height: auto; margin-bottom: 1; }
    RulingScreen, ExportScreen, EventScreen, PrizesScreen { align: center middle; }
    #dialog { width: 90; max-width: 100%; height: auto; max-height: 90%; border: thick $primary;
              background: $surface; padding: 1 2; }
    #rounds { height: auto; }
    .round-row { height: auto; }
    .round-row Label { width: 1fr; padding: 1 1 0 0; }
    .round { width: 12; }
    """
    BINDINGS: ClassVar[list[BindingType]] = list(bindings("director"))

    def __init__(self, config: DirectorConfig, *, wall_ms: Callable[[], int] | None = None) -> None:
        super().__init__()
        self.config = config
        self.wall_ms = wall_ms or (lambda: time.time_ns() // 1_000_000)
        """The wall clock (Unix ms) a ruling is made at: tests give a fake one."""
        self._drawn: dict[str, tuple[object, ...]] = {}
        """The cells on the overview, by table: only changed rows are redrawn."""
        self._shape: tuple[object, ...] = ()
        """The overview's column widths and row heights as drawn: a change redraws it whole."""
        self._banner_text = ""
        self.tables: dict[str, Table] = {}
        """Every table known, by key."""
        self.rows: list[Row] = []
        """The overview, as last drawn (sorted)."""
        self.link: DirectorLink | None = None
        """Broker mode: the broker connection, once started."""
        self.feedback = ""
        """The answer to the last ruling."""
        self._problems: list[str] = []
        # the event's ledger opened before the screen (LogError, EngineError, OSError
        # raised from here): rackclock director refuses it with one line, not a
        # console without its event
        self.desk: EventDesk | None = None if config.event is None else EventDesk(config.event)
        """The event (``--event``), when the console runs one."""
        self._event_versions: dict[str, str] = {}
        """Broker: the signed result whose log was last handed to the event, by table."""

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
        if self.config.broker is not None:
            self.sub_title = f"{self.config.name} | broker {shown_url(self.config.broker)}"
            self.run_link()
        else:
            self.sub_title = f"{self.config.name} | {len(self.config.logs)} log file(s)"
            self._load_files()
        self.refresh_overview()
        self.set_interval(self.config.refresh_s, self.refresh_overview)

    def _load_files(self) -> None:
        paths = list(self.config.logs)
        for path, label in zip(paths, unique_labels(paths), strict=True):
            try:
                self.tables[str(path)] = Table.from_file(path, label)
            except (OSError, EngineError) as exc:
                self._problems.append(f"{path}: {exc}")

    # --- the broker ---------------------------------------------------------------------------
    @work(exclusive=True, group="link")
    async def run_link(self) -> None:
        """Keep the director's broker connection for the app's lifetime."""
        from firmware_bridge.mqtt.connection import parse_url
        from firmware_bridge.venue.director_link import DirectorLink

        assert self.config.broker is not None
        link = DirectorLink(
            parse_url(self.config.broker), desk=self.config.desk, venue=self.config.venue
        )
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
            rows.append(snapshot_row(key, snap, wall_ms, alert_ms))
        return rows

    async def load_log(self, table: Table) -> str:
        """(Re)load a table's log; returns an error in words, or ""."""
        if table.path is not None:
            try:
                table.reload()
            except (OSError, EngineError) as exc:
                return f"{table.path}: {exc}"
            return ""
        from firmware_bridge.mqtt.topics import TableTopics
        from firmware_bridge.venue.director_link import DirectorError

        if self.link is None:
            return "not connected to the broker"
        try:
            events, bad, refused = await self.link.get_log(TableTopics(table.venue, table.table))
        except DirectorError as exc:
            return str(exc)
        register_variant_files(ev for _, ev in events)
        table.set_events(events, bad, refused)
        return ""

    # --- the overview -------------------------------------------------------------------------
    def refresh_overview(self) -> None:
        """Recompute every row and redraw the overview (keeping the cursor's table)."""
        if not self.query("#overview"):
            return  # the app is closing: the timer's last tick came after its widgets went
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
        self._feed_event()
        banner = escape(self._banner())
        if banner != self._banner_text:
            self._banner_text = banner
            self.query_one("#banner", Static).update(banner)

    # --- the event ----------------------------------------------------------------------------
    def _feed_event(self) -> None:
        """Hand the event every table log that changed (offline), or ask for the log of
        each table whose state shows a signed result (broker)."""
        desk = self.desk
        if desk is None:
            return
        desk.refresh()  # what the shell or another console recorded meanwhile
        if self.config.broker is None:
            for table in self.tables.values():
                if table.has_log and table.path is not None:
                    desk.take_file(table.path, table.label, table.signature)
            return
        link = self.link
        if link is None:
            return
        for topics, snap in list(link.tables.items()):
            live = snap.live  # read at the link's edge: a document that did not read is none
            if live is not None and signed_result(live.state):
                key = f"{topics.venue}/{topics.table}"
                version = game_identity(live.state)
                if self._event_versions.get(key) != version:  # once per signed game
                    self._event_versions[key] = version
                    self._fetch_for_event(key, version)

    def _take(
        self, name: str, events: Sequence[tuple[int, Event]], key: object, table: str
    ) -> None:
        assert self.desk is not None
        try:
            self.desk.take(name, events, key, table=table)
        except (EngineError, LogError) as exc:
            self.desk.news.append(f"{name}: {exc}")

    @work(group="event")
    async def _fetch_for_event(self, key: str, version: str) -> None:
        table = self.tables.get(key)
        if table is None or self.desk is None:
            self._event_versions.pop(key, None)  # not known yet: try again
            return
        problem = await self.load_log(table)
        if problem:
            self.desk.news.append(f"{key}: {problem}")
            self._event_versions.pop(key, None)  # the next refresh asks again
            return
        if table.rejected:  # the table sends only what its log holds: a line it cannot be
            bad = table.rejected[0]
            self.desk.news.append(f"not taken: {key}: line {bad.line}: {bad.reason}")
            return
        # the log came over this table's topics, which only this table's login may
        # write (deploy/mosquitto): it delivers only the game assigned to this table
        self._take(key, table.events, version, table.table)

    def _event_desk(self) -> EventDesk | None:
        """The event, for a screen of the event's (keys S, I, W); None, said on the
        feedback line, when the console runs none or another screen is open."""
        if isinstance(self.screen, ModalScreen):
            return None
        if self.desk is None:
            self.feedback = "no event: start the console with --event LEDGER (rackclock event new)"
            self.query_one("#feedback", Static).update(escape(self.feedback))
        return self.desk

    def action_event(self) -> None:
        """The event screen: the round in play and the standings (``--event``)."""
        desk = self._event_desk()
        if desk is not None:
            self.push_screen(EventScreen(lambda: desk.text(self.rows)))

    def action_slips(self) -> None:
        """The slip screen: results from paper slips, a game a line (``--event``); its
        records are made by the console's ``--name``."""
        desk = self._event_desk()
        if desk is not None:
            self.push_screen(SlipsScreen(desk.slips(self.config.name)))

    def action_prizes(self) -> None:
        """The prizes screen: each division's prizewinners, the special prizes from
        the game logs the console holds (``--event``)."""
        desk = self._event_desk()
        if desk is None:
            return
        desk.refresh()
        logs = [table.events for table in self.tables.values()]
        try:
            text = prizes_text(desk.state, logs)
        except EngineError as exc:  # a bug of ours or an odd log: a line, not a crash
            self.feedback = f"cannot make the prize list: {exc}"
            self.query_one("#feedback", Static).update(escape(self.feedback))
            return
        self.push_screen(PrizesScreen(text))

    def _banner(self) -> str:
        if self.config.broker is not None:
            link = self.link
            if link is not None and link.session.connected.is_set():
                state = "connected"
            else:
                err = link.session.stats.last_error if link is not None else ""
                state = "connecting" + (f" ({err})" if err else "")
            head = f"broker {shown_url(self.config.broker)}: {state}; {len(self.rows)} table(s)"
            # what tables sent that did not read: once per table and reason (the link's)
            said = link.notices[-5:] if link is not None else []
            return "\n".join([head, *said])
        text = (
            f"{len(self.rows)} log file(s); rulings are appended to the files no running "
            "table holds (a running table takes its rulings over the venue broker)"
        )
        return "\n".join([text, *self._problems])

    def on_resize(self, event: events.Resize) -> None:
        """Fit the overview to the new width at once (overview.fit_overview)."""
        self.refresh_overview()

    def _draw_rows(self) -> None:
        grid = self.query_one("#overview", DataTable)
        # the width a vertical scroll bar leaves; the columns give way as fit_overview says
        fit = fit_overview(self.rows, self.size.width - 2, padding=2 * grid.cell_padding)
        keys = [r.key for r in self.rows]
        shape = (fit.keys, fit.widths, fit.heights, tuple(keys))
        if shape == self._shape:
            for row, cells in zip(self.rows, fit.cells, strict=True):
                if self._drawn.get(row.key) == cells:
                    continue  # unchanged: no redraw (a hundred idle tables cost nothing)
                self._drawn[row.key] = cells
                for col, cell in zip(fit.keys, cells, strict=True):
                    grid.update_cell(row.key, col, escape(cell))  # a name is text, not markup
            return
        selected = self.selected_key()
        grid.clear(columns=True)
        self._shape, self._drawn = shape, {}
        labels = dict(COLUMNS)
        for key, width in zip(fit.keys, fit.widths, strict=True):
            grid.add_column(labels[key], key=key, width=width)
        for row, cells, height in zip(self.rows, fit.cells, fit.heights, strict=True):
            self._drawn[row.key] = cells
            grid.add_row(*(escape(c) for c in cells), key=row.key, height=height)
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

    def action_help(self) -> None:
        """Every key of the console (F12)."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F12 again closes it
        else:
            self.push_screen(HelpScreen(help_text("director")))

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
            # A running table's log is written by its service alone: refused before the
            # dialog (append_ruling refuses it again under the lock, should one start).
            who = holder(table.path)
            if who is not None:
                held = f"{table.path.name} is held by {who}: {OFFLINE_ADVICE}"
                self.show_feedback(table, f"{table.label}: refused: {held}")
                return
            note = (
                f"Offline: the ruling is checked, then appended to {table.path} "
                "(no table service holds it), stamped when it is made."
            )

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
                _, text = append_ruling(table.path, event, self.wall_ms())
                table.reload()
            except LogHeld as exc:
                text = f"refused: {exc}"
            except (OSError, EngineError) as exc:
                text = f"failed: {exc}"
        else:
            from firmware_bridge.mqtt.topics import TableTopics
            from firmware_bridge.venue.director_link import DirectorError, reply_text

            if self.link is None:
                text = "not connected to the broker"
            else:
                try:
                    reply = await self.link.command(TableTopics(table.venue, table.table), event)
                    text = reply_text(reply)
                    if reply.accepted and table.has_log:
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
        return finished_games((t.label, t.events) for t in have), problems

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
                out.notes += game.notes
            else:
                out.problems.append(f"{table.label}: its log is not loaded (open its timeline)")
        res = export_results(games, rounds, directory, default_round=self.config.round)
        out.paths += res.paths
        out.problems += res.problems
        out.notes += res.notes
        return out
