"""The table service's logic on a fake timeline: stamps, commits, refusals, ordering,
publishing, engine deadlines, the clock device, and recovery after a crash.

Time never passes by itself here: :class:`FakeTimeline` moves only when a test
advances it, and tasks run when the test yields with ``await asyncio.sleep(0)``.
Every log is a real SQLite file in ``tmp_path``, read back through a second
connection.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from clock.device.emulated import EmulatedClock
from clock.device.interface import DeviceEvent, DeviceOffline, DeviceOnline, SidePressed
from clock.log.eventlog import EventLog, LogRecord
from clock.log.heartbeat import write_alive
from clock.table.service import Ack, Status, TableService, Update
from clock.timeline import FakeTimeline
from engine.events import (
    ClockPressed,
    Event,
    GameStarted,
    Neutralized,
    Resigned,
    Resumed,
    ServiceRestarted,
    TimeChecked,
    TurnScored,
)
from engine.rules.machine import next_deadline
from engine.rules.state import Phase
from tests.helpers import settle

SPEED = GameStarted(variant="toronto-speed", players=("Ann", "Ben"))
"""Scoresheet mode, 3:00 each, no more plays at -1:01 (TOR-8)."""
NZASP = GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
"""25:00 each, no cutoff."""


# --- helpers -------------------------------------------------------------------------


def table(path: Path, tl: FakeTimeline, **kw: Any) -> TableService:
    """A service on the fake timeline, without the real-time heartbeat."""
    return TableService(path, timeline=tl, heartbeat_ms=0, **kw)


def phase(svc: TableService) -> Phase:
    """The table's phase now (a call, so type checkers do not pin it)."""
    return svc.state.phase


def logged(path: Path) -> list[tuple[int, Event]]:
    """The accepted events, read through a second connection."""
    with EventLog.open(path, create=False) as lg:
        return list(lg.events())


def rows(path: Path) -> list[LogRecord]:
    """Every row, refused ones included, read through a second connection."""
    with EventLog.open(path, create=False) as lg:
        return list(lg.records())


def committed(path: Path, seq: int) -> bool:
    """Whether row ``seq`` is in the file on disk (a plain sqlite3 reader)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT 1 FROM events WHERE seq = ?", (seq,)).fetchone() is not None
    finally:
        conn.close()


class Recorder:
    """A listener that keeps every update."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    def __call__(self, update: Update) -> None:
        self.updates.append(update)

    def events(self) -> list[Event]:
        return [u.event for u in self.updates if u.event is not None]

    def refused(self) -> list[Ack]:
        return [u.refused for u in self.updates if u.refused is not None]


