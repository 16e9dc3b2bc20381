"""``rackclock scorekeeper``: the non-playing scorekeeper's screen (Toronto speed play).

TOR-1: a scorekeeper who does not play records, for every turn, the first letter
of the play, its score and the running total, and may lag behind play and
catch up later. This screen runs the table's clock service in-process (on an
emulated clock driven by the players' keys, or on a real clock device) in
scoresheet mode, and keeps the scoresheet:

* ``q24`` then Enter records the turn being scored (first letter Q, 24 points);
  ``-`` or ``0`` a scoreless turn; ``2:b12`` (or Tab, then ``b12``) records for
  the other player. The turn being scored is the oldest one not yet scored,
  whoever played it; passes, exchanges and turns after the no-more-plays cutoff
  (TOR-8) are recorded as 0 by themselves once the scorekeeper reaches them.
* Both clocks show large, run into overtime and preview the time penalty
  (TOR-7); after -1:01 a player may make no more plays (TOR-8, TOR-9).
* Holds, challenges (TOR-5, TOR-6), verdicts, passes and pauses have keys and
  typed commands; every ruling is listed with the rule it applies.

Keys: ``[``/F1 and ``]``/F2 are the players' clocks (they sign the result once
the game is over), F3 hold, F4 release, F5 challenge, F6 valid, F7 invalid,
F8 pass, F9 pause/resume, F10 high contrast, Tab the other player's turn,
Esc back to the oldest turn, ctrl+q quits. Typed commands are those of the
table terminal (:mod:`terminal_ui.commands`): ``hold``, ``release``,
``challenge [WORD...]``, ``valid``, ``invalid``, ``pass``, ``exchange N``,
``neutral REASON``, ``resume``, ``dispute [N]``, ``racks AEI BCD`` (``-`` for an
empty rack; also ``end AEI BCD``), ``resign``.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Digits, Input, Label, Static

from clock.device import ClockDevice
from clock.emulated import EmulatedClock
from clock.service import Ack, TableService, Update
from clock.timeline import MonotonicTimeline, Timeline
from engine.errors import EngineError, Refusal
from engine.eventlog import EventLog
from engine.events import (
    Adjudicated,
    Challenged,
    ClockPressed,
    EndRacks,
    Event,
    Exchanged,
    GameStarted,
    HoldCalled,
    HoldReleased,
    Neutralized,
    Passed,
    Resumed,
    Signed,
    TurnScored,
)
from engine.machine import apply, penalty
from engine.state import GameState, Phase, Ruling, Turn
from engine.variant import load_variant
from terminal_ui.commands import CommandError, Preview, interpret
from terminal_ui.table_app import HIGH_CONTRAST
from terminal_ui.widgets import clock_text

__all__ = [
    "Entry",
    "ScorekeeperApp",
    "ScorekeeperConfig",
    "TurnBook",
    "TurnRef",
    "default_log_path",
    "parse_entry",
]

_KEYS = ("\\[ / F1", "] / F2")
"""The players' clock keys, as markup."""
_SCORING = (
    Phase.PLAYING,
    Phase.HOLD,
    Phase.CHALLENGE,
    Phase.SCORE_DISPUTE,
    Phase.OVERDRAW,
    Phase.BLANK_DEMANDED,
    Phase.OUT_PLAY,
)
"""Phases in which the engine takes a turn's score."""


def default_log_path() -> Path:
    """A new log under the user's data directory (``$XDG_DATA_HOME/rackclock/games``)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "rackclock" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while (folder / f"scorekeeper-{n:04d}.sqlite").exists():
        n += 1
    return folder / f"scorekeeper-{n:04d}.sqlite"


@dataclass
class ScorekeeperConfig:
    """How the scorekeeper's screen was started."""

    log: Path
    variant: str = "toronto-speed"
    players: tuple[str, str] = ("Player 1", "Player 2")
    first: int = 0
    device: ClockDevice | None = None
    """A real clock; None runs the emulated clock driven by the players' keys."""
    high_contrast: bool = False
    timeline: Timeline = field(default_factory=MonotonicTimeline)
    """Where the table's time comes from (a FakeTimeline in tests)."""
    heartbeat_ms: int = 200
    """How often the service writes its liveness file (0 = never)."""


