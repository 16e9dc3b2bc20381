"""``rackclock table``: the table terminal, for the two players.

It runs the table's clock service in-process on an emulated clock (one key per
player is that player's clock button) or on a real device, and shows both
clocks, the scores, whose turn it is, the phase, the last moves and the rulings
with their rules. Everything else is typed on the command line, checked live
(a play's computed score shows before the press). See
:mod:`terminal_ui.table.commands` for the commands. A game kept on a scoresheet (Toronto
speed) has no board: its line takes what the scorekeeper types (``Q24``, ``-``, ``undo``),
read by the scorekeeper's own :class:`~terminal_ui.scorekeeper.scoresheet.Scoresheet`.

It opens on a start screen (who plays, the rules and time control, who starts, the
mode, the clock); the game and its clock start when a clock key is pressed.

Keys (one map for every screen, :mod:`terminal_ui.shared.keys`): ``[`` or F1 is
the left player's clock, ``]`` or F2 the right player's (``--keys`` changes them);
ctrl+B shows the board, ctrl+T the high-contrast theme, F12 the help, ctrl+N the
next game once this one is over; ctrl+Q quits (mid-game, or before both players
have signed the result, it asks first, and says how to come back).
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.markup import escape
from textual.widgets import Footer, Header, Input, Static

from clock.device.emulated import EmulatedClock
from clock.log.log_files import load_log
from clock.table.service import Ack, Status, TableService, Update
from clock.table.session import (
    SessionError,
    TableSession,
    TableSpec,
    assigned,
    next_game_ready,
    same_game,
    starts_a_game,
)
from engine.clocktext import penalty_rate
from engine.errors import EngineError
from engine.events import Adjudicated, Challenged, Event, Signed
from engine.rules.procedures.common import penalty_counted
from engine.rules.state import GameState, Phase
from engine.tournament.assignment import Assignment
from firmware_bridge.table_setup import open_table
from firmware_bridge.venue.assignment_feed import follow_assignments
from terminal_ui.scorekeeper.scoresheet import Scoresheet
from terminal_ui.scorekeeper.turn_book import TurnBook
from terminal_ui.shared.command_input import CommandInput
from terminal_ui.shared.help import HelpScreen, help_text
from terminal_ui.shared.keys import CLOCK_KEYS, bindings, key_label
from terminal_ui.shared.link_status import show_link
from terminal_ui.shared.start import (
    StartScreen,
    StartsGames,
    next_game,
    open_or_exit,
    quit_or_ask,
    start_screen,
)
from terminal_ui.shared.theme import HIGH_CONTRAST, STYLESHEET
from terminal_ui.shared.ticker import Ticker
from terminal_ui.shared.widgets import BoardView, PlayerClock, history_lines, ruling_lines
from terminal_ui.table.answers import event_words
from terminal_ui.table.commands import CommandError, HelpWanted, Preview, interpret, next_step
from terminal_ui.table.config import TableConfig
from terminal_ui.table.help import COMMANDS, SCORESHEET_COMMANDS
from terminal_ui.table.screens import AdjudicationScreen, ChallengeScreen, SummaryScreen

__all__ = ["TableApp"]

_CHALLENGEABLE = (Phase.PLAYING, Phase.HOLD, Phase.OUT_PLAY)
"""The phases in which the last play may still be challenged: a resignation or the end
of the game leaves nothing to challenge, whatever the play's window says."""


_PLACEHOLDER = {
    "board": "play (8D WINDY) or command: pass, hold, challenge, draw 5 ...",
    "scoresheet": "score (Q24: first letter and score), - for none, or: pass, hold, challenge ...",
}
"""The command line's hint, by how the game is kept."""


