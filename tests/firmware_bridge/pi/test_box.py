"""The Pi clock put together (:class:`firmware_bridge.pi.box.PiClock`), on fake time.

The Pi's pins and displays cannot run here: the buttons, LEDs and buzzer are on
gpiozero's MockFactory pins and the displays are luma's dummy devices (the only
mocks). Everything else is real: the clock firmware, its press rule, its messages
(caught from its transport sink), the panel's drawing. The images are compared with
:func:`firmware_bridge.pi.panel.render_oled` of the face the clock should show, so a
wrong time, a missing mark or a missing text line fails. The serial link to a real
table is tests/system/test_pi_clock.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from gpiozero import LED, GPIOZeroError
from gpiozero.pins.mock import MockFactory

from firmware_bridge.device import serial_runner
from firmware_bridge.device.firmware import Display
from firmware_bridge.pi.box import NOTICE_MS, POWER_OFF, POWER_OFF_FAILED, PiClock
from firmware_bridge.pi.buttons import HALT_MS
from firmware_bridge.pi.displays import PanelError, dummy_devices
from firmware_bridge.pi.panel import render_oled
from firmware_bridge.pi.wiring import Wiring, load_wiring
from firmware_bridge.wire.protocol import Beep, Message, Pause, Press, Set, Text
from terminal_ui.cli import main
from tests.helpers import wait_for


class FakeTime:
    """The clock's milliseconds, stepped by the test."""

    def __init__(self) -> None:
        self.ms = 1_000

    def __call__(self) -> int:
        return self.ms


class Rig:
    """A PiClock on mock pins and dummy displays, its messages caught, running on a
    link that never ends (the test drives the firmware's host side itself)."""

    def __init__(self, halt_error: Exception | None = None) -> None:
        self.time = FakeTime()
        self.pins = MockFactory()
        self.halted = 0
        self.halt_error = halt_error
        self.clock = PiClock(
            load_wiring(),
            pin_factory=self.pins,
            device_factory=dummy_devices,
            initial_ms=60_000,
            clock=self.time,
            halt=self.halt,
        )
        self.sent: list[Message] = []
        self.clock.fw.emit = self.sent.append

    def halt(self) -> None:
        self.halted += 1
        if self.halt_error is not None:
            raise self.halt_error

    async def push(self, gpio: int, *, hold_ms: int = 100) -> None:
        """Press and release the button on ``gpio`` (one clean press), and let the loop
        take it."""
        pin = self.pins.pin(gpio)
        pin.drive_low()
        await turn()
        self.time.ms += hold_ms
        pin.drive_high()
        await turn()
        self.time.ms += 100

    def shows(self, face: Display) -> bool:
        """Whether both OLEDs show exactly ``face``."""
        images = self.clock.hardware.panel.images()
        return all(images[s].tobytes() == render_oled(face, s).tobytes() for s in (0, 1))


async def turn() -> None:
    """Let what the pins handed to the loop run (no sleeping)."""
    for _ in range(5):
        await asyncio.sleep(0)


@contextlib.asynccontextmanager
async def running(rig: Rig) -> AsyncIterator[Rig]:
    task = asyncio.create_task(rig.clock.run(asyncio.Event().wait()))
    await turn()
    try:
        yield rig
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        rig.clock.close()


LEFT, RIGHT, PAUSE = 17, 27, 22
"""The default wiring's buttons (GPIO numbers)."""


async def test_at_power_up_the_panel_shows_the_time_and_no_table() -> None:
    async with running(Rig()) as rig:
        assert not rig.clock.fw.host_online
        expected = Display((60_000, 60_000), None, True, "", 0, False)
        assert rig.shows(expected)
        assert not rig.shows(Display((60_000, 60_000), None, True, "", 0, True))
        assert rig.clock.hardware.lights.lit == (False, False)


async def test_a_button_on_a_pin_presses_the_firmware_on_the_loop() -> None:
    async with running(Rig()) as rig:
        await rig.push(LEFT)
        # side 0 ended their turn: side 1 runs, its LED lit, and a PRESS went out
        assert [type(m) for m in rig.sent] == [Press]
        assert isinstance(rig.sent[0], Press)
        assert rig.sent[0].side == 0
        assert rig.clock.fw.running == 1
        assert rig.clock.hardware.lights.lit == (False, True)
        rig.time.ms += 5_000
        rig.clock.refresh()
        assert rig.clock.fw.remaining(1) == 60_000 - 5_200
        assert rig.shows(Display((60_000, 54_800), 1, False, "", 0, False))