class ScriptedDevice:
    """A clock device driven by the test: it emits what it is told and records what
    the service shows on it. Offline, it refuses the service's commands."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[DeviceEvent | None] = asyncio.Queue()
        self.shown: list[tuple[tuple[int, int], int | None, bool]] = []
        self.online = True
        self.closed = False

    def emit(self, ev: DeviceEvent) -> None:
        if isinstance(ev, DeviceOffline):
            self.online = False
        elif isinstance(ev, DeviceOnline):
            self.online = True
        self._queue.put_nowait(ev)

    async def events(self) -> AsyncIterator[DeviceEvent]:
        while (ev := await self._queue.get()) is not None:
            yield ev

    async def set_times(
        self, remaining_ms: tuple[int, int], running: int | None, paused: bool
    ) -> None:
        if not self.online:
            raise ConnectionError("no link to the clock")
        self.shown.append((remaining_ms, running, paused))

    async def run(self, side: int) -> None:
        pass

    async def pause(self) -> None:
        pass

    async def show_text(self, text: str) -> None:
        pass

    async def beep(self) -> None:
        pass

    async def close(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)


class BrokenDevice(ScriptedDevice):
    """A device whose event stream fails after its first event."""

    async def events(self) -> AsyncIterator[DeviceEvent]:
        yield DeviceOnline("clock-9")
        raise ConnectionResetError("serial port vanished")


# --- one path: stamp, check, commit, acknowledge, publish ----------------------------


async def test_commands_are_stamped_on_arrival(tmp_path: Path) -> None:
    tl = FakeTimeline(1000)
    async with table(tmp_path / "t.db", tl) as svc:
        # Nothing runs between these sends: the stamps are the arrival times.
        f1 = svc.send(SPEED)
        tl.advance(12000)
        f2 = svc.send(ClockPressed(player=0))
        tl.advance(3000)
        f3 = svc.send(TurnScored(player=0, score=30, first_letter="A"))
        tl.advance(9000)
        acks = await asyncio.gather(f1, f2, f3)
    assert [a.event.t for a in acks] == [1000, 13000, 16000]
    assert all(a.accepted for a in acks)
    assert [a.seq for a in acks] == [1, 2, 3]
    assert [ev.t for _, ev in logged(tmp_path / "t.db")] == [1000, 13000, 16000]


async def test_running_side_switches_at_the_press_stamp(tmp_path: Path) -> None:
    tl = FakeTimeline()
    async with table(tmp_path / "t.db", tl) as svc:
        await svc.submit(SPEED)
        tl.advance(20000)
        press = svc.send(ClockPressed(player=0))
        tl.advance(5000)  # the writer only sees the press now
        ack = await press
        assert ack.event.t == 20000
        clock = svc.state.clock
        assert clock.running == 1
        assert clock.since_ms == 20000
        now = tl.now_ms()
        assert (clock.remaining(0, now), clock.remaining(1, now)) == (160000, 175000)
        now = tl.advance(10000)
        assert (clock.remaining(0, now), clock.remaining(1, now)) == (160000, 165000)


async def test_ack_comes_after_the_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.db"
    futs: list[asyncio.Future[Ack]] = []
    done_at_append: list[bool] = []
    real_append = EventLog.append

    def watched_append(self: EventLog, event: Event, **kw: Any) -> int:
        # The future of the command being appended must still be pending.
        done_at_append.append(futs[len(done_at_append)].done())
        return real_append(self, event, **kw)

    monkeypatch.setattr(EventLog, "append", watched_append)
    on_disk: list[bool] = []

    def check(fut: asyncio.Future[Ack]) -> None:
        seq = fut.result().seq
        assert seq is not None
        on_disk.append(committed(path, seq))

    tl = FakeTimeline()
    async with table(path, tl) as svc:
        for ev in (SPEED, ClockPressed(player=0), TurnScored(player=0, score=12)):
            fut = svc.send(ev)
            fut.add_done_callback(check)
            futs.append(fut)
            tl.advance(1000)
        acks = await asyncio.gather(*futs)
        await settle(svc)
        for ack in acks:
            assert ack.seq in [seq for seq, _ in logged(path)]
    assert done_at_append == [False, False, False]
    assert on_disk == [True, True, True]


async def test_refused_command_answers_with_reason_and_is_logged_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    rec = Recorder()
    async with table(path, tl) as svc:
        svc.add_listener(rec)
        await svc.submit(SPEED)
        tl.advance(4000)
        before = svc.state
        accepted_before = logged(path)
        ack = await svc.submit(ClockPressed(player=1))  # Ann's clock runs, not Ben's
        assert not ack.accepted
        assert ack.seq is None
        assert "not running" in ack.reason
        assert before.variant is not None
        assert ack.rule == before.variant.source("turn_rule")
        assert ack.event.t == 4000
        assert svc.state is before
        assert logged(path) == accepted_before
        last = rows(path)[-1]
        assert last.refused
        assert last.type == "clock_pressed"
        assert (last.reason, last.rule, last.t) == (ack.reason, ack.rule, 4000)
        assert rec.refused() == [ack]


async def test_refused_commands_can_be_kept_out_of_the_log(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with table(path, FakeTimeline(), log_refused=False) as svc:
        await svc.submit(SPEED)
        ack = await svc.submit(ClockPressed(player=1))
        assert not ack.accepted
        assert len(rows(path)) == 1


async def test_two_presses_sent_together_exactly_one_is_accepted(tmp_path: Path) -> None:
    tl = FakeTimeline()
    async with table(tmp_path / "t.db", tl) as svc:
        await svc.submit(SPEED)
        tl.advance(7000)
        first = svc.send(ClockPressed(player=0))
        second = svc.send(ClockPressed(player=0))
        a, b = await asyncio.gather(first, second)
        assert a.accepted
        assert not b.accepted
        assert "not running" in b.reason
        assert svc.state.clock.running == 1
        assert svc.state.presses == (1, 0)


async def test_two_presses_from_the_device_exactly_one_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=180000)
    rec = Recorder()
    async with table(path, tl, device=dev) as svc:
        svc.add_listener(rec)
        await svc.submit(SPEED)
        await settle(svc)
        tl.advance(9000)
        dev.press(0)
        dev.press(0)  # a bounce, or a second hand on the same button
        await settle(svc)
        presses = [ev for ev in rec.events() if isinstance(ev, ClockPressed)]
        assert len(presses) == 1
        assert presses[0].t == 9000
        (refused,) = rec.refused()
        assert "not running" in refused.reason
        assert svc.state.clock.running == 1
    kinds = [(r.type, r.refused) for r in rows(path)]
    assert kinds == [
        ("game_started", False),
        ("clock_pressed", False),
        ("clock_pressed", True),
    ]


async def test_duplicate_device_delivery_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    dev = ScriptedDevice()
    async with table(path, FakeTimeline(), device=dev) as svc:
        await svc.submit(SPEED)
        dev.emit(SidePressed(0, seq=5))
        dev.emit(SidePressed(0, seq=5))  # the transport delivered it twice
        await settle(svc)
        assert svc.state.clock.running == 1
    assert [r.type for r in rows(path)] == ["game_started", "clock_pressed"]


async def test_a_press_is_acked_after_its_commit_and_stamped_on_arrival_during_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The device hears a press is safe only once it is committed; a press that
    arrives while a commit is still on the disk is stamped when it arrived, not when
    the disk is done (the commit runs on the log's thread)."""
    path = tmp_path / "t.db"
    tl = FakeTimeline(1_000)
    dev = ScriptedDevice()
    acks: list[str] = []
    async with table(path, tl, device=dev) as svc:
        await svc.submit(SPEED)
        real_append = EventLog.append
        disk_free = threading.Event()
        on_disk: list[int] = []

        def slow_append(log: EventLog, *args: Any, **kw: Any) -> int:
            # A slow disk (a test double for fsync's latency): the commit waits here.
            assert disk_free.wait(10)
            seq = real_append(log, *args, **kw)
            on_disk.append(seq)
            return seq

        monkeypatch.setattr(EventLog, "append", slow_append)
        dev.emit(SidePressed(0, seq=1, on_disk=lambda: acks.append(f"first after {on_disk}")))
        for _ in range(20):
            await asyncio.sleep(0)
        assert acks == []  # committing: no ack yet
        tl.advance(700)  # Ben thinks for 0.7 s while the disk is busy, then presses
        dev.emit(SidePressed(1, seq=2, on_disk=lambda: acks.append(f"second after {on_disk}")))
        for _ in range(20):
            await asyncio.sleep(0)
        tl.advance(5_000)  # the disk is slow: 5 s pass before the commits are done
        disk_free.set()
        await settle(svc)
        assert acks == ["first after [2]", "second after [2, 3]"]
    presses = [e for _, e in logged(path) if isinstance(e, ClockPressed)]
    assert [e.t for e in presses] == [1_000, 1_700]


