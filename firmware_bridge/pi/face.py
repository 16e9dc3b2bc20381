"""What a clock shows, as the Pi's lights and displays read it.

:class:`ClockFace` is the shape of :class:`firmware_bridge.device.firmware.Display`
(the emulated firmware's snapshot) written as a protocol, so the table's own GPIO
clock (:mod:`firmware_bridge.host`, which never imports the device side) can drive
the same lights and panel with a record of its own.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["ClockFace", "running_side"]


class ClockFace(Protocol):
    """Both times, the running side, the pause, the text line, beeps and the link."""

    @property
    def remaining_ms(self) -> tuple[int, int]:
        """Both times, negative in overtime."""

    @property
    def running(self) -> int | None:
        """The side whose time runs (None: neither)."""

    @property
    def paused(self) -> bool:
        """Both clocks stopped."""

    @property
    def text(self) -> str:
        """The text line (HOLD, CHALLENGE, a penalty, a result)."""

    @property
    def beeps(self) -> int:
        """How many times the clock was told to beep: a rise is a new beep."""

    @property
    def host_online(self) -> bool:
        """Whether the table answers."""


def running_side(face: ClockFace) -> int | None:
    """The side whose time is running now: None when paused or neither is named."""
    return None if face.paused else face.running
