"""The Raspberry Pi clock's hardware layer (docs/pi-clock.md): what a Pi with arcade
buttons, LEDs, a buzzer and two small displays adds to the clock firmware.

- :mod:`~firmware_bridge.pi.wiring`: which GPIO does what, from ``wiring.toml`` and a
  user's file;
- :mod:`~firmware_bridge.pi.buttons`: the two player buttons and the pause button,
  debounced, with a long hold of pause to halt the Pi;
- :mod:`~firmware_bridge.pi.lights`: the running side's LED and the buzzer;
- :mod:`~firmware_bridge.pi.panel`: the two displays (SSD1306/SH1106 OLEDs or MAX7219
  seven-segment modules);
- :mod:`~firmware_bridge.pi.face`: what the clock shows, as lights and panel read it;
- :mod:`~firmware_bridge.pi.hardware`: the buttons, lights and panel opened as one,
  all or none.

Everything here needs the ``pi`` extra (gpiozero, luma). Nothing outside this package
imports it when a command starts, so a laptop without the extra runs every other
command. The pins and displays come in from outside (a gpiozero pin factory, a luma
device factory): tests pass gpiozero's MockFactory and luma's dummy device.
:func:`missing_extra` says, without importing them, whether the extra is installed, and
:func:`extra_refusal` is the one wording of its absence.
"""

import importlib.util

__all__ = ["INITIAL_MS", "PI_EXTRA", "PI_MODULES", "extra_refusal", "missing_extra"]

INITIAL_MS = 1_500_000
"""The Pi clock's time per side until the table sets it (25 minutes)."""

PI_EXTRA = "pip install 'rackclock[pi]'"
"""What installs the Pi's libraries (gpiozero, luma): every refusal for want of them says it."""
PI_MODULES = ("gpiozero", "luma.core", "luma.oled", "luma.led_matrix", "PIL")
"""The modules the ``pi`` extra brings."""


def missing_extra() -> str | None:
    """The first module of the ``pi`` extra that is not installed, None when all are.

    Looked up without importing them, so asking costs a command nothing.
    """
    for module in PI_MODULES:
        try:
            found = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # its parent package is missing
            found = None
        if found is None:
            return module
    return None


def extra_refusal(what: str) -> str | None:
    """Why ``what`` (``"the gpio clock"``, ``"the Pi clock"``) cannot run here, in the
    one wording every refusal for want of the extra uses; None when it is installed."""
    missing = missing_extra()
    if missing is None:
        return None
    return f"{what} needs the Pi's libraries ({missing} is not installed): {PI_EXTRA}"
