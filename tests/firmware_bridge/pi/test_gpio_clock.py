"""The all-in-one clock (``--clock gpio``): a table whose clock is the Pi's own
buttons, LEDs, buzzer and displays.

The table is the real one (``open_table``: its service, its log on disk, on a fake
timeline). The Pi's pins and displays cannot run here: the pins are gpiozero's
MockFactory (``gpio:mock``), driven low and high as a button would, and the
displays luma's dummy devices, whose images are read back digit by digit with the
panel's own font (tests/support/pi_display.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from clock.device.interface import DeviceOnline, SidePressed
from clock.table.session import SessionError, TableSession, TableSpec
from clock.timeline import FakeTimeline
from engine.clocktext import clock_text
from firmware_bridge.host.gpio_clock import GpioClock
from firmware_bridge.host.transports import TRANSPORTS, GpioSpec
from firmware_bridge.pi.displays import dummy_devices
from firmware_bridge.pi.wiring import load_wiring
from firmware_bridge.table_setup import open_table
from tests.helpers import settle
from tests.support.log_rows import log_rows
from tests.support.pi_display import bar_is_lit, find_words, read_oled_time, segment_chars

WIRING = load_wiring()
RACKCLOCK = str(Path(sys.executable).parent / "rackclock")


@contextlib.asynccontextmanager
async def gpio_table(
    tmp_path: Path, clock: str = "gpio:mock"
) -> AsyncIterator[tuple[TableSession, GpioClock, FakeTimeline]]:
    """A new NZASP game (25:00 each, Ann first) on the gpio clock, at table time 1000."""
    spec = TableSpec(
        log=tmp_path / "t.sqlite",
        variant="nzasp",
        players=("Ann", "Ben"),
        mode="scoresheet",  # a press ends a turn without a play typed
        clock=clock,
        heartbeat_ms=0,
    )
    timeline = FakeTimeline(1_000)
    async with open_table(spec, timeline=timeline) as session:
        device = session.service.device
        assert isinstance(device, GpioClock)
        await settle(session.service)
        yield session, device, timeline


def push(device: GpioClock, gpio: int) -> None:
    """A button on ``gpio`` pressed and let go (gpiozero calls back at once on mock pins)."""
    pin = device.pin_factory.pin(gpio)
    pin.drive_low()
    pin.drive_high()


def shown(device: GpioClock) -> tuple[str, str]:
    """The times the two dummy OLEDs show."""
    left, right = device.panel.images()
    return read_oled_time(left), read_oled_time(right)


def table_times(session: TableSession, timeline: FakeTimeline) -> tuple[str, str]:
    """The times the table's service has now, as a clock shows them."""
    clock = session.service.state.clock
    return (
        clock_text(clock.remaining(0, timeline.now_ms())),
        clock_text(clock.remaining(1, timeline.now_ms())),
    )


async def test_a_press_on_a_pin_is_committed_at_the_instant_it_was_pressed(
    tmp_path: Path,
) -> None:
    async with gpio_table(tmp_path) as (session, device, timeline):
        timeline.advance(5_000)
        push(device, WIRING.buttons.left)  # at 6000: Ann ends her turn, Ben's time runs
        timeline.advance(400)  # the event loop was busy: the press reaches the table late
        await settle(session.service)
        press = log_rows(tmp_path / "t.sqlite")[-1]
        assert (press.type_name, press.body["player"], press.refused) == ("ClockPressed", 0, False)
        assert press.t == 6_000  # the press's instant, not its arrival
        assert press.body["arrived_ms"] == 6_400
        assert device.core.running == 1
        assert device.lights.lit == (False, True)

        timeline.advance(1_000)
        push(device, WIRING.buttons.left)  # Ann again: her side is not running
        await settle(session.service)
        assert device.core.running == 1  # the clock did not switch, as on a chess clock
        assert device.lights.lit == (False, True)

        timeline.advance(1_000)
        push(device, WIRING.buttons.pause)
        await settle(session.service)
        pause = log_rows(tmp_path / "t.sqlite")[-1]
        assert (pause.type_name, pause.t, pause.body["reason"]) == (
            "Neutralized",
            8_400,
            "pause button",
        )
        assert device.core.paused
        assert device.lights.lit == (False, False)
        assert device.text == "NEUTRAL (device)"


