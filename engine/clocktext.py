"""Clock times as text: the one formatter for screens, rulings, records and devices.

A clock shows the time left rounded toward zero, as a tournament clock does:
24:59.9 left reads ``24:59`` and the first tenth of a second over reads
``-0:00``. Every place that prints a time (a ruling's ``-1:01``, a GCG
annotation's ``24:28.5``, the director's ``+1:05.3`` offsets, a device's
``-00:05``) asks this module, so they all agree on the second a clock shows.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules.variant import Variant

__all__ = ["clock_text", "parse_clock_text", "penalty_rate"]


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


_CLOCK_RE = re.compile(r"\+?(?:(\d+):(?=\d\d:))?(\d+):(\d\d)(?:\.(\d{1,3}))?")


def parse_clock_text(text: str) -> int:
    """A time as people write it (``5:30``, ``+0:25.0``, ``1:02:03.5``) in milliseconds.

    The form :func:`clock_text` prints with ``plus``/``tenths`` reads back: the
    director types what the console shows. Digits after the point are a fraction
    of a second (``0:25.05`` is 25 050 ms).

    Raises:
        ValueError: Not such a time, quoting ``text``.

    >>> parse_clock_text("5:30"), parse_clock_text("+0:25.0"), parse_clock_text("1:02:03.5")
    (330000, 25000, 3723500)
    >>> parse_clock_text(clock_text(65_300, tenths=True, plus=True))
    65300
    """
    m = _CLOCK_RE.fullmatch(text.strip())
    if m is None or int(m.group(3)) >= 60 or (m.group(1) and int(m.group(2)) >= 60):
        raise ValueError(
            f"{text!r} is not a time: write m:ss, m:ss.t or h:mm:ss.t"
            " (e.g. 0:25.0, 5:30, 1:02:03.5)"
        )
    hours, minutes, seconds, frac = m.groups()
    ms = ((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds)) * 1000
    return ms + (int((frac or "").ljust(3, "0")) if frac else 0)


def penalty_rate(variant: Variant, *, short: bool = False) -> str:
    """How a variant counts the time penalty, in the words a screen puts beside it.

    A clock shows whole seconds rounded toward zero, but "per second (or minute)
    or part" counts every started one: -0:03.4 reads ``-0:03`` and costs 4
    points at one point a second (TOR-7). The screen says so, so a player is not
    surprised. Counted at the clock's resolution (``penalty_resolution_ms`` as
    large as the unit), what the clock shows is what counts, and the words say that.
    ``short``: for a clock device's narrow line.

    >>> from engine.rules.variant import load_variant
    >>> penalty_rate(load_variant("toronto-speed")), penalty_rate(load_variant("naspa"), short=True)
    ('each started second costs 1', '10 per started min')
    """
    ms = variant.penalty_unit_ms
    units = {1000: ("second", "s"), 60_000: ("minute", "min")}
    unit, abbr = units.get(ms, (f"{ms / 1000:g} s", f"{ms / 1000:g} s"))
    points = variant.penalty_points
    if not variant.penalty_part_counts:
        kind = "whole"
    elif variant.penalty_resolution_ms >= ms:
        kind = "shown"
    else:
        kind = "started"
    if short:
        return f"{points} per {abbr} shown" if kind == "shown" else f"{points} per {kind} {abbr}"
    if kind == "shown":
        return f"each {unit} the clock shows costs {points}"
    return f"each {kind} {unit} costs {points}"
