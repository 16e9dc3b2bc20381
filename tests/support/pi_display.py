"""Reading the Pi clock's dummy displays back (:mod:`firmware_bridge.pi.panel`).

The OLED's time is read glyph by glyph: each character the time can hold is drawn
alone with the panel's font and looked for, cell after cell, in the time's band, so
a test says "it shows -1:05" rather than comparing whole pictures. Words (the top
bar, the TEXT line) are found by drawing them with the same font and looking for
that picture in their band. The MAX7219 chain's image reads back as the segment
bits of each digit, left module first, and as characters where the digits are
numbers."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageChops, ImageDraw

from firmware_bridge.pi.displays import OLED_SIZE
from firmware_bridge.pi.panel import BAR_H, SMALL_FONT, TEXT_Y, TIME_FONT, TIME_Y

__all__ = ["bar_is_lit", "find_words", "read_oled_time", "read_segments", "segment_chars"]

_TIME_CHARS = "0123456789:-"
_TIME_ROWS = (8, 34)
"""The rows under the time's drawing origin its glyphs' ink can take (the rows above
are the font's ascent, over which the top bar's words reach)."""


@cache
def _glyph(char: str) -> bytes:
    width = round(TIME_FONT.getlength(char))
    image = Image.new("1", (width, _TIME_ROWS[1]), 0)
    ImageDraw.Draw(image).text((0, 0), char, font=TIME_FONT, fill=1)
    return image.crop((0, _TIME_ROWS[0], width, _TIME_ROWS[1])).tobytes()


def _read_from(band: Image.Image, x: int) -> str | None:
    out = ""
    width, height = band.size
    while x < width and band.crop((x, 0, width, height)).getbbox() is not None:
        for char in _TIME_CHARS:
            w = round(TIME_FONT.getlength(char))
            if x + w <= width and band.crop((x, 0, x + w, height)).tobytes() == _glyph(char):
                out += char
                x += w
                break
        else:
            return None
    return out or None


def read_oled_time(image: Image.Image) -> str:
    """The time an OLED image shows (``25:00``, ``-1:05``), or ``?`` if none reads."""
    top, bottom = (TIME_Y + row for row in _TIME_ROWS)
    band = image.crop((0, top, OLED_SIZE[0], bottom))
    for x in range(band.width):
        read = _read_from(band, x)
        if read is not None:
            return read
    return "?"


def find_words(image: Image.Image, words: str, *, bar: bool = False) -> bool:
    """Whether ``words`` are drawn in the TEXT line (``bar``: in the top bar, either
    way round: white on black, or black on the lit bar)."""
    rows = (0, BAR_H) if bar else (TEXT_Y, OLED_SIZE[1])
    band = image.crop((0, rows[0], OLED_SIZE[0], rows[1])).convert("L")
    drawn = Image.new("1", (round(SMALL_FONT.getlength(words)) + 2, rows[1] - rows[0]), 0)
    ImageDraw.Draw(drawn).text((0, 0), words, font=SMALL_FONT, fill=1)
    box = drawn.getbbox()
    if box is None:
        return False
    ink = drawn.crop(box).convert("L")
    for candidate in (band, ImageChops.invert(band)):
        for y in range(band.height - ink.height + 1):
            for x in range(band.width - ink.width + 1):
                cut = candidate.crop((x, y, x + ink.width, y + ink.height))
                if ImageChops.difference(cut, ink).getbbox() is None:
                    return True
    return False


def bar_is_lit(image: Image.Image) -> bool:
    """Whether the top bar (the running side's mark) is lit: most of it white."""
    bar = image.crop((0, 0, OLED_SIZE[0], BAR_H)).convert("L")
    lit = sum(1 for y in range(bar.height) for x in range(bar.width) if bar.getpixel((x, y)))
    return lit > bar.width * bar.height * 3 // 4


def read_segments(image: Image.Image) -> bytes:
    """The MAX7219 chain image's 16 digits (left module first) as segment bits."""
    width, height = image.size
    return bytes(
        sum(1 << y for y in range(height) if image.getpixel((x, y))) for x in reversed(range(width))
    )


_NUMBERS = {
    0x00: " ",
    0x7E: "0",
    0x30: "1",
    0x6D: "2",
    0x79: "3",
    0x33: "4",
    0x5B: "5",
    0x5F: "6",
    0x70: "7",
    0x7F: "8",
    0x7B: "9",
    0x01: "-",
    0x49: "*",
}


def segment_chars(image: Image.Image) -> str:
    """The chain's digits as characters where they are numbers, the minus, a blank or
    the mark (``?`` for anything else), a lit point as ``.`` after its digit."""
    out = ""
    for byte in read_segments(image):
        out += _NUMBERS.get(byte & 0x7F, "?") + ("." if byte & 0x80 else "")
    return out
