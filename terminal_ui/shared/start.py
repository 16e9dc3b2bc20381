"""The start and quit dialogs every table-side screen shares (the table terminal and
the scorekeeper): the game is shown before its clock runs, and quitting mid-game
asks first and says how to come back.

The clock starts only at a clock key, as at a real table: a screen that opened
with its clock running would cost the starting player every second spent
reading it (TOR-7 counts them in overtime). On a real clock, a press of its
buttons starts it too (the table service starts the game it was told comes next:
:meth:`~clock.table.service.TableService.expect_game`), and the screen closes as at a key.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from clock.device.clock_spec import ClockSpec, EmulatedSpec, NoClockSpec
from clock.log.log_files import load_log
from clock.table.session import TableSession, TableSpec
from clock.user_files import load_variant
from engine.clocktext import clock_text
from engine.errors import EngineError
from engine.events import GameStarted
from engine.rules.replay import split_games
from engine.rules.state import Phase
from terminal_ui.shared.keys import key_label
from terminal_ui.shared.link_status import show_link

__all__ = [
    "QuitScreen",
    "StartScreen",
    "StartsGames",
    "closing_words",
    "next_game",
    "open_or_exit",
    "quit_or_ask",
    "start_screen",
]


class StartScreen(ModalScreen[None]):
    """Before the game: who plays, under which rules and time control, who starts, the
    mode and the clock. The clock starts only when a clock key is pressed (the app's
    clock keys start the game and close this screen), as at a real table."""

    DEFAULT_CSS = """
    StartScreen { align: center middle; }
    StartScreen #dialog {
        width: 72; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    """

    def __init__(
        self,
        lines: list[tuple[str, str]],
        starts: str,
        key: str,
        time: str,
        rules: str,
        *,
        device: bool = False,
        mode: str = "board",
    ) -> None:
        super().__init__()
        self.mode = mode
        """``board`` or ``scoresheet``: how the game to come is kept (its help and hints)."""
        self.device = device
        """The table runs on a real clock, whose press starts the game too."""
        self.lines = lines
        self.starts = starts
        self.key = key
        self.time = time
        """The clocks' reading before the game starts: its variant's initial time."""
        self.rules = rules
        """The game's variant by its name (a variant file's own, not its path)."""
        # Set at the first clock key: the game is being started. A second key before
        # this screen closes must not become a press after GameStarted, which would
        # end the starting player's first turn at once.
        self.starting = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]A new game[/b]")
            width = max(len(name) for name, _ in self.lines)
            yield Static(
                Text("\n".join(f"{n:<{width}}  {v}" for n, v in self.lines)),
                id="start-facts",
            )
            # the clock's link, as the table shows it: an offline clock is no quiet line
            yield Static("", id="start-link")
            yield Label(
                Text(f"Press a clock key ({self.key}) to start {self.starts}'s clock.", "bold"),
                id="start-key",
            )
            if self.device:
                yield Label("A press on the clock starts it too.", id="start-device")
            yield Label("F12: help   ctrl+Q: quit", classes="hint")

    def on_mount(self) -> None:
        self.draw_link()
        # the offline time counts on while the players read (the link line says it)
        self.set_interval(1.0, self.draw_link)
        self.run_worker(self._started_on_the_clock(), group="clock-start", exclusive=True)

    def draw_link(self) -> None:
        """The clock's link under the facts: a clock that cannot be opened says so here,
        not only on the table behind this screen."""
        app = self.app
        if not isinstance(app, StartsGames) or app.session is None:
            return
        service = app.session.service
        with contextlib.suppress(NoMatches):  # closing
            show_link(
                self.query_one("#start-link", Static), service.status, service.timeline.now_ms()
            )

    async def _started_on_the_clock(self) -> None:
        """A press on the clock device started the game: close as a clock key does."""
        app = self.app
        if not isinstance(app, StartsGames) or app.session is None:
            return
        service = app.session.service
        updates = service.subscribe()
        try:
            async for update in updates:
                self.draw_link()
                if isinstance(update.event, GameStarted):
                    app.press_start()  # the game is begun: nothing more is sent
                    return
        finally:
            service.unsubscribe(updates)


class StartsGames(App[int]):
    """The table terminal and the scorekeeper: each shows a game on its start screen
    and starts it, with its clock, at the first clock key."""

    session: TableSession | None
    _start: StartScreen | None
    """The start screen while it is up: a clock key starts the game."""
    resume: str | None = None
    """The command that comes back to the game, once the quit dialog quit with the game
    kept (mid-game, or unsigned): the command line prints it after the screen closes."""

    def press_start(self) -> bool:
        """A clock key while the start screen is up starts the game, once; whether the
        start screen was up (the key is then no press)."""
        if self._start is None:
            return False
        if not self._start.starting:  # a second key while starting is no press
            self._start.starting = True
            self.run_worker(self.start_game(), group="start", exclusive=True)
        return True

    async def start_game(self) -> None:
        """The game starts, and with it the clock; then the start screen closes."""
        if self.session is None or self._start is None:
            return
        start = self._start
        try:
            await self.session.begin()
        finally:  # the screen stays the start screen until the game is begun
            self._start = None
        if start.is_attached:
            start.dismiss()
        self.game_begun()

    def game_begun(self) -> None:
        """What the app does once its game has begun and the start screen is closing."""


async def open_or_exit(app: App[Any], session: TableSession, program: str) -> bool:
    """Open the table's session for ``app`` (the table or the scorekeeper); when it is
    refused (LogHeld: another writer took the log after the command checked), let go
    of what it started and exit with one line. Whether it opened."""
    try:
        await session.open()
    except (EngineError, OSError) as exc:
        await session.stop()  # a service started before its publisher failed lets go
        app.exit(1, message=f"rackclock {program}: {exc}")
        return False
    return True


def start_screen(spec: TableSpec, clock: ClockSpec, clock_keys: tuple[str, str]) -> StartScreen:
    """The start screen of the game ``spec`` describes on the table's ``clock`` (the
    session's, parsed), its players' clock keys named.

    Raises:
        engine.errors.EngineError: The variant cannot be loaded.
    """
    variant = load_variant(spec.variant)
    mode = spec.mode or variant.mode
    time = clock_text(variant.initial_ms)
    lines = [
        ("Left", f"{spec.players[0]}  (clock key {key_label(clock_keys[0])})"),
        ("Right", f"{spec.players[1]}  (clock key {key_label(clock_keys[1])})"),
        ("Rules", variant.title),
        ("Time", f"{time} each"),
        ("Starts", spec.players[spec.first]),
        ("Mode", mode),
        ("Clock", clock.describe()),
        ("Log", str(spec.log)),
    ]
    if spec.round is not None:
        place = f"round {spec.round}" + (f", division {spec.division}" if spec.division else "")
        lines.insert(0, ("Event", place + (f", table {spec.table}" if spec.table else "")))
    either = " or ".join(key_label(k).split(" / ")[0] for k in clock_keys)
    device = not isinstance(clock, EmulatedSpec | NoClockSpec)
    return StartScreen(
        lines, spec.players[spec.first], either, time, variant.name, device=device, mode=mode
    )


def next_game(spec: TableSpec) -> TableSpec:
    """The game ctrl+N starts after the log's finished one: its players in swapped seats
    under its own rules and mode, read from its ``game_started`` (not the command
    line's defaults: a resumed log was started by another run, maybe under a variant
    file). The one who went second starts: in the swapped seats, the same index.
    It is a friendly rematch, not the event's: the round, division, table and event
    tags are dropped, or it would be logged as the same pairing again and ``event
    results`` would refuse it. (A table following an assignment is offered the next
    assigned game by its own path.)

    Raises:
        OSError: The log cannot be read.
        engine.errors.EngineError: It is not a game log.
    """
    games = split_games(load_log(spec.log)[0])
    started = games[-1][0][1] if games else None
    if not isinstance(started, GameStarted):  # no game in the log: the spec's own
        return untagged(replace(spec, players=(spec.players[1], spec.players[0]), new_game=True))
    return replace(
        untagged(spec),
        variant=started.variant,
        players=(started.players[1], started.players[0]),
        first=started.first,
        mode=started.mode,
        new_game=True,
    )


def untagged(spec: TableSpec) -> TableSpec:
    """``spec`` outside the event: no round, division, table or event tags."""
    return replace(spec, round=None, division=None, table=None, event=None, event_id=None)


class QuitScreen(ModalScreen[bool]):
    """Quitting mid-game, or a finished game before both players have signed: the game
    is kept, and this says how to come back to it (and the command line prints it again
    once the screen has closed, to be copied whole)."""

    # Its own id, not the stylesheet's 72-column #dialog: the command that resumes the
    # game is a path long, and should split over two lines only on a narrow terminal.
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen #quit-dialog {
        width: 100%; max-width: 160; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 1 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "dismiss(True)", "Quit", priority=True),
        Binding("n,escape", "dismiss(False)", "Stay", priority=True),
    ]

    def __init__(self, resume: str, *, unsigned: bool = False) -> None:
        super().__init__()
        self.resume = resume
        self.unsigned = unsigned
        """The game is over, its result not signed by both players yet."""

    def compose(self) -> ComposeResult:
        # No hard line breaks in the sentences: they wrap at the dialog's width.
        with Vertical(id="quit-dialog"):
            if self.unsigned:
                yield Label("[b]Quit before both players have signed?[/b]")
                said = (
                    "The result is kept in the game's log, not signed yet: the players "
                    "sign it when the table opens it again with:"
                )
            else:
                yield Label("[b]Quit while the game is on?[/b]")
                said = (
                    "The game is kept: every move is in its log. The clock stops counting "
                    "while the table is closed; the game comes back neutralized. Resume it with:"
                )
            # the command on a line of its own: a break only before it
            yield Static(Text(f"{said}\n{self.resume}"), id="quit-resume")
            yield Label("y: quit   n / Escape: back to the game")


def closing_words(app: StartsGames, result: int | None, log: Path) -> str:
    """What the command line prints once ``app``'s screen has closed with ``result``:
    the game's log and, when the game was kept to come back to, the command that
    resumes it (whole, to be copied); nothing after a refusal, which said its reason."""
    if result:
        return ""
    said = f"game log: {log}\n"
    if app.resume is not None:
        said += f"resume it with: {app.resume}\n"
    return said


def quit_or_ask(app: App[Any], phase: Phase, resume: str, *, unsigned: bool = False) -> None:
    """ctrl+Q: quit; mid-game (``phase``), or over but ``unsigned`` by both players, ask
    first and say how to come back with the command line ``resume``. A second ctrl+Q
    on the dialog quits."""
    over = phase is Phase.OVER

    def answered(quit_: bool | None) -> None:
        if quit_:
            if isinstance(app, StartsGames):
                app.resume = resume  # printed once the screen has closed
            app.exit(0)

    if phase is Phase.NOT_STARTED or (over and not unsigned):
        app.exit(0)
    elif isinstance(app.screen, QuitScreen):
        answered(True)
    else:
        app.push_screen(QuitScreen(resume, unsigned=over), answered)
