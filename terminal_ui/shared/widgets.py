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

__all__ = ["BoardView", "PlayerClock", "history_lines", "ruling_lines"]


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

    def compose(self) -> ComposeResult:
        yield Static("", classes="name")
        yield Digits("0:00", classes="time")
        yield Static("", classes="status")

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
    ) -> None:
        """Draw the clock as of now."""
        self.query_one(".name", Static).update(
            f"{escape(name)}  [b]{score}[/b]   (clock key {escape(key)})"
        )
        self.query_one(Digits).update(clock_text(remaining_ms))
        status = []
        if running:
            status.append("running")
        if neutral:
            status.append(f"neutralized: {escape(neutral)}")
        if remaining_ms < 0:
            status.append(f"OVERTIME, penalty {penalty}")
        if turn and not running and not neutral:
            status.append("to play")
        self.query_one(".status", Static).update(" | ".join(status) or " ")
        self.set_class(running, "-running")
        self.set_class(remaining_ms < 0, "-overtime")
        self.set_class(bool(neutral), "-neutral")
        self.set_class(turn, "-turn")


class BoardView(Static):
    """The board as text: column letters, row numbers, premium squares dimmed."""

    DEFAULT_CSS = """
    BoardView { width: auto; height: auto; padding: 0 1; }
    """

    def show(self, board: Board | None, pending: tuple[tuple[int, str], ...] = ()) -> None:
        """Draw ``board``; ``pending`` tiles (laid, not pressed) are highlighted."""
        if board is None:
            self.update("(scoresheet mode: no board)")
            return
        lay = board.layout
        new = dict(pending)
        lines = ["    " + " ".join(chr(65 + c) for c in range(lay.cols))]
        for r in range(lay.rows):
            cells = []
            for c in range(lay.cols):
                i = r * lay.cols + c
                if i in new:
                    cells.append(f"[reverse]{new[i]}[/reverse]")
                elif board.cells[i] != EMPTY:
                    ch = board.cells[i]
                    cells.append(f"[b]{ch}[/b]" if ch.isupper() else f"[i]{ch}[/i]")
                else:
                    sym = lay.symbols[i]
                    cells.append("·" if sym == "." else f"[dim]{sym}[/dim]")
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        self.update("\n".join(lines))


def history_lines(state: GameState, last: int = 8) -> str:
    """The last moves, newest last: ``Ann  8D WINDY  +32  32``."""
    rows = [escape(_history_line(state, h)) for h in state.history[-last:]]
    return "\n".join(rows) or "(no moves yet)"


def _history_line(state: GameState, h: Turn) -> str:
    name = state.players[h.player]
    return f"{name[:8]:<8} {h.text[:13]:<13} {h.score:+4d} {h.total:4d}"


def ruling_lines(state: GameState, last: int = 6) -> str:
    """The last rulings with their rule citations."""
    rows = [f"[b]{escape(r.rule[:40])}[/b]: {escape(r.text)}" for r in state.rulings[-last:]]
    return "\n".join(rows) or "(no rulings yet)"
