"""The scorekeeper's widgets: a player's clock, the entry line, and the result dialog."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Digits, Label, Static

from engine.clocktext import clock_text, penalty_rate
from engine.rules.procedures.common import penalty_counted
from engine.rules.state import GameState, Phase
from terminal_ui.scorekeeper.sheet_text import result_lines
from terminal_ui.shared.widgets import set_digits, set_text

__all__ = ["CLOCK_KEY_TEXT", "GameView", "ResultScreen", "SheetClock"]

CLOCK_KEY_TEXT = ("\\[ / F1", "] / F2")
"""The players' clock keys, as markup."""


@runtime_checkable
class GameView(Protocol):
    """The app that shows the result dialog: the game as last drawn."""

    state: GameState


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

    _shown: tuple[object, ...] = ()

    def waiting(self, seat: int, name: str, time: str) -> None:
        """Before the game starts: ``seat``'s player and the game's own initial time
        (a 0:04 variant's clock must not read 3:00 behind its start screen)."""
        self._shown = ()
        set_text(self.query_one(".name", Static), f"{seat + 1} {escape(name)}")
        set_digits(self.query_one(Digits), time)
        set_text(self.query_one(".status", Static), " ")
        for cls in ("-running", "-overtime", "-locked", "-neutral"):
            self.remove_class(cls)

    def show(self, state: GameState, seat: int, now: int) -> None:
        """Draw ``seat``'s clock as of ``now``."""
        clock = state.clock
        left = clock.remaining(seat, now)
        running = clock.running == seat
        locked = state.locked[seat]
        pen = penalty_counted(state, seat, now)  # the result's, once there is one
        name = (
            f"{seat + 1} {escape(state.players[seat])}  [b]{state.scores[seat]}[/b]"
            f"   [dim]clock {CLOCK_KEY_TEXT[seat]}[/dim]"
        )
        status: list[str] = []
        if locked:
            status.append("NO MORE PLAYS: a press is a pass")
        elif left < 0:
            status.append("OVERTIME")
        if left < 0:
            # -0:03 beside "penalty -4" surprises: say how the rule counts (TOR-7)
            rate = f" ({penalty_rate(state.variant)})" if state.variant is not None else ""
            status.append(f"penalty -{pen}{rate}")
        if running:
            status.append("running")
        elif clock.neutral and clock.resume_to == seat:
            status.append("paused")
        elif state.turn == seat and state.phase is Phase.PLAYING:
            status.append("to play")
        shown = (name, clock_text(left), tuple(status), running, locked, bool(clock.neutral))
        if shown == self._shown:
            return  # a tick that changes nothing costs no redraw
        self._shown = shown
        set_text(self.query_one(".name", Static), name)
        set_digits(self.query_one(Digits), clock_text(left))
        set_text(self.query_one(".status", Static), escape(" · ".join(status)) or " ")
        self.set_class(running, "-running")
        self.set_class(left < 0, "-overtime")
        self.set_class(locked, "-locked")
        self.set_class(bool(clock.neutral), "-neutral")


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
            yield Label("", id="how")

    def on_mount(self) -> None:
        app = self.app
        assert isinstance(app, GameView)
        self.refresh_state(app.state)

    def refresh_state(self, st: GameState) -> None:
        """Show the result and who has signed (an update that comes before the dialog is
        composed finds nothing to update: ``on_mount`` shows the state then)."""
        marks = [
            f"{escape(st.players[i])}: {'signed' if st.signed[i] else 'not yet signed'}"
            for i in (0, 1)
        ]
        for result in self.query("#result").results(Static):
            result.update("\n".join(result_lines(st)))
        for signed in self.query("#signed").results(Static):
            signed.update("   ".join(marks))
        # what is left to do follows the signatures: no "confirm" once both have
        how = (
            "Both players have signed"
            if all(st.signed)
            else "Players confirm with their clock key ([ left, ] right)"
        )
        for label in self.query("#how").results(Label):
            label.update(
                f"[dim]{how}. Esc closes;\n"
                "ctrl+N: the next game, the same players in swapped seats.[/dim]"
            )
