"""The table's timeline: integer milliseconds from a monotonic source.

Every command is stamped here once, on arrival; pure code only ever receives
the stamp. Tests use :class:`FakeTimeline` and move it by hand, never sleep.
"""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["FakeTimeline", "MonotonicTimeline", "Timeline"]


class Timeline(Protocol):
    """A source of table time in integer milliseconds."""

    def now_ms(self) -> int:
        """The current table time."""
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


class FakeTimeline:
    """A timeline that moves only when told to."""

    def __init__(self, start_ms: int = 0) -> None:
        self.t = start_ms
        """The current table time."""

    def now_ms(self) -> int:
        """The time set by :meth:`advance` or :meth:`set`."""
        return self.t

    def advance(self, ms: int) -> int:
        """Move forward by ``ms``; returns the new time."""
        self.t += ms
        return self.t

    def set(self, ms: int) -> None:
        """Jump to ``ms`` (never backwards)."""
        if ms < self.t:
            raise ValueError(f"fake time cannot go back from {self.t} to {ms}")
        self.t = ms
