"""The device's own clock, read in table time: what stamps a press that arrived late.

A clock device sends its free-running 32-bit millisecond counter (``device_ms``)
with every press and heartbeat. The table keeps the offset between that counter
and its own time: each sample is ``arrival - device_ms``, which is the true offset
plus that message's delay on the link, so the smallest recent sample (of those that
agree, below) is the best estimate (the message that travelled fastest). A press
that arrives later than its device time says, beyond :data:`TOLERANCE_MS`, was held
up on the way (a broker restart, a Wi-Fi drop, a stalled port): the service stamps
it at the device's time, not at its arrival, so the player is not charged for the
outage (docs/clock-protocol.md, "Device time").

**Samples that cannot be true.** Delays are never negative, so no honest sample lies
below the true offset. A glitch taken as the smallest sample would make every later
press look late and move a turn's time to the opponent, so the estimate is built from
samples that agree, and each new sample is judged against it:

- *agreement*: a sample counts towards the estimate only when another sample in the
  window lies within :data:`IMPOSSIBLE_MS` of it (honest samples differ by their
  delays, a few ms; a glitch stands alone). The first sample of a session cannot be
  judged, nor can one sample vouch for itself: until two agree the offset is not
  trusted and presses are stamped on arrival (:meth:`DeviceTime.read`). So a bad first
  sample, or a first heartbeat held up on the broker, is simply outvoted.
- *ahead*: a sample whose offset is more than :data:`IMPOSSIBLE_MS` below the estimate
  says the device's time is later than the table's clock allows (the message would
  have arrived before it was sent);
- *back*: a sample whose counter is more than :data:`IMPOSSIBLE_MS` behind the last
  sample kept: the counter went back without a new session (a link delivers in order,
  and a press held up on it was still made after what arrived before it).

An ahead or back sample is left out of the offset and reported (:class:`Fault`): its
press is stamped on arrival, as if the clock kept no time, and the table rules on it.
After a counter went back the clock is in doubt until a sample agrees with the
estimate again (within :data:`IMPOSSIBLE_MS`): meanwhile a sample that looks late by
more than that is taken for the same fault (a counter that went back keeps looking
late once it has passed the last sample kept), not for a press held up on the link.
The estimate can itself be the odd one out (a counter that really jumped), so when
:data:`REANCHOR` faulty samples in a row agree with each other, the window starts
over from them: a real jump costs at most ``REANCHOR`` presses stamped on arrival.

The bound this keeps (tests/clock/test_device_time_faults.py drives random traffic
with corrupted counters through the table service): with link delays up to
:data:`TOLERANCE_MS` and presses held up for less than :data:`LIMIT_MS`, no press is
stamped before the instant it was made nor more than :data:`TOLERANCE_MS` after it.

What this cannot catch: a counter glitch *behind* that stays after the last sample
kept looks exactly like a press held up on the link; it is bounded by the limits
(:data:`LIMIT_MS`, and never before the last logged event).

Pure: times come in as arguments. No I/O.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

import msgspec

__all__ = [
    "IMPOSSIBLE_MS",
    "LIMIT_MS",
    "REANCHOR",
    "TOLERANCE_MS",
    "WINDOW",
    "DeviceTime",
    "Fault",
    "Reading",
]

TOLERANCE_MS = 200
"""A press arriving up to this much later than its device time is stamped on arrival:
ordinary link delay and jitter (serial ~1 ms, MQTT on loopback ~1 ms, Wi-Fi tens of ms)."""
LIMIT_MS = 60_000
"""A press is never stamped more than this before its arrival: beyond it the device's
time is not trusted (a clock that kept a press for minutes)."""
WINDOW = 32
"""Samples kept; the oldest go, so that a slow drift of the device's crystal
(50 ppm is 3 ms a minute) does not linger."""
IMPOSSIBLE_MS = TOLERANCE_MS
"""A sample whose offset is more than this below the estimate (device time ahead of
the table's), or whose counter is more than this behind the last sample kept, cannot
be true. The same as :data:`TOLERANCE_MS`: an error smaller than this could not move a
stamp by more than ordinary jitter does."""
REANCHOR = 3
"""Impossible samples in a row that agree with each other replace the estimate."""
_WRAP = 1 << 32


class Fault(msgspec.Struct, frozen=True):
    """Why a sample was left out of the offset."""

    kind: Literal["ahead", "back"]
    """``ahead``: the device time is later than the table's clock allows; ``back``:
    the counter went back since the last sample kept."""
    by_ms: int
    """How far from the table's time (by the offset) the device time is: ahead of it,
    or behind it (positive either way)."""


class Reading(msgspec.Struct, frozen=True):
    """What a press's ``device_ms`` says, judged."""

    at: int | None
    """The table time of the press by the device's clock; None: not known (no sample
    yet in the session) or not believed (``fault``)."""
    fault: Fault | None = None
    """Set when the sample cannot be true: the press is stamped on arrival."""


class DeviceTime:
    """One device session's offset between its counter and the table's time.

    >>> dt = DeviceTime()
    >>> dt.table_time(5_000) is None  # nothing heard yet
    True
    >>> dt.sample(101_000, 1_000)  # a heartbeat: 1 ms on the way
    >>> dt.sample(102_003, 2_000)  # a slower one
    >>> dt.table_time(3_000)  # the fastest of the samples that agree sets the offset
    103000
    >>> dt.read(104_000, 104_000)  # a press whose counter says 100 s later than it can be
    Reading(at=None, fault=Fault(kind='ahead', by_ms=100000))
    >>> dt.table_time(4_000)  # left out of the offset
    104000
    >>> wrap = DeviceTime()
    >>> wrap.sample(10_000, 0xFFFF_FF00)  # 256 ms before the counter wraps
    >>> wrap.table_time(100)  # 356 ms later, after the wrap (one sample: a guess)
    10356
    >>> wrap.read(10_400, 100)  # one sample vouches for nothing: stamped on arrival
    Reading(at=None, fault=None)
    """

    def __init__(self) -> None:
        self._offsets: deque[int] = deque(maxlen=WINDOW)
        self._suspects: list[tuple[int, int]] = []  # (offset, unwrapped counter)
        self._last_raw: int | None = None
        self._last: int = 0
        self._kept: int | None = None  # the unwrapped counter of the last sample kept
        self._went_back = False  # the last sample's counter went back: in doubt
        self.rejected = 0
        """Samples left out of the offset so far (all sessions)."""

    def reset(self) -> None:
        """A new device session (a HELLO with a new session): its counter may have
        started again."""
        self._offsets.clear()
        self._suspects.clear()
        self._last_raw = None
        self._kept = None
        self._went_back = False

    def _unwrap(self, raw: int) -> int:
        """``raw`` on a line that does not wrap, near the last counter value seen."""
        raw &= _WRAP - 1
        if self._last_raw is None:
            return raw
        delta = (raw - self._last_raw) % _WRAP
        if delta >= _WRAP // 2:
            delta -= _WRAP  # a little behind the last one (messages crossed)
        return self._last + delta

    def _estimate(self) -> int | None:
        """The smallest offset among the samples another one agrees with; None if none do."""
        ordered = sorted(self._offsets)
        agreed = [
            o
            for i, o in enumerate(ordered)
            if (i > 0 and o - ordered[i - 1] <= IMPOSSIBLE_MS)
            or (i + 1 < len(ordered) and ordered[i + 1] - o <= IMPOSSIBLE_MS)
        ]
        return agreed[0] if agreed else None

    def _judge(self, offset: int, value: int, estimate: int | None) -> Fault | None:
        if estimate is None:
            return None  # nothing agreed yet: nothing to judge by
        if offset < estimate - IMPOSSIBLE_MS:
            return Fault("ahead", estimate - offset)
        if self._kept is not None and value < self._kept - IMPOSSIBLE_MS:
            return Fault("back", offset - estimate)
        if self._went_back and offset > estimate + IMPOSSIBLE_MS:
            return Fault("back", offset - estimate)  # in doubt: still as far back
        return None

    def sample(self, table_ms: int, device_ms: int) -> Fault | None:
        """A message with ``device_ms`` arrived at ``table_ms``: kept in the offset, or
        the reason it cannot be true (then left out)."""
        return self._sample(table_ms, device_ms, self._estimate())[0]

    def _sample(
        self, table_ms: int, device_ms: int, estimate: int | None
    ) -> tuple[Fault | None, int]:
        """:meth:`sample`, judged by ``estimate`` (the offset as it stood): the fault,
        and the counter unwrapped."""
        value = self._unwrap(device_ms)
        self._last_raw, self._last = device_ms & (_WRAP - 1), value
        offset = table_ms - value
        fault = self._judge(offset, value, estimate)
        self._went_back = fault is not None and fault.kind == "back"
        if fault is None:
            self._suspects.clear()
            self._offsets.append(offset)
            self._kept = value
            return None, value
        self.rejected += 1
        if self._suspects:
            last_offset, last_value = self._suspects[-1]
            if abs(offset - last_offset) > IMPOSSIBLE_MS or value < last_value - IMPOSSIBLE_MS:
                self._suspects.clear()  # they disagree: start counting again from this one
        self._suspects.append((offset, value))
        if len(self._suspects) >= REANCHOR:
            # The clock agrees with itself, not with the estimate: its counter jumped.
            self._offsets.clear()
            self._offsets.extend(o for o, _ in self._suspects)
            self._kept = self._suspects[-1][1]
            self._suspects.clear()
            self._went_back = False
        return fault, value

    def read(self, table_ms: int, device_ms: int) -> Reading:
        """A press with ``device_ms`` arrived at ``table_ms``: its table time by the
        device's clock (by the offset as it stood, if samples agree on it), then the
        sample is taken."""
        estimate = self._estimate()
        fault, value = self._sample(table_ms, device_ms, estimate)
        if fault is not None or estimate is None:
            return Reading(None, fault)
        return Reading(value + estimate)

    def table_time(self, device_ms: int) -> int | None:
        """The table time of ``device_ms`` by the device's clock; None when no sample
        is known yet in this session. With no two samples agreeing it is a guess from
        the fastest (:meth:`read` does not stamp a press by it)."""
        if not self._offsets:
            return None
        estimate = self._estimate()
        return self._unwrap(device_ms) + (min(self._offsets) if estimate is None else estimate)
