"""The prizes screen (key W, with ``--event``): each division's prizewinners after its
complete rounds, and the special prizes from the game logs the console holds (the
``--log`` files, or the logs the tables sent over the broker)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

from clock.tournament.special_prizes import prize_lists_of
from engine.events import Event
from engine.tournament.sheets import prizes as prize_sheet
from engine.tournament.state import EventState

__all__ = ["PrizesScreen", "prizes_text"]


def prizes_text(state: EventState, logs: Iterable[Sequence[tuple[int, Event]]]) -> str:
    """Every division's prize sheet after its complete rounds, as ``event prizes``
    prints it, the special prizes from ``logs`` (the events of each game log)."""
    held = [list(log) for log in logs if log]
    advice = "give the console the tables' logs with --log"
    lists = prize_lists_of(state, list(state.divisions.values()), held, advice=advice)
    return "\n".join(prize_sheet.prizes_text(state.spec.name, plist) for plist in lists)


class PrizesScreen(ModalScreen[None]):
    """The prize list as it stood when the screen opened (open it again to refresh:
    the special prizes replay every game held). The sheet is wider than most
    terminals (the special prizes name their games): it takes the whole screen and
    scrolls sideways rather than wrap a table's lines into each other."""

    DEFAULT_CSS = """
    #prizes-dialog { width: 100%; height: 100%; border: thick $primary;
                     background: $surface; padding: 0 1; overflow-x: auto; overflow-y: auto; }
    #prizes { width: auto; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("w", "dismiss(None)", "Close", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.shown = text
        """The prize list as the screen shows it (escaped only for Textual's markup)."""

    def compose(self) -> ComposeResult:
        with ScrollableContainer(id="prizes-dialog"):
            yield Static(escape(self.shown.rstrip("\n")), id="prizes")