async def test_a_press_counts_at_the_button_edge_not_when_the_loop_takes_it() -> None:
    async with running(Rig()) as rig:
        edge = rig.time.ms
        rig.pins.pin(LEFT).drive_low()  # handed to the loop, which is busy (a frame)
        rig.time.ms += 300
        await turn()
        assert isinstance(rig.sent[0], Press)
        assert rig.sent[0].device_ms == edge
        # side 1 has run since the edge, not since the loop took the press
        assert rig.clock.fw.remaining(1) == 60_000 - 300
        rig.pins.pin(LEFT).drive_high()


async def test_the_start_press_carries_its_edge_time() -> None:
    """At the start screen the clock is stopped with the starter named, so it refuses
    the press (only the table starts it): the PRESS still carries the button's edge,
    and the table starts the game at that instant, not when the loop got to it."""
    async with running(Rig()) as rig:
        rig.clock.fw.handle(Set(1, (60_000, 60_000), 0, True))  # the start screen: Ann starts
        edge = rig.time.ms
        rig.pins.pin(RIGHT).drive_low()  # Ben starts Ann's clock; the loop is busy (a frame)
        rig.time.ms += 300
        await turn()
        (press,) = rig.sent
        assert isinstance(press, Press)
        assert press.device_ms == edge
        assert rig.clock.fw.paused  # the table's SET starts it
        rig.pins.pin(RIGHT).drive_high()


async def test_a_bounce_is_not_a_second_press() -> None:
    async with running(Rig()) as rig:
        pin = rig.pins.pin(LEFT)
        pin.drive_low()
        for _ in range(3):  # the contacts chatter for a few milliseconds
            rig.time.ms += 4
            pin.drive_high()
            rig.time.ms += 4
            pin.drive_low()
        await turn()
        rig.time.ms += 200
        pin.drive_high()
        await turn()
        assert [type(m) for m in rig.sent] == [Press]
        rig.time.ms += 1_000
        await rig.push(LEFT)  # a real second press, well after: the clock refuses
        # it (side 1 runs), as a chess clock does; the PRESS goes to the table anyway
        assert len(rig.sent) == 2
        assert rig.clock.fw.running == 1


async def test_a_press_on_the_side_not_running_does_not_switch() -> None:
    async with running(Rig()) as rig:
        await rig.push(RIGHT)  # side 1 ends: side 0 runs
        assert rig.clock.fw.running == 0
        await rig.push(RIGHT)
        assert rig.clock.fw.running == 0
        assert rig.clock.hardware.lights.lit == (True, False)
        await rig.push(LEFT)
        assert rig.clock.fw.running == 1


async def test_text_and_beep_from_the_table_reach_the_panel_and_the_buzzer() -> None:
    async with running(Rig()) as rig:
        fw = rig.clock.fw
        fw.handle(Set(1, (42_000, 30_000), 0, False))
        fw.handle(Text(2, "CHALLENGE"))
        assert rig.shows(Display((42_000, 30_000), 0, False, "CHALLENGE", 0, False))
        assert not rig.clock.hardware.lights.sounding
        fw.handle(Beep(3, 200))
        assert rig.clock.hardware.lights.sounding
        rig.time.ms += 250
        rig.clock.refresh()
        assert not rig.clock.hardware.lights.sounding


async def test_a_beep_sounds_as_long_as_the_table_says() -> None:
    async with running(Rig()) as rig:
        rig.clock.fw.handle(Beep(1, 600))
        assert rig.clock.hardware.lights.sounding
        rig.time.ms += 400
        rig.clock.refresh()
        assert rig.clock.hardware.lights.sounding  # longer than the buzzer's own 200 ms
        rig.time.ms += 200
        rig.clock.refresh()
        assert not rig.clock.hardware.lights.sounding


def test_displays_that_do_not_answer_leave_every_pin_free() -> None:
    """The pins are opened first; a display that fails after them lets them go, so the
    next start (systemd's restart) can take them again."""
    pins = MockFactory()

    def no_displays(wiring: Wiring) -> list[object]:
        raise PanelError("--display oled: the left display does not answer")

    with pytest.raises(PanelError, match="left display"):
        PiClock(load_wiring(), pin_factory=pins, device_factory=no_displays)
    clock = PiClock(load_wiring(), pin_factory=pins, device_factory=dummy_devices)
    clock.close()


