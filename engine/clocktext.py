"""Clock times as text: the one formatter for screens, rulings, records and devices.

A clock shows the time left rounded toward zero, as a tournament clock does:
24:59.9 left reads ``24:59`` and the first tenth of a second over reads
``-0:00``. Every place that prints a time (a ruling's ``-1:01``, a GCG
annotation's ``24:28.5``, the director's ``+1:05.3`` offsets, a device's
``-00:05``) asks this module, so they all agree on the second a clock shows.
"""

from __future__ import annotations

__all__ = ["clock_text"]


def clock_text(ms: int, *, tenths: bool = False, plus: bool = False, minute_digits: int = 1) -> str:
    """A signed number of milliseconds as ``m:ss``, rounded toward zero.

    Args:
        ms: Milliseconds; negative in overtime (or for an earlier instant).
        tenths: Add the tenths of a second (``m:ss.t``).
        plus: Sign a time that is not negative with ``+`` (an offset).
        minute_digits: Pad the minutes with zeros to this many digits (a device's
            ``00:05``).

    >>> clock_text(1_500_000)
    '25:00'
    >>> clock_text(1_499_999)
    '24:59'
    >>> clock_text(-61_000)
    '-1:01'
    >>> clock_text(-500)
    '-0:00'
    >>> clock_text(1_468_500, tenths=True)
    '24:28.5'
    >>> clock_text(-12_099, tenths=True)
    '-0:12.0'
    >>> clock_text(65_300, tenths=True, plus=True), clock_text(0, tenths=True, plus=True)
    ('+1:05.3', '+0:00.0')
    >>> clock_text(-5_000, minute_digits=2), clock_text(6_000_000, minute_digits=2)
    ('-00:05', '100:00')
    """
    sign = "-" if ms < 0 else "+" if plus else ""
    secs, rest = divmod(abs(ms), 1000)
    text = f"{sign}{secs // 60:0{minute_digits}d}:{secs % 60:02d}"
    return f"{text}.{rest // 100}" if tenths else text
