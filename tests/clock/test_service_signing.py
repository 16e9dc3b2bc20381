"""A clock press once the game is over signs the result for that side, whatever the
clock is: the service turns it into that player's signature (one path for keys, the
emulated clock, serial, MQTT and gpio); the device stays stopped meanwhile.

Fake time, the in-process emulated clock (the device the table terminal's keys drive,
and the same device-event path a serial, MQTT or gpio clock feeds) and a log on disk;
then the emulated firmware on a real pty, as a serial clock.
"""

from __future__ import annotations

from pathlib import Path

from clock.device.emulated import EmulatedClock
from clock.log.eventlog import EventLog
from clock.table.session import TableSession, TableSpec
from clock.timeline import FakeTimeline, MonotonicTimeline
from engine.events import ClockPressed, Resigned, decode_event
from engine.rules.state import Phase
from firmware_bridge.table_setup import open_table
from tests.firmware_bridge.test_clock_start import serial_clock
from tests.helpers import settle, wait_for

T0 = 1_000_000


def session(tmp_path: Path, tl: FakeTimeline) -> TableSession:
    spec = TableSpec(
        log=tmp_path / "game.db",
        variant="naspa",
        players=("Ann", "Ben"),
        first=0,
        heartbeat_ms=0,
    )
    return TableSession(spec, timeline=tl)


def rows(path: Path) -> list[tuple[str, bool, str | None]]:
    """Each row's type, whether refused, and who made it."""
    with EventLog.open_readonly(path) as lg:
        return [(r.type, r.refused, decode_event(r.body).actor) for r in lg.records()]


async def test_a_press_on_the_clock_after_a_resignation_signs_for_its_side(
    tmp_path: Path,
) -> None:
    tl = FakeTimeline(T0)
    table = session(tmp_path, tl)
    dev = table.emulated
    assert isinstance(dev, EmulatedClock)
    await table.open()
    try:
        await table.begin()
        svc = table.service
        tl.advance(5_000)
        ack = await svc.submit(Resigned(player=0))
        assert ack.accepted, ack.reason
        await settle(svc)
        assert svc.state.phase is Phase.OVER

        dev.press(0)  # Ann's button: Ann signs; the device starts no side meanwhile
        assert dev.core.paused
        await settle(svc)
        assert svc.state.signed == (True, False)
        dev.press(1)
        await settle(svc)
        assert svc.state.signed == (True, True)
        assert dev.core.paused
        signs = [r for r in rows(table.spec.log) if r[0] == "signed"]
        assert signs == [("signed", False, "player0"), ("signed", False, "player1")]

        dev.press(1)  # signed already: refused, and said so
        await settle(svc)
        assert svc.state.signed == (True, True)
        assert rows(table.spec.log)[-1][:2] == ("signed", True)
    finally:
        await table.stop()


async def test_a_keyboard_press_after_the_game_signs_too(tmp_path: Path) -> None:
    tl = FakeTimeline(T0)
    table = session(tmp_path, tl)
    await table.open()
    try:
        await table.begin()
        svc = table.service
        assert (await svc.submit(Resigned(player=1))).accepted
        ack = await svc.submit(ClockPressed(player=1))
        assert ack.accepted, ack.reason
        assert svc.state.signed == (False, True)
    finally:
        await table.stop()


async def test_a_serial_clocks_press_after_the_game_signs(tmp_path: Path) -> None:
    """The same over the wire: the emulated firmware on a real pty (``serial:``), real
    time. Its buttons sign, and its display never shows a side running meanwhile."""
    async with serial_clock(tmp_path) as (fw, clock):
        spec = TableSpec(
            log=tmp_path / "game.db",
            variant="naspa",
            players=("Ann", "Ben"),
            clock=clock,
            heartbeat_ms=0,
        )
        session = open_table(spec, timeline=MonotonicTimeline())
        svc = session.service
        await session.open()
        try:
            await wait_for(lambda: svc.status.device_online, "the clock online")
            await session.begin()
            assert (await svc.submit(Resigned(player=1))).accepted
            # stopped by the table with a side named: a press starts nothing on the clock
            await wait_for(lambda: fw.paused and fw.running is not None, "the clock stopped")
            fw.press(1)
            assert fw.paused
            await wait_for(lambda: svc.state.signed == (False, True), "Ben's signature")
            fw.press(0)
            await wait_for(lambda: svc.state.signed == (True, True), "Ann's signature")
            assert fw.paused
        finally:
            await session.stop()
