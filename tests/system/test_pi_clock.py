"""The Raspberry Pi clock at a real table: ``rackclock serve`` over a pseudo-terminal.

The Pi's pins and displays cannot run here, so they are the only mocks: the buttons,
LEDs and buzzer are on gpiozero's MockFactory pins and the two OLEDs are luma's dummy
devices. Everything else is real: the clock (:class:`firmware_bridge.pi.box.PiClock`)
runs in this process on the serial runner of ``emulate-clock``, over a socat pty pair,
to a ``rackclock serve`` process that commits to a SQLite log on disk, read back here
read-only. Time is real: the link's heartbeats and its 1 s loss rule run on the
clock's own monotonic counter, so the clock and the table cannot be put on fake time
together (tests/firmware_bridge/pi/test_box.py is the same clock on fake time).

The two commands, ``pi-clock --serial`` and ``pi-clock --mqtt`` (with ``--mock-pins``,
the display printed and the buttons pressed from standard input), are each started as
a process beside a ``serve`` of their own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.device.firmware import Display
from firmware_bridge.pi.box import POWER_OFF, PiClock
from firmware_bridge.pi.displays import dummy_devices
from firmware_bridge.pi.panel import render_oled
from firmware_bridge.pi.wiring import load_wiring
from tests.helpers import Broker, background, wait_for
from tests.support.log_rows import Row, log_rows
from tests.system.test_serial import RACKCLOCK, Socat

WAIT_S = 8.0
"""The longest any one step may take on a loaded machine."""
VARIANT = (
    'name = "pi-quick"\nextends = "nzasp"\n\n[params]\nmode = "scoresheet"\ninitial_ms = 2500\n'
)
"""NZASP with 2.5 s clocks, so a side reaches overtime (its TEXT and BEEP) within the test."""
LEFT, RIGHT, PAUSE = 17, 27, 22
"""The default wiring's buttons (GPIO numbers)."""


