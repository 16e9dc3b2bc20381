"""The one clock core every emulated clock keeps time with: stored used time, derived
remaining time, and the one press rule."""

from __future__ import annotations

import pytest

from clock.device.core import ClockCore


class Counter:
    """A fake millisecond counter."""

    def __init__(self) -> None:
        self.t = 1_000

    def __call__(self) -> int:
        return self.t


def test_a_new_clock_is_paused_and_the_first_press_starts_the_opponent() -> None:
    now = Counter()
    core = ClockCore(now, initial_ms=60_000)
    assert (core.paused, core.running) == (True, None)
    now.t += 5_000
    assert core.shown() == (60_000, 60_000)  # nothing runs before the first press
    assert core.press(0)
    assert (core.paused, core.running) == (False, 1)
    now.t += 2_500
    assert core.shown() == (60_000, 57_500)


def test_only_the_running_side_switches_the_clock() -> None:
    now = Counter()
    core = ClockCore(now, initial_ms=60_000)
    core.press(1)  # side 0 runs
    now.t += 1_000
    assert not core.press(1)  # the side not running presses: nothing changes
    assert core.running == 0
    assert core.press(0)
    now.t += 4_000
    assert core.shown() == (59_000, 56_000)


def test_a_host_pause_with_a_side_named_is_resumed_only_by_the_host() -> None:
    now = Counter()
    core = ClockCore(now, initial_ms=60_000)
    core.set((30_000, 40_000), running=1, paused=True)
    now.t += 9_000
    assert not core.press(1)
    assert core.shown() == (30_000, 40_000)
    core.set((30_000, 40_000), running=1, paused=False)
    now.t += 1_000
    assert core.shown() == (30_000, 39_000)


def test_a_host_stop_without_a_side_starts_at_the_next_press() -> None:
    now = Counter()
    core = ClockCore(now, initial_ms=60_000)
    core.set((-1_500, 10_000), running=None, paused=True)
    assert core.shown() == (-1_500, 10_000)  # overtime shows negative
    assert core.press(1)
    now.t += 500
    assert core.shown() == (-2_000, 10_000)


def test_pause_keeps_the_time_and_run_names_a_side() -> None:
    now = Counter()
    core = ClockCore(now, initial_ms=60_000)
    core.run(0)
    now.t += 3_000
    core.pause()
    now.t += 3_000
    assert core.shown() == (57_000, 60_000)
    core.run(1)
    now.t += 1_000
    assert core.shown() == (57_000, 59_000)


def test_a_side_must_be_0_or_1() -> None:
    with pytest.raises(ValueError, match="side must be 0 or 1, got 2"):
        ClockCore(Counter(), initial_ms=1).press(2)
