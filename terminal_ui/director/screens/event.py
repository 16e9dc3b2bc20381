"""The event screen: the round in play and the standings, live (key S)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["EventScreen"]


class EventScreen(ModalScreen[None]):
    """The current round's tables with their live scores, and the standings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("s", "dismiss(None)", "Close", show=False),
    ]

    def __init__(self, text: Callable[[], str]) -> None:
        super().__init__()
        self._text = text
        self.shown = ""
        """The event's text as the screen shows it now (escaped only for Textual's markup)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static("", id="event")

    def on_mount(self) -> None:
        self.redraw()
        self.set_interval(1.0, self.redraw)

    def redraw(self) -> None:
        """Show the event as it stands (only when its text changed)."""
        text = self._text()
        if text != self.shown:
            self.shown = text
            self.query_one("#event", Static).update(escape(text))
