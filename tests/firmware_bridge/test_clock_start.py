"""A real clock at the start screen (issue 25's review, item 5): before the game starts
the table's clock shows the game's starting time, stopped, the starting side named,
and a press of either of its buttons starts the game as a clock key on the start
screen does; after a game is over, the next game's start is shown the same way.

Real parts: the emulated clock firmware speaking the serial protocol on a real pty
(``os.openpty``), or MQTT through a real Mosquitto, the table opened from its
``--clock`` text, its log on disk, real time; the table terminal under Textual's Pilot
for the start screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tty
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

from clock.log.eventlog import EventLog
from clock.table.session import TableSession, TableSpec
from clock.timeline import MonotonicTimeline
from engine.events import GameStarted, ResultDeclared
from engine.rules.state import Phase
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.mqtt_device import run_mqtt
from firmware_bridge.device.serial_runner import run_fd
from firmware_bridge.table_setup import open_table
from terminal_ui.shared.start import StartScreen
from terminal_ui.table.app import TableApp
from tests.helpers import Broker, config, screen_text, until, wait_for

NZASP_MS = 1_500_000
"""nzasp's starting time: 25:00 each."""
SPEED_MS = 180_000
"""toronto-speed's: 3:00 each."""


@contextlib.asynccontextmanager
async def serial_clock(tmp_path: Path) -> AsyncIterator[tuple[ClockFirmware, str]]:
    """The emulated firmware on a pty, and the ``--clock`` text that reaches it. Its own
    starting time (10:00) is none of the games', so what it shows came from the table."""
    master, slave = os.openpty()
    tty.setraw(master)
    link = tmp_path / "ttyCLOCK"
    link.symlink_to(os.ttyname(slave))
    fw = ClockFirmware("clock-start", initial_ms=600_000)
    task = asyncio.create_task(run_fd(fw, master), name="fw")
    try:
        yield fw, f"serial:{link}"
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        os.close(master)
        os.close(slave)


def shows_start(fw: ClockFirmware, initial_ms: int, first: int) -> bool:
    """The firmware shows a game's start: its time each side, stopped, the starter named."""
    return (fw.remaining(0), fw.remaining(1), fw.running, fw.paused, fw.text) == (
        initial_ms,
        initial_ms,
        first,
        True,
        "",
    )


def logged(path: Path) -> list[tuple[str, bool]]:
    """Each log row's type and whether it was refused."""
    with EventLog.open_readonly(path) as lg:
        return [(r.type, r.refused) for r in lg.records()]


async def test_the_clock_shows_the_starting_time_and_its_press_starts_the_game(
    tmp_path: Path,
) -> None:
    async with serial_clock(tmp_path) as (fw, clock):
        spec = TableSpec(
            log=tmp_path / "game.db",
            variant="nzasp",
            players=("Ann", "Ben"),
            mode="scoresheet",
            clock=clock,
            heartbeat_ms=0,
        )
        session = open_table(spec, timeline=MonotonicTimeline())
        svc = session.service
        await session.open()  # the start screen's moment: the table is up, no game yet
        try:
            await wait_for(lambda: svc.status.device_online, "the clock online")
            await wait_for(lambda: shows_start(fw, NZASP_MS, 0), "25:00 each, Ann to start")
            # stopped: nothing counts before the start (a minute on, it shows the same)
            assert fw.core.shown_at(fw.now_ms() + 60_000) == (NZASP_MS, NZASP_MS)

            fw.press(1)  # Ben presses to start Ann's clock
            assert fw.paused  # the clock waits for the table, as the start screen does
            await wait_for(lambda: svc.state.phase is Phase.PLAYING, "the game started")
            assert svc.state.clock.running == 0
            await wait_for(lambda: fw.running == 0 and not fw.paused, "Ann's time running")
            await session.begin()  # a start screen's key after the press: nothing more
            assert session.started is None
            assert logged(spec.log) == [("game_started", False)]
            with EventLog.open_readonly(spec.log) as lg:
                started = next(lg.records()).event()
            assert isinstance(started, GameStarted)
            assert started.actor == "players"  # the players start it; the clock only presses

            # the game ends; the next game (ctrl+N: the session's spec) is shown at once
            ack = await svc.submit(ResultDeclared(by="director", reason="test"), "director")
            assert ack.accepted
            await wait_for(lambda: fw.text != "", "the result on the clock")
            session.spec = replace(
                spec, variant="toronto-speed", players=("Ben", "Ann"), first=1, new_game=True
            )
            await wait_for(lambda: shows_start(fw, SPEED_MS, 1), "3:00 each, Ann to start")
            fw.press(0)
            await wait_for(lambda: svc.state.games == 2, "the next game started")
            assert svc.state.clock.running == 1
            await wait_for(lambda: fw.running == 1 and not fw.paused, "Ann's time running")
            assert [kind for kind, _ in logged(spec.log)] == [
                "game_started",
                "result_declared",
                "game_started",
            ]
        finally:
            await session.stop()


async def test_a_press_on_the_clock_closes_the_table_terminals_start_screen(
    tmp_path: Path,
) -> None:
    async with serial_clock(tmp_path) as (fw, clock):
        cfg = config(tmp_path, clock=clock, timeline=MonotonicTimeline())
        async with TableApp(cfg).run_test(size=(100, 30)) as pilot:
            app = pilot.app
            assert isinstance(app, TableApp)
            await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
            shown = screen_text(app)
            assert "A press on the clock starts it too." in shown, shown
            await until(pilot, lambda: shows_start(fw, NZASP_MS, 0), "25:00 on the clock")
            fw.press(0)
            await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the table")
            assert app.state.phase is Phase.PLAYING
            assert app.state.clock.running == 0
            assert isinstance(app.session, TableSession)
            assert app.session.started is None  # the press started it, not a key
        assert logged(cfg.log) == [("game_started", False)]


async def test_a_clock_on_a_broker_shows_the_start_and_starts_the_game(
    mosquitto: Broker, tmp_path: Path
) -> None:
    url = mosquitto.url("/club/t1")
    fw = ClockFirmware("clock-mqtt", initial_ms=600_000)
    task = asyncio.create_task(run_mqtt(fw, url), name="fw")
    spec = TableSpec(
        log=tmp_path / "game.db",
        variant="toronto-speed",
        players=("Ann", "Ben"),
        first=1,
        clock=url,
        heartbeat_ms=0,
    )
    session = open_table(spec, timeline=MonotonicTimeline())
    try:
        await session.open()
        await wait_for(lambda: shows_start(fw, SPEED_MS, 1), "3:00 each, Ben to start")
        fw.press(0)
        await wait_for(lambda: session.service.state.phase is Phase.PLAYING, "the game")
        await wait_for(lambda: fw.running == 1 and not fw.paused, "Ben's time running")
        assert logged(spec.log) == [("game_started", False)]
    finally:
        await session.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
