"""A heartbeat's counter, taken by a clock transport (serial or MQTT): one sample of
the device's offset (:class:`clock.device.device_time.DeviceTime`), or a warning
when it cannot be true. A heartbeat carries no press, so a fault is only logged."""

from __future__ import annotations

import logging

from clock.device.device_time import DeviceTime

__all__ = ["sample_heartbeat"]


def sample_heartbeat(
    device_time: DeviceTime, now: int, device_ms: int, clock: str, log: logging.Logger
) -> None:
    """The heartbeat with ``device_ms`` arrived at ``now``: sampled into ``device_time``,
    or left out with a warning on ``log`` naming ``clock``."""
    fault = device_time.sample(now, device_ms)
    if fault is not None:
        log.warning(
            "%s: ignored a heartbeat's device time (%s by %d ms)",
            clock,
            fault.kind,
            fault.by_ms,
        )
