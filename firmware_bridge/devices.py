"""Opening a clock device from a ``--clock`` spec (``serial:PATH``, ``mqtt:URL``)."""

from __future__ import annotations

from clock.device import ClockDevice
from clock.timeline import MonotonicTimeline

__all__ = ["open_device"]


def open_device(spec: str, timeline: MonotonicTimeline, initial_ms: int) -> ClockDevice | None:
    """The device for ``spec``; None when the spec names no transport we have.

    Serial and MQTT transports are the firmware bridge's (issue 5); until they
    land, only ``emulated`` and ``none`` clocks exist.
    """
    return None
