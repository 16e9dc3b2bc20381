"""The Pi clock's LEDs and buzzer (:mod:`firmware_bridge.pi.lights`) on gpiozero's
MockFactory (a mock: the Pi's pins cannot run here), read back from the mock pins'
levels, with a fake clock for the beep's length."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.device.firmware import Display
from firmware_bridge.pi.lights import Lights
from firmware_bridge.pi.wiring import load_wiring


def face(running: int | None, *, paused: bool = False, beeps: int = 0) -> Display:
    return Display((60_000, 60_000), running, paused, "", beeps, True)


class Rig:
    def __init__(self) -> None:
        self.now = 5_000
        self.factory = MockFactory()
        self.lights = Lights(
            load_wiring(), pin_factory=self.factory, now_ms=lambda: self.now, beep_ms=200
        )

    def pins(self) -> tuple[bool, bool, bool]:
        """The left LED's, the right LED's and the buzzer's GPIO levels."""
        left, right, buzzer = (bool(self.factory.pin(gpio).state) for gpio in (23, 24, 25))
        return left, right, buzzer


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = Rig()
    yield made
    made.lights.close()
    made.factory.reset()


def test_the_running_sides_led_is_lit(rig: Rig) -> None:
    assert rig.pins() == (False, False, False)
    rig.lights.show(face(0))
    assert rig.pins() == (True, False, False)
    rig.lights.show(face(1))
    assert rig.pins() == (False, True, False)
    assert rig.lights.lit == (False, True)


def test_no_led_when_paused_or_neither_runs(rig: Rig) -> None:
    rig.lights.show(face(1))
    rig.lights.show(face(1, paused=True))
    assert rig.pins() == (False, False, False)
    rig.lights.show(face(None))
    assert rig.pins() == (False, False, False)


def test_the_buzzer_sounds_for_each_new_beep(rig: Rig) -> None:
    rig.lights.show(face(0))
    assert not rig.lights.sounding
    rig.lights.show(face(0, beeps=1))
    assert rig.pins() == (True, False, True)
    rig.now += 199
    rig.lights.show(face(0, beeps=1))
    assert rig.lights.sounding  # not yet beep_ms
    rig.now += 1
    rig.lights.show(face(0, beeps=1))
    assert rig.pins() == (True, False, False)
    rig.now += 5_000
    rig.lights.show(face(0, beeps=1))  # the same beep count: no new beep
    assert not rig.lights.sounding
    rig.lights.show(face(1, beeps=2))
    assert rig.pins() == (False, True, True)


def test_a_restarted_clock_beeps_from_zero_again(rig: Rig) -> None:
    rig.lights.show(face(0, beeps=3))
    rig.now += 300
    rig.lights.show(face(0, beeps=0))  # the firmware restarted
    assert not rig.lights.sounding
    rig.lights.show(face(0, beeps=1))
    assert rig.lights.sounding


def test_a_beep_sounds_as_long_as_its_beep_said(rig: Rig) -> None:
    """BEEP's duration_ms, handed to show, over the default length (200 ms here)."""
    rig.lights.show(face(0, beeps=1), beep_ms=500)
    rig.now += 499
    rig.lights.show(face(0, beeps=1), beep_ms=500)
    assert rig.pins()[2]
    rig.now += 1
    rig.lights.show(face(0, beeps=1), beep_ms=500)
    assert not rig.pins()[2]
