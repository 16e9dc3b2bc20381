"""The Pi clock's displays (:mod:`firmware_bridge.pi.panel`) on luma's dummy device (a
mock: the Pi's displays cannot run here; it keeps the image it was sent), and luma's
real SSD1306 driver on a stand-in I2C bus that fails as a loose wire does. What they
show is read back (:mod:`tests.support.pi_display`): an OLED's time glyph by glyph
against the panel's font, its words found drawn in their place, and the MAX7219
chain's digits as the segment bits luma's own mapper gives for the expected text."""

from __future__ import annotations

import errno
import tomllib
from pathlib import Path
from typing import Any

import pytest
from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import i2c
from luma.led_matrix.segment_mapper import dot_muncher
from luma.oled.device import ssd1306
from PIL import Image

from firmware_bridge.device.firmware import ClockFirmware, Display
from firmware_bridge.pi.displays import PanelError, dummy_devices, hardware_devices
from firmware_bridge.pi.panel import PAGE_MS, TIMES_MS, Panel
from firmware_bridge.pi.wiring import load_wiring
from tests.helpers import REPO
from tests.support.pi_display import (
    bar_is_lit,
    find_words,
    read_oled_time,
    read_segments,
    segment_chars,
)


def face(
    left: int = 1_500_000,
    right: int = 1_500_000,
    *,
    running: int | None = 0,
    paused: bool = False,
    text: str = "",
    online: bool = True,
) -> Display:
    return Display((left, right), running, paused, text, 0, online)


class FakeTime:
    def __init__(self) -> None:
        self.ms = 100_000

    def __call__(self) -> int:
        return self.ms


def oleds(kind: str = "oled") -> tuple[Panel, FakeTime]:
    now = FakeTime()
    return Panel.open(load_wiring().with_display(kind), dummy_devices, now_ms=now), now


def shown(panel: Panel, what: Display) -> list[Image.Image]:
    panel.show(what)
    return panel.images()


@pytest.mark.parametrize("kind", ["oled", "sh1106"])
def test_each_oled_shows_its_sides_time(kind: str) -> None:
    panel, _ = oleds(kind)
    left, right = shown(panel, face(1_500_000, 754_321))
    assert (read_oled_time(left), read_oled_time(right)) == ("25:00", "12:34")
    left, right = shown(panel, face(6_000_000, 9_999))
    assert (read_oled_time(left), read_oled_time(right)) == ("100:00", "0:09")


def test_overtime_shows_a_minus() -> None:
    panel, _ = oleds()
    left, right = shown(panel, face(-65_000, -500, running=1))
    assert (read_oled_time(left), read_oled_time(right)) == ("-1:05", "-0:00")


def test_the_mark_is_on_the_running_side_only() -> None:
    panel, _ = oleds()
    left, right = shown(panel, face(running=1))
    assert (bar_is_lit(left), bar_is_lit(right)) == (False, True)
    left, right = shown(panel, face(running=0))
    assert (bar_is_lit(left), bar_is_lit(right)) == (True, False)
    for image in shown(panel, face(running=0, paused=True)):
        assert not bar_is_lit(image)
        assert find_words(image, "paused", bar=True)
    assert not find_words(left, "paused", bar=True)


@pytest.mark.parametrize("text", ["HOLD", "CHALLENGE", "-10", "won 412-380"])
def test_the_text_line_shows_under_both_times(text: str) -> None:
    panel, _ = oleds()
    for image in shown(panel, face(text=text)):
        assert find_words(image, text)
        assert read_oled_time(image) == "25:00"
    for image in shown(panel, face()):
        assert not find_words(image, text)


def test_a_long_text_breaks_at_words_and_shows_one_line_at_a_time() -> None:
    panel, _ = oleds()
    long = "CHALLENGE QUIXOTIC ZEPHYRS JINXED"
    for image in shown(panel, face(text=long)):
        assert find_words(image, "CHALLENGE QUIXOTIC")
        assert not find_words(image, long)