async def test_the_clock_switches_at_the_buttons_edge_before_the_table_answers(
    tmp_path: Path,
) -> None:
    async with gpio_table(tmp_path) as (session, device, timeline):
        timeline.advance(5_000)
        push(device, WIRING.buttons.left)  # at 6000: Ann ends her turn
        timeline.advance(400)  # the event loop was busy: the press reaches the clock late
        await asyncio.sleep(0)  # the clock has the press; the table has not seen it
        assert session.service.state.clock.running == 0
        assert device.core.running == 1
        assert device.core.shown() == (1_495_000, 1_499_600)  # switched at 6000, not 6400


async def test_a_late_press_reports_the_times_at_its_edge() -> None:
    """Device-authoritative (``report_times``): the times sent are the clock's at the
    press's edge, not when the loop took the press."""
    timeline = FakeTimeline(1_000)
    device = GpioClock(
        timeline,
        WIRING,
        initial_ms=60_000,
        report_times=True,
        pin_factory=MockFactory(),
        device_factory=dummy_devices,
    )
    events = device.events()
    try:
        assert isinstance(await anext(events), DeviceOnline)
        device.core.run(0)  # Ann's time runs from 1000
        timeline.advance(5_000)
        push(device, WIRING.buttons.left)  # at 6000: Ann ends her turn
        timeline.advance(400)  # the event loop was busy: it takes the press at 6400
        press = await anext(events)
        assert isinstance(press, SidePressed)
        assert (press.device_ms, press.remaining_ms) == (6_000, (55_000, 60_000))
    finally:
        await device.close()
        assert [ev async for ev in events] == []  # closed: the stream ends


async def test_a_press_the_loop_takes_after_close_is_dropped() -> None:
    """A press queued from the pin thread as the clock closes touches no closed part."""
    timeline = FakeTimeline(1_000)
    device = GpioClock(
        timeline, WIRING, initial_ms=60_000, pin_factory=MockFactory(), device_factory=dummy_devices
    )
    await device.close()
    device._press(0, 1_000)  # as call_soon_threadsafe would run it now: no closed pin
    device._pause()  # is driven (gpiozero raises on a closed device)
    assert device.core.running is None


async def test_the_displays_show_the_tables_times_and_link(tmp_path: Path) -> None:
    async with gpio_table(tmp_path) as (session, device, timeline):
        left, right = device.panel.images()
        assert shown(device) == ("25:00", "25:00") == table_times(session, timeline)
        assert find_words(left, "table ok", bar=True)
        timeline.advance(2_000)
        push(device, WIRING.buttons.left)  # Ann ends her turn: Ben's time runs
        await settle(session.service)
        timeline.advance(65_500)  # the refresh redraws the running time
        await settle(session.service)
        assert shown(device) == ("24:58", "23:54") == table_times(session, timeline)
        left, right = device.panel.images()
        assert bar_is_lit(right)  # the running side's mark
        assert not bar_is_lit(left)
    assert device.face().host_online is False  # the table stopped: the clock says so


async def test_text_and_beep_reach_the_displays_and_the_buzzer(tmp_path: Path) -> None:
    async with gpio_table(tmp_path) as (session, device, timeline):
        # Ann's time ran out, into overtime: the table's TEXT and BEEP
        timeline.advance(25 * 60_000 + 1_500)
        await settle(session.service)
        assert device.text.startswith("OVERTIME Ann -10")
        assert device.beeps == 1
        assert device.lights.sounding
        left, right = device.panel.images()
        assert read_oled_time(left) == "-0:01"
        assert find_words(left, "OVERTIME")
        assert find_words(right, "OVERTIME")
        timeline.advance(300)  # a beep sounds for its 200 ms, then stops
        await settle(session.service)
        assert not device.lights.sounding


