"""The event screen: the round in play and the standings, live (key S)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

from terminal_ui.director.event import line_parts

__all__ = ["EventScreen", "lay_out"]

_HANG = re.compile(r" *\S+ +")
"""A game line's table column: its wrapped parts are indented past it, under the names."""


def lay_out(text: str, width: int) -> str:
    """``text`` for a screen ``width`` cells wide: a game's line too wide is wrapped
    only between its parts (:func:`terminal_ui.director.event.line_parts`: the
    table and first player, `` v `` and the second, the phrases of the game's
    state), a wrapped part indented under the names; other lines are left to the widget
    (a part wider than the screen too). Textual wraps at any space, which split
    a long name across two lines at 80 and 120 columns."""
    out = []
    for line in text.splitlines():
        parts = line_parts(line)
        if parts is None or cell_len(line) <= width:
            out.append(line)
            continue
        hang = _HANG.match(line)
        indent = " " * min(len(hang[0]) if hang else 0, width // 2)
        now = parts[0]
        for part in parts[1:]:
            if cell_len(now) + cell_len(part) <= width:
                now += part
            else:
                out.append(now)
                now = indent + part.lstrip(" ")
        out.append(now)
    return "\n".join(out)


class EventScreen(ModalScreen[None]):
    """The current round's tables with their live scores, and the standings."""

    DEFAULT_CSS = """
    EventScreen #dialog { scrollbar-gutter: stable; }
    """
    """The scroll bar's place kept: the text's width does not change when it shows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("s", "dismiss(None)", "Close", show=False),
    ]

    def __init__(self, text: Callable[[], str]) -> None:
        super().__init__()
        self._text = text
        self._drawn: tuple[str, int] = ("", 0)
        self.shown = ""
        """The event's text as the screen shows it now, laid out for its width (escaped
        only for Textual's markup)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static("", id="event")

    def on_mount(self) -> None:
        self.redraw()
        self.call_after_refresh(self.redraw)  # once the dialog has its width
        self.set_interval(1.0, self.redraw)

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)

    def redraw(self) -> None:
        """Show the event as it stands (only when its text or the screen's width changed)."""
        text = self._text()
        width = self.query_one("#dialog", VerticalScroll).scrollable_content_region.width
        if (text, width) != self._drawn:
            self._drawn = (text, width)
            self.shown = lay_out(text, width) if width > 0 else text
            self.query_one("#event", Static).update(escape(self.shown))
