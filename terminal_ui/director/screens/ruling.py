"""The director's ruling dialog: a ruling's fields, checked before it is sent.

Adjust time or score, resume the clock, declare a forfeit, neutralize the
clock, end the game with a stated result, or decide an appeal against a
challenge's verdict (as the referee); the dialog returns the ruling as an event,
made by the director (or None when cancelled).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from engine.events import (
    Adjusted,
    Event,
    Forfeited,
    Neutralized,
    ResultDeclared,
    Resumed,
    VerdictAppealed,
)
from terminal_ui.director.rulings import RulingKind, parse_time_ms

__all__ = ["RulingScreen"]

_TITLES: dict[str, str] = {
    "adjust": "Adjust time or score",
    "resume": "Resume the clock",
    "forfeit": "Declare a forfeit",
    "neutralize": "Neutralize the clock",
    "end": "End the game with a stated result",
    "appeal": "Decide an appeal against the verdict (referee)",
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
            if self.kind == "end":
                yield Input(
                    placeholder=f"final scores {p[0]}-{p[1]}, e.g. 350-312 (blank: as they stand)",
                    id="scores",
                )
            if self.kind == "appeal":
                yield Input(placeholder="the play is: valid or invalid", id="verdict")
            if self.kind == "adjust":
                yield Input(placeholder="score change, e.g. -10 (blank: none)", id="score")
                yield Input(placeholder="time change, e.g. +1:00 or -30 (blank: none)", id="time")
            if self.kind not in ("resume", "appeal"):
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
            return Resumed(by=by, director=True, actor="director")
        if self.kind == "appeal":
            verdict = self._value("verdict").casefold()
            if verdict not in ("valid", "invalid"):
                raise ValueError("the appeal's decision: valid or invalid")
            return VerdictAppealed(acceptable=verdict == "valid", by=by, actor="director")
        reason = self._value("reason")
        if not reason:
            raise ValueError("a ruling needs a reason")
        if self.kind == "neutralize":
            return Neutralized(by=by, reason=reason, actor="director")
        if self.kind == "end":
            return ResultDeclared(by=by, scores=self._scores(), reason=reason, actor="director")
        player = self._player()
        if self.kind == "forfeit":
            return Forfeited(player=player, reason=reason, by=by, actor="director")
        try:
            score = int(self._value("score") or 0)
        except ValueError:
            raise ValueError("score change: a whole number, e.g. -10") from None
        ms = parse_time_ms(self._value("time"))
        if not score and not ms:
            raise ValueError("an adjustment changes the score or the time")
        return Adjusted(
            by=by, player=player, score_delta=score, time_delta_ms=ms, reason=reason,
            actor="director",
        )  # fmt: skip

    def _scores(self) -> tuple[int, int] | None:
        text = self._value("scores")
        if not text:
            return None
        left, sep, right = text.partition("-")
        if not sep or not left.strip().isdigit() or not right.strip().isdigit():
            raise ValueError("final scores: two numbers, e.g. 350-312")
        return int(left), int(right)

    def action_submit(self) -> None:
        """Check the fields and return the event."""
        try:
            event = self.build()
        except ValueError as exc:
            self.query_one("#error", Static).update(f"[red]{escape(str(exc))}[/red]")
            return
        self.dismiss(event)
