"""The table's next game, from when the table names it until it starts.

While no game is on (none yet, or the last is over), the table says which game comes
next (:meth:`NextGame.expect`): the clock device shows that game's starting time on
both sides, stopped with the starting side named (so a press runs no side of its own
accord), not the 0:00 of no game or the last game's times; and the first press of
either of its buttons, or a clock key on the start screen, starts it, once. A start
that is not taken (the rules refused it, or the disk did not) is put back, so that
the next press or key tries it again; a start is answered once, to whichever of
them asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from clock.device.interface import ClockDevice
from engine.events import GameStarted

if TYPE_CHECKING:
    from clock.table.service import Ack

__all__ = ["NextGame"]


class NextGame:
    """The game a table starts next, and its start while it is on its way to the log."""

    def __init__(self) -> None:
        self._start: GameStarted | None = None
        """The start no press or key has sent yet."""
        self._sent: tuple[GameStarted, asyncio.Future[Ack]] | None = None
        """The start sent, with its answer to come, until it is taken or put back."""
        self.shown: tuple[int, int] | None = None
        """The next game's starting time and starting side, shown on the device until a
        game starts (None: no game is expected)."""

    def expect(self, start: GameStarted, initial_ms: int) -> None:
        """Name ``start`` as the next game, ``initial_ms`` each."""
        self._start, self._sent = start, None  # a start on its way is no longer this one
        self.shown = (initial_ms, start.first)

    def send(
        self, send: Callable[[GameStarted], asyncio.Future[Ack]]
    ) -> asyncio.Future[Ack] | None:
        """Send the start through ``send`` and return its answer to come; None when no
        start is expected or it is on its way already (:attr:`pending`)."""
        if self._start is None:
            return None
        start, self._start = self._start, None
        fut = send(start)
        # A start sent by a press may fail with no one awaiting it: not an error to log.
        fut.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._sent = (start, fut)
        return fut

    @property
    def pending(self) -> asyncio.Future[Ack] | None:
        """The answer to come of the start on its way (sent, not yet taken or put
        back): one start answers whoever asks, a press or a key."""
        return None if self._sent is None else self._sent[1]

    def put_back(self, event: object) -> None:
        """``event`` was not taken (refused, or not written): if it is the start sent,
        the next press or key sends it again. Any other start is not the table's."""
        if self._sent is not None and self._sent[0] is event:
            self._start, self._sent = self._sent[0], None

    def started(self) -> None:
        """A game started: nothing is expected any more."""
        self._start = self._sent = self.shown = None

    async def show(self, device: ClockDevice, shown_text: str | None) -> str:
        """Show the next game's start on ``device``: its starting time, stopped with the
        starting side named, and no text (not the last game's result; ``shown_text`` is
        what the device shows now). Returns the text the device shows after."""
        assert self.shown is not None
        initial_ms, first = self.shown
        await device.set_times((initial_ms, initial_ms), first, True)
        if shown_text != "":
            await device.show_text("")
        return ""
