"""The serial-to-MQTT gateway with real parts: the emulated clock firmware on a
pseudo-terminal, the gateway as the serial host and the table's MQTT clock, a
real mosquitto, and a table service with an MqttClock on the other side."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tty
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from clock.service import TableService
from clock.timeline import MonotonicTimeline
from engine.eventlog import EventLog
from engine.events import GameStarted
from firmware_bridge.firmware import ClockFirmware, run_fd
from firmware_bridge.gateway import Gateway
from firmware_bridge.mqtt_client import Backoff, parse_url
from firmware_bridge.mqtt_clock import MqttClock
from firmware_bridge.serial_clock import SerialClock
from firmware_bridge.topics import TableTopics
from tests.conftest import Broker

WAIT_S = 5.0


async def until(cond: Callable[[], bool], what: str, limit_s: float = WAIT_S) -> None:
    """Poll ``cond`` every 10 ms; fail the test after ``limit_s``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit_s
    while not cond():
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def background(coro: object, name: str) -> AsyncIterator[asyncio.Task[object]]:
    task: asyncio.Task[object] = asyncio.create_task(coro, name=name)  # type: ignore[arg-type]
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def presses(log: Path) -> list[int]:
    with EventLog.open(log, create=False) as ev:
        return [seq for seq, e in ev.events() if type(e).__name__ == "ClockPressed"]


async def test_a_serial_clock_plays_a_table_through_the_broker(
    tmp_path: Path, mosquitto: Broker
) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    link = tmp_path / "ttyCLOCK"
    link.symlink_to(os.ttyname(slave))
    fw = ClockFirmware("usb-clock-1")
    url = mosquitto.url("/club/t7")
    broker = parse_url(url)
    table = TableTopics("club", "t7")
    serial = SerialClock(str(link), backoff_min_s=0.05, backoff_max_s=0.3)
    gateway = Gateway(serial, broker, table, identifier="test-gateway-t7")
    gateway.session._backoff = Backoff(initial_s=0.05, cap_s=0.3)
    clock = MqttClock(broker, identifier="test-service-t7")
    clock.session._backoff = Backoff(initial_s=0.05, cap_s=0.3)
    log = tmp_path / "t7.sqlite"
    svc = TableService(log, timeline=MonotonicTimeline(), device=clock, heartbeat_ms=0)
    try:
        async with (
            background(run_fd(fw, master), "firmware"),
            background(gateway.run(), "gateway"),
            svc,
        ):
            start = await svc.submit(
                GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
            )
            assert start.accepted
            await until(lambda: svc.status.device_online, "the clock online through the gateway")
            assert svc.status.device_id == "usb-clock-1"
            # The service's SET goes down the serial line: the clock shows Ann running.
            await until(lambda: fw.running == 0 and not fw.paused, "the SET on the clock")
            for n, side in enumerate((0, 1, 0), start=1):
                fw.press(side)
                await until(lambda n=n: len(presses(log)) == n, f"press {n} in the log")  # type: ignore[misc]
                await until(lambda side=side: fw.running == 1 - side, "the SET after the press")  # type: ignore[misc]
            assert svc.state.clock.running == 1
            assert gateway.forwarded >= 4  # HELLO and three presses
            assert gateway.relayed >= 4  # a SET after the start and each press
            # Unplug the clock: the gateway says offline, the table keeps its time.
            os.close(master)
            await until(lambda: not svc.status.device_online, "the clock offline", 3.0)
            assert svc.state.clock.running == 1
    finally:
        with contextlib.suppress(OSError):
            os.close(master)
        os.close(slave)
