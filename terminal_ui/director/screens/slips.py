"""The slip screen: results from paper slips, a game a line (key I, ``--event``).

The same lines as ``rackclock event slips`` (:mod:`engine.tournament.slips_session`):
each is echoed as understood or refused with the reason, ``u`` undoes, ``c LINE
--reason WHY`` corrects, ``m`` lists the games missing. Escape (or ``q``) closes it.
Pasted lines are entered one by one, as if typed. Long answers wrap: the screen is
as wide as the terminal (up to 110 columns), so an echo is never cut.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from engine.errors import EngineError
from engine.tournament.slips import slip_where
from engine.tournament.slips_session import SlipSession

__all__ = ["SlipLine", "SlipsScreen"]


class SlipLine(Input):
    """The line typed: emptied as Enter submits it, so a director typing ahead of the
    screen (the next slip's keys before the last one's echo) loses no key."""

    async def action_submit(self) -> None:
        await super().action_submit()  # the message carries the value as typed
        self.value = ""

    async def on_paste(self, event: events.Paste) -> None:
        """Pasted lines, each entered as if typed (Input alone keeps the first line and
        drops the rest); a last piece without its newline stays in the line."""
        *whole, rest = event.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        event.prevent_default()  # not Input's own paste too
        event.stop()
        for part in whole:
            self.insert_text_at_cursor(part)
            await self.action_submit()
        if rest:
            self.insert_text_at_cursor(rest)


class SlipsScreen(ModalScreen[None]):
    """One line in, its echo out."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Close")]
    DEFAULT_CSS = """
    SlipsScreen { align: center middle; }
    SlipsScreen #slips { width: 100%; max-width: 110; height: 90%; border: thick $primary;
                         background: $surface; padding: 0 1; }
    SlipsScreen #where { height: auto; }
    SlipsScreen RichLog { height: 1fr; }
    """

    def __init__(self, session: SlipSession) -> None:
        super().__init__()
        self.session = session
        self.said: list[str] = []
        """Every answer shown, oldest first (a refusal starts ``refused:``)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="slips"):
            yield Static("", id="where")
            yield RichLog(id="echo", wrap=True, markup=False, min_width=20)  # not 78: it wraps
            yield SlipLine(placeholder="3 410 7 385   (h: help, u: undo, m: missing)", id="line")

    def on_mount(self) -> None:
        self.query_one("#where", Static).update(escape(self.where()))
        self.query_one("#line", Input).focus()

    def where(self) -> str:
        """Where the lines go: the division and round, and who enters them."""
        state, by = self.session.book.state, self.session.by
        try:
            at = slip_where(state, self.session.division, self.session.round)
        except EngineError as exc:  # several divisions, or no round paired: say which
            return f"Slips for {state.spec.name}, as {by}: {exc}"
        return f"Slips for {state.spec.name}: {at}, as {by}"

    @on(Input.Submitted, "#line")
    def _enter(self, event: Input.Submitted) -> None:
        reply = self.session.handle(event.value)
        if reply.done:
            self.dismiss(None)
            return
        if reply.text:
            shown = reply.text if reply.ok else f"{event.value.strip()}\n  {reply.text}"
            self.said.append(reply.text)
            self.query_one("#echo", RichLog).write(Text(shown))
        self.query_one("#where", Static).update(escape(self.where()))
