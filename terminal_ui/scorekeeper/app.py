"""``rackclock scorekeeper``: the non-playing scorekeeper's screen (Toronto speed play).

TOR-1: a scorekeeper who does not play records, for every turn, the first letter
of the play, its score and the running total, and may lag behind play and
catch up later. This screen runs the table's clock service in-process (on an
emulated clock driven by the players' keys, or on a real clock device) in
scoresheet mode, and keeps the scoresheet:

* ``q24`` then Enter records the turn being scored (first letter Q, 24 points);
  ``-`` or ``0`` a scoreless turn; ``2:b12`` (or Tab, then ``b12``) records for
  the other player. The turn being scored is the oldest one not yet scored,
  whoever played it; passes and exchanges are recorded as 0 by themselves once
  the scorekeeper reaches them. Each entry is sent bound to its turn (player and
  turn number): it is never credited to another turn. A press after the
  no-more-plays cutoff (TOR-8) looks like a play, so it waits for its entry: a
  score is refused with the rule, ``-`` records its 0.
* ``undo`` takes back the last entry until the game ends (then every turn stays
  scored); ``fix 1:3 q24`` corrects one (player 1's turn 3) until a player signs,
  unless it would change why the game ended at the cutoff (TOR-9: the director's).
  Each is logged as a ``turn_corrected`` event.
* Both clocks show large, run into overtime and preview the time penalty
  (TOR-7); after -1:01 a player may make no more plays (TOR-8, TOR-9).
* Holds, challenges (TOR-5, TOR-6), verdicts, passes and pauses have keys and
  typed commands; every ruling is listed with the rule it applies.

It opens on the table terminal's start screen (:mod:`terminal_ui.shared.start`):
the game and its clock start at a clock key, so reading the screen or the help
costs no player time (TOR-7).

Keys: ``[``/F1 and ``]``/F2 are the players' clocks (they sign the result once
the game is over), F3 hold, F4 release, F5 challenge, F6 valid, F7 invalid,
F8 pass, F9 pause/resume, ctrl+T high contrast, F12 help, Tab the other
player's turn, Esc back to the oldest turn, ctrl+N the next game (seats swapped)
once this one is over, ctrl+q quits (mid-game, or before both players have signed
the result, it asks first and says how to come back; one key map for every screen:
:mod:`terminal_ui.shared.keys`). Typed commands are those of the table terminal
(:mod:`terminal_ui.table.commands`): ``hold``, ``release``,
``challenge [WORD...]``, ``valid``, ``invalid``, ``pass``, ``exchange N``,
``neutral REASON``, ``resume``, ``dispute [N]``, ``racks AEI BCD`` (``-`` for an
empty rack; also ``end AEI BCD``), ``resign``.

The pure parts import no Textual: the entry parser (:mod:`terminal_ui.scorekeeper.entry`),
the turn order (:mod:`terminal_ui.scorekeeper.turn_book`) and the configuration
(:mod:`terminal_ui.scorekeeper.config`); the panels' text and the widgets have
modules of their own. This module is the app.
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.markup import escape
from textual.widgets import Input, Label, Static

from clock.device.emulated import EmulatedClock
from clock.log.log_files import load_log
from clock.table.service import Ack, Status, TableService, Update
from clock.table.session import SessionError, TableSession, TableSpec, starts_a_game
from engine.errors import EngineError
from engine.events import (
    Adjudicated,
    Challenged,
    ClockPressed,
    Event,
    HoldCalled,
    HoldReleased,
    Neutralized,
    Passed,
    Resumed,
    Signed,
    TurnScored,
)
from engine.rules.state import GameState, Phase
from firmware_bridge.table_setup import open_table
from terminal_ui.scorekeeper.config import ScorekeeperConfig
from terminal_ui.scorekeeper.entry import describe_event
from terminal_ui.scorekeeper.scoresheet import Scoresheet
from terminal_ui.scorekeeper.sheet_text import (
    phase_line,
    ruling_text,
    scored_text,
    sheet_lines,
    target_text,
)
from terminal_ui.scorekeeper.turn_book import TurnBook, TurnRef, locked_hint
from terminal_ui.scorekeeper.widgets import ResultScreen, SheetClock
from terminal_ui.shared.command_input import CommandInput
from terminal_ui.shared.help import HelpScreen, help_text
from terminal_ui.shared.keys import CLOCK_KEYS, bindings
from terminal_ui.shared.link_status import show_link
from terminal_ui.shared.start import (
    StartScreen,
    StartsGames,
    next_game,
    open_or_exit,
    quit_or_ask,
    start_screen,
)
from terminal_ui.shared.theme import HIGH_CONTRAST
from terminal_ui.shared.ticker import Ticker
from terminal_ui.table.commands import CommandError, HelpWanted
from terminal_ui.table.help import SCORESHEET_COMMANDS

__all__ = ["ScorekeeperApp"]


class ScorekeeperApp(StartsGames):
    """The scorekeeper's screen."""

    TITLE = "rackclock scorekeeper"
    CSS_PATH = "scorekeeper.tcss"
    BINDINGS: ClassVar[list[BindingType]] = list(bindings("scorekeeper"))

    def __init__(self, config: ScorekeeperConfig) -> None:
        super().__init__()
        self.config = config
        self.service: TableService | None = None
        self.emulated: EmulatedClock | None = None
        self.state = GameState()
        """The latest state drawn."""
        self.link = Status(attached=False)
        """The clock device's link, from the service's last update."""
        self.sheet = Scoresheet(by="scorekeeper")
        """The turn book, the player chosen with Tab, and what a typed line means (the
        table terminal reads its scoresheet mode with the same)."""
        self.last_ack: Ack | None = None
        """The answer to the last command."""
        self.ticker = Ticker(
            self, config.timeline.now_ms, lambda: (self.state, self.link), self.draw_clocks
        )
        """Redraws the clocks when what they show changes; idle while no clock runs."""
        self._result: ResultScreen | None = None
        self.session: TableSession | None = None
        self._start: StartScreen | None = None
        """The start screen while it is up: a clock key starts the game."""
        self._left = 0
        """The number of the game ctrl+N left (its result is not shown again)."""

    @property
    def book(self) -> TurnBook:
        """The order of the ended turns (the scoresheet's)."""
        return self.sheet.book

    @property
    def chosen(self) -> int | None:
        """The player chosen with Tab for the next entry; None = the oldest turn."""
        return self.sheet.chosen

    @chosen.setter
    def chosen(self, player: int | None) -> None:
        self.sheet.chosen = player

    # --- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="clocks"):
            yield SheetClock(id="p0")
            yield SheetClock(id="p1")
        yield Static(" ", id="link")
        yield Static(" ", id="phase")
        yield Static(" ", id="target")
        with Horizontal(id="entry-row"):
            yield Label("score >", id="prompt")
            # Tab scores the other player's turn, Esc goes back to the oldest unscored one.
            yield CommandInput(
                placeholder="q24 Enter · - pass · 2:b12 · hold, challenge...",
                id="entry",
                keys={"tab": "other_player", "escape": "auto_player"},
            )
        yield Static(" ", id="feedback")
        with Horizontal(id="logs"):
            yield Static("", id="sheet0", classes="sheet")
            yield Static("", id="sheet1", classes="sheet")
            # every ruling, newest first: scrolling down goes back to the first
            with VerticalScroll(id="rulings-pane"):
                yield Static("", id="rulings")
        yield Static(
            "[b]\\[[/b] [b]][/b] clocks  [b]F3[/b] hold [b]F4[/b] release [b]F5[/b] challenge "
            "[b]F6[/b] valid [b]F7[/b] invalid [b]F8[/b] pass [b]F9[/b] pause  "
            "[b]ctrl+T[/b] contrast  [b]F12[/b] help  [b]Tab[/b] other player  "
            "[b]end AEI BCD[/b] ends",
            id="keys",
        )

    def on_mount(self) -> None:
        self.register_theme(HIGH_CONTRAST)
        if self.config.high_contrast:
            self.theme = HIGH_CONTRAST.name
        self.query_one("#sheet0").border_title = "1"
        self.query_one("#sheet1").border_title = "2"
        self.query_one("#rulings-pane").border_title = "rulings (newest first)"
        self.query_one("#entry", Input).focus()
        self.run_service()

    # --- the service -------------------------------------------------------------------
    @work(exclusive=True, group="service", exit_on_error=True)
    async def run_service(self) -> None:
        cfg = self.config
        spec = TableSpec(
            log=cfg.log,
            variant=cfg.variant,
            players=cfg.players,
            first=cfg.first,
            mode="scoresheet",
            clock=cfg.clock,
            new_game=cfg.new_game,
            round=cfg.round,
            division=cfg.division,
            table=cfg.table,
            event=cfg.event,
            event_id=cfg.event_id,
            heartbeat_ms=cfg.heartbeat_ms,
        )
        try:
            session = open_table(spec, timeline=cfg.timeline)
            if cfg.log.exists():
                self.sheet.book = TurnBook.rebuild(load_log(cfg.log)[0])
        except (SessionError, EngineError, OSError) as exc:
            self.exit(2, message=f"rackclock scorekeeper: {exc}")
            return
        self.session = session
        self.service, self.emulated = session.service, session.emulated
        self.service.add_listener(self._on_commit)
        if not await open_or_exit(self, session, "scorekeeper"):
            return
        try:
            if starts_a_game(self.service.state, new_game=cfg.new_game):
                self.show_start(spec)
            async for update in self.service.subscribe():
                self.on_update(update)
        finally:
            await session.stop()

    def show_start(self, spec: TableSpec) -> None:
        """The table terminal's start screen: the clock starts at a clock key, so the
        scorekeeper reading it costs no player any time (TOR-7)."""
        if self.session is None:  # shown only once the table is up
            return
        self._start = start_screen(spec, self.session.clock, CLOCK_KEYS)
        with contextlib.suppress(NoMatches):  # the screen is closing
            for seat in (0, 1):
                clock = self.query_one(f"#p{seat}", SheetClock)
                clock.waiting(seat, spec.players[seat], self._start.time)
        self.push_screen(self._start)

    def game_begun(self) -> None:
        """The game's start answered on the feedback line; the entry line takes the keys."""
        if self.session is not None and self.session.started is not None:
            self.show_ack(self.session.started)
        self.query_one("#entry", Input).focus()

    def _on_commit(self, update: Update) -> None:
        """Every commit, in order (never dropped): keep the turn book."""
        if update.event is not None and update.before is not None:
            self.book.observe(update.before, update.event, update.state)

    def on_update(self, update: Update) -> None:
        """Mirror the service's state on the screen."""
        self.state = update.state
        self.link = update.status
        if update.refused is not None:
            self.show_ack(update.refused)
        self._auto_score()
        self.draw()

    def _auto_score(self) -> None:
        """Passes and exchanges score 0: record them once reached (a locked-out press
        waits for the scorekeeper's entry: see AUTO_ZERO)."""
        for zero in self.sheet.auto_zeros(self.state):
            self.submit(zero)

    def submit(self, event: Event) -> None:
        """Send a command to the service; its answer shows when committed."""
        if self.service is None:
            return
        fut = self.service.send(event, "scorekeeper")
        fut.add_done_callback(lambda f: self.show_ack(f.result()) if not f.exception() else None)

    def show_ack(self, ack: Ack) -> None:
        """Show what became of the last command."""
        self.last_ack = ack
        fb = self.query_one("#feedback", Static)
        if ack.accepted:
            fb.update(f"[green]ok[/green]: {escape(self._accepted_text(ack.event))}")
        else:
            hint = locked_hint(self.state, ack.event) if isinstance(ack.event, TurnScored) else ""
            fb.update(
                f"[red]refused[/red]: {escape(ack.reason)} [dim]({escape(ack.rule)})[/dim]"
                f"{escape(hint)}"
            )

    def _accepted_text(self, event: Event) -> str:
        """An accepted command in words; a score entry as the log took it (a withdrawn
        turn's 0, not the score typed), from the service's committed state."""
        if isinstance(event, TurnScored):
            return scored_text(event, self.service.state if self.service else self.state)
        return describe_event(event, self.state)

    def say(self, text: str, style: str = "yellow") -> None:
        """A message of the screen's own (not from the service)."""
        self.query_one("#feedback", Static).update(f"[{style}]{escape(text)}[/{style}]")

    def refuse(self, reason: str) -> None:
        """A command refused on the screen itself, in the form the service's refusals
        take (``refused: ...``); the typed line is selected, so the next key replaces
        it and ``k30`` then ``0`` is not ``k300`` (the table terminal does the same)."""
        self.query_one("#feedback", Static).update(f"[red]refused[/red]: {escape(reason)}")
        self.query_one("#entry", Input).select_all()

    # --- drawing -----------------------------------------------------------------------
    def target(self) -> TurnRef | None:
        """The turn the next entry scores."""
        return self.book.target(self.state, self.chosen)

    def draw_clocks(self) -> None:
        st = self.state
        now = self.config.timeline.now_ms()
        with contextlib.suppress(NoMatches):  # the screen is closing
            show_link(self.query_one("#link", Static), self.link, now)
        if st.variant is None or self._start is not None:
            return  # before the start: the next game's players and time stay shown
        with contextlib.suppress(NoMatches):  # the screen is closing
            for seat in (0, 1):
                self.query_one(f"#p{seat}", SheetClock).show(st, seat, now)

    def draw(self) -> None:
        st = self.state
        self.ticker.arm()
        if st.variant is None:
            return
        self.draw_clocks()
        self.query_one("#phase", Static).update(escape(phase_line(st)))
        self.query_one("#target", Static).update(target_text(st, self.book, self.chosen))
        target = self.target()
        for p in (0, 1):
            sheet = self.query_one(f"#sheet{p}", Static)
            sheet.border_title = f"{p + 1} {st.players[p]}"
            text = sheet_lines(st, self.book, p, target)
            room = sheet.content_size.height
            if room > 0:  # keep the newest lines in view
                text = "\n".join(text.split("\n")[-room:])
            sheet.update(text)
        self.query_one("#rulings", Static).update(ruling_text(st.rulings))
        if st.phase is Phase.OVER and self._left != st.games and self._start is None:
            if self._result is None:
                self._result = ResultScreen()
                self.push_screen(self._result, self._result_closed)
            elif self._result.is_attached:
                self._result.refresh_state(st)

    def _result_closed(self, _: None) -> None:
        self.query_one("#entry", Input).focus()

    # --- the entry line ----------------------------------------------------------------
    @on(Input.Changed, "#entry")
    def live_check(self, event: Input.Changed) -> None:
        text = event.value.strip()
        if not text:
            return
        try:
            result = self.sheet.read(text, self.state)
        except CommandError as exc:
            self.say(str(exc))
            return
        self.say(f"Enter: {self.sheet.said(result, self.state)}", "green")

    @on(Input.Submitted, "#entry")
    def act(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        try:
            result = self.sheet.read(text, self.state)
        except CommandError as exc:
            self.refuse(str(exc))
            return
        event.input.value = ""
        if isinstance(result, HelpWanted):
            self.action_help()
            return
        self.sheet.sent(result)
        self.submit(result)

    # --- actions -----------------------------------------------------------------------
    def action_press(self, side: int) -> None:
        """A player's clock key: the emulated clock's button; after the game, signing;
        on the start screen, the start of the game."""
        if self.press_start():
            return
        if self.state.phase is Phase.OVER:
            self.submit(Signed(player=side))
        elif self.emulated is not None:
            self.emulated.press(side)
        else:
            self.submit(ClockPressed(player=side))

    def _answerer(self) -> int:
        last = self.state.last
        return 1 - last.player if last is not None else self.state.turn

    def action_hold(self) -> None:
        self.submit(HoldCalled(player=self._answerer()))

    def action_release(self) -> None:
        self.submit(HoldReleased(player=self._answerer()))

    def action_challenge(self) -> None:
        self.submit(Challenged(player=self._answerer()))

    def action_verdict(self, acceptable: bool) -> None:
        self.submit(Adjudicated(acceptable=acceptable, by="adjudicator"))

    def action_pass_turn(self) -> None:
        self.submit(Passed(player=self.state.turn))

    def action_pause(self) -> None:
        if self.state.clock.neutral:
            self.submit(Resumed(by="scorekeeper"))
        else:
            self.submit(Neutralized(by="scorekeeper", reason="paused by the scorekeeper"))

    def action_other_player(self) -> None:
        current = self.target()
        base = self.chosen if self.chosen is not None else (current.player if current else 0)
        self.chosen = 1 - base
        self.draw()

    def action_auto_player(self) -> None:
        self.chosen = None
        self.draw()

    def action_help(self) -> None:
        """Every key, entry and command, with examples (F12, or help / ? typed)."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F12 again closes it
        else:
            self.push_screen(HelpScreen(help_text("scorekeeper", SCORESHEET_COMMANDS)))

    async def action_quit(self) -> None:
        """Quit; mid-game, or before both players have signed, ask first and say how to
        come back (the table terminal's dialog)."""
        st = self.state
        resume = f"rackclock scorekeeper --log {self.config.log}"
        quit_or_ask(self, st.phase, resume, unsigned=not all(st.signed))

    def action_next_game(self) -> None:
        """After the end: the next game, the same players in swapped seats (the one who
        went second now starts), from its start screen, as the table terminal does."""
        if self.state.phase is not Phase.OVER or self.session is None or self._start is not None:
            return
        try:
            spec = next_game(self.session.spec)
        except (OSError, EngineError) as exc:
            self.refuse(f"cannot read the finished game from its log: {exc}")
            return
        self.session.spec = spec
        self.config.players = spec.players
        self.chosen = None
        self._left = self.state.games
        self.say("")
        if self._result is not None and self._result.is_attached:
            self._result.dismiss()
        self._result = None
        self.show_start(spec)

    def action_toggle_contrast(self) -> None:
        self.theme = "textual-dark" if self.theme == HIGH_CONTRAST.name else HIGH_CONTRAST.name