# --- the scoresheet entry (pure) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One line typed for the scoresheet: ``q24``, ``24``, ``-``, ``0``, ``2:b12``."""

    player: int | None
    """0 or 1 when a ``1:``/``2:`` prefix names the player; None for the turn being scored."""
    letter: str
    """The play's first letter (upper case), or empty."""
    score: int
    """The turn's score."""


_ENTRY = re.compile(
    r"^\s*(?:(?P<who>[12])\s*:\s*)?"
    r"(?:(?P<letter>[A-Za-z])\s*(?P<score>\d{1,4})|(?P<bare>\d{1,4})|(?P<none>-))\s*$"
)


def parse_entry(text: str) -> Entry | None:
    """The scoresheet entry ``text`` stands for, or None when it is not one (a command)."""
    m = _ENTRY.match(text)
    if m is None:
        return None
    who = m.group("who")
    player = int(who) - 1 if who else None
    if m.group("none"):
        return Entry(player, "", 0)
    score = m.group("score") or m.group("bare")
    return Entry(player, (m.group("letter") or "").upper(), int(score))


# --- which turns await a score (pure) --------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnRef:
    """One ended turn: whose, which of theirs (1-based) and how it ended."""

    player: int
    index: int
    kind: str
    """``play`` (the clock was pressed), ``pass``, ``exchange``, or ``locked`` (pressed
    after the player's clock passed the no-more-plays cutoff: it scores 0, TOR-8)."""


_AUTO_ZERO = ("pass", "exchange", "locked")


@dataclass
class TurnBook:
    """The order in which turns ended, so the oldest unscored one is scored first.

    The engine counts each player's ended turns (``presses``) and scored turns
    (``scored``); this book adds the order across players and how each ended.
    """

    turns: list[TurnRef] = field(default_factory=list)

    def observe(self, before: GameState, event: Event, after: GameState) -> None:
        """Note the turn ``event`` ended, if any."""
        if isinstance(event, GameStarted):
            self.turns.clear()
            return
        for p in (0, 1):
            if after.presses[p] > before.presses[p]:
                if after.locked[p]:
                    kind = "locked"
                elif isinstance(event, Passed):
                    kind = "pass"
                elif isinstance(event, Exchanged):
                    kind = "exchange"
                else:
                    kind = "play"
                self.turns.append(TurnRef(p, after.presses[p], kind))

    @classmethod
    def rebuild(cls, events: list[tuple[int, Event]]) -> TurnBook:
        """The book of a resumed log, from its events."""
        book = cls()
        st = GameState()
        for _, ev in events:
            try:
                new = apply(st, ev)
            except Refusal:
                continue
            book.observe(st, ev, new)
            st = new
        return book

    def kind(self, player: int, index: int) -> str:
        """How ``player``'s turn ``index`` ended (``play`` when unknown)."""
        for ref in self.turns:
            if ref.player == player and ref.index == index:
                return ref.kind
        return "play"

    def pending(self, state: GameState) -> list[TurnRef]:
        """Ended turns not yet scored, oldest first."""
        out = [r for r in self.turns if r.index > state.scored[r.player]]
        for p in (0, 1):  # turns the book missed (it never should): after the rest
            known = {r.index for r in out if r.player == p}
            for i in range(state.scored[p] + 1, state.presses[p] + 1):
                if i not in known:
                    out.append(TurnRef(p, i, "play"))
        return out

    def target(self, state: GameState, player: int | None = None) -> TurnRef | None:
        """The turn the next entry scores: ``player``'s next, or the oldest unscored
        turn, or else the turn being played; None when there is none."""
        if state.phase not in _SCORING:
            return None
        if player is not None:
            index = state.scored[player] + 1
            if index <= state.presses[player]:
                return TurnRef(player, index, self.kind(player, index))
            if state.turn == player:
                return TurnRef(player, index, "in play")
            return None
        pending = self.pending(state)
        if pending:
            return pending[0]
        p = state.turn
        if state.scored[p] == state.presses[p]:
            return TurnRef(p, state.presses[p] + 1, "in play")
        return None