def test_a_pin_already_taken_leaves_no_display_open() -> None:
    pins = MockFactory()
    made: list[object] = []

    def displays(wiring: Wiring) -> list[object]:
        made.extend(dummy_devices(wiring))
        return made

    taken = LED(23, pin_factory=pins)  # the left LED's pin, held by another program
    try:
        with pytest.raises(GPIOZeroError):
            PiClock(load_wiring(), pin_factory=pins, device_factory=displays)
    finally:
        taken.close()
    assert made == []  # the displays come after the pins: none was opened to leak


async def test_holding_pause_pauses_at_once_then_halts() -> None:
    async with running(Rig()) as rig:
        await rig.push(LEFT)
        pin = rig.pins.pin(PAUSE)
        pin.drive_low()
        await turn()
        assert isinstance(rig.sent[-1], Pause)
        assert rig.clock.fw.paused
        rig.time.ms += HALT_MS - 1
        rig.clock.refresh()
        await turn()
        assert rig.halted == 0
        rig.time.ms += 1
        rig.clock.refresh()
        await wait_for(lambda: rig.halted == 1, "the halt action")
        assert rig.clock.face().text == POWER_OFF
        rig.time.ms += 5_000
        rig.clock.refresh()  # still held: one halt per hold
        await turn()
        assert rig.halted == 1
        pin.drive_high()
        await turn()
        assert [type(m) for m in rig.sent] == [Press, Pause]


async def test_a_halt_that_fails_says_so_and_the_clock_goes_on() -> None:
    rig = Rig(halt_error=subprocess.CalledProcessError(1, ["systemctl", "poweroff"]))
    async with running(rig):
        rig.clock.fw.handle(Text(1, "HOLD"))
        pin = rig.pins.pin(PAUSE)
        pin.drive_low()
        await turn()
        rig.time.ms += HALT_MS
        rig.clock.refresh()
        await wait_for(lambda: rig.clock.face().text == POWER_OFF_FAILED, "POWER OFF FAILED")
        pin.drive_high()
        await turn()
        await rig.push(RIGHT)
        assert rig.clock.fw.running == 0
        # the notice stands a page, then the table's own line is back for good
        rig.time.ms += NOTICE_MS - 300
        rig.clock.refresh()
        assert rig.clock.face().text == POWER_OFF_FAILED
        rig.time.ms += 100
        rig.clock.refresh()
        assert rig.clock.face().text == "HOLD"
        assert rig.shows(rig.clock.face())
        rig.clock.fw.handle(Text(2, "CHALLENGE"))
        assert rig.shows(rig.clock.face())
        assert rig.clock.face().text == "CHALLENGE"


# --- a table that cannot be reached: said once, as a warning ---------------------------------


def warnings_from(caplog: pytest.LogCaptureFixture, words: str) -> list[int]:
    """The levels of the records that say ``words``."""
    return [r.levelno for r in caplog.records if words in r.getMessage()]


async def test_a_serial_port_that_never_opens_is_a_warning_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The serial runner's first failure to open is a warning (pi-clock shows warnings
    and above), the retries after it only info."""
    rig = Rig()
    caplog.set_level(logging.INFO)
    port = str(tmp_path / "no-such-port")
    async with running(rig) as rig:
        task = asyncio.create_task(rig.clock.run_serial(port))
        try:
            await wait_for(lambda: len(warnings_from(caplog, port)) >= 2, "a retry", 3.0)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    levels = warnings_from(caplog, f"cannot open {port}")
    assert levels[0] == logging.WARNING
    assert set(levels[1:]) == {logging.INFO}


async def test_a_port_that_opens_but_no_table_answers_is_a_warning_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A USB gadget's /dev/ttyGS0 opens with no laptop there: a pty whose other end no
    table reads stands in for it; the wait is on the clock's own (fake) time."""
    caplog.set_level(logging.INFO)
    table, port = os.openpty()
    try:
        async with running(Rig()) as rig:
            fw = rig.clock.fw
            polled = [0]
            poll = fw.serial_poll

            def counted() -> bytes:
                polled[0] += 1
                return poll()

            fw.serial_poll = counted  # type: ignore[method-assign]
            link = asyncio.create_task(rig.clock.run_serial(os.ttyname(port)))
            try:
                await wait_for(lambda: polled[0] >= 2, "the runner's polls", 3.0)
                rig.time.ms += serial_runner.UNANSWERED_MS - 1
                seen = polled[0]
                await wait_for(lambda: polled[0] >= seen + 2, "polls short of the wait", 3.0)
                assert "no table has answered" not in caplog.text
                rig.time.ms += 1
                await wait_for(lambda: "no table has answered" in caplog.text, "the warning", 3.0)
                rig.time.ms += 3 * serial_runner.UNANSWERED_MS
                seen = polled[0]
                # said once, not at every poll after
                await wait_for(lambda: polled[0] >= seen + 3, "polls after the warning", 3.0)
            finally:
                link.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await link
    finally:
        os.close(table)
        os.close(port)
    said = warnings_from(caplog, "no table has answered for 10 s")
    assert said == [logging.WARNING]


