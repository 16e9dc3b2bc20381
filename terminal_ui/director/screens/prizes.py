"""The prizes screen (key W, with ``--event``): each division's prizewinners after its
complete rounds, and the special prizes from the game logs the console holds (the
``--log`` files, or the logs the tables sent over the broker)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.events import Event
from engine.tournament.live import complete_rounds
from engine.tournament.prizes import prize_list
from engine.tournament.sheets.prizes import prizes_sheet
from engine.tournament.sheets.text import sheet_text
from engine.tournament.state import EventState

__all__ = ["PrizesScreen", "prizes_text"]


def prizes_text(state: EventState, logs: Iterable[Sequence[tuple[int, Event]]]) -> str:
    """Every division's prize sheet after its complete rounds, as ``event prizes``
    prints it, the special prizes from ``logs`` (the events of each game log)."""
    held = [list(log) for log in logs if log]
    return "\n".join(
        sheet_text(
            prizes_sheet(state.spec.name, prize_list(state, div, complete_rounds(div), held))
        )
        for div in state.divisions.values()
    )


class PrizesScreen(ModalScreen[None]):
    """The prize list as it stood when the screen opened (open it again to refresh:
    the special prizes replay every game held)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("w", "dismiss(None)", "Close", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.shown = text
        """The prize list as the screen shows it (escaped only for Textual's markup)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(escape(self.shown), id="prizes")