# --- text for the panels (pure) --------------------------------------------------------


def short_rule(rule: str) -> str:
    """A rule citation short enough for a narrow panel: ``TOR-8``, ``NASPA IV.J``."""
    head = rule.split(":", 1)[0].strip()
    if head.count("(") != head.count(")"):
        head = head.split("(", 1)[0].strip()
    return head[:28]


def sheet_lines(state: GameState, book: TurnBook, player: int, target: TurnRef | None) -> str:
    """One player's scoresheet: turn, first letter, score, total; unscored turns last."""
    rows: list[str] = []
    n = 0
    for h in state.history:
        if h.player != player:
            continue
        label = _sheet_label(h, n + 1)
        if label is None:
            continue
        if h.kind == "scored":
            n += 1
        rows.append(escape(f"{label:<6}{h.score:+5d}{h.total:6d}"))
    for ref in book.pending(state):
        if ref.player != player:
            continue
        mark = ">" if target == ref else " "
        if ref.kind == "play":
            rows.append(f"[b]{mark}{ref.index:>2} ?  unscored[/b]")
        else:
            rows.append(f"{mark}{ref.index:>2} -  {ref.kind}")
    if target is not None and target.player == player and target.kind == "in play":
        rows.append(f"[b]>{target.index:>2} ?  in play[/b]")
    return "\n".join(rows) or "(no turns yet)"


def _sheet_label(h: Turn, n: int) -> str | None:
    if h.kind == "scored":
        return f"{n:>3} {h.text or '-'}"
    return {
        "withdrawn": "  void",
        "lost_turn": "  lost",
        "penalty": "  time",
        "end_racks": "  rack",
        "adjusted": "  adj",
    }.get(h.kind)


def ruling_text(rulings: tuple[Ruling, ...], last: int = 6) -> str:
    """The rulings, newest first, each with its rule."""
    rows = [
        f"[b]{escape(short_rule(r.rule))}[/b] {escape(r.text)}" for r in reversed(rulings[-last:])
    ]
    return "\n".join(rows) or "(no rulings yet)"


def result_lines(state: GameState) -> list[str]:
    """The result summary (markup)."""
    res = state.result
    if res is None:
        return ["(no result yet)"]
    names = state.players
    who = "a tie" if res.winner is None else f"{escape(names[res.winner])} wins"
    lines = [
        f"[b]{escape(names[0])} {res.scores[0]} - {res.scores[1]} {escape(names[1])}[/b]: "
        f"{who} ({escape(res.reason)})",
        f"time penalties -{res.penalties[0]} / -{res.penalties[1]}; "
        f"racks {res.rack_adjustments[0]:+d} / {res.rack_adjustments[1]:+d}",
    ]
    v = state.variant
    if v is not None and not v.spread_recorded:
        lines.append(
            f"spread {res.spread} (not recorded: {escape(short_rule(v.source('spread_recorded')))})"
        )
    else:
        lines.append(f"spread {res.spread}")
    return lines


# --- widgets ---------------------------------------------------------------------------


