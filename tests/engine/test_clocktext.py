"""The one clock-time formatter prints what each screen, record and device printed
before it replaced their own copies (issue 9): same sign, padding, tenths, and
rounding toward zero."""

from __future__ import annotations

import doctest

import pytest

import engine.clocktext
from engine.clocktext import clock_text


def test_doctests() -> None:
    assert doctest.testmod(engine.clocktext).failed == 0


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (1_500_000, "25:00"),
        (1_499_999, "24:59"),  # toward zero: 24:59.999 reads 24:59
        (60_000, "1:00"),
        (999, "0:00"),
        (0, "0:00"),
        (-1, "-0:00"),  # the first instant of overtime
        (-999, "-0:00"),
        (-1_000, "-0:01"),
        (-61_000, "-1:01"),
        (-600_000, "-10:00"),
    ],
)
def test_rulings_and_screens(ms: int, text: str) -> None:
    # Rulings ("-1:01 overtime"), the table's and director's clocks, replay's rulings.
    assert clock_text(ms) == text


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (1_468_500, "24:28.5"),
        (1_468_599, "24:28.5"),
        (-12_000, "-0:12.0"),
        (-12_099, "-0:12.0"),
        (-50, "-0:00.0"),
        (0, "0:00.0"),
    ],
)
def test_tenths(ms: int, text: str) -> None:
    # GCG clock annotations (after the "@") and ``rackclock replay``'s clocks.
    assert clock_text(ms, tenths=True) == text


@pytest.mark.parametrize(
    ("ms", "text"),
    [(65_300, "+1:05.3"), (0, "+0:00.0"), (99, "+0:00.0"), (-65_300, "-1:05.3")],
)
def test_offsets(ms: int, text: str) -> None:
    # The director's timeline: offsets from the game's start.
    assert clock_text(ms, tenths=True, plus=True) == text


@pytest.mark.parametrize(
    ("ms", "text"),
    [(1_500_000, "25:00"), (5_000, "00:05"), (-5_000, "-00:05"), (-61_999, "-01:01")],
)
def test_device_display(ms: int, text: str) -> None:
    # The emulated clock firmware's display.
    assert clock_text(ms, minute_digits=2) == text
