"""The clock device before a game starts (TableService.expect_game): it shows the next
game's starting time, stopped, and a press on it starts the game at the press, once.

Fake time, the in-process emulated clock (the device the table terminal's keys drive)
and a log on disk; the same path over a serial or MQTT clock is in
tests/firmware_bridge/test_clock_start.py.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from clock.device.emulated import EmulatedClock
from clock.device.interface import SidePressed
from clock.log.eventlog import EventLog
from clock.table.service import Ack, TableService
from clock.table.session import TableSession, TableSpec
from clock.timeline import FakeTimeline
from engine.events import GameStarted
from engine.rules.state import Phase
from tests.clock.test_service import ScriptedDevice
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
    with EventLog.open_readonly(path) as lg:
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


async def test_a_start_the_disk_did_not_take_is_started_by_the_next_press(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk (a test double for it: the log's append raises once) fails the
    game's start: the table is still waiting, and the next press starts the game."""
    tl = FakeTimeline(T0)
    table = session(tmp_path, tl)
    dev = table.emulated
    assert isinstance(dev, EmulatedClock)
    real_append = EventLog.append
    failures = [sqlite3.OperationalError("database or disk is full")]

    def full_once(log: EventLog, *args: Any, **kw: Any) -> int:
        if failures:
            raise failures.pop()
        return real_append(log, *args, **kw)

    monkeypatch.setattr(EventLog, "append", full_once)
    await table.open()
    try:
        await settle(table.service)
        dev.press(1)
        await settle(table.service)
        assert rows(table.spec.log) == []  # the game did not start
        assert table.service.expecting
        assert (dev.core.running, dev.core.paused) == (1, True)  # still waiting, stopped
        tl.advance(5_000)
        dev.press(1)  # the players press again: this press starts the game
        await settle(table.service)
        assert table.service.state.phase is Phase.PLAYING
        assert rows(table.spec.log) == [("game_started", False, T0 + 5_000)]
    finally:
        await table.stop()


async def test_a_refused_start_is_tried_again_and_only_the_start_taken_is_put_back(
    tmp_path: Path,
) -> None:
    """The table's start is refused (a player without a name): the next press tries
    that start again, and another start refused meanwhile is not put in its place."""
    tl = FakeTimeline(T0)
    spec = TableSpec(
        log=tmp_path / "game.db", variant="toronto-speed", players=("Ann", ""), heartbeat_ms=0
    )
    table = TableSession(spec, timeline=tl)
    dev = table.emulated
    assert isinstance(dev, EmulatedClock)
    await table.open()
    try:
        await settle(table.service)
        other = table.service.send(GameStarted(variant="no-such-variant", players=("X", "Y")))
        dev.press(0)  # takes the table's start while the other is still queued
        await settle(table.service)
        assert not (await other).accepted
        dev.press(0)  # the table's start again, refused again
        await settle(table.service)
        assert rows(table.spec.log) == [("game_started", True, T0)] * 3
        assert table.service.expecting
        sent = table.service.start_next()
        assert sent is not None
        ack = await sent
        assert isinstance(ack.event, GameStarted)
        assert ack.event.players == ("Ann", "")
    finally:
        await table.stop()


async def test_a_start_pressed_on_the_clock_answers_the_start_key_in_flight(
    tmp_path: Path,
) -> None:
    """A press has sent the start but it is not on disk yet when the start screen's key
    begins the game: the session's answer is that start's, not the last game's."""
    tl = FakeTimeline(T0)
    table = session(tmp_path, tl)
    dev = table.emulated
    assert isinstance(dev, EmulatedClock)
    await table.open()
    try:
        await settle(table.service)
        table.started = Ack(
            False, GameStarted(variant="wespa", players=("A", "B")), None, "an old answer"
        )
        dev.press(1)
        await dev.drained()  # the service has the press; its commit is still queued
        await table.begin()
        assert table.started is not None
        assert table.started.accepted
        assert isinstance(table.started.event, GameStarted)
    finally:
        await table.stop()


async def test_a_start_pressed_on_a_late_link_is_stamped_at_the_press(tmp_path: Path) -> None:
    """A press held up on the link starts the game at the device's time, as a press in
    the game is stamped (docs/clock-protocol.md), not when it arrived."""
    tl = FakeTimeline(T0)
    dev = ScriptedDevice()
    async with TableService(tmp_path / "t.db", timeline=tl, heartbeat_ms=0, device=dev) as svc:
        svc.expect_game(GameStarted(variant="toronto-speed", players=("Ann", "Ben")), SPEED_MS)
        tl.advance(1_190)
        dev.emit(SidePressed(1, device_at_ms=T0))  # held up 1.19 s on the link
        await settle(svc)
        assert svc.state.phase is Phase.PLAYING
    assert rows(tmp_path / "t.db") == [("game_started", False, T0)]