class SheetClock(Vertical):
    """One player's name, score and clock (large digits), and its status.

    Classes: ``-running``, ``-overtime``, ``-locked``, ``-neutral``.
    """

    DEFAULT_CSS = """
    SheetClock { width: 1fr; height: auto; border: round $panel; padding: 0 1; }
    SheetClock.-running { border: heavy $success; }
    SheetClock.-neutral { border: round $warning; }
    SheetClock.-overtime { border: heavy $error; }
    SheetClock.-overtime Digits { color: $error; }
    SheetClock.-overtime .status { color: $error; text-style: bold; }
    SheetClock.-locked .status { background: $error; color: $background; }
    SheetClock .name { text-style: bold; }
    SheetClock Digits { width: auto; }
    SheetClock .status { color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static(" ", classes="name")
        yield Digits("3:00", classes="time")
        yield Static(" ", classes="status")

    def show(self, state: GameState, seat: int, now: int) -> None:
        """Draw ``seat``'s clock as of ``now``."""
        clock = state.clock
        left = clock.remaining(seat, now)
        running = clock.running == seat
        locked = state.locked[seat]
        pen = penalty(state, seat, now)
        self.query_one(".name", Static).update(
            f"{seat + 1} {escape(state.players[seat])}  [b]{state.scores[seat]}[/b]"
            f"   [dim]clock {_KEYS[seat]}[/dim]"
        )
        self.query_one(Digits).update(clock_text(left))
        status: list[str] = []
        if locked:
            status.append("NO MORE PLAYS")
        elif left < 0:
            status.append("OVERTIME")
        if left < 0:
            status.append(f"penalty -{pen}")
        if running:
            status.append("running")
        elif clock.neutral and clock.resume_to == seat:
            status.append("paused")
        elif state.turn == seat and state.phase is Phase.PLAYING:
            status.append("to play")
        self.query_one(".status", Static).update(escape(" · ".join(status)) or " ")
        self.set_class(running, "-running")
        self.set_class(left < 0, "-overtime")
        self.set_class(locked, "-locked")
        self.set_class(bool(clock.neutral), "-neutral")


class EntryInput(Input):
    """The entry line. ``[`` and ``]`` are the players' clock keys even while typing
    (a focused input takes printable keys before any binding sees them); Tab scores
    the other player's turn, Esc goes back to the oldest unscored turn."""

    CLOCK_KEYS: ClassVar[dict[str, int]] = {"[": 0, "]": 1}

    async def _on_key(self, event: events.Key) -> None:
        side = self.CLOCK_KEYS.get(event.character or "")
        if side is not None:
            event.stop()
            event.prevent_default()
            await self.app.run_action(f"press({side})")
            return
        if event.key in ("tab", "escape"):
            event.stop()
            event.prevent_default()
            await self.app.run_action("other_player" if event.key == "tab" else "auto_player")
            return
        await super()._on_key(event)


