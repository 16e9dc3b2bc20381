"""The clock device before a game starts (TableService.expect_game): it shows the next
game's starting time, stopped, and a press on it starts the game at the press, once.

Fake time, the in-process emulated clock (the device the table terminal's keys drive)
and a log on disk; the same path over a serial or MQTT clock is in
tests/firmware_bridge/test_clock_start.py.
"""

from __future__ import annotations

from pathlib import Path

from clock.device.emulated import EmulatedClock
from clock.log.eventlog import EventLog
from clock.table.session import TableSession, TableSpec
from clock.timeline import FakeTimeline
from engine.events import GameStarted
from engine.rules.state import Phase
from tests.helpers import settle

T0 = 1_000_000
SPEED_MS = 180_000
"""toronto-speed: 3:00 each, scoresheet mode."""


def session(tmp_path: Path, tl: FakeTimeline) -> TableSession:
    spec = TableSpec(
        log=tmp_path / "game.db",
        variant="toronto-speed",
        players=("Ann", "Ben"),
        first=1,
        heartbeat_ms=0,
    )
    return TableSession(spec, timeline=tl)


def rows(path: Path) -> list[tuple[str, bool, int]]:
    """Each row's type, whether refused, and its time."""
    with EventLog.open(path, create=False) as lg:
        return [(r.type, r.refused, r.t) for r in lg.records()]


async def test_a_press_on_the_clock_starts_the_game_at_the_press_once(tmp_path: Path) -> None:
    tl = FakeTimeline(T0)
    table = session(tmp_path, tl)
    dev = table.emulated
    assert isinstance(dev, EmulatedClock)
    await table.open()
    try:
        await settle(table.service)
        # the start: 3:00 each, stopped, Ben named to start (a press runs nothing itself)
        assert (dev.remaining(0), dev.remaining(1)) == (SPEED_MS, SPEED_MS)
        assert (dev.core.running, dev.core.paused) == (1, True)
        tl.advance(90_000)  # the players settle in: nothing counts, nothing is logged
        await settle(table.service)
        assert rows(table.spec.log) == []

        dev.press(1)  # Ben starts his own clock (either button starts it), twice
        dev.press(1)
        await settle(table.service)
        assert table.service.state.phase is Phase.PLAYING
        assert table.service.state.clock.running == 1  # the second press ended no turn
        assert rows(table.spec.log) == [("game_started", False, T0 + 90_000)]
        assert (dev.core.running, dev.core.paused) == (1, False)

        dev.press(1)  # the game is on: Ben's press is a press
        await settle(table.service)
        assert table.service.state.clock.running == 0
        await table.begin()  # a start screen's key now starts nothing
        assert table.started is None
        assert [r[0] for r in rows(table.spec.log)] == ["game_started", "clock_pressed"]
    finally:
        await table.stop()


async def test_a_key_start_leaves_nothing_for_the_clock_to_start(tmp_path: Path) -> None:
    tl = FakeTimeline(T0)
    table = session(tmp_path, tl)
    await table.open()
    try:
        await table.begin()  # the start screen's key
        assert table.started is not None
        assert table.started.accepted
        assert isinstance(table.started.event, GameStarted)
        assert not table.service.expecting
        assert table.service.start_next() is None
    finally:
        await table.stop()