def test_a_text_too_wide_shows_a_line_at_a_time_never_a_cut_number() -> None:
    """The table's overtime line, which the OLED cannot hold in one: before, it showed
    "OVERTIME Alexandra -1" for a penalty of -10."""
    panel, now = oleds()
    text = "OVERTIME Alexandra -10 (10/min)"
    for image in shown(panel, face(text=text)):
        assert find_words(image, "OVERTIME Alexandra")
        assert not find_words(image, "-1")
    now.ms += PAGE_MS
    for image in shown(panel, face(text=text)):
        assert find_words(image, "-10 (10/min)")
        assert not find_words(image, "OVERTIME")
    now.ms += PAGE_MS  # and round again
    for image in shown(panel, face(text=text)):
        assert find_words(image, "OVERTIME Alexandra")


def test_at_power_up_the_oleds_show_the_time_and_no_table() -> None:
    now = FakeTime()
    firmware = ClockFirmware(initial_ms=1_200_000, clock=now)
    panel = Panel.open(load_wiring(), dummy_devices, now_ms=now)
    firmware.listeners.append(panel.show)
    for image in shown(panel, firmware.display()):
        assert read_oled_time(image) == "20:00"
        assert find_words(image, "no table", bar=True)
        assert not find_words(image, "table ok", bar=True)
    firmware.press(1)  # the right player starts the left clock: the listener draws
    now.ms += 65_400
    left, right = shown(panel, firmware.display())
    assert (read_oled_time(left), read_oled_time(right)) == ("18:54", "20:00")
    assert bar_is_lit(left)
    for image in shown(panel, face(online=True)):
        assert find_words(image, "table ok", bar=True)


def chain() -> tuple[Panel, FakeTime]:
    now = FakeTime()
    return Panel.open(load_wiring().with_display("max7219"), dummy_devices, now_ms=now), now


def segments(text: str) -> bytes:
    """What luma's own mapper makes of ``text`` (16 digits, left module first)."""
    return bytes(dot_muncher(text, notfound=" "))


def test_max7219_shows_both_times_and_the_mark() -> None:
    panel, _ = chain()
    (image,) = shown(panel, face(1_500_000, -65_000, running=1))
    assert segment_chars(image) == "    25.00*   -1.05"
    (image,) = shown(panel, face(754_321, 6_000_000, running=0))
    assert segment_chars(image) == "*   12.34   100.00"
    (image,) = shown(panel, face(running=0, paused=True))
    assert segment_chars(image) == "    25.00    25.00"


def test_max7219_shows_text_as_pages_between_the_times() -> None:
    panel, now = chain()
    times = "*   25.00    25.00"
    assert segment_chars(shown(panel, face())[0]) == times
    (image,) = shown(panel, face(text="HOLD"))
    assert read_segments(image) == segments("  HOLd    HOLd  ")  # on both modules, a d for D
    now.ms += PAGE_MS
    assert segment_chars(shown(panel, face(text="HOLD"))[0]) == times
    now.ms += TIMES_MS - 1
    assert segment_chars(shown(panel, face(text="HOLD"))[0]) == times
    now.ms += 1
    assert read_segments(shown(panel, face(text="HOLD"))[0]) == segments("  HOLd    HOLd  ")
    (image,) = shown(panel, face(text="CHALLENGE"))  # a new text shows at once
    assert read_segments(image) == segments("CHALLEnGE       ")  # across both
    (image,) = shown(panel, face(text="-10"))
    assert read_segments(image) == segments("  -10     -10   ")


def test_max7219_breaks_a_long_text_into_pages_at_words() -> None:
    panel, now = chain()
    text = "OVERTIME Alexandra -10 (10/min)"
    pages = []
    for _ in range(3):
        pages.append(read_segments(shown(panel, face(text=text))[0]))
        now.ms += PAGE_MS
    assert pages == [
        segments("OVErtIMEOVErtIME"),
        segments("Alexandra -10   "),  # across both: the number whole
        segments("(10/min)(10/min)"),
    ]
    assert segment_chars(shown(panel, face(text=text))[0]) == "*   25.00    25.00"