class ResultScreen(ModalScreen[None]):
    """The end of the game: the result, and the players' signatures (their clock keys)."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen #dialog {
        width: 76; height: auto; border: thick $primary; background: $surface; padding: 1 2;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]Game over[/b]")
            yield Static("", id="result")
            yield Static("", id="signed")
            yield Label(
                "[dim]Players confirm with their clock key ([ left, ] right). Esc closes.[/dim]"
            )

    def on_mount(self) -> None:
        app = self.app
        assert isinstance(app, ScorekeeperApp)
        self.refresh_state(app.state)

    def refresh_state(self, st: GameState) -> None:
        """Show the result and who has signed."""
        self.query_one("#result", Static).update("\n".join(result_lines(st)))
        marks = [
            f"{escape(st.players[i])}: {'signed' if st.signed[i] else 'not yet signed'}"
            for i in (0, 1)
        ]
        self.query_one("#signed", Static).update("   ".join(marks))


# --- the app ---------------------------------------------------------------------------


class ScorekeeperApp(App[int]):
    """The scorekeeper's screen."""

    TITLE = "rackclock scorekeeper"
    CSS = """
    #clocks { height: auto; }
    #phase { height: 1; padding: 0 1; text-style: bold; background: $boost; }
    #target { height: 1; padding: 0 1; }
    #entry-row { height: 1; }
    #prompt { width: auto; padding: 0 0 0 1; text-style: bold; color: $primary; }
    #entry { border: none; height: 1; padding: 0 1; width: 1fr; background: $boost; }
    #entry:focus { border: none; background-tint: $foreground 8%; }
    #feedback { height: 2; padding: 0 1; }
    #logs { height: 1fr; }
    .sheet { width: 22; height: 1fr; border: round $panel; padding: 0 1; }
    #rulings { width: 1fr; height: 1fr; border: round $panel; padding: 0 1; }
    #keys { height: 2; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket,f1", "press(0)", "Left clock", priority=True),
        Binding("right_square_bracket,f2", "press(1)", "Right clock", priority=True),
        Binding("f3", "hold", "Hold", priority=True),
        Binding("f4", "release", "Release", priority=True),
        Binding("f5", "challenge", "Challenge", priority=True),
        Binding("f6", "verdict(True)", "Valid", priority=True),
        Binding("f7", "verdict(False)", "Invalid", priority=True),
        Binding("f8", "pass_turn", "Pass", priority=True),
        Binding("f9", "pause", "Pause/resume", priority=True),
        Binding("f10", "toggle_contrast", "Contrast", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, config: ScorekeeperConfig) -> None:
        super().__init__()
        self.config = config
        self.service: TableService | None = None
        self.emulated: EmulatedClock | None = None
        self.state = GameState()
        """The latest state drawn."""
        self.book = TurnBook()
        """The order of the ended turns."""
        self.chosen: int | None = None
        """The player chosen with Tab for the next entry; None = the oldest turn."""
        self.last_ack: Ack | None = None
        """The answer to the last command."""
        self._committed = GameState()
        self._auto_sent: set[tuple[int, int, int]] = set()
        self._result: ResultScreen | None = None

    # --- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="clocks"):
            yield SheetClock(id="p0")
            yield SheetClock(id="p1")
        yield Static(" ", id="phase")
        yield Static(" ", id="target")
        with Horizontal(id="entry-row"):
            yield Label("score >", id="prompt")
            yield EntryInput(
                placeholder="q24 Enter · - pass · 2:b12 · hold, challenge...", id="entry"
            )
        yield Static(" ", id="feedback")
        with Horizontal(id="logs"):
            yield Static("", id="sheet0", classes="sheet")
            yield Static("", id="sheet1", classes="sheet")
            yield Static("", id="rulings")
        yield Static(
            "[b]\\[[/b] [b]][/b] clocks  [b]F3[/b] hold [b]F4[/b] release [b]F5[/b] challenge "
            "[b]F6[/b] valid [b]F7[/b] invalid [b]F8[/b] pass [b]F9[/b] pause  "
            "[b]F10[/b] contrast  [b]Tab[/b] other player  [b]racks AEI BCD[/b] ends",
            id="keys",
        )

    def on_mount(self) -> None:
        self.register_theme(HIGH_CONTRAST)
        if self.config.high_contrast:
            self.theme = HIGH_CONTRAST.name
        self.query_one("#sheet0").border_title = "1"
        self.query_one("#sheet1").border_title = "2"
        self.query_one("#rulings").border_title = "rulings (newest first)"
        self.query_one("#entry", Input).focus()
        self.run_service()
        # The clocks are derived from the state's stamps at each redraw; nothing counts.
        self.set_interval(0.1, self.draw_clocks)

    # --- the service -------------------------------------------------------------------
    @work(exclusive=True, group="service", exit_on_error=True)
    async def run_service(self) -> None:
        cfg = self.config
        if cfg.log.exists():
            with EventLog.open(cfg.log, create=False) as log:
                self.book = TurnBook.rebuild(list(log.events()))
        device = cfg.device
        if device is None:
            try:
                initial = load_variant(cfg.variant).initial_ms
            except EngineError:
                initial = 180_000  # the start below is refused and says why
            self.emulated = EmulatedClock(cfg.timeline, initial_ms=initial)
            device = self.emulated
        self.service = TableService(
            cfg.log, timeline=cfg.timeline, device=device, heartbeat_ms=cfg.heartbeat_ms
        )
        await self.service.start()
        self._committed = self.service.state
        self.service.add_listener(self._on_commit)
        sub = self.service.subscribe()
        if self.service.state.phase is Phase.NOT_STARTED:
            ack = await self.service.submit(
                GameStarted(
                    variant=cfg.variant, players=cfg.players, first=cfg.first, mode="scoresheet"
                )
            )
            self.show_ack(ack)
        try:
            async for update in sub:
                self.on_update(update)
        finally:
            await self.service.stop()

    def _on_commit(self, update: Update) -> None:
        """Every commit, in order (never dropped): keep the turn book."""
        if update.event is not None and update.seq is not None:
            self.book.observe(self._committed, update.event, update.state)
            self._committed = update.state

    def on_update(self, update: Update) -> None:
        """Mirror the service's state on the screen."""
        self.state = update.state
        if update.refused is not None:
            self.show_ack(update.refused)
        self._auto_score()
        self.draw()

    def _auto_score(self) -> None:
        """Passes, exchanges and locked-out turns score 0: record them once reached."""
        st = self.state
        if st.phase not in _SCORING:
            return
        for p in (0, 1):
            index = st.scored[p] + 1
            if index > st.presses[p] or self.book.kind(p, index) not in _AUTO_ZERO:
                continue
            key = (st.games, p, index)
            if key not in self._auto_sent:
                self._auto_sent.add(key)
                self.submit(TurnScored(player=p, score=0))

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
            fb.update(f"[green]ok[/green]: {escape(_describe(ack.event, self.state))}")
        else:
            fb.update(f"[red]refused[/red]: {escape(ack.reason)} [dim]({escape(ack.rule)})[/dim]")

    def say(self, text: str, style: str = "yellow") -> None:
        """A message of the screen's own (not from the service)."""
        self.query_one("#feedback", Static).update(f"[{style}]{escape(text)}[/{style}]")

    # --- drawing -----------------------------------------------------------------------
    def target(self) -> TurnRef | None:
        """The turn the next entry scores."""
        return self.book.target(self.state, self.chosen)

    def draw_clocks(self) -> None:
        st = self.state
        if st.variant is None:
            return
        now = self.config.timeline.now_ms()
        with contextlib.suppress(NoMatches):  # the screen is closing
            for seat in (0, 1):
                self.query_one(f"#p{seat}", SheetClock).show(st, seat, now)

    def draw(self) -> None:
        st = self.state
        if st.variant is None:
            return
        self.draw_clocks()
        phase = st.describe_phase()
        last = st.last
        if st.phase is Phase.CHALLENGE:
            phase += " (F6 valid / F7 invalid)"
        elif st.phase is Phase.HOLD:
            phase += " (F4 release / F5 challenge)"
        elif st.phase is Phase.END_RACKS:
            phase += " (racks AEI BCD; - for none)"
        elif st.phase is Phase.OVER and st.result is not None:
            res = st.result
            who = "a tie" if res.winner is None else f"{st.players[res.winner]} wins"
            phase += f": {st.players[0]} {res.scores[0]} - {res.scores[1]} {st.players[1]}, {who}"
        elif last is not None and last.window_open and st.phase is Phase.PLAYING:
            phase += (
                f" | {st.players[1 - last.player]} may hold or challenge "
                f"{st.players[last.player]}'s turn {last.index}"
            )
        self.query_one("#phase", Static).update(escape(phase))
        self.query_one("#target", Static).update(self._target_text())
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
        if st.phase is Phase.OVER:
            if self._result is None:
                self._result = ResultScreen()
                self.push_screen(self._result, self._result_closed)
            elif self._result.is_attached:
                self._result.refresh_state(st)

    def _result_closed(self, _: None) -> None:
        self.query_one("#entry", Input).focus()

    def _target_text(self) -> str:
        st = self.state
        target = self.target()
        pending = self.book.pending(st)
        if target is None:
            if self.chosen is not None:
                return (
                    f"{escape(st.players[self.chosen])} has no turn to score "
                    "[dim](Esc: back to the oldest)[/dim]"
                )
            if st.phase in (Phase.END_RACKS, Phase.OVER):
                missed = [r for r in pending if r.kind == "play"]
                return "game over" + (f": {len(missed)} turns were not scored" if missed else "")
            return "every turn is scored"
        name = escape(st.players[target.player])
        text = f"scoring [b]{target.player + 1} {name} turn {target.index}[/b]"
        if target.kind != "play":
            text += f" ({target.kind})"
        if st.voided[target.player] == target.index:
            text += " [red]withdrawn: scores 0[/red]"
        if self.chosen is not None:
            text += " [dim]· chosen with Tab, Esc: oldest[/dim]"
        else:
            behind = [r for r in pending if r != target]
            if behind:
                queue = ", ".join(f"{escape(st.players[r.player])} {r.index}" for r in behind[:3])
                text += f" · then {queue}"
            text += " [dim]· Tab: other player[/dim]"
        return text

    # --- the entry line ----------------------------------------------------------------
    @on(Input.Changed, "#entry")
    def live_check(self, event: Input.Changed) -> None:
        text = event.value.strip()
        if not text:
            return
        entry = parse_entry(text)
        if entry is not None:
            target = self._entry_target(entry)
            if target is None:
                self.say("no turn to score for that player")
            else:
                name = self.state.players[target.player]
                letter = entry.letter or "-"
                self.say(f"Enter: {name} turn {target.index}: {letter} {entry.score}", "green")
            return
        try:
            result = interpret(_alias(text), self.state, by="scorekeeper")
        except CommandError as exc:
            self.say(f"{exc} (or a score: q24, -, 2:b12)")
            return
        if isinstance(result, Preview):
            return
        self.say(f"Enter: {_describe(result, self.state)}", "green")

    @on(Input.Submitted, "#entry")
    def act(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        entry = parse_entry(text)
        if entry is not None:
            if self.record(entry):
                event.input.value = ""
            return
        try:
            result = interpret(_alias(text), self.state, by="scorekeeper")
        except CommandError as exc:
            self.say(str(exc), "red")
            return
        if isinstance(result, Preview):  # board mode only; never in scoresheet mode
            return
        if isinstance(result, EndRacks) and not self._may_end():
            event.input.value = ""  # the message says which turn to score first
            return
        event.input.value = ""
        self.submit(result)

    def _entry_target(self, entry: Entry) -> TurnRef | None:
        return self.book.target(
            self.state, entry.player if entry.player is not None else self.chosen
        )

    def record(self, entry: Entry) -> bool:
        """Score a turn; False (with the reason shown) when it cannot be."""
        st = self.state
        target = self._entry_target(entry)
        if target is None:
            who = st.players[entry.player] if entry.player is not None else "anyone"
            self.say(f"no turn of {who} to score now", "red")
            return False
        if target.kind == "locked" and entry.score and st.variant is not None:
            rule = st.variant.source("cutoff")
            self.say(
                f"{st.players[target.player]}'s turn {target.index} came after -1:01: "
                f"no more plays, it scores 0 ({rule})",
                "red",
            )
            return False
        self.submit(TurnScored(player=target.player, score=entry.score, first_letter=entry.letter))
        self.chosen = None
        return True

    def _may_end(self) -> bool:
        pending = [r for r in self.book.pending(self.state) if r.kind == "play"]
        if pending and self.state.phase is not Phase.END_RACKS:
            first = pending[0]
            self.say(
                f"score every turn before the racks: {self.state.players[first.player]} "
                f"turn {first.index} is not scored (TOR-1)",
                "red",
            )
            return False
        return True

    # --- actions -----------------------------------------------------------------------
    def action_press(self, side: int) -> None:
        """A player's clock key: the emulated clock's button; after the game, signing."""
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

    def action_toggle_contrast(self) -> None:
        self.theme = "textual-dark" if self.theme == HIGH_CONTRAST.name else HIGH_CONTRAST.name


def _alias(text: str) -> str:
    """The scorekeeper's own words for the table terminal's commands."""
    words = text.split()
    if words and words[0].lower() == "end":
        return " ".join(["racks", *words[1:]])
    return text


def _describe(event: Event, state: GameState) -> str:
    """An accepted command in words."""
    names = state.players
    if isinstance(event, TurnScored):
        letter = event.first_letter.upper() or "-"
        return f"{names[event.player]}: {letter} {event.score}"
    player = getattr(event, "player", None)
    kind = type(event).__name__
    if isinstance(player, int) and player in (0, 1):
        return f"{kind} ({names[player]})"
    return kind