async def start_serve(tmp_path: Path, port: Path) -> asyncio.subprocess.Process:
    """``rackclock serve`` of the quick variant on the serial port ``port``."""
    variant = tmp_path / "pi-quick.toml"
    variant.write_text(VARIANT, encoding="utf-8")
    return await asyncio.create_subprocess_exec(
        str(RACKCLOCK), "serve", "--variant", str(variant), "--log", str(tmp_path / "t.db"),
        "--clock", f"serial:{port}",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def stop(proc: asyncio.subprocess.Process) -> None:
    """Quit a ``serve`` (or a ``pi-clock --mock-pins``) as its user does; it exits 0."""
    assert proc.stdin is not None
    proc.stdin.write(b"quit\n")
    await proc.stdin.drain()
    proc.stdin.close()
    async with asyncio.timeout(WAIT_S):
        status = await proc.wait()
    assert proc.stderr is not None
    assert status == 0, await proc.stderr.read()


@pytest.fixture
def socat_pair(tmp_path: Path) -> Iterator[Socat]:
    """A socat pty pair: the table opens ``a``, the Pi clock ``b``."""
    pair = Socat(tmp_path / "table-tty", tmp_path / "pi-tty")
    pair.start()
    yield pair
    pair.stop()


def presses(log: Path) -> list[Row]:
    return [r for r in log_rows(log) if r.type_name == "ClockPressed"]


def shows(clock: PiClock, face: Display) -> bool:
    """Whether both dummy OLEDs show exactly ``face`` (drawn by the panel's own renderer)."""
    images = clock.hardware.panel.images()
    return all(images[s].tobytes() == render_oled(face, s).tobytes() for s in (0, 1))


async def test_a_pi_clock_on_mock_pins_is_a_real_tables_clock(
    tmp_path: Path, socat_pair: Socat
) -> None:
    """Power-up shows "no table"; a bounced press on a mock pin is one press in the
    table's log; the table's TEXT and BEEP reach the panel and the buzzer; the table
    stops: the clock keeps time and says "no table"; it returns: the clock takes its
    SET; pause held down calls the (fake) halt."""
    log = tmp_path / "t.db"
    pins = MockFactory()
    halts: list[float] = []
    clock = PiClock(
        load_wiring(),
        pin_factory=pins,
        device_factory=dummy_devices,
        initial_ms=60_000,
        halt=lambda: halts.append(time.monotonic()),
        halt_ms=400,
    )
    buzzed: list[bool] = []
    clock.fw.listeners.append(lambda _: buzzed.append(clock.hardware.lights.sounding))
    fw = clock.fw
    async with background(clock.run_serial(str(socat_pair.b)), "pi clock"):
        # power-up: the clock's own time, "no table"
        await asyncio.sleep(0)
        assert shows(clock, Display((60_000, 60_000), None, True, "", 0, False))
        serve = await start_serve(tmp_path, socat_pair.a)
        try:
            await wait_for(lambda: fw.host_online and fw.sets > 0, "the table's SET", WAIT_S)
            assert shows(clock, clock.face())
            assert clock.face().host_online  # "table ok"
            assert fw.running == 0  # the game runs: the first player's turn
            assert not fw.paused

            # the left button, its contacts bouncing: one press
            left = pins.pin(LEFT)
            left.drive_low()
            for _ in range(3):
                left.drive_high()
                left.drive_low()
            await asyncio.sleep(0.1)
            left.drive_high()
            await wait_for(lambda: len(presses(log)) >= 1, "the press in the log", WAIT_S)
            await wait_for(lambda: fw.running == 1, "the right side running", WAIT_S)
            assert clock.hardware.lights.lit == (False, True)
            right = pins.pin(RIGHT)
            right.drive_low()
            await asyncio.sleep(0.05)
            right.drive_high()
            await wait_for(lambda: len(presses(log)) >= 2, "the second press", WAIT_S)
            rows = presses(log)
            assert [(r.refused, r.body["player"]) for r in rows] == [(False, 0), (False, 1)]

            # the left side's 2.5 s run out: the table's TEXT and BEEP
            await wait_for(lambda: fw.text.startswith("OVERTIME"), "the overtime text", WAIT_S)
            await wait_for(lambda: fw.beeps >= 1, "the overtime beep", WAIT_S)
            assert any(buzzed)
            assert shows(clock, clock.face())
            assert "OVERTIME" in clock.face().text

            # the table stops: the clock keeps time and says "no table"
            await stop(serve)
            await wait_for(lambda: not fw.host_online, "the table gone", WAIT_S)
            gone = fw.remaining(0)
            await wait_for(lambda: fw.remaining(0) <= gone - 100, "the time still running", WAIT_S)
            assert fw.running == 0
            assert not fw.paused
            clock.refresh()
            assert shows(clock, clock.face())
            assert not clock.face().host_online  # "no table"

            # the table comes back (it resumes the game neutralized): its SET is shown
            sets = fw.sets
            if socat_pair.proc is None or socat_pair.proc.returncode is not None:
                socat_pair.start()
            serve = await start_serve(tmp_path, socat_pair.a)
            await wait_for(lambda: fw.host_online and fw.sets > sets, "the table back", WAIT_S)
            await wait_for(lambda: fw.paused, "the neutralized clock", WAIT_S)
            clock.refresh()
            assert shows(clock, clock.face())

            # pause held down: the pause goes to the table at once, then the halt
            pause = pins.pin(PAUSE)
            pause.drive_low()
            await wait_for(lambda: bool(halts), "the halt", WAIT_S)
            pause.drive_high()
            assert len(halts) == 1
            assert clock.face().text == POWER_OFF
            await stop(serve)
        finally:
            if serve.returncode is None:
                serve.kill()
                await serve.wait()
    clock.close()
    types = [r.type_name for r in log_rows(log)]
    assert "ServiceRestarted" in types
    assert [r.refused for r in presses(log)] == [False, False]  # no bounce, no second press


async def until_said(lines: list[str], words: str) -> None:
    """Wait until the printed display's last line says ``words``."""
    await wait_for(lambda: bool(lines) and words in lines[-1], repr(words), WAIT_S)


async def _lines(proc: asyncio.subprocess.Process, into: list[Any], parse: Any) -> None:
    assert proc.stdout is not None
    while line := await proc.stdout.readline():
        into.append(parse(line.decode()))


async def test_the_pi_clock_command_on_serial_and_on_mqtt(
    tmp_path: Path, socat_pair: Socat, mosquitto: Broker
) -> None:
    """``rackclock pi-clock --mock-pins --serial PORT`` and ``--mqtt URL --table T``, each
    the clock of a ``rackclock serve``: the display says "no table", then "table ok"
    with the table's times; a button typed on standard input is the table's press."""
    serial_log, mqtt_log = tmp_path / "serial.db", tmp_path / "mqtt.db"
    procs = [
        await asyncio.create_subprocess_exec(*cmd, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        for cmd in (
            (RACKCLOCK, "serve", "--variant", "nzasp", "--mode", "scoresheet",
             "--log", serial_log, "--clock", f"serial:{socat_pair.a}"),
            (RACKCLOCK, "pi-clock", "--mock-pins", "--serial", socat_pair.b),
            (RACKCLOCK, "serve", "--variant", "nzasp", "--mode", "scoresheet",
             "--log", mqtt_log, "--clock", mosquitto.url("/default/t7")),
            (RACKCLOCK, "pi-clock", "--mock-pins", "--mqtt", mosquitto.url(), "--table", "t7",
             "--display", "max7219"),
        )
    ]  # fmt: skip
    shown: tuple[list[str], list[str]] = ([], [])
    readers = [
        asyncio.create_task(_lines(procs[1], shown[0], str.rstrip)),
        asyncio.create_task(_lines(procs[3], shown[1], str.rstrip)),
    ]
    try:
        for out in shown:
            await until_said(out, "table ok")
        for clock in (procs[1], procs[3]):
            assert clock.stdin is not None
            clock.stdin.write(b"a\n")  # the left button
            await clock.stdin.drain()
        await wait_for(
            lambda: bool(presses(serial_log)) and bool(presses(mqtt_log)), "the presses", WAIT_S
        )
        for proc in procs:
            await stop(proc)
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        for task in readers:
            task.cancel()
    for lines, log in zip(shown, (serial_log, mqtt_log), strict=True):
        assert "no table" in lines[0]  # at power-up
        assert [r.refused for r in presses(log)] == [False]
        assert any("] [>" in line for line in lines), lines  # the right side runs