async def test_the_max7219_modules_show_the_times(tmp_path: Path) -> None:
    async with gpio_table(tmp_path, "gpio:display=max7219,mock") as (session, device, timeline):
        timeline.advance(61_000)  # Ann's time runs
        await settle(session.service)
        (chain,) = device.panel.images()
        assert segment_chars(chain) == "*   23.59    25.00"


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("gpio", GpioSpec("gpio")),
        ("gpio:mock", GpioSpec("gpio:mock", mock=True)),
        (
            "gpio:wiring=/etc/w.toml,display=sh1106",
            GpioSpec("gpio:wiring=/etc/w.toml,display=sh1106", "/etc/w.toml", "sh1106"),
        ),
    ],
)
def test_the_spec(text: str, spec: GpioSpec) -> None:
    assert TRANSPORTS.parse(text) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "gpio:display=lcd",
            "clock 'gpio:display=lcd': display='lcd': not a display"
            " (choose oled, sh1106, max7219, none)",
        ),
        (
            "gpio:display=",
            "clock 'gpio:display=': display= needs a value (oled|sh1106|max7219|none)",
        ),
        ("gpio:pins=9", "clock 'gpio:pins=9': unknown gpio option 'pins=9' (known: wiring=FILE"),
        ("gpio:wiring=", "clock 'gpio:wiring=': wiring= needs a value (a wiring file)"),
    ],
)
def test_a_bad_spec_is_refused_quoting_it(text: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        TRANSPORTS.parse(text)


async def test_a_bad_wiring_file_is_refused_in_one_line(tmp_path: Path) -> None:
    wiring = tmp_path / "w.toml"
    wiring.write_text("[buttons]\nleft = 23\n")  # the left LED's pin
    spec = TableSpec(log=tmp_path / "t.sqlite", variant="nzasp", clock=f"gpio:wiring={wiring},mock")
    with pytest.raises(SessionError) as caught:
        open_table(spec, timeline=FakeTimeline(0))
    assert str(caught.value).startswith(f"cannot open clock 'gpio:wiring={wiring},mock': wiring")
    assert "\n" not in str(caught.value)


async def test_displays_that_do_not_answer_let_the_pins_go() -> None:
    """Mock pins, the real displays (there is no I2C bus here): the panel's error, and
    every pin taken is free again, so the clock can be opened once the displays are."""
    pins = MockFactory()
    with pytest.raises(OSError, match="does not answer"):
        GpioClock(FakeTimeline(0), WIRING, initial_ms=60_000, pin_factory=pins)
    clock = GpioClock(
        FakeTimeline(0), WIRING, initial_ms=60_000, pin_factory=pins, device_factory=dummy_devices
    )
    assert shown(clock) == ("1:00", "1:00")
    await clock.close()


def test_serve_runs_a_table_on_the_gpio_clock(tmp_path: Path) -> None:
    """``rackclock serve --clock gpio:mock`` as a process: the clock opens in the
    table's event loop, is online, and stops cleanly at ``quit``."""
    log = tmp_path / "t.sqlite"
    args = [RACKCLOCK, "serve", "--variant", "nzasp", "--log", str(log), "--clock", "gpio:mock"]
    done = subprocess.run(
        args, input="quit\n", capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert {"device": {"online": True, "id": "gpio", "reason": ""}} in lines
    assert [row.type_name for row in log_rows(log)] == ["GameStarted"]


def test_no_pins_here_is_refused_in_one_line(tmp_path: Path) -> None:
    """Without mock on a machine that is not a Pi, gpiozero finds no pins."""
    log = tmp_path / "t.sqlite"
    args = [RACKCLOCK, "serve", "--variant", "nzasp", "--log", str(log), "--clock", "gpio"]
    done = subprocess.run(
        args, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stdout.splitlines()
    assert json.loads(line)["error"].startswith("cannot open clock 'gpio': no GPIO pins here")
    assert done.stderr == ""


def test_without_the_pi_extra_gpio_is_refused_saying_what_to_install(tmp_path: Path) -> None:
    """A laptop install, stood in for by an import finder (loaded by sitecustomize)
    that says the pi extra's packages (gpiozero, luma, Pillow) are not there, to a
    lookup as to an import."""
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "sitecustomize.py").write_text(
        "import sys\n"
        "class Hidden:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.partition('.')[0] in ('gpiozero', 'luma', 'PIL'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Hidden())\n"
    )
    log = tmp_path / "t.sqlite"
    args = [RACKCLOCK, "serve", "--variant", "nzasp", "--log", str(log), "--clock", "gpio:mock"]
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(hidden), "HOME": str(tmp_path)},
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stdout.splitlines()
    assert json.loads(line)["error"] == (
        "cannot open clock 'gpio:mock': the gpio clock needs the Pi's libraries"
        " (gpiozero is not installed): pip install 'rackclock[pi]'"
    )
    assert not log.exists()
