"""The Pi clock's wiring (:mod:`firmware_bridge.pi.wiring`): the bundled defaults are
the wiring docs/pi-clock.md gives by pin, a user's file overrides only the keys it
has, and a file that cannot be used is refused with one line naming the file and
the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.pi.wiring import HEADER_PIN, WiringError, load_wiring, wiring_table


def test_the_defaults_are_the_documented_wiring() -> None:
    wiring = load_wiring()
    pins = {
        "left button": wiring.buttons.left,
        "right button": wiring.buttons.right,
        "pause": wiring.buttons.pause,
        "left LED": wiring.leds.left,
        "right LED": wiring.leds.right,
        "buzzer": wiring.buzzer,
    }
    assert pins == {
        "left button": 17,
        "right button": 27,
        "pause": 22,
        "left LED": 23,
        "right LED": 24,
        "buzzer": 25,
    }
    assert {name: HEADER_PIN[gpio] for name, gpio in pins.items()} == {
        "left button": 11,
        "right button": 13,
        "pause": 15,
        "left LED": 16,
        "right LED": 18,
        "buzzer": 22,
    }
    assert wiring.display == "oled"
    assert (wiring.oled.bus, wiring.oled.left, wiring.oled.right) == (1, 0x3C, 0x3D)
    assert (wiring.max7219.port, wiring.max7219.device) == (0, 0)


def test_the_table_by_pin_follows_the_wiring() -> None:
    oled = wiring_table(load_wiring())
    assert "| left player button | GPIO17 | 11 |" in oled
    assert "| OLED SDA, both displays (left 0x3c, right 0x3d) | GPIO2 | 3 |" in oled
    assert "MAX7219" not in oled
    spi = wiring_table(load_wiring().with_display("max7219"))
    assert "| MAX7219 CS, both modules | GPIO8 | 24 | CE0 |" in spi
    assert "| MAX7219 VCC, both modules | 5 V | 2 |" in spi
    assert "OLED" not in spi
    assert "OLED" not in wiring_table(load_wiring().with_display("none"))


def test_a_users_file_overrides_only_its_keys(tmp_path: Path) -> None:
    path = tmp_path / "wiring.toml"
    path.write_text('display = "max7219"\n[buttons]\npause = 5\n[max7219]\ndevice = 1\n')
    wiring = load_wiring(path)
    assert wiring.display == "max7219"
    assert (wiring.buttons.left, wiring.buttons.right, wiring.buttons.pause) == (17, 27, 5)
    assert wiring.leds == load_wiring().leds
    assert wiring.bus_pins() == (10, 11, 7)  # CE1


BAD = [
    ("[buttons]\nlft = 5\n", "unknown field `lft` - at `$.buttons`"),
    ('buzzer = "25"\n', "Expected `int`, got `str` - at `$.buzzer`"),
    ('display = "lcd"\n', "Invalid enum value 'lcd' - at `$.display`"),
    ("buzzer = 23\n", "buzzer = 23: GPIO23 is already leds.left"),
    ("[leds]\nleft = 40\n", "leds.left = 40: the header has no GPIO40"),
    ("[buttons]\nleft = 3\n", "buttons.left = 3: GPIO3 is already the oled display's bus"),
    ('display = "max7219"\nbuzzer = 8\n', "buzzer = 8: GPIO8 is already the max7219"),
    ("[max7219]\ndevice = 2\n", "max7219.device = 2: 0 (CE0) or 1 (CE1)"),
    ("[oled]\nright = 0x3C\n", "oled.left = oled.right = 0x3c"),
    ("buzzer = \n", "not TOML"),
]


@pytest.mark.parametrize(("text", "says"), BAD, ids=[says for _, says in BAD])
def test_a_bad_file_is_refused_naming_file_and_key(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(WiringError) as caught:
        load_wiring(path)
    message = str(caught.value)
    assert message.startswith(f"wiring {str(path)!r}: ")
    assert says in message
    assert "\n" not in message


def test_a_missing_file_and_a_bad_display_are_one_line_each(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(WiringError, match=r"wiring '.*nope\.toml': cannot read it"):
        load_wiring(missing)
    with pytest.raises(WiringError, match=r"--display 'lcd': not a display \(choose oled, "):
        load_wiring().with_display("lcd")
