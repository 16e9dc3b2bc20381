"""The slip screen: results from paper slips, a game a line (key I, ``--event``).

The same lines as ``rackclock event slips`` (:mod:`engine.tournament.slips_session`):
each is echoed as understood or refused with the reason, ``u`` undoes, ``c LINE
--reason WHY`` corrects, ``m`` lists the games missing. Escape (or ``q``) closes it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Log, Static

from engine.errors import EngineError
from engine.tournament.slips import slip_division, slip_round
from engine.tournament.slips_session import SlipSession

__all__ = ["SlipLine", "SlipsScreen"]


class SlipLine(Input):
    """The line typed: emptied as Enter submits it, so a director typing ahead of the
    screen (the next slip's keys before the last one's echo) loses no key."""

    async def action_submit(self) -> None:
        await super().action_submit()  # the message carries the value as typed
        self.value = ""


class SlipsScreen(ModalScreen[None]):
    """One line in, its echo out."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Close")]
    DEFAULT_CSS = """
    SlipsScreen { align: center middle; }
    SlipsScreen #slips { width: 100; height: 90%; border: thick $primary;
                         background: $surface; padding: 0 1; }
    SlipsScreen #where { height: auto; }
    SlipsScreen Log { height: 1fr; }
    """

    def __init__(self, session: SlipSession) -> None:
        super().__init__()
        self.session = session
        self.said: list[str] = []
        """Every answer shown, oldest first (a refusal starts ``refused:``)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="slips"):
            yield Static("", id="where")
            yield Log(id="echo")
            yield SlipLine(placeholder="3 410 7 385   (h: help, u: undo, m: missing)", id="line")

    def on_mount(self) -> None:
        self.query_one("#where", Static).update(escape(self.where()))
        self.query_one("#line", Input).focus()

    def where(self) -> str:
        """Where the lines go: the division and round, and who enters them."""
        state, by = self.session.book.state, self.session.by
        try:
            div = slip_division(state, self.session.division)
            rnd = self.session.round or slip_round(div)
        except EngineError:
            return f"Slips for {state.spec.name}, as {by}: start a line with its division"
        return f"Slips for {state.spec.name}: division {div.spec.name} round {rnd}, as {by}"

    @on(Input.Submitted, "#line")
    def _enter(self, event: Input.Submitted) -> None:
        reply = self.session.handle(event.value)
        if reply.done:
            self.dismiss(None)
            return
        if reply.text:
            shown = reply.text if reply.ok else f"{event.value.strip()}\n  {reply.text}"
            self.said.append(reply.text)
            self.query_one("#echo", Log).write_lines(shown.splitlines())
        self.query_one("#where", Static).update(escape(self.where()))
