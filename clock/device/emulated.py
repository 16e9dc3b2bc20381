"""An emulated clock: the device the table terminal's keyboard and the tests drive.

It keeps its own time from a timeline (as a physical clock keeps its own), so
it can run host-authoritative (showing what the service sets) or
device-authoritative (reporting its own times with each press).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from clock.device.interface import DeviceEvent, DeviceOnline, PausePressed, SidePressed
from clock.timeline import Timeline

__all__ = ["EmulatedClock"]


class EmulatedClock:
    """A two-button clock with a pause button and a one-line display."""

    def __init__(
        self, timeline: Timeline, *, initial_ms: int = 1_500_000, report_times: bool = False
    ) -> None:
        self._timeline = timeline
        self._queue: asyncio.Queue[DeviceEvent | None] = asyncio.Queue()
        self._seq = 0
        self.report_times = report_times
        """Device-authoritative: send both times with each press."""
        self.used_ms = [0, 0]
        """Time used per side, up to ``since_ms`` for the running side."""
        self.initial_ms = initial_ms
        """Time per side."""
        self.running: int | None = None
        """The side running on this device."""
        self.since_ms = 0
        """When the running side started."""
        self.text = ""
        """What the display shows besides the times."""
        self.beeps = 0
        """How many times it beeped."""
        self.closed = False
        """True after close()."""
        # Like a physical clock saying HELLO when it is plugged in.
        self._queue.put_nowait(DeviceOnline("emulated"))

    # --- what the device shows -------------------------------------------------
    def remaining(self, side: int) -> int:
        """The device's own remaining time for ``side`` (negative in overtime)."""
        used = self.used_ms[side]
        if self.running == side:
            used += self._timeline.now_ms() - self.since_ms
        return self.initial_ms - used

    def _stop(self) -> None:
        if self.running is not None:
            now = self._timeline.now_ms()
            self.used_ms[self.running] += now - self.since_ms
            self.since_ms = now

    # --- buttons (keyboard or script) --------------------------------------------
    def press(self, side: int) -> None:
        """A player presses their button: the device switches at once, then reports."""
        times = (self.remaining(0), self.remaining(1))
        if self.running == side or self.running is None:
            self._stop()
            self.running = 1 - side
            self.since_ms = self._timeline.now_ms()
        self._seq += 1
        self._queue.put_nowait(
            SidePressed(
                side, self._timeline.now_ms(), self._seq, times if self.report_times else None
            )
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
        now = self._timeline.now_ms()
        self.used_ms = [self.initial_ms - remaining_ms[0], self.initial_ms - remaining_ms[1]]
        self.running = None if paused else running
        self.since_ms = now

    async def run(self, side: int) -> None:
        """Run one side."""
        self._stop()
        self.running = side
        self.since_ms = self._timeline.now_ms()

    async def pause(self) -> None:
        """Stop both sides."""
        self._stop()
        self.running = None

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