def test_max7219_shows_the_link_state_at_power_up_and_when_it_returns() -> None:
    panel, now = chain()
    offline = face(running=None, paused=True, online=False)
    (image,) = shown(panel, offline)
    assert read_segments(image) == segments("no tAbLEno tAbLE")
    now.ms += PAGE_MS
    assert segment_chars(shown(panel, offline)[0]) == "    25.00    25.00"
    (image,) = shown(panel, face(running=None, paused=True, text="HOLD", online=False))
    assert read_segments(image) == segments("  HOLd    HOLd  ")
    now.ms += PAGE_MS  # the pages in turn: the text, then the link
    (image,) = shown(panel, face(running=None, paused=True, text="HOLD", online=False))
    assert read_segments(image) == segments("no tAbLEno tAbLE")
    (image,) = shown(panel, face(running=None, paused=True, online=True))
    assert read_segments(image) == segments("tAbLE oktAbLE ok")
    now.ms += PAGE_MS
    for _ in range(3):
        assert segment_chars(shown(panel, face(running=None, paused=True))[0]) == (
            "    25.00    25.00"
        )
        now.ms += PAGE_MS


def test_no_display_draws_nothing() -> None:
    panel = Panel.open(load_wiring().with_display("none"), dummy_devices, now_ms=FakeTime())
    panel.show(face())
    assert panel.images() == []


def test_only_a_changed_frame_is_sent() -> None:
    panel, now = oleds()
    first = shown(panel, face(running=0))
    now.ms += 300  # a refresh within the same second: the same pictures
    again = shown(panel, face(running=0))
    assert [a is b for a, b in zip(first, again, strict=True)] == [True, True]
    after = shown(panel, face(1_499_000, running=0))
    assert [a is b for a, b in zip(first, after, strict=True)] == [False, True]


class I2cBus:
    """An smbus as luma's ``i2c`` drives it, whose transfers fail while ``loose`` as the
    kernel fails them for a display that stopped answering (OSError EREMOTEIO, 121).
    A mock: there is no I2C bus here; above it the driver is luma's real SSD1306."""

    def __init__(self) -> None:
        self.loose = False
        self.data: list[int] = []
        """The data bytes written (the frames' pixels)."""

    def write_i2c_block_data(self, address: int, mode: int, values: list[int]) -> None:
        if self.loose:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if mode == 0x40:  # luma's data mode
            self.data.extend(values)


def oled_on(bus: I2cBus, address: int) -> Any:
    return ssd1306(i2c(bus=bus, address=address))


def test_a_display_that_refuses_a_frame_does_not_stop_the_clock() -> None:
    """The real driver: luma turns the bus's EREMOTEIO into its DeviceNotFoundError."""
    left_bus, right_bus = I2cBus(), I2cBus()
    left, right = oled_on(left_bus, 0x3C), oled_on(right_bus, 0x3D)
    panel = Panel.open(load_wiring(), lambda _: [left, right], now_ms=FakeTime())
    left_bus.loose = True
    with pytest.raises(DeviceNotFoundError):  # what the panel must take
        left.display(Image.new("1", (128, 64)))
    right_bus.data.clear()
    panel.show(face(754_321, 600_000))
    assert panel.refused == 1
    assert len(right_bus.data) == 128 * 64 // 8  # the right display got its frame
    left_bus.loose = False  # the wire is pushed back: the same frame is sent again
    panel.show(face(754_321, 600_000))
    assert len(left_bus.data) == 128 * 64 // 8 + len(right_bus.data)  # init's blank + it
    left_bus.loose = True
    panel.close()  # blanking a display that does not answer: let go all the same
    assert right_bus.data[-128 * 64 // 8 :] == [0] * (128 * 64 // 8)


@pytest.mark.skipif(Path("/dev/i2c-1").exists(), reason="a Pi: real displays may answer")
@pytest.mark.parametrize("kind", ["oled", "max7219"])
def test_a_display_that_is_not_there_is_one_line_naming_it(kind: str) -> None:
    """The real luma drivers on a machine without I2C or SPI."""
    with pytest.raises(PanelError) as caught:
        hardware_devices(load_wiring().with_display(kind))
    message = str(caught.value)
    assert message.startswith(f"--display {kind}: ")
    assert "--display none" in message or "apt-get install python3-spidev" in message
    assert "\n" not in message


def test_the_pi_extra_brings_a_pillow_with_sized_default_fonts() -> None:
    """The panel's fonts are ImageFont.load_default(size=...), new in Pillow 10.1."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    pillow = [
        r for r in project["project"]["optional-dependencies"]["pi"] if r.startswith("pillow")
    ]
    assert pillow == ["pillow>=10.1"]
