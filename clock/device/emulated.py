"""An emulated clock: the device the table terminal's keyboard and the tests drive.

It keeps its own time from a timeline (as a physical clock keeps its own), so
it can run host-authoritative (showing what the service sets) or
device-authoritative (reporting its own times with each press).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from clock.device.core import ClockCore
from clock.device.interface import DeviceEvent, DeviceOnline, PausePressed, SidePressed
from clock.timeline import Timeline

__all__ = ["EmulatedClock"]


class EmulatedClock:
    """A two-button clock with a pause button and a one-line display, in-process."""

    def __init__(
        self, timeline: Timeline, *, initial_ms: int = 1_500_000, report_times: bool = False
    ) -> None:
        self._queue: asyncio.Queue[DeviceEvent | None] = asyncio.Queue()
        self._seq = 0
        self.core = ClockCore(timeline.now_ms, initial_ms=initial_ms)
        """The clock's own timekeeping (the one clock core, shared with the firmware)."""
        self.report_times = report_times
        """Device-authoritative: send both times with each press."""
        self.text = ""
        """What the display shows besides the times."""
        self.beeps = 0
        """How many times it beeped."""
        self.closed = False
        """True after close()."""
        # Like a physical clock saying HELLO when it is plugged in.
        self._queue.put_nowait(DeviceOnline("emulated"))

    # --- what the device shows -------------------------------------------------
    @property
    def initial_ms(self) -> int:
        """Time per side."""
        return self.core.initial_ms

    @property
    def used_ms(self) -> list[int]:
        """Time used per side, up to ``since_ms`` for the running side."""
        return self.core.used_ms

    @property
    def since_ms(self) -> int:
        """When the running side started."""
        return self.core.since_ms

    @property
    def running(self) -> int | None:
        """The side running on this device (None while it is stopped)."""
        return None if self.core.paused else self.core.running

    def remaining(self, side: int) -> int:
        """The device's own remaining time for ``side`` (negative in overtime)."""
        return self.core.remaining(side)

    # --- buttons (keyboard or script) --------------------------------------------
    def press(self, side: int) -> None:
        """A player presses their button: the device switches at once, then reports."""
        times = self.core.shown()
        self.core.press(side)
        self._seq += 1
        self._queue.put_nowait(
            SidePressed(side, self.core.now_ms(), self._seq, times if self.report_times else None)
        )

    def pause_button(self) -> None:
        """The pause button."""
        self._seq += 1
        self._queue.put_nowait(PausePressed(self._seq))

    async def drained(self) -> None:
        """Return once every button event so far has been taken by the reader."""
        while not self._queue.empty():  # noqa: ASYNC110 - the queue has no "drained" event
            await asyncio.sleep(0)
        await asyncio.sleep(0)

    # --- the device interface ------------------------------------------------------
    async def events(self) -> AsyncIterator[DeviceEvent]:
        """Button events in order, until closed."""
        while True:
            ev = await self._queue.get()
            if ev is None:
                return
            yield ev

    async def set_times(
        self, remaining_ms: tuple[int, int], running: int | None, paused: bool
    ) -> None:
        """Show the service's times (host-authoritative)."""
        self.core.set(remaining_ms, running, paused)

    async def run(self, side: int) -> None:
        """Run one side."""
        self.core.run(side)

    async def pause(self) -> None:
        """Stop both sides."""
        self.core.pause()

    async def show_text(self, text: str) -> None:
        """Display a message."""
        self.text = text

    async def beep(self) -> None:
        """Count a beep."""
        self.beeps += 1

    async def close(self) -> None:
        """End the event stream."""
        self.closed = True
        self._queue.put_nowait(None)
