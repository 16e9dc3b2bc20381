"""The device's clock in table time (clock/device/device_time.py), and the service's
rule for a press that arrived late (docs/clock-protocol.md, "Device time"). Fake time."""

from __future__ import annotations

import doctest
from pathlib import Path

import clock.device.device_time
from clock.device.device_time import LIMIT_MS, TOLERANCE_MS, WINDOW, DeviceTime
from clock.device.interface import SidePressed
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import ClockPressed, GameStarted, Neutralized, Resumed
from tests.clock.test_service import ScriptedDevice, logged
from tests.helpers import settle

SPEED = GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")


def test_doctests() -> None:
    assert doctest.testmod(clock.device.device_time).failed == 0


def test_the_fastest_sample_sets_the_offset_and_old_ones_leave() -> None:
    dt = DeviceTime()
    dt.sample(10_050, 0)  # 50 ms on the way
    dt.sample(10_101, 100)  # 1 ms: the best
    dt.sample(10_230, 200)
    assert dt.table_time(1_000) == 11_001
    at = dt.table_time(1_000)
    assert at is not None
    assert (11_001 + 700) - at == 700  # a message arriving then is 700 ms late
    for i in range(WINDOW):  # the crystal drifted: 5 ms more on every later sample
        dt.sample(20_000 + 1_000 * i + 5, 10_000 + 1_000 * i)
    assert dt.table_time(50_000) == 60_005


def test_the_counter_wraps_and_a_restart_forgets() -> None:
    dt = DeviceTime()
    dt.sample(1_000, 0xFFFF_FFF0)
    dt.sample(1_032, 0x0000_0010)  # 32 ms later, across the wrap
    assert dt.table_time(0x0000_0110) == 1_288
    dt.sample(1_300, 0x0000_0100)
    assert dt.table_time(0xFFFF_FFF8) == 1_008  # a little behind the last one
    dt.reset()
    assert dt.table_time(5) is None


def table(path: Path, tl: FakeTimeline, dev: ScriptedDevice) -> TableService:
    return TableService(path, timeline=tl, heartbeat_ms=0, device=dev)


async def test_a_late_press_is_stamped_at_the_device_time_with_a_ruling(tmp_path: Path) -> None:
    tl = FakeTimeline(100_000)
    dev = ScriptedDevice()
    async with table(tmp_path / "t.db", tl, dev) as svc:
        await svc.submit(SPEED)
        tl.set(110_000)
        dev.emit(SidePressed(0, device_at_ms=110_000 - TOLERANCE_MS))  # ordinary delay
        await settle(svc)
        tl.set(121_190)
        dev.emit(SidePressed(1, device_at_ms=120_000))  # held up 1.19 s on the link
        await settle(svc)
        # Ann's clock started at Ben's press by the clock's time: 1.19 s already gone
        assert svc.state.clock.remaining(0, 121_190) == svc.state.clock.initial_ms - 10_000 - 1_190
        rulings = [r.text for r in svc.state.rulings]
    presses = [e for _, e in logged(tmp_path / "t.db") if isinstance(e, ClockPressed)]
    assert [(e.t, e.arrived_ms) for e in presses] == [(110_000, None), (120_000, 121_190)]
    assert any(
        "Ben's press reached the table 1.19 s after the clock recorded it" in r for r in rulings
    ), rulings


async def test_a_late_press_is_stamped_no_earlier_than_the_limit_or_the_last_event(
    tmp_path: Path,
) -> None:
    tl = FakeTimeline(0)
    dev = ScriptedDevice()
    async with table(tmp_path / "t.db", tl, dev) as svc:
        await svc.submit(SPEED)
        tl.set(200_000)
        dev.emit(SidePressed(0, device_at_ms=10_000))  # a clock that kept it 190 s
        await settle(svc)
        # Ben's turn: the director neutralizes and resumes; his press, made before the
        # neutralization by his clock, arrives after the resumption
        tl.set(205_000)
        await svc.submit(Neutralized(by="director", reason="a question"))
        tl.set(206_000)
        await svc.submit(Resumed(by="director"))
        tl.set(207_000)
        dev.emit(SidePressed(1, device_at_ms=204_000))
        await settle(svc)
    presses = [e for _, e in logged(tmp_path / "t.db") if isinstance(e, ClockPressed)]
    # never more than LIMIT_MS back; never before the last logged event (the log's order)
    assert [(e.t, e.arrived_ms) for e in presses] == [
        (200_000 - LIMIT_MS, 200_000),
        (206_000, 207_000),
    ]
