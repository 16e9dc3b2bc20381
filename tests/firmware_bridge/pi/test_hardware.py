"""Opening the Pi's parts as one (:func:`firmware_bridge.pi.hardware.open_hardware`):
on gpiozero's MockFactory and luma's dummy displays (mocks: the Pi's pins and
displays cannot run here), and, for a machine with no pins, gpiozero's own search
for a pin library on this one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED, GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from firmware_bridge.pi.displays import DeviceFactory, PanelError, dummy_devices
from firmware_bridge.pi.face import Face
from firmware_bridge.pi.hardware import Hardware, PinsError, open_hardware
from firmware_bridge.pi.wiring import Wiring, load_wiring

WIRING = load_wiring()
PINS = (23, 24, 25, 17, 27, 22)
"""The LEDs', the buzzer's and the buttons' GPIOs."""


def nothing(*_: object) -> None:
    """A button's callback that is not pressed here."""


def opened(pins: Any, devices: DeviceFactory = dummy_devices) -> Hardware:
    return open_hardware(
        WIRING,
        pin_factory=pins,
        device_factory=devices,
        now_ms=lambda: 0,
        on_side=nothing,
        on_pause=nothing,
        on_halt=nothing,
    )


def every_pin_is_free(pins: MockFactory) -> bool:
    """Whether each of the clock's GPIOs can be taken again (the ones taken to see are
    let go again, whatever the answer)."""
    taken: list[LED] = []
    try:
        for gpio in PINS:
            taken.append(LED(gpio, pin_factory=pins))
    except GPIOPinInUse:
        return False
    finally:
        for device in taken:
            device.close()
    return True


def test_a_pin_still_taken_is_seen() -> None:
    """The check above can fail: a GPIO another device holds is not free."""
    pins = MockFactory()
    squatter = LED(PINS[-1], pin_factory=pins)
    assert not every_pin_is_free(pins)
    squatter.close()
    assert every_pin_is_free(pins)  # and it let go of the ones it took to see


def no_displays(_: Wiring) -> list[Any]:
    raise PanelError("--display oled: the left display does not answer")


def test_displays_that_do_not_answer_let_every_pin_go() -> None:
    pins = MockFactory()
    with pytest.raises(PanelError):
        opened(pins, no_displays)
    assert every_pin_is_free(pins)


def test_a_button_pin_in_use_lets_the_lights_go() -> None:
    pins = MockFactory()
    squatter = LED(22, pin_factory=pins)  # the pause button's GPIO, taken elsewhere
    with pytest.raises(GPIOPinInUse):
        opened(pins)
    squatter.close()
    assert every_pin_is_free(pins)


def test_opened_parts_show_a_face_and_close() -> None:
    pins = MockFactory()
    hardware = opened(pins)
    hardware.show(Face((60_000, 60_000), 1, False, "", 0, True))
    assert hardware.lights.lit == (False, True)
    hardware.close()
    assert every_pin_is_free(pins)


@pytest.mark.skipif(Path("/dev/gpiomem").exists(), reason="a Pi: a pin library may work")
def test_no_pin_library_here_says_why_each_was_passed_over() -> None:
    """No pin factory given, on a machine that is not a Pi: gpiozero tries each library."""
    with pytest.raises(PinsError) as caught:
        opened(None)
    message = str(caught.value)
    assert message.startswith("no GPIO pins here: ")
    assert "Falling back from lgpio" in message
    assert "\n" not in message