class TableApp(StartsGames):
    """The table terminal."""

    CSS_PATH = STYLESHEET
    CSS = """
    /* The status line and the feedback wrap rather than cut a hint: a table
       terminal may be 80 columns wide and a hint names both players. */
    #phase { height: auto; }
    #feedback { height: auto; min-height: 2; }
    """
    TITLE = "rackclock"
    BINDINGS: ClassVar[list[BindingType]] = list(bindings("table"))

    def __init__(self, config: TableConfig) -> None:
        super().__init__()
        self.config = config
        if config.clock_keys != CLOCK_KEYS:
            # --keys: the players' own clock keys instead of the defaults
            for default in CLOCK_KEYS:
                for key in default.split(","):
                    self._bindings.key_to_bindings.pop(key, None)
            for b in bindings("table", config.clock_keys)[:2]:
                self._bindings.bind(b.key, b.action, b.description, priority=True)
        self.session: TableSession | None = None
        self.service: TableService | None = None
        self.emulated: EmulatedClock | None = None
        self.state = GameState()
        self.link = Status(attached=False)
        """The clock device's link, from the service's last update."""
        self.last_ack: Ack | None = None
        self._summary: SummaryScreen | None = None
        self._start: StartScreen | None = None
        self._offered: Assignment | None = None
        """The next round's game assigned to this table, not started yet."""
        self._offer_shown: Assignment | None = None
        self._adjudicating = False
        self._rules: str | None = None
        """The rules the header names (:meth:`show_rules`)."""
        self._keep_refusal = False
        """A refusal is on the feedback line: it stays until the next keystroke."""
        self.sheet = Scoresheet(by="players")
        """Scoresheet mode: what is typed is read as the scorekeeper's screen reads it
        (``Q24``, ``-``, ``undo``...), with the turn book of which turns await a score."""
        self.ticker = Ticker(
            self, config.timeline.now_ms, lambda: (self.state, self.link), self.draw_clocks
        )
        """Redraws the clocks when what they show changes (their times are derived
        from the state's stamps, never counted here); idle while no clock runs."""

    # --- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with Horizontal(id="clocks"):
                    yield PlayerClock(id="p0")
                    yield PlayerClock(id="p1")
                yield Static("", id="link")
                yield Static("", id="phase")
                yield CommandInput(
                    placeholder=_PLACEHOLDER["board"],
                    id="command",
                )
                yield Static("", id="feedback")
                with Horizontal(id="logs"):
                    with VerticalScroll(id="moves-pane"):
                        yield Static("", id="moves")
                    with VerticalScroll(id="rulings-pane"):
                        yield Static("", id="rulings")
            # Beside the table, not below it: the 16 lines of the board fit in 80x24.
            yield BoardView(id="board")
        yield Footer()

    def on_mount(self) -> None:
        self.register_theme(HIGH_CONTRAST)
        if self.config.high_contrast:
            self.theme = HIGH_CONTRAST.name
        self.query_one("#board").display = False
        # The newest moves and rulings are at the bottom: keep them in view.
        for pane in self.query(VerticalScroll):
            pane.anchor()
        self.sub_title = f"log {self.config.log}"  # the rules once the log is open
        self.run_service()

    def show_rules(self) -> None:
        """The header names the rules of the game shown: the start screen's game, else
        the log's (a resumed log keeps its own, not the command line's ``--variant``),
        by the variant's name (a variant file's own name, not its path). It is set only
        when they change (the snapshot tests shorten the log's path in it once)."""
        rules = None
        if self._start is not None:
            rules = self._start.rules
        elif self.state.variant is not None:
            rules = self.state.variant.name
        if rules is not None and rules != self._rules:
            self._rules = rules
            self.sub_title = f"{rules} | log {self.config.log}"

    # --- the service -----------------------------------------------------------------------
    @work(exclusive=True, group="service", exit_on_error=True)
    async def run_service(self) -> None:
        cfg = self.config
        spec = TableSpec(
            log=cfg.log,
            variant=cfg.variant,
            players=cfg.players,
            first=cfg.first,
            mode=cfg.mode,
            clock=cfg.clock,
            new_game=cfg.new_game,
            round=cfg.round,
            division=cfg.division,
            table=cfg.table,
            event=cfg.event,
            event_id=cfg.event_id,
        )
        try:
            session = open_table(spec, timeline=cfg.timeline)
            if cfg.log.exists():  # a resumed scoresheet: which turns await a score
                self.sheet.book = TurnBook.rebuild(load_log(cfg.log)[0])
        except (SessionError, EngineError, OSError) as exc:
            self.exit(2, message=f"rackclock table: {exc}")
            return
        self.session = session
        self.service, self.emulated = session.service, session.emulated
        self.service.add_listener(self._on_commit)
        if not await open_or_exit(self, session, "table"):
            return
        if cfg.assignment is not None:
            self.run_worker(follow_assignments(cfg.assignment, self.assigned), group="assignment")
        try:
            if starts_a_game(self.service.state, new_game=cfg.new_game):
                self.show_start(spec)
            async for update in self.service.subscribe():
                self.on_update(update)
        finally:
            await session.stop()

    def show_start(self, spec: TableSpec) -> None:
        """The start screen for the game ``spec`` describes."""
        if self.session is None:  # shown only once the table is up
            return
        self._start = start_screen(spec, self.session.clock, self.config.clock_keys)
        self.draw()
        self.push_screen(self._start)

    def game_begun(self) -> None:
        """The clocks show the game begun, no longer the start screen's reading."""
        self.draw()

    def _on_commit(self, update: Update) -> None:
        """Every commit, in order (never dropped): keep the scoresheet's turn book."""
        if update.event is not None and update.before is not None:
            self.sheet.book.observe(update.before, update.event, update.state)

    def on_update(self, update: Update) -> None:
        """Mirror the service's state on the screen."""
        self.state = update.state
        self.link = update.status
        if update.refused is not None:
            self.show_ack(update.refused)
        if self.scoresheet():
            for zero in self.sheet.auto_zeros(self.state):  # a pass scores 0 by itself
                self.submit(zero)
        self.draw()

    def scoresheet(self) -> bool:
        """Whether the game shown, or the one its start screen offers, is kept on a
        scoresheet (a play is typed as its first letter and score) rather than a board."""
        if self._start is not None:
            return self._start.mode == "scoresheet"
        return self.state.variant is not None and self.state.mode == "scoresheet"

    def submit(self, event: Event) -> None:
        """Send a command to the service and show its answer."""
        if self.service is None:
            return
        fut = self.service.send(event, "keyboard")
        fut.add_done_callback(lambda f: self.show_ack(f.result()) if not f.exception() else None)

    def show_ack(self, ack: Ack) -> None:
        """Show what became of the last command. A refusal, with its reason and rule,
        stays until the next keystroke: a later answer does not replace it."""
        self.last_ack = ack
        fb = self.query_one("#feedback", Static)
        if ack.accepted:
            if not self._keep_refusal:
                said = event_words(ack.event, self.state.players)
                fb.update(f"[green]ok[/green]: {escape(said)}")
        else:
            self._keep_refusal = True
            fb.update(f"[red]refused[/red]: {escape(ack.reason)} [dim]({escape(ack.rule)})[/dim]")

    # --- drawing -------------------------------------------------------------------------------
    def draw_link(self, now: int) -> None:
        """The clock device's link: an offline clock is an alarm, never a quiet line."""
        with contextlib.suppress(NoMatches):  # shutting down
            show_link(self.query_one("#link", Static), self.link, now)

    def draw_clocks(self) -> None:
        st = self.state
        now = self.config.timeline.now_ms()
        self.draw_link(now)
        start, session = self._start, self.session
        if st.variant is None and (start is None or session is None):
            return
        keys = (key_label(self.config.clock_keys[0]), key_label(self.config.clock_keys[1]))
        for seat in (0, 1):
            try:
                clock = self.query_one(f"#p{seat}", PlayerClock)
                # The interval can tick while the app shuts down and its widgets are removed.
                clock.query_one(".name")
            except NoMatches:
                return
            if start is not None and session is not None:
                # behind the start screen: the game to come, at its starting time
                clock.waiting(session.spec.players[seat], start.time, keys[seat])
                continue
            clock.show(
                st.players[seat],
                st.scores[seat],
                st.clock.remaining(seat, now),
                running=st.clock.running == seat,
                neutral=st.clock.neutral,
                penalty=penalty_counted(st, seat, now),
                turn=st.turn == seat and st.phase is Phase.PLAYING,
                key=keys[seat],
                penalty_rate=penalty_rate(st.variant) if st.variant is not None else "",
            )

    def draw(self) -> None:
        st = self.state
        line = self.query_one("#command", CommandInput)
        line.placeholder = _PLACEHOLDER["scoresheet" if self.scoresheet() else "board"]
        self.show_rules()
        self.draw_clocks()
        self.ticker.arm()
        if self._start is not None or st.phase is Phase.NOT_STARTED:
            self._draw_waiting()
            return
        phase = st.describe_phase()
        if st.composing is not None:
            comp = st.composing
            phase += f" | on the board: {comp.move} ({comp.declared or comp.computed})"
        if st.last is not None and st.last.window_open and st.phase in _CHALLENGEABLE:
            phase += f" | {st.last.move or 'last play'} may be challenged"
        step = next_step(st) or self._scoring_step()
        if step:
            phase += f" | {step}"
        self.query_one("#phase", Static).update(escape(phase))
        self.query_one("#moves", Static).update(history_lines(st))
        self.query_one("#rulings", Static).update(ruling_lines(st))
        pending = st.composing.placement.new if st.composing and st.composing.placement else ()
        self.query_one("#board", BoardView).show(st.board, pending)
        if st.phase is Phase.CHALLENGE and st.last is not None and not self._adjudicating:
            self._adjudicating = True
            self.push_screen(
                AdjudicationScreen(st.last.challenged, self.config.words), self._verdict
            )
        if st.phase is Phase.OVER and not all(st.signed):
            if self._summary is None:
                self._summary = SummaryScreen(st, lambda p: self.submit(Signed(player=p)))
                self.push_screen(self._summary)
            else:
                self._summary.refresh_state(st)
        elif self._summary is not None and all(st.signed):
            self._summary.refresh_state(st)
        self._offer()

    def _scoring_step(self) -> str:
        """Scoresheet mode: the ended turn awaiting its score, and what to type."""
        target = self.sheet.target(self.state) if self._keeps_sheet() else None
        if target is None or target.index > self.state.presses[target.player]:
            return ""
        name = self.state.players[target.player]
        return f"score {name}'s turn {target.index}: its first letter and score (Q24), - for none"

    def _draw_waiting(self) -> None:
        """Behind the start screen: the game to come, nothing of the one before it (after
        ctrl+N its moves, rulings and signatures are the finished game's, not this one's)."""
        key = " or ".join(key_label(k).split(" / ")[0] for k in self.config.clock_keys)
        self.query_one("#phase", Static).update(
            escape(f"a new game: a clock key ({key}) starts it")
        )
        self.query_one("#moves", Static).update("(no moves yet)")
        self.query_one("#rulings", Static).update("(no rulings yet)")
        self.query_one("#board", BoardView).show(None, waiting=True)

    # --- the next round's game ----------------------------------------------------------------
    @property
    def offered(self) -> Assignment | None:
        """The next game the event offers this table, once its assignment has come (the
        players see it when both have signed this one); None before."""
        return self._offered

    def assigned(self, game: Assignment) -> None:
        """An assignment for this table arrived (``--assignment mqtt://...``): a game
        other than the one it plays is offered once this one is over and signed."""
        if self.session is None or same_game(self.session.spec, game):
            return
        self._offered = game
        self._offer()

    def _offer(self) -> None:
        game = self._offered
        if game is None or game is self._offer_shown or self._start is not None:
            return
        if not next_game_ready(self.state):
            return
        self._offer_shown = game
        where = f"round {game.round}" + (f", division {game.division}" if game.division else "")
        text = (
            f"ctrl+N: the next game here, {where}: {game.players[0]} (starts) v {game.players[1]}"
        )
        self.query_one("#feedback", Static).update(escape(text))
        if self._summary is not None and self._summary.is_attached:
            self._summary.show_next(escape(text))

    def _verdict(self, ok: bool | None) -> None:
        self._adjudicating = False
        if ok is not None:
            by = "word judge" if self.config.words is not None else "adjudicator"
            self.submit(Adjudicated(acceptable=ok, by=by))

    # --- keys and the command line ------------------------------------------------------------
    def action_press(self, side: int) -> None:
        """A player's clock key: the emulated clock's button, or a keyboard press.
        Once the game is over, the key signs the result: the service turns a player's
        press into their signature, on every clock (the summary screen's own bindings
        never see the key: these app bindings have priority)."""
        if self.press_start():
            return
        if self.emulated is not None:
            self.emulated.press(side)
        elif self.service is not None:
            from engine.events import ClockPressed

            self.submit(ClockPressed(player=side))

    def action_toggle_board(self) -> None:
        board = self.query_one("#board")
        board.display = not board.display
        self.query_one("#moves-pane").display = not board.display

    def action_help(self) -> None:
        """Every key and command, with examples (F12, or help / ? typed)."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F12 again closes it
        else:
            commands = SCORESHEET_COMMANDS if self.scoresheet() else COMMANDS
            self.push_screen(HelpScreen(help_text("table", commands, self.config.clock_keys)))

    async def action_quit(self) -> None:
        """Quit; mid-game, or before both players have signed, ask first and say how
        to come back."""
        st = self.state
        resume = f"rackclock table --log {self.config.log}"
        quit_or_ask(self, st.phase, resume, unsigned=not all(st.signed))

    def action_next_game(self) -> None:
        """After the end: the next game, the same players in swapped seats (the one who
        went second now starts), from its start screen."""
        if self.session is None or self._start is not None:
            return
        if self.state.phase is not Phase.OVER:
            self.query_one("#feedback", Static).update(
                "ctrl+N starts the next game once this one is over (played out or resigned)"
            )
            return
        old = self.session.spec
        if self._offered is not None and next_game_ready(self.state):
            # the next round's game the director assigned to this table
            spec = assigned(old, self._offered)
            self._offered = None
        else:
            try:
                spec = next_game(old)
            except (OSError, EngineError) as exc:
                self.query_one("#feedback", Static).update(
                    escape(f"refused: cannot read the finished game from its log: {exc}")
                )
                return
        self.session.spec = spec
        self.config.players = spec.players
        self.query_one("#feedback", Static).update("")
        if self._summary is not None and self._summary.is_attached:
            self._summary.dismiss()
        self._summary = None
        self.show_start(spec)

    def action_toggle_contrast(self) -> None:
        self.theme = "textual-dark" if self.theme == HIGH_CONTRAST.name else HIGH_CONTRAST.name

    @on(Input.Changed, "#command")
    def live_check(self, event: Input.Changed) -> None:
        fb = self.query_one("#feedback", Static)
        self._keep_refusal = False  # a keystroke: the refusal has been seen
        if not event.value.strip():
            fb.update("")
            return
        if self._keeps_sheet():
            try:
                entry = self.sheet.read(event.value, self.state)
            except CommandError as exc:
                fb.update(f"[yellow]{escape(str(exc))}[/yellow]")
                return
            fb.update(f"Enter: {escape(self.sheet.said(entry, self.state))}")
            return
        try:
            result = interpret(event.value, self.state)
        except CommandError as exc:
            fb.update(f"[yellow]{escape(str(exc))}[/yellow]")
            return
        if isinstance(result, HelpWanted):
            fb.update("Enter: the help (every command, with an example)")
        elif isinstance(result, Preview):
            pl = result.placement
            words = ", ".join(f"{w} {s}" for w, s in zip(pl.words, pl.word_scores, strict=True))
            bonus = " + 50" if pl.bingo else ""
            fb.update(
                f"[green]{escape(result.event.move)}[/green]: {escape(words)}{bonus} = "
                f"[b]{pl.score}[/b]  (Enter lays it, then press your clock)"
            )
        else:
            fb.update(f"Enter: {escape(event_words(result, self.state.players))}")

    def _keeps_sheet(self) -> bool:
        """A game on (not its start screen) kept on a scoresheet: what is typed is read
        as the scorekeeper's screen reads it."""
        return self._start is None and self.scoresheet()

    @on(Input.Submitted, "#command")
    def act(self, event: Input.Submitted) -> None:
        try:
            result: Event | Preview | HelpWanted = (
                self.sheet.read(event.value, self.state)
                if self._keeps_sheet()
                else interpret(event.value, self.state)
            )
        except CommandError as exc:
            self.query_one("#feedback", Static).update(f"[red]{escape(str(exc))}[/red]")
            # the refused line is selected: the next key replaces it, arrows edit it
            event.input.select_all()
            return
        # Clear the line without a Changed message: its live check would erase the answer
        # (ok, or refused with the reason) that the service may already have shown.
        with event.input.prevent(Input.Changed):
            event.input.value = ""
        self.query_one("#feedback", Static).update("")
        self._keep_refusal = False
        if isinstance(result, HelpWanted):
            self.action_help()
        elif isinstance(result, Preview):
            self.submit(result.event)
        elif self._keeps_sheet():
            self.sheet.sent(result)
            self.submit(result)
        elif isinstance(result, Challenged) and not result.words and self.state.last is not None:
            self.push_screen(ChallengeScreen(self.state.last.words), self._challenge_words)
        else:
            self.submit(result)

    def _challenge_words(self, words: tuple[str, ...] | None) -> None:
        last = self.state.last
        if words and last is not None:
            self.submit(Challenged(player=1 - last.player, words=words))
