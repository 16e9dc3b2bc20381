"""The interface every clock device shares, physical or emulated.

A device reports what its buttons do (:class:`SidePressed`, :class:`PausePressed`,
each acknowledged to the device only once committed: ``on_disk``) and, when it
keeps its own time, what it shows (:class:`TimesReported`). The service drives it
with commands: set the times, run a side, pause, show text, beep. Transports
(serial, MQTT) implement the same interface in ``firmware_bridge``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

from clock.device.device_time import Fault

__all__ = [
    "ClockDevice",
    "DeviceEvent",
    "DeviceOffline",
    "DeviceOnline",
    "PausePressed",
    "SidePressed",
    "TimesReported",
]


@dataclass(frozen=True, slots=True)
class SidePressed:
    """A player pressed their side of the clock (ending their turn)."""

    side: int
    """0 or 1: whose button."""
    device_ms: int | None = None
    """The device's own timestamp of the press, if it keeps time."""
    seq: int | None = None
    """The device's sequence number, for de-duplication."""
    remaining_ms: tuple[int, int] | None = None
    """Device-authoritative clocks: both times the device showed at the press."""
    device_at_ms: int | None = None
    """The table time of the press by the device's own clock (its ``device_ms`` and
    the offset the transport keeps, clock/device/device_time.py); None: not known."""
    device_fault: Fault | None = None
    """Set when the press's ``device_ms`` cannot be true (left out of the offset):
    the press is stamped on arrival and the table rules on the clock's fault."""
    on_disk: Callable[[], None] | None = field(default=None, compare=False, repr=False)
    """The transport's acknowledgement, called by the service once the press is
    committed to the log (never before: an ack tells the device the press is safe)."""


@dataclass(frozen=True, slots=True)
class PausePressed:
    """The pause button: neutralize (or resume when neutralized)."""

    seq: int | None = None
    """Device sequence number."""
    on_disk: Callable[[], None] | None = field(default=None, compare=False, repr=False)
    """As :attr:`SidePressed.on_disk`."""


@dataclass(frozen=True, slots=True)
class TimesReported:
    """The device's own view of both clocks (device-authoritative mode)."""

    remaining_ms: tuple[int, int]
    """Both remaining times, negative in overtime."""
    running: int | None
    """The side running on the device."""


@dataclass(frozen=True, slots=True)
class DeviceOffline:
    """The link to the device dropped (unplugged, Wi-Fi lost)."""

    reason: str
    """Why, as the transport saw it."""


@dataclass(frozen=True, slots=True)
class DeviceOnline:
    """The link to the device is (back) up."""

    device_id: str = ""
    """The device's identity from its HELLO."""


DeviceEvent = SidePressed | PausePressed | TimesReported | DeviceOffline | DeviceOnline


class ClockDevice(Protocol):
    """What the table service needs from a clock."""

    def events(self) -> AsyncIterator[DeviceEvent]:
        """Button presses and reports, in the order they happened."""
        ...

    async def set_times(
        self, remaining_ms: tuple[int, int], running: int | None, paused: bool
    ) -> None:
        """Show these times; run ``running`` unless ``paused``."""
        ...

    async def run(self, side: int) -> None:
        """Run ``side``'s clock."""
        ...

    async def pause(self) -> None:
        """Stop both clocks."""
        ...

    async def show_text(self, text: str) -> None:
        """Put a short message on the display."""
        ...

    async def beep(self) -> None:
        """Sound the buzzer."""
        ...

    async def close(self) -> None:
        """Release the device."""
        ...
