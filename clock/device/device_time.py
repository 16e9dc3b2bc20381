"""The device's own clock, read in table time: what stamps a press that arrived late.

A clock device sends its free-running 32-bit millisecond counter (``device_ms``)
with every press and heartbeat. The table keeps the offset between that counter
and its own time: each sample is ``arrival - device_ms``, which is the true offset
plus that message's delay on the link, so the smallest recent sample is the best
estimate (the message that travelled fastest). A press that arrives later than its
device time says, beyond :data:`TOLERANCE_MS`, was held up on the way (a broker
restart, a Wi-Fi drop, a stalled port): the service stamps it at the device's time,
not at its arrival, so the player is not charged for the outage
(docs/clock-protocol.md, "Device time").

Pure: times come in as arguments. No I/O.
"""

from __future__ import annotations

from collections import deque

__all__ = ["LIMIT_MS", "TOLERANCE_MS", "WINDOW", "DeviceTime"]

TOLERANCE_MS = 200
"""A press arriving up to this much later than its device time is stamped on arrival:
ordinary link delay and jitter (serial ~1 ms, MQTT on loopback ~1 ms, Wi-Fi tens of ms)."""
LIMIT_MS = 60_000
"""A press is never stamped more than this before its arrival: beyond it the device's
time is not trusted (a clock that kept a press for minutes)."""
WINDOW = 32
"""Samples kept; the oldest go, so that a slow drift of the device's crystal
(50 ppm is 3 ms a minute) does not linger."""
_WRAP = 1 << 32


class DeviceTime:
    """One device session's offset between its counter and the table's time.

    >>> dt = DeviceTime()
    >>> dt.table_time(5_000) is None  # nothing heard yet
    True
    >>> dt.sample(101_000, 1_000)  # a heartbeat: 1 ms on the way
    >>> dt.sample(102_003, 2_000)  # a slower one
    >>> dt.table_time(3_000)  # the fastest sample sets the offset
    103000
    >>> wrap = DeviceTime()
    >>> wrap.sample(10_000, 0xFFFF_FF00)  # 256 ms before the counter wraps
    >>> wrap.table_time(100)  # 356 ms later, after the wrap
    10356
    >>> wrap.late_by(11_556, 100)  # arrived 1.2 s after the device's press
    1200
    """

    def __init__(self) -> None:
        self._offsets: deque[int] = deque(maxlen=WINDOW)
        self._last_raw: int | None = None
        self._last: int = 0

    def reset(self) -> None:
        """The device restarted (a HELLO): its counter may have started again."""
        self._offsets.clear()
        self._last_raw = None

    def _unwrap(self, raw: int) -> int:
        """``raw`` on a line that does not wrap, near the last counter value seen."""
        raw &= _WRAP - 1
        if self._last_raw is None:
            return raw
        delta = (raw - self._last_raw) % _WRAP
        if delta >= _WRAP // 2:
            delta -= _WRAP  # a little behind the last one (messages crossed)
        return self._last + delta

    def sample(self, table_ms: int, device_ms: int) -> None:
        """A message with ``device_ms`` arrived at ``table_ms``."""
        value = self._unwrap(device_ms)
        self._last_raw, self._last = device_ms & (_WRAP - 1), value
        self._offsets.append(table_ms - value)

    def table_time(self, device_ms: int) -> int | None:
        """The table time of ``device_ms`` by the device's clock; None when no sample
        is known yet in this session."""
        if not self._offsets:
            return None
        return self._unwrap(device_ms) + min(self._offsets)

    def late_by(self, table_ms: int, device_ms: int) -> int | None:
        """How much later than its device time a message arriving at ``table_ms`` is
        (None: not known). Take it before :meth:`sample` records the message."""
        at = self.table_time(device_ms)
        return None if at is None else table_ms - at
