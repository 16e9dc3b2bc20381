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
        self,
        timeline: Timeline,
        *,
        initial_ms: int = 1_500_000,
        report_times: bool = False,
        device_id: str = "emulated",
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
        self._queue.put_nowait(DeviceOnline(device_id))

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
    def press(self, side: int, at_ms: int | None = None) -> None:
        """A player presses their button: the device switches at once, then reports.

        ``at_ms``: the press's instant when it is handled later (a Pi's button thread
        hands it to the event loop): it switches at that instant and reports it as the
        device's time of the press (``device_at_ms``)."""
        at = self.core.now_ms() if at_ms is None else at_ms
        times = self.core.shown_at(at)
        self.core.press(side, at_ms)
        self._seq += 1
        shown = times if self.report_times else None
        self._queue.put_nowait(SidePressed(side, at, self._seq, shown, device_at_ms=at_ms))
        self._changed()

    def pause_button(self) -> None:
        """The pause button."""
        self._seq += 1
        self._queue.put_nowait(PausePressed(self._seq))
        self._changed()

    def _changed(self) -> None:
        """What the device shows has changed: a clock with a display redraws it here."""

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
        self._changed()

    async def run(self, side: int) -> None:
        """Run one side."""
        self.core.run(side)
        self._changed()

    async def pause(self) -> None:
        """Stop both sides."""
        self.core.pause()
        self._changed()

    async def show_text(self, text: str) -> None:
        """Display a message."""
        self.text = text
        self._changed()

    async def beep(self) -> None:
        """Count a beep."""
        self.beeps += 1
        self._changed()

    async def close(self) -> None:
        """End the event stream."""
        self.closed = True
        self._queue.put_nowait(None)
