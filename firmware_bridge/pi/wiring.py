"""Which GPIO does what on the Pi clock: :class:`Wiring`, read from the bundled
``wiring.toml`` (the defaults) and, over it, a user's file.

Pins are BCM GPIO numbers (what gpiozero takes); :data:`HEADER_PIN` names the
40-pin header's pin for each, for people holding a soldering iron.
:func:`wiring_table` is the wiring by pin as docs/pi-clock.md prints it, so the
docs and the defaults cannot drift apart.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import msgspec

__all__ = [
    "DISPLAYS",
    "HEADER_PIN",
    "ButtonPins",
    "LedPins",
    "Max7219Bus",
    "OledBus",
    "Wiring",
    "WiringError",
    "display_kind",
    "load_wiring",
    "wiring_table",
]

DisplayKind = Literal["oled", "sh1106", "max7219", "none"]
DISPLAYS: tuple[DisplayKind, ...] = ("oled", "sh1106", "max7219", "none")
"""The display kinds: SSD1306 OLEDs, SH1106 OLEDs, MAX7219 seven-segment modules, none."""

HEADER_PIN: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
"""BCM GPIO number -> physical pin on the 40-pin header (every Pi since the B+)."""

_I2C_PINS = (2, 3)
_SPI_PINS = (10, 11)
_SPI_CS = {0: 8, 1: 7}


class WiringError(ValueError):
    """A wiring file that cannot be used; the message names the file and the key."""


def display_kind(text: str) -> DisplayKind:
    """``text`` as a display kind (``--display``, the gpio clock's ``display=``).

    Raises:
        WiringError: Not a display kind, quoting it and naming the kinds.
    """
    for kind in DISPLAYS:
        if text == kind:
            return kind
    raise WiringError(f"{text!r}: not a display (choose {', '.join(DISPLAYS)})")


class ButtonPins(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The three buttons, each between its GPIO and ground (internal pull-up)."""

    left: int
    right: int
    pause: int


class LedPins(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The running-side LEDs, each through a 330 ohm resistor."""

    left: int
    right: int


class OledBus(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Two OLEDs on one I2C bus, told apart by address."""

    bus: int
    left: int
    """The left display's I2C address (0x3C on most modules)."""
    right: int
    """The right display's address (0x3D: the module's address jumper moved)."""


class Max7219Bus(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Two MAX7219 modules daisy-chained on one SPI port: the Pi feeds the right
    module, whose DOUT feeds the left one (luma sends the chain's left half first,
    and what goes in first is shifted on to the far module)."""

    port: int
    device: int
    """The chip select: 0 is CE0 (GPIO8), 1 is CE1 (GPIO7)."""


class Wiring(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Pi clock's wiring and display choice."""

    display: DisplayKind
    buzzer: int
    buttons: ButtonPins
    leds: LedPins
    oled: OledBus
    max7219: Max7219Bus

    def bus_pins(self) -> tuple[int, ...]:
        """The GPIOs the displays' bus takes (none of them may be a button or LED)."""
        if self.display in ("oled", "sh1106"):
            return _I2C_PINS
        if self.display == "max7219":
            return (*_SPI_PINS, _SPI_CS[self.max7219.device])
        return ()

    def with_display(self, display: str) -> Wiring:
        """This wiring with another display (``--display``).

        Raises:
            WiringError: Not a display kind, quoting it.
        """
        try:
            kind = display_kind(display)
        except WiringError as exc:
            raise WiringError(f"--display {exc}") from None
        return _checked(msgspec.to_builtins(self) | {"display": kind}, "--display")


def _defaults() -> dict[str, Any]:
    return tomllib.loads((files("firmware_bridge.pi") / "wiring.toml").read_text("utf-8"))


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def load_wiring(path: Path | None = None) -> Wiring:
    """The default wiring, with the keys of the TOML file at ``path`` over it.

    Raises:
        WiringError: The file cannot be read, is not TOML, has a key that is not a
            wiring key or a value of the wrong kind, uses a GPIO the header does not
            have, or gives one GPIO two jobs. The message quotes the file and the key.
    """
    doc = _defaults()
    source = "wiring.toml"
    if path is not None:
        source = str(path)
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise WiringError(f"wiring {source!r}: cannot read it ({exc})") from None
        try:
            doc = _merged(doc, tomllib.loads(text))
        except tomllib.TOMLDecodeError as exc:
            raise WiringError(f"wiring {source!r}: not TOML ({exc})") from None
    return _checked(doc, source)


def _checked(doc: dict[str, Any], source: str) -> Wiring:
    try:
        wiring = msgspec.convert(doc, Wiring, strict=True)
    except msgspec.ValidationError as exc:
        raise WiringError(f"wiring {source!r}: {exc}") from None
    jobs = {
        "buttons.left": wiring.buttons.left,
        "buttons.right": wiring.buttons.right,
        "buttons.pause": wiring.buttons.pause,
        "leds.left": wiring.leds.left,
        "leds.right": wiring.leds.right,
        "buzzer": wiring.buzzer,
    }
    bus = f"the {wiring.display} display's bus"
    taken: dict[int, str] = dict.fromkeys(wiring.bus_pins(), bus)
    for key, gpio in jobs.items():
        if gpio not in HEADER_PIN:
            raise WiringError(f"wiring {source!r}: {key} = {gpio}: the header has no GPIO{gpio}")
        if gpio in taken:
            raise WiringError(
                f"wiring {source!r}: {key} = {gpio}: GPIO{gpio} is already {taken[gpio]}"
            )
        taken[gpio] = key
    if wiring.max7219.device not in _SPI_CS:
        raise WiringError(
            f"wiring {source!r}: max7219.device = {wiring.max7219.device}: 0 (CE0) or 1 (CE1)"
        )
    if wiring.oled.left == wiring.oled.right:
        raise WiringError(
            f"wiring {source!r}: oled.left = oled.right = {wiring.oled.left:#x}:"
            " the two displays need two addresses"
        )
    return wiring


def _gpio(gpio: int) -> tuple[str, str]:
    return f"GPIO{gpio}", str(HEADER_PIN[gpio])


def wiring_table(wiring: Wiring) -> str:
    """The wiring by pin as a Markdown table: part, GPIO, header pin, the other end."""
    rows: list[tuple[str, str, str, str]] = [
        ("left player button", *_gpio(wiring.buttons.left), "a ground pin (e.g. 9)"),
        ("right player button", *_gpio(wiring.buttons.right), "a ground pin (e.g. 14)"),
        ("pause button", *_gpio(wiring.buttons.pause), "a ground pin (e.g. 20)"),
        ("left LED (+, long leg)", *_gpio(wiring.leds.left), "330 ohm resistor to ground"),
        ("right LED (+, long leg)", *_gpio(wiring.leds.right), "330 ohm resistor to ground"),
        ("active buzzer (+)", *_gpio(wiring.buzzer), "buzzer - to ground (e.g. 25)"),
    ]
    if wiring.display in ("oled", "sh1106"):
        o = wiring.oled
        both = f"both displays (left {o.left:#x}, right {o.right:#x})"
        rows += [
            (f"OLED SDA, {both}", *_gpio(2), f"I2C bus {o.bus}"),
            (f"OLED SCL, {both}", *_gpio(3), f"I2C bus {o.bus}"),
            ("OLED VCC, both displays", "3.3 V", "1", ""),
            ("OLED GND, both displays", "ground", "6", ""),
        ]
    elif wiring.display == "max7219":
        cs = _SPI_CS[wiring.max7219.device]
        rows += [
            ("MAX7219 DIN, right module", *_gpio(10), "its DOUT to the left module's DIN"),
            ("MAX7219 CLK, both modules", *_gpio(11), f"SPI{wiring.max7219.port}"),
            ("MAX7219 CS, both modules", *_gpio(cs), f"CE{wiring.max7219.device}"),
            ("MAX7219 VCC, both modules", "5 V", "2", ""),
            ("MAX7219 GND, both modules", "ground", "6", ""),
        ]
    lines = ["| part | GPIO | header pin | other end |", "| --- | --- | --- | --- |"]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    return "\n".join(lines)
