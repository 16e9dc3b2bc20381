"""The serial-to-MQTT gateway with real parts: the emulated clock firmware on a
pseudo-terminal, the gateway as the serial host and the table's MQTT clock, a
real mosquitto, and a table service with an MqttClock on the other side."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tty
from pathlib import Path

import aiomqtt

from clock.log.eventlog import EventLog
from clock.table.service import TableService
from clock.timeline import MonotonicTimeline
from engine.events import GameStarted
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.gateway import Gateway
from firmware_bridge.device.serial_runner import run_fd
from firmware_bridge.host.mqtt_clock import MqttClock
from firmware_bridge.host.serial_clock import SerialClock
from firmware_bridge.mqtt.connection import Backoff, parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.wire.protocol import Press, from_json
from tests.helpers import Broker, background, wait_for

WAIT_S = 5.0
RACKCLOCK = str(Path(sys.executable).parent / "rackclock")


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
    gateway.session.backoff = Backoff(initial_s=0.05, cap_s=0.3)
    clock = MqttClock(broker, identifier="test-service-t7")
    clock.session.backoff = Backoff(initial_s=0.05, cap_s=0.3)
    log = tmp_path / "t7.sqlite"
    svc = TableService(log, timeline=MonotonicTimeline(), device=clock, heartbeat_ms=0)

    async def firmware() -> None:
        # the clock is plugged in once the table listens: its HELLO (its name) is not
        # retained, and one sent before the table's first subscription is lost
        await clock.session.wait_connected(WAIT_S)
        await run_fd(fw, master)

    try:
        async with (
            background(firmware(), "firmware"),
            background(gateway.run(), "gateway"),
            svc,
        ):
            start = await svc.submit(
                GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
            )
            assert start.accepted
            await wait_for(lambda: svc.status.device_online, "the clock online through the gateway")
            assert svc.status.device_id == "usb-clock-1"
            # The service's SET goes down the serial line: the clock shows Ann running.
            await wait_for(lambda: fw.running == 0 and not fw.paused, "the SET on the clock")
            for n, side in enumerate((0, 1, 0), start=1):
                fw.press(side)
                await wait_for(lambda n=n: len(presses(log)) == n, f"press {n} in the log")  # type: ignore[misc]
                await wait_for(lambda side=side: fw.running == 1 - side, "the SET after the press")  # type: ignore[misc]
            assert svc.state.clock.running == 1
            assert gateway.forwarded >= 4  # HELLO and three presses
            assert gateway.relayed >= 4  # a SET after the start and each press
            # Unplug the clock: the gateway says offline, the table keeps its time.
            os.close(master)
            await wait_for(lambda: not svc.status.device_online, "the clock offline", 3.0)
            assert svc.state.clock.running == 1
    finally:
        with contextlib.suppress(OSError):
            os.close(master)
        os.close(slave)


async def test_the_gateway_command_puts_a_usb_clock_on_the_broker(
    tmp_path: Path, mosquitto: Broker
) -> None:
    """``rackclock gateway`` started as a user starts it (a process with its arguments):
    it once died at start, publishing the clock's status from its constructor, outside
    the event loop. The clock on the pty says hello, and its press reaches the broker."""
    master, slave = os.openpty()
    tty.setraw(master)
    link = tmp_path / "ttyUSB-clock"
    link.symlink_to(os.ttyname(slave))
    fw = ClockFirmware("usb-clock-9")
    table = TableTopics("venue", "t1")
    gateway = await asyncio.create_subprocess_exec(
        RACKCLOCK,
        "gateway",
        "--serial",
        str(link),
        "--mqtt",
        mosquitto.url("/venue/t1"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    seen: list[str] = []
    try:
        async with (
            background(run_fd(fw, master), "firmware"),
            aiomqtt.Client(mosquitto.host, mosquitto.port, identifier="test-hall") as hall,
        ):
            await hall.subscribe(table.clock_status, qos=1)
            await hall.subscribe(table.clock_events, qos=1)
            try:
                async with asyncio.timeout(10):
                    async for msg in hall.messages:
                        payload = bytes(msg.payload)
                        if msg.topic.value == table.clock_status:
                            seen.append(payload.decode())
                            if payload == b"online" and not fw.presses:
                                fw.press(0)  # the clock answered the gateway: a player presses
                        elif isinstance(from_json(payload), Press):
                            break
            except TimeoutError:
                gateway.kill()
                _, err = await gateway.communicate()
                raise AssertionError(
                    f"no press on the broker (status {seen}); gateway said: {err.decode()}"
                ) from None
        gateway.send_signal(signal.SIGINT)  # ctrl+c
        _, err = await asyncio.wait_for(gateway.communicate(), 10)
        assert "internal error" not in err.decode(), err.decode()
        assert gateway.returncode == 0, err.decode()
        assert "online" in seen
    finally:
        if gateway.returncode is None:
            gateway.kill()
            await gateway.wait()
        with contextlib.suppress(OSError):
            os.close(master)
        os.close(slave)
