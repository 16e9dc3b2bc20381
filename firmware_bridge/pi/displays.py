"""The Pi clock's display devices, as luma drives them: two SSD1306/SH1106 OLEDs on
I2C or a chain of two MAX7219 modules on SPI (:func:`hardware_devices`), or luma's
dummy devices of the same shapes (:func:`dummy_devices`), which keep the image they
are given, for tests and docs/images/pi-clock/. :class:`~firmware_bridge.pi.panel.Panel`
draws on either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from luma.core.error import Error as LumaError

from firmware_bridge.pi.wiring import Wiring

__all__ = [
    "OLED_SIZE",
    "SEGMENT_BITS",
    "DeviceFactory",
    "PanelError",
    "dummy_devices",
    "hardware_devices",
]

OLED_SIZE = (128, 64)
"""An OLED's pixels."""
SEGMENT_BITS = (16, 8)
"""The MAX7219 chain's image: a column per digit, a row per segment bit."""

DeviceFactory = Callable[[Wiring], Sequence[Any]]
"""Makes the luma devices for a wiring: two OLEDs (left, right), one MAX7219 chain, or none."""


class PanelError(OSError):
    """A display that cannot be opened; the message names it and what to check (an
    OSError, as the bus's own failures are: one ``except OSError`` takes both)."""


def hardware_devices(wiring: Wiring) -> list[Any]:
    """The real displays: two OLEDs on I2C, or the MAX7219 chain on SPI.

    Raises:
        PanelError: A driver is not installed, or a display does not answer.
    """
    try:
        return _hardware(wiring)
    except ImportError as exc:
        raise PanelError(
            f"--display {wiring.display}: the {exc.name} module is not installed"
            f" ({_INSTALL.get(exc.name or '', f'pip install {exc.name}')}; docs/pi-clock.md)"
        ) from None


_INSTALL = {"spidev": "sudo apt-get install python3-spidev"}
"""How docs/pi-clock.md installs a driver's module that pip does not (Raspberry Pi OS's
own package, seen by the clock's virtual environment)."""


def _hardware(wiring: Wiring) -> list[Any]:
    if wiring.display in ("oled", "sh1106"):
        from luma.core.interface.serial import i2c
        from luma.oled.device import sh1106, ssd1306

        make = ssd1306 if wiring.display == "oled" else sh1106
        bus = wiring.oled.bus
        devices = []
        for side, address in (("left", wiring.oled.left), ("right", wiring.oled.right)):
            try:
                devices.append(make(i2c(port=bus, address=address)))
            except (OSError, LumaError) as exc:
                raise PanelError(
                    f"--display {wiring.display}: the {side} display (I2C bus {bus},"
                    f" address {address:#x}) does not answer: {exc}; turn I2C on"
                    " (raspi-config), check the wiring (docs/pi-clock.md) or run with"
                    " --display none"
                ) from None
        return devices
    if wiring.display == "max7219":
        from luma.core.interface.serial import noop, spi
        from luma.led_matrix.device import max7219

        chain = wiring.max7219
        try:
            # noop: without it luma's spi claims GPIO24 and 25 (its DC and RESET) for
            # itself, which are the right LED and the buzzer here
            port = spi(port=chain.port, device=chain.device, gpio=noop())
            return [max7219(port, cascaded=2)]
        except (OSError, LumaError) as exc:
            raise PanelError(
                f"--display max7219: SPI{chain.port} CE{chain.device} cannot be opened:"
                f" {exc}; turn SPI on (raspi-config) or run with --display none"
            ) from None
    return []


def dummy_devices(wiring: Wiring) -> list[Any]:
    """luma's dummy devices in the shapes of :func:`hardware_devices`: they keep the
    image they were given (``device.image``)."""
    from luma.core.device import dummy

    if wiring.display in ("oled", "sh1106"):
        return [dummy(*OLED_SIZE, mode="1") for _ in (0, 1)]
    if wiring.display == "max7219":
        return [dummy(*SEGMENT_BITS, mode="1")]
    return []