async def test_a_broker_that_never_answers_is_a_warning_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The session tells each failed connect as info; the clock warns of the first, as
    soon as the session says it failed (it waits on that, it does not poll)."""
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    caplog.set_level(logging.INFO)
    async with running(Rig()) as rig:
        task = asyncio.create_task(rig.clock.run_mqtt(f"mqtt://127.0.0.1:{port}/club/t7"))
        try:
            await wait_for(lambda: "cannot connect" in caplog.text, "the first failure", 3.0)
            await turn()
            assert warnings_from(caplog, "cannot reach the broker") == [logging.WARNING]
            await wait_for(
                lambda: len(warnings_from(caplog, "cannot connect")) >= 2, "a retry", 3.0
            )
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    said = warnings_from(caplog, "cannot reach the broker")
    assert said == [logging.WARNING]
    assert f"club/t7: cannot reach the broker at 127.0.0.1:{port}" in caplog.text


# --- the command's refusals: one line each, nothing started ---------------------------------


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["pi-clock", *argv])
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    return status, err


def test_without_the_pi_extra_it_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)  # as if not installed
    status, err = refusal(capsys, "--serial", "/dev/ttyGS0")
    assert status == 2
    assert err == (
        "rackclock pi-clock: the Pi clock needs the Pi's libraries (gpiozero is not"
        " installed): pip install 'rackclock[pi]'\n"
    )


def test_a_bad_wiring_file_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wiring = tmp_path / "wiring.toml"
    wiring.write_text('display = "oled"\n[buttons]\nleft = \n', encoding="utf-8")
    status, err = refusal(capsys, "--serial", "/dev/ttyGS0", "--wiring", str(wiring))
    assert status == 2
    assert f"wiring {str(wiring)!r}: not TOML" in err
    assert "line 3" in err
    wiring.write_text("[buttons]\nleft = 2\n", encoding="utf-8")  # GPIO2 is I2C's SDA
    status, err = refusal(capsys, "--serial", "/dev/ttyGS0", "--wiring", str(wiring))
    assert status == 2
    assert "buttons.left = 2: GPIO2 is already the oled display's bus" in err


def test_a_time_per_side_must_be_more_than_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    for ms in ("-5", "0"):
        status, err = refusal(capsys, "--serial", "/dev/ttyGS0", "--initial-ms", ms)
        assert status == 2
        assert err == (
            f"rackclock pi-clock: --initial-ms {ms}: "
            "the time per side must be more than 0 milliseconds\n"
        )


def test_a_bad_display_or_broker_url_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = refusal(capsys, "--serial", "/dev/ttyGS0", "--display", "lcd")
    assert status == 2
    assert "--display 'lcd': not a display (choose oled, sh1106, max7219, none)" in err
    status, err = refusal(capsys, "--mqtt", "mqtt://127.0.0.1:1883")
    assert status == 2
    assert "names no table: add --table T" in err


@pytest.mark.skipif(Path("/dev/i2c-1").exists(), reason="a machine with an I2C bus")
def test_on_a_machine_that_is_not_a_pi_it_points_to_mock_pins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, err = refusal(capsys, "--serial", "/dev/ttyGS0")
    assert status == 1
    assert err.startswith("rackclock pi-clock: cannot open the Pi's pins or displays: ")
    assert "--mock-pins runs it without one" in err


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="a Raspberry Pi")
def test_with_no_pins_it_says_why_each_pin_library_did_not_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """gpiozero's fallback warnings are the only clue to a Pi with no usable pin library
    (lgpio's pipes in a folder it may not write): the one line says them."""
    status, err = refusal(capsys, "--serial", "/dev/ttyGS0", "--display", "none")
    assert status == 1
    assert "Unable to load any default pin factory! (Falling back from lgpio: " in err
    assert "--mock-pins runs it without one" in err