# --- publishing never holds up the table ---------------------------------------------------


async def test_failing_and_stuck_subscribers_do_not_stop_commits(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()

    def broken(update: Update) -> None:
        raise RuntimeError("screen bug")

    rec = Recorder()
    async with table(path, tl) as svc:
        svc.add_listener(broken)
        svc.add_listener(rec)
        stuck = svc.subscribe(maxsize=2)  # nobody ever reads it
        never = asyncio.Event()

        async def consumer() -> None:
            async for _ in svc.subscribe(maxsize=1):
                await never.wait()  # blocks forever after the first update

        task = asyncio.create_task(consumer())
        with caplog.at_level(logging.ERROR, logger="clock.table.service"):
            futs = [svc.send(SPEED)]
            for i in range(30):
                tl.advance(1000)
                futs.append(svc.send(ClockPressed(player=i % 2)))
            await settle(svc, len(futs) + 10)
        assert all(f.done() for f in futs)
        acks = [f.result() for f in futs]
        assert all(a.accepted for a in acks)
        assert [a.seq for a in acks] == list(range(1, 32))
        assert [u.seq for u in rec.updates] == list(range(1, 32))
        # 1 initial state + 31 commits into a mailbox of 2: the oldest 30 dropped.
        assert stuck.dropped == 30
        latest = [stuck.get_nowait(), stuck.get_nowait()]
        assert [u.seq for u in latest if u is not None] == [30, 31]
        assert "screen bug" in caplog.text
        assert svc.state.presses == (15, 15)
        task.cancel()
    assert len(logged(path)) == 31


async def test_unsubscribed_mailbox_gets_nothing(tmp_path: Path) -> None:
    async with table(tmp_path / "t.db", FakeTimeline()) as svc:
        sub = svc.subscribe()
        first = await sub.get()
        assert first.seq is None
        assert first.state.phase is Phase.NOT_STARTED
        svc.unsubscribe(sub)
        await svc.submit(SPEED)
        assert sub.get_nowait() is None


@pytest.mark.timeout(10)  # a writer that died would leave the next ack hanging
async def test_a_failed_commit_answers_with_the_error_and_the_table_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.db"
    real_append = EventLog.append
    calls = 0

    def flaky_append(self: EventLog, event: Event, **kw: Any) -> int:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise sqlite3.OperationalError("disk I/O error")
        return real_append(self, event, **kw)

    monkeypatch.setattr(EventLog, "append", flaky_append)
    async with table(path, FakeTimeline()) as svc:
        await svc.submit(SPEED)
        with pytest.raises(sqlite3.OperationalError):
            await svc.submit(ClockPressed(player=0))
        assert svc.state.clock.running == 0  # not applied: it is not in the log
        ack = await svc.submit(ClockPressed(player=0))
        assert ack.accepted
        assert svc.state.clock.running == 1
    assert [type(ev) for _, ev in logged(path)] == [GameStarted, ClockPressed]


# --- deadlines come from the engine ----------------------------------------------------------


async def test_cutoff_applies_at_the_engine_deadline(tmp_path: Path) -> None:
    """lockout.jsonl live: Ann reaches -1:01 at 291000 (no more plays, Ben is behind);
    Ann passes at once, Ben reaches -1:01 at 291000 + 191000 and the game ends."""
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        tl.set(100000)
        await svc.submit(ClockPressed(player=0))
        await svc.submit(TurnScored(player=0, score=30, first_letter="A"))
        tl.set(150000)
        await svc.submit(ClockPressed(player=1))
        await svc.submit(TurnScored(player=1, score=20, first_letter="B"))
        assert svc.state.variant is not None
        cutoff_rule = svc.state.variant.source("cutoff")
        deadline = next_deadline(svc.state)
        assert deadline == 291000

        tl.set(deadline - 1)
        await settle(svc)
        assert not any(isinstance(ev, TimeChecked) for _, ev in logged(path))
        assert svc.state.locked == (False, False)

        tl.set(deadline)  # exactly on time: the wake-up is stamped at the deadline
        await settle(svc)
        _, woke = logged(path)[-1]
        assert isinstance(woke, TimeChecked)
        assert woke.t == deadline
        assert svc.state.locked == (True, False)
        assert svc.state.phase is Phase.PLAYING
        cut = [r for r in svc.state.rulings if r.rule == cutoff_rule]
        assert [r.t for r in cut] == [deadline]
        assert next_deadline(svc.state) is None  # Ann is locked: nothing more to wake for
        assert not svc.deadline_pending

        await svc.submit(ClockPressed(player=0))  # Ann passes at once (she may only pass)
        deadline = next_deadline(svc.state)
        assert deadline == 291000 + 130000 + 61000

        tl.set(deadline + 9000)  # woken late: the ruling still takes effect at the deadline
        await settle(svc)
        _, woke = logged(path)[-1]
        assert isinstance(woke, TimeChecked)
        assert woke.t == deadline + 9000
        assert phase(svc) is Phase.END_RACKS
        cut = [r for r in svc.state.rulings if r.rule == cutoff_rule]
        assert {r.t for r in cut} == {291000, deadline}
        assert svc.state.clock.remaining(1, tl.now_ms()) == -61000
        assert svc.state.clock.remaining(0, tl.now_ms()) == -61000
    checks = [ev for _, ev in logged(path) if isinstance(ev, TimeChecked)]
    assert len(checks) == 2


async def test_a_press_before_the_deadline_moves_it(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        assert next_deadline(svc.state) == 241000
        assert svc.deadline_pending
        tl.set(240000)
        await svc.submit(ClockPressed(player=0))
        assert next_deadline(svc.state) == 240000 + 241000
        assert svc.deadline_pending
        tl.set(241000)  # the old deadline passes: nothing happens
        await settle(svc)
        assert not any(isinstance(ev, TimeChecked) for _, ev in logged(path))
        assert svc.state.locked == (False, False)


async def test_no_cutoff_schedules_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(NZASP)
        assert next_deadline(svc.state) is None
        assert not svc.deadline_pending  # no wake-up is scheduled
        tl.advance(50 * 60 * 1000)  # far into overtime
        await settle(svc)
        assert svc.state.phase is Phase.PLAYING
        assert svc.state.clock.remaining(0, tl.now_ms()) == -25 * 60 * 1000
    assert [type(ev) for _, ev in logged(path)] == [GameStarted]


# --- the clock device ------------------------------------------------------------------------


async def test_device_authoritative_drift_over_threshold_is_a_ruling(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=180000, report_times=True)
    async with table(path, tl, device=dev, authority="device") as svc:
        await svc.submit(SPEED)
        await settle(svc)
        tl.advance(10000)
        dev.used_ms[0] += 400  # the device's own clock ran 400 ms fast for Ann
        dev.press(0)
        await settle(svc)
        _, press = logged(path)[-1]
        assert isinstance(press, ClockPressed)
        assert press.t == 10000
        assert press.device_remaining_ms == (169600, 180000)  # the device's times
        # the host's own reckoning at the stamp was (170000, 180000): both are recorded
        drift = [r for r in svc.state.rulings if "differ by" in r.text]
        assert len(drift) == 1
        assert "differ by 400 ms" in drift[0].text
        assert "(device 2:49.6 / 3:00.0, service 2:50.0 / 3:00.0)" in drift[0].text
        assert drift[0].t == 10000
        assert press.device_ms == 10000  # the device's own counter at the press, recorded
        assert svc.state.clock.remaining(0, tl.now_ms()) == 169600  # the device's stand

        tl.advance(10000)
        dev.used_ms[1] += 200  # under the threshold: recorded, no ruling
        dev.press(1)
        await settle(svc)
        _, press = logged(path)[-1]
        assert isinstance(press, ClockPressed)
        assert press.device_remaining_ms == (169600, 169800)
        assert len([r for r in svc.state.rulings if "differ by" in r.text]) == 1
        assert svc.state.clock.remaining(1, tl.now_ms()) == 169800


async def test_device_drift_threshold_is_configurable(tmp_path: Path) -> None:
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=180000, report_times=True)
    async with table(
        tmp_path / "t.db", tl, device=dev, authority="device", drift_threshold_ms=50
    ) as svc:
        await svc.submit(SPEED)
        await settle(svc)
        tl.advance(3000)
        dev.used_ms[0] += 100
        dev.press(0)
        await settle(svc)
        assert any("differ by 100 ms" in r.text for r in svc.state.rulings)


async def test_host_authoritative_device_shows_the_service_times(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=180000, report_times=True)

    def same(svc: TableService) -> None:
        now = tl.now_ms()
        clock = svc.state.clock
        assert (dev.remaining(0), dev.remaining(1)) == (
            clock.remaining(0, now),
            clock.remaining(1, now),
        )
        assert dev.running == clock.running

    async with table(path, tl, device=dev) as svc:
        await svc.submit(SPEED)
        await settle(svc)
        same(svc)
        tl.advance(15000)
        dev.used_ms[0] += 5000  # the device drifts; the host's times rule
        same_before = svc.state.clock.remaining(0, tl.now_ms())
        assert dev.remaining(0) == same_before - 5000
        dev.press(0)
        await settle(svc)
        _, press = logged(path)[-1]
        assert isinstance(press, ClockPressed)
        assert press.device_remaining_ms is None
        assert not any("differ by" in r.text for r in svc.state.rulings)
        same(svc)
        assert dev.remaining(0) == 165000
        tl.advance(4000)
        same(svc)
        dev.pause_button()
        await settle(svc)
        assert svc.state.clock.neutral is not None
        same(svc)
        assert dev.running is None
        tl.advance(60000)
        same(svc)
        dev.pause_button()
        await settle(svc)
        assert svc.state.clock.neutral is None
        tl.advance(1000)
        same(svc)
        assert dev.remaining(1) == 175000
    assert dev.closed


async def test_device_offline_and_back(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    dev = ScriptedDevice()
    async with table(path, tl, device=dev) as svc:
        sub = svc.subscribe()
        dev.emit(DeviceOnline("clock-7"))
        await settle(svc)
        assert svc.status == Status(True, "clock-7")
        await svc.submit(SPEED)
        await settle(svc)
        assert dev.shown[-1] == ((180000, 180000), 0, False)

        tl.advance(5000)
        dev.emit(DeviceOffline("cable unplugged"))
        await settle(svc)
        assert svc.status == Status(False, "clock-7", "cable unplugged", offline_since_ms=5000)
        updates: list[Update] = []
        while (u := sub.get_nowait()) is not None:
            updates.append(u)
        offline = [u for u in updates if u.seq is None and not u.status.device_online]
        assert offline
        assert offline[-1].status.device_reason == "cable unplugged"

        # The game's time goes on, and commands are still taken.
        tl.advance(20000)
        assert svc.state.clock.remaining(0, tl.now_ms()) == 155000
        ack = await svc.submit(ClockPressed(player=0))
        assert ack.accepted
        assert ack.event.t == 25000
        shown_while_offline = len(dev.shown)
        tl.advance(7000)
        await settle(svc)
        assert len(dev.shown) == shown_while_offline  # the offline device took nothing

        dev.emit(DeviceOnline())  # back, without repeating its id
        await settle(svc)
        assert svc.status == Status(True, "clock-7")
        # Reconciled: the device now shows the service's times at the reconnection.
        assert dev.shown[-1] == ((155000, 173000), 1, False)
    assert dev.closed


@pytest.mark.timeout(10)
async def test_a_failing_device_stream_marks_it_offline(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    rec = Recorder()
    svc = table(path, tl, device=BrokenDevice())
    svc.add_listener(rec)
    async with svc:
        await settle(svc)
        assert not svc.status.device_online
        assert svc.status.device_id == "clock-9"
        assert "serial port vanished" in svc.status.device_reason
        assert [u.status.device_online for u in rec.updates] == [True, False]
        ack = await svc.submit(SPEED)  # the table goes on without its clock
        assert ack.accepted


# --- crash and restart -----------------------------------------------------------------------


async def test_restart_neutralizes_and_logs_the_measured_gap(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        tl.set(20000)
        await svc.submit(ClockPressed(player=0))  # Ben's clock runs from 20000
        tl.set(30000)
        write_alive(path, tl.now_ms())  # the last heartbeat before the crash
        tl.set(30150)
        # the process dies here: nothing more is written

    tl2 = FakeTimeline(45000)
    async with table(path, tl2) as svc2:
        st = svc2.state
        assert st.phase is Phase.PLAYING
        assert st.turn == 1
        assert svc2.rejected_on_load == []
        seq, ev = logged(path)[-1]
        assert seq == 3
        assert isinstance(ev, ServiceRestarted)
        assert ev.gap_ms == 45000 - 30000
        assert ev.t == 30000
        assert st.clock.neutral is not None
        assert st.clock.running is None
        # Ben is charged only up to the last sign of life, whatever the time now.
        assert st.clock.used_ms == (20000, 10000)
        tl2.advance(60000)
        assert st.clock.remaining(1, tl2.now_ms()) == 170000
        assert any("down 0:15.0" in r.text for r in st.rulings)  # clock time, not ms
        # The director resumes: Ben's clock runs again from now.
        ack = await svc2.submit(Resumed(by="director"))
        assert ack.accepted
        assert ack.event.t == 105000
        tl2.advance(5000)
        assert svc2.state.clock.remaining(1, tl2.now_ms()) == 165000


async def test_restart_without_a_heartbeat_counts_from_the_last_event(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        tl.set(8000)
        await svc.submit(ClockPressed(player=0))
    async with table(path, FakeTimeline(20000)) as svc2:
        _, ev = logged(path)[-1]
        assert isinstance(ev, ServiceRestarted)
        assert (ev.t, ev.gap_ms) == (8000, 12000)
        assert svc2.state.clock.used_ms == (8000, 0)


async def test_restart_of_a_neutralized_game_keeps_it_neutralized(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        tl.set(5000)
        await svc.submit(Neutralized(by="director", reason="noise"))
        tl.set(9000)
        write_alive(path, 9000)
    async with table(path, FakeTimeline(12000)) as svc2:
        _, ev = logged(path)[-1]
        assert isinstance(ev, ServiceRestarted)
        assert ev.gap_ms == 3000
        assert svc2.state.clock.used_ms == (5000, 0)
        ack = await svc2.submit(Resumed(by="director"))
        assert ack.accepted
        assert svc2.state.clock.running == 0


async def test_restart_of_a_finished_game_logs_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        tl.set(5000)
        await svc.submit(Resigned(player=1))
        assert svc.state.phase is Phase.OVER
        tl.set(6000)
        write_alive(path, 6000)
    before = rows(path)
    async with table(path, FakeTimeline(90000)) as svc2:
        assert svc2.state.phase is Phase.OVER
        assert svc2.state.result is not None
        assert svc2.state.result.winner == 0
    assert rows(path) == before


async def test_restart_picks_up_deadlines(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tl = FakeTimeline()
    async with table(path, tl) as svc:
        await svc.submit(SPEED)
        tl.set(200000)
        write_alive(path, 200000)
    tl2 = FakeTimeline(210000)
    async with table(path, tl2) as svc2:
        assert svc2.state.clock.neutral is not None
        assert next_deadline(svc2.state) is None
        await svc2.submit(Resumed(by="director"))
        deadline = next_deadline(svc2.state)
        # 200 s used before the crash; -1:01 is 41 s after the resumption.
        assert deadline == 210000 + 41000
        tl2.set(deadline)
        await settle(svc2)
        _, ev = logged(path)[-1]
        assert isinstance(ev, TimeChecked)
        assert svc2.state.phase is Phase.END_RACKS
        assert svc2.state.clock.remaining(0, tl2.now_ms()) == -61000


async def test_log_lines_refused_at_replay_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with EventLog.open(path) as lg:
        lg.append(GameStarted(t=0, variant="toronto-speed", players=("Ann", "Ben")))
        lg.append(ClockPressed(t=5000, player=1))  # Ben's clock was not running
        lg.append(ClockPressed(t=6000, player=0))
    async with table(path, FakeTimeline(6000)) as svc:
        (bad,) = svc.rejected_on_load
        assert bad.line == 2
        assert "not running" in bad.reason
        assert bad.rule
        assert svc.state.turn == 1
        assert svc.state.presses == (1, 0)
