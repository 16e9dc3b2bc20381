"""The table's timeline: integer milliseconds from a monotonic source.

Every command is stamped here once, on arrival; pure code only ever receives
the stamp. Tests use :class:`FakeTimeline` and move it by hand, never sleep.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

__all__ = ["FakeTimeline", "MonotonicTimeline", "Timeline"]


class Timeline(Protocol):
    """A source of table time in integer milliseconds."""

    def now_ms(self) -> int:
        """The current table time."""
        ...

    async def sleep_until(self, t_ms: int) -> None:
        """Return once the table time has reached ``t_ms``."""
        ...


class MonotonicTimeline:
    """``time.monotonic_ns`` in milliseconds, shifted by ``offset_ms``.

    The offset keeps the table's timeline moving forward when a log written
    before a reboot (a different monotonic origin) is resumed.
    """

    def __init__(self, offset_ms: int = 0) -> None:
        self.offset_ms = offset_ms
        """Added to the monotonic reading."""

    def now_ms(self) -> int:
        """Monotonic milliseconds plus the offset."""
        return time.monotonic_ns() // 1_000_000 + self.offset_ms

    async def sleep_until(self, t_ms: int) -> None:
        """Sleep on the event loop until ``t_ms``; re-check, so waking early is impossible."""
        while True:
            left = t_ms - self.now_ms()
            if left <= 0:
                return
            await asyncio.sleep(left / 1000)


class FakeTimeline:
    """A timeline that moves only when told to; sleepers wake as it passes them."""

    def __init__(self, start_ms: int = 0) -> None:
        self.t = start_ms
        """The current table time."""
        self._sleepers: list[tuple[int, asyncio.Future[None]]] = []

    def now_ms(self) -> int:
        """The time set by :meth:`advance` or :meth:`set`."""
        return self.t

    async def sleep_until(self, t_ms: int) -> None:
        """Wait until :meth:`advance` reaches ``t_ms``."""
        if t_ms <= self.t:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((t_ms, fut))
        await fut

    def advance(self, ms: int) -> int:
        """Move forward by ``ms``, waking every sleeper now due; returns the new time."""
        self.set(self.t + ms)
        return self.t

    def set(self, ms: int) -> None:
        """Jump to ``ms`` (never backwards)."""
        if ms < self.t:
            raise ValueError(f"fake time cannot go back from {self.t} to {ms}")
        self.t = ms
        due = [(t, f) for t, f in self._sleepers if t <= ms]
        self._sleepers = [(t, f) for t, f in self._sleepers if t > ms]
        for _, fut in due:
            if not fut.done():
                fut.set_result(None)
