"""Widgets shared by the table terminal, the scorekeeper screen and the director.

They render state and hold no rules: the parent sets their attributes from the
engine's state ("attributes down"), and times are read from the state's clock
at the moment of drawing, never counted up by the widget.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.markup import escape
from textual.widgets import Digits, Static

from engine.clocktext import clock_text
from engine.equipment.board import EMPTY, Board
from engine.rules.state import GameState, Turn

__all__ = [
    "LEGEND",
    "PREMIUM",
    "BoardView",
    "PlayerClock",
    "history_lines",
    "ruling_lines",
    "set_digits",
    "set_text",
]


class PlayerClock(Vertical):
    """One player's name, score, clock (large digits) and status.

    Classes set on it: ``-running``, ``-overtime``, ``-neutral``, ``-turn``.
    """

    DEFAULT_CSS = """
    PlayerClock { width: 1fr; height: auto; border: round $panel; padding: 0 1; }
    PlayerClock.-running { border: heavy $success; }
    PlayerClock.-overtime Digits { color: $error; }
    PlayerClock.-neutral { border: round $warning; }
    PlayerClock .name { text-style: bold; }
    PlayerClock Digits { width: auto; }
    PlayerClock .status { color: $text-muted; }
    """

    _shown: tuple[object, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static("", classes="name")
        yield Digits("0:00", classes="time")
        yield Static("", classes="status")

    def waiting(self, name: str, time: str, key: str) -> None:
        """Before the game starts: the player and the game's own initial time, as the
        start screen says it (never 0:00, nor the last game's reading)."""
        self._shown = ()
        set_text(self.query_one(".name", Static), f"{escape(name)}   (clock key {escape(key)})")
        set_digits(self.query_one(Digits), time)
        set_text(self.query_one(".status", Static), " ")
        for cls in ("-running", "-overtime", "-neutral", "-turn"):
            self.remove_class(cls)

    def show(
        self,
        name: str,
        score: int,
        remaining_ms: int,
        *,
        running: bool,
        neutral: str | None,
        penalty: int,
        turn: bool,
        key: str,
        penalty_rate: str = "",
    ) -> None:
        """Draw the clock as of now: only what changed (a tick that changes nothing
        costs no redraw). ``penalty_rate`` (:func:`engine.clocktext.penalty_rate`) is
        said beside the penalty: -0:03 costs 4 where each started second counts."""
        shown = (
            name,
            score,
            clock_text(remaining_ms),
            running,
            neutral,
            penalty,
            turn,
            key,
            penalty_rate,
        )
        if shown == self._shown:
            return
        self._shown = shown
        set_text(
            self.query_one(".name", Static),
            f"{escape(name)}  [b]{score}[/b]   (clock key {escape(key)})",
        )
        set_digits(self.query_one(Digits), clock_text(remaining_ms))
        status = []
        if running:
            status.append("running")
        if neutral:
            status.append(f"neutralized: {escape(neutral)}")
        if remaining_ms < 0:
            status.append(
                f"OVERTIME, penalty {penalty}" + (f" ({penalty_rate})" if penalty_rate else "")
            )
        if turn and not running and not neutral:
            status.append("to play")
        set_text(self.query_one(".status", Static), " | ".join(status) or " ")
        self.set_class(running, "-running")
        self.set_class(remaining_ms < 0, "-overtime")
        self.set_class(bool(neutral), "-neutral")
        self.set_class(turn, "-turn")


def set_text(widget: Static, text: str) -> None:
    """Show ``text`` unless it is shown already: an update that changes nothing still
    costs a layout pass of the whole screen."""
    if str(widget.content) != text:
        widget.update(text)


def set_digits(widget: Digits, text: str) -> None:
    """As :func:`set_text`, for the big clock digits."""
    if widget.value != text:
        widget.update(text)


PREMIUM = {"T": "#", "D": "=", "t": '"', "d": "'", "*": "*", ".": "·"}
"""Premium squares as symbols, so that in plain text (no colour, no bold) a tile ``D``
never looks like a double-word square: tiles are letters, upper case; a blank is its
letter in lower case."""
LEGEND = "\n".join(
    ("# triple word  = double word", "\" triple letter  ' double letter", "* centre  a-z blank")
)


class BoardView(Static):
    """The board as text: column letters, row numbers, tiles as letters (a blank in
    lower case), premium squares as symbols (:data:`PREMIUM`), and a legend."""

    DEFAULT_CSS = """
    BoardView { width: auto; height: auto; padding: 0 1; }
    """

    def show(
        self,
        board: Board | None,
        pending: tuple[tuple[int, str], ...] = (),
        *,
        waiting: bool = False,
    ) -> None:
        """Draw ``board``; ``pending`` tiles (laid, not pressed) are highlighted. No board
        is either a game not begun (``waiting``: its board comes with its start) or a
        game in scoresheet mode."""
        if board is None:
            self.update(
                "(no board yet: it shows once the game starts)"
                if waiting
                else "(scoresheet mode: no board)"
            )
            return
        lay = board.layout
        new = dict(pending)
        lines = ["    " + " ".join(chr(65 + c) for c in range(lay.cols))]
        for r in range(lay.rows):
            cells = []
            for c in range(lay.cols):
                i = r * lay.cols + c
                if i in new:
                    cells.append(f"[reverse]{escape(new[i])}[/reverse]")
                elif board.cells[i] != EMPTY:
                    ch = board.cells[i]
                    cells.append(f"[b]{ch}[/b]" if ch.isupper() else f"[i u]{ch}[/i u]")
                else:
                    sym = PREMIUM.get(lay.symbols[i], lay.symbols[i])
                    cells.append(sym if sym == "·" else f"[dim]{escape(sym)}[/dim]")
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        lines.append(escape(LEGEND))
        self.update("\n".join(lines))


def history_lines(state: GameState) -> str:
    """Every move of the game, newest last: ``Ann      8D WINDY        +32   32``.
    Columns are as wide as their longest entry: nothing is cut (a settled score reads
    ``score 30 -> 22``, both numbers whole)."""
    if not state.history:
        return "(no moves yet)"
    name_w = max(len(state.players[h.player]) for h in state.history)
    text_w = max(len(h.text) for h in state.history)
    return "\n".join(escape(_history_line(state, h, name_w, text_w)) for h in state.history)


def _history_line(state: GameState, h: Turn, name_w: int, text_w: int) -> str:
    name = state.players[h.player]
    return f"{name:<{name_w}} {h.text:<{text_w}} {h.score:+4d} {h.total:4d}"


def ruling_lines(state: GameState) -> str:
    """Every ruling with its rule citation, whole, newest last (the widget wraps them
    at word boundaries; a citation is never cut)."""
    rows = [f"[b]{escape(r.rule)}[/b]: {escape(r.text)}" for r in state.rulings]
    return "\n".join(rows) or "(no rulings yet)"
