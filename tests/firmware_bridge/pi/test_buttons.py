"""The Pi clock's buttons (:mod:`firmware_bridge.pi.buttons`): the debounce rule on
its own (pure, integer milliseconds), then the three buttons on gpiozero's
MockFactory (a mock: the Pi's pins cannot run here), driven low and high as a
button between its GPIO and ground does, with a fake clock: the hold that halts the
Pi is noticed by ``poll()`` reading that clock, so no test sleeps."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.pi.buttons import Buttons, Debouncer
from firmware_bridge.pi.wiring import load_wiring


def test_one_bounce_is_not_a_second_press() -> None:
    line = Debouncer(bounce_ms=30)
    edges = [(True, 1000), (False, 1003), (True, 1005), (False, 1021), (True, 1024)]
    assert [line.edge(down, at) for down, at in edges] == [True, False, False, False, False]
    assert line.pressed


def test_a_second_real_press_after_the_bounce_counts() -> None:
    line = Debouncer(bounce_ms=30)
    assert line.edge(True, 1000)
    assert not line.edge(False, 1120)  # a release is never a press
    assert not line.edge(True, 1125)  # the release's bounce
    assert not line.edge(False, 1127)
    assert line.edge(True, 1300)  # quiet for 173 ms: a press
    assert not line.edge(False, 1400)
    assert line.edge(True, 1430)  # exactly bounce_ms after the last flip


def test_held_counts_from_the_press_through_its_bounce() -> None:
    line = Debouncer(bounce_ms=30)
    assert line.held_ms(0) is None
    line.edge(True, 1000)
    line.edge(False, 1004)  # bounce: still held from 1000
    line.edge(True, 1006)
    assert line.held_ms(4000) == 3000
    line.edge(False, 4100)
    assert line.held_ms(4200) is None


def test_a_negative_bounce_is_refused() -> None:
    with pytest.raises(ValueError, match="bounce_ms must be 0 or more, got -1"):
        Debouncer(bounce_ms=-1)


class Rig:
    """Three buttons on mock pins, a fake clock and what the callbacks heard."""

    def __init__(self) -> None:
        self.now = 10_000
        self.heard: list[str] = []
        self.stamps: list[int] = []
        self.reads = 0
        self.factory = MockFactory()
        self.wiring = load_wiring()
        self.buttons = Buttons(
            self.wiring,
            pin_factory=self.factory,
            now_ms=self.read,
            on_side=self.side,
            on_pause=lambda: self.heard.append("pause"),
            on_halt=lambda: self.heard.append("halt"),
        )

    def read(self) -> int:
        self.reads += 1
        return self.now

    def side(self, side: int, at_ms: int) -> None:
        self.heard.append(f"side {side}")
        self.stamps.append(at_ms)

    def line(self, gpio: int, down: bool, after_ms: int = 0) -> None:
        self.now += after_ms
        pin = self.factory.pin(gpio)
        if down:
            pin.drive_low()  # the button joins the GPIO to ground
        else:
            pin.drive_high()  # the pull-up


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = Rig()
    yield made
    made.buttons.close()
    made.factory.reset()


def test_a_press_on_a_mock_pin_calls_on_side(rig: Rig) -> None:
    rig.line(17, True)
    rig.line(17, False, 150)
    rig.line(27, True, 300)
    assert rig.heard == ["side 0", "side 1"]


def test_a_press_is_stamped_with_the_one_reading_its_debounce_made(rig: Rig) -> None:
    rig.line(17, True, 50)
    assert rig.stamps == [10_050]
    assert rig.reads == 1  # not read again for the stamp: both are the same edge


def test_a_bounce_on_the_pin_is_one_press(rig: Rig) -> None:
    rig.line(27, True)
    rig.line(27, False, 2)
    rig.line(27, True, 3)
    rig.line(27, False, 200)
    rig.line(27, True, 2)  # the release bouncing
    rig.line(27, False, 1)
    assert rig.heard == ["side 1"]
    rig.line(27, True, 300)
    assert rig.heard == ["side 1", "side 1"]


def test_pause_pauses_at_once_and_a_long_hold_halts_once(rig: Rig) -> None:
    rig.line(22, True)
    assert rig.heard == ["pause"]
    rig.now += 2999
    rig.buttons.poll()
    assert rig.heard == ["pause"]
    rig.now += 1
    rig.buttons.poll()
    rig.now += 5000
    rig.buttons.poll()
    assert rig.heard == ["pause", "halt"]
    rig.line(22, False)
    rig.line(22, True, 500)  # a new hold: its own halt
    rig.now += 3000
    rig.buttons.poll()
    assert rig.heard == ["pause", "halt", "pause", "halt"]


def test_a_short_press_of_pause_does_not_halt(rig: Rig) -> None:
    rig.line(22, True)
    rig.line(22, False, 800)
    rig.now += 10_000
    rig.buttons.poll()
    assert rig.heard == ["pause"]


def test_a_player_button_held_down_does_not_halt(rig: Rig) -> None:
    rig.line(17, True)
    rig.now += 10_000
    rig.buttons.poll()
    assert rig.heard == ["side 0"]
