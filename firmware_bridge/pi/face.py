"""What a clock shows, as the Pi's lights and displays read it.

:class:`ClockFace` is the shape of :class:`firmware_bridge.device.firmware.Display`
(the emulated firmware's snapshot) written as a protocol: the lights and the panel
read any record of that shape. :class:`Face` is the one such record on this side of
the floors: the table's own GPIO clock (:mod:`firmware_bridge.host`, which never
imports the device side, where Display lives) shows one.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

__all__ = ["ClockFace", "Face", "running_side"]


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


class Face(msgspec.Struct, frozen=True):
    """What a clock shows, as a record (:class:`ClockFace`'s fields, in its order)."""

    remaining_ms: tuple[int, int]
    running: int | None
    paused: bool
    text: str
    beeps: int
    host_online: bool


def running_side(face: ClockFace) -> int | None:
    """The side whose time is running now: None when paused or neither is named."""
    return None if face.paused else face.running
