"""The command line every screen types into, with the players' clock keys in it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import events
from textual.widgets import Input

__all__ = ["CommandInput"]


class CommandInput(Input):
    """A command line on which ``[`` and ``]`` stay the players' clock keys while typing.

    A focused input takes printable keys before any binding sees them, so the clock
    keys are caught here and run the app's ``press(side)`` action. ``keys`` maps
    more keys to app actions (the scorekeeper's Tab and Esc).
    """

    CLOCK_KEYS: ClassVar[dict[str, int]] = {"[": 0, "]": 1}
    """Characters that are a player's clock key: left 0, right 1."""

    def __init__(
        self,
        *,
        placeholder: str = "",
        id: str | None = None,
        keys: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(placeholder=placeholder, id=id)
        # A steady cursor: the line always has the focus, so the cursor is always in
        # view, and a blink would redraw the screen twice a second all day long.
        self.cursor_blink = False
        self.keys = dict(keys or {})
        """Key name -> app action run instead of editing."""

    async def _on_key(self, event: events.Key) -> None:
        side = self.CLOCK_KEYS.get(event.character or "")
        action = f"press({side})" if side is not None else self.keys.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.app.run_action(action)
            return
        await super()._on_key(event)
