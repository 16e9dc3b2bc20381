"""The Pi clock's two displays, one per side, drawn from what the clock shows.

Two kinds (``display`` in the wiring):

- **OLED** (SSD1306 or SH1106, 128x64, I2C; :func:`render_oled`): the side's time
  large in the middle (M:SS, overtime -M:SS), drawn a character at a time at fixed
  advances so the digits stand still as they change; a top bar, lit (white, the
  words black) on the running side: the mark; in it "paused" when both clocks are
  stopped and the link state, "no table" or "table ok", always (so at power-up
  too); under the time, the TEXT line (HOLD, CHALLENGE, a penalty, a result) in
  small letters. A TEXT too wide for it is broken at words into lines shown in
  turn, :data:`PAGE_MS` each (a word is never cut, so ``-10`` never shows as ``-1``).
- **MAX7219** (two 8-digit seven-segment modules on one SPI chain;
  :func:`segment_text`, :func:`render_segments`): per side a mark digit (three bars
  on the running side) and the time with the decimal point as the colon
  (``25.00``, ``-1.05``). Eight digits cannot hold a time and a word, so the TEXT
  and the link state are pages that replace the times: on both modules when they
  fit in eight digits, else across the two (a TEXT over 16 digits is broken at
  words into several pages); each page shows
  :data:`PAGE_MS` from when they change, then the times for :data:`TIMES_MS`, then
  the pages again while they stand. A link that comes up shows "table ok" for one
  page.

:class:`Panel` holds the luma devices (:mod:`firmware_bridge.pi.displays`):
:meth:`Panel.open` makes them from the wiring (luma's dummy devices for tests and
docs/images/pi-clock/, where scripts/pi-pictures draws the MAX7219's image as a
picture of the modules). A display that stops answering (a loose wire: luma's I2C
raises its own ``DeviceNotFoundError``, not an OSError, for the kernel's EREMOTEIO)
costs its frames and a logged warning, never the clock.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from luma.core.error import Error as LumaError
from PIL import Image, ImageDraw, ImageFont

from engine.clocktext import clock_text
from firmware_bridge.pi.displays import OLED_SIZE, SEGMENT_BITS, DeviceFactory, hardware_devices
from firmware_bridge.pi.face import ClockFace, running_side
from firmware_bridge.pi.wiring import Wiring

__all__ = [
    "BAR_H",
    "MARK",
    "NO_TABLE_PAGE",
    "PAGE_MS",
    "SMALL_FONT",
    "TABLE_OK_PAGE",
    "TEXT_Y",
    "TIMES_MS",
    "TIME_FONT",
    "TIME_Y",
    "Panel",
    "link_state",
    "oled_lines",
    "render_oled",
    "render_segments",
    "segment_bytes",
    "segment_text",
]

log = logging.getLogger(__name__)

TIME_FONT: ImageFont.FreeTypeFont | ImageFont.ImageFont = ImageFont.load_default(size=32)
"""The OLED's time: Pillow's own font (Aileron), the same on every machine with this Pillow."""
SMALL_FONT = ImageFont.load_default(size=11)
"""The OLED's top bar and TEXT line."""
TIME_Y = 9
"""Where the time is drawn from (its glyphs' ink starts lower)."""
BAR_H = 14
"""The top bar's height: the mark (lit on the running side), "paused", the link state."""
TEXT_Y = 50
"""Where the TEXT line is drawn from."""

PAGE_MS = 2000
"""MAX7219: how long each page of TEXT or link state shows."""
TIMES_MS = 4000
"""MAX7219: how long the times show between the pages while a TEXT stands."""
MARK = "*"
"""MAX7219: the running side's mark digit (luma maps ``*`` to the top, middle and
bottom bars)."""
_DIGITS = 8  # per module

_SPELLING = str.maketrans("BDNRT", "bdnrt")
"""Capitals seven segments draw as something else (B as 8, D as 0, R as a hook) in
the small letters they read as."""
NO_TABLE_PAGE = "no tAbLE"
"""MAX7219: the link state when the table does not answer, in letters 7 segments can draw."""
TABLE_OK_PAGE = "tAbLE ok"
"""MAX7219: shown for one page when the table answers again."""


def link_state(face: ClockFace) -> str:
    """What the display says of the link: ``no table`` or ``table ok``."""
    return "table ok" if face.host_online else "no table"


def _time(face: ClockFace, side: int) -> str:
    return clock_text(face.remaining_ms[side])


# --- OLED ----------------------------------------------------------------------------


def _advance(char: str) -> int:
    return round(TIME_FONT.getlength(char))


def _draw_cells(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: int) -> None:
    # one character at a time at whole-pixel advances: the same glyph is the same
    # pixels wherever it stands (and a test can read them back)
    for char in text:
        draw.text((x, y), char, font=TIME_FONT, fill=fill)
        x += _advance(char)


def _lines(text: str, fits: Callable[[str], bool]) -> list[str]:
    """``text`` broken at spaces into lines that each ``fits``: a word cut in two
    could read as another (``-10`` as ``-1``). Words in parentheses stay together
    when they fit a line (``(10 per started min)``); only a word too long for a line
    of its own is cut, at the letter where it stops fitting."""
    words: list[str] = []
    for unit in re.findall(r"\([^()]*\)|\S+", text):
        words.extend([unit] if fits(unit) else unit.split())
    lines: list[str] = []
    line = ""
    for word in words:
        joined = f"{line} {word}" if line else word
        if fits(joined):
            line = joined
            continue
        if line:
            lines.append(line)
        while not fits(word):
            cut = max((i for i in range(1, len(word)) if fits(word[:i])), default=1)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def oled_lines(text: str) -> list[str]:
    """The OLED's TEXT line as the lines shown in turn (``[]``: none)."""
    return _lines(text, lambda line: SMALL_FONT.getlength(line) <= OLED_SIZE[0] - 4)


def render_oled(face: ClockFace, side: int, line: str | None = None) -> Image.Image:
    """What ``side``'s OLED shows (128x64, one bit per pixel): ``line`` in the TEXT
    line (None: the TEXT's first line, :func:`oled_lines`)."""
    width = OLED_SIZE[0]
    image = Image.new("1", OLED_SIZE, 0)
    draw = ImageDraw.Draw(image)
    marked = running_side(face) == side
    ink = 0 if marked else 1
    if marked:
        draw.rectangle((0, 0, width - 1, BAR_H - 1), fill=1)
    link = link_state(face)
    draw.text((width - 2 - round(SMALL_FONT.getlength(link)), 0), link, font=SMALL_FONT, fill=ink)
    if face.paused:
        draw.text((2, 0), "paused", font=SMALL_FONT, fill=ink)
    shown = _time(face, side)
    span = sum(_advance(c) for c in shown)
    _draw_cells(draw, (width - span) // 2, TIME_Y, shown, 1)
    text = line if line is not None else next(iter(oled_lines(face.text)), "")
    if text:
        x = (width - round(SMALL_FONT.getlength(text))) // 2
        draw.text((x, TEXT_Y), text, font=SMALL_FONT, fill=1)
    return image


# --- MAX7219 -------------------------------------------------------------------------


def _digits(text: str) -> int:
    """How many digits ``text`` takes: a point rides on the digit before it."""
    return len(segment_bytes(text))


def _pad(text: str, digits: int) -> str:
    """``text`` cut or filled with blanks on the right to exactly ``digits`` digits."""
    while _digits(text) > digits:
        text = text[:-1]
    return text + " " * (digits - _digits(text))


def _centred(text: str) -> str:
    """A module's 8 digits with ``text`` in the middle."""
    left = (_DIGITS - _digits(text)) // 2
    return _pad(" " * left + text, _DIGITS)


def _pages(face: ClockFace) -> list[str]:
    words = _lines(face.text, lambda page: _digits(page) <= 2 * _DIGITS)
    if not face.host_online:
        words.append(NO_TABLE_PAGE)
    return words


def segment_text(face: ClockFace, page: str | None = None) -> str:
    """Both modules' characters (16 digits, left module first) for luma's segment mapper.

    ``page``: words shown instead of the times: on both modules when they fit in 8
    digits (each player reads them on their own side), else across the two.
    """
    if page is not None:
        page = page.translate(_SPELLING)
        if _digits(page) <= _DIGITS:
            return _centred(page) * 2
        return _pad(page.strip(), 2 * _DIGITS)
    running = running_side(face)
    sides = []
    for side in (0, 1):
        shown = _time(face, side).replace(":", ".")
        mark = MARK if side == running else " "
        sides.append(mark + " " * (_DIGITS - 1 - _digits(shown)) + shown)
    return "".join(sides)


def segment_bytes(text: str) -> bytes:
    """The segment bits of each digit (bit 7 the point, 6..0 segments a..g), as luma maps them."""
    from luma.led_matrix.segment_mapper import dot_muncher

    return bytes(dot_muncher(text, notfound=" "))


def render_segments(text: str) -> Image.Image:
    """The chain's image for 16 digits of ``text``, as luma's ``sevensegment`` lays it
    out: the last digit is column 0, bit n of a digit is row n."""
    image = Image.new("1", SEGMENT_BITS, 0)
    for x, byte in enumerate(reversed(segment_bytes(text))):
        for y in range(8):
            if byte >> y & 1:
                image.putpixel((x, y), 1)
    return image


class Panel:
    """The two displays of one clock."""

    def __init__(self, kind: str, devices: Sequence[Any], now_ms: Callable[[], int]) -> None:
        self.kind = kind
        """``oled``, ``sh1106``, ``max7219`` or ``none``."""
        self.devices = list(devices)
        """The luma devices: two OLEDs (left, right), one MAX7219 chain, or none."""
        self._now = now_ms
        self._sent: list[bytes | None] = [None] * len(self.devices)
        self.refused = 0
        """Frames a display refused (a loose wire: the clock goes on, and the frame is
        sent again at the next show)."""
        self._pages: list[str] = []
        self._pages_since = 0
        self._online: bool | None = None
        self._greeting_until: int | None = None

    @classmethod
    def open(
        cls,
        wiring: Wiring,
        device_factory: DeviceFactory | None = None,
        *,
        now_ms: Callable[[], int],
    ) -> Panel:
        """The displays the wiring names (``device_factory``: luma's dummy devices in
        tests; by default the hardware). ``now_ms``: the clock's own time, which
        the MAX7219's pages run on."""
        make = device_factory or hardware_devices
        return cls(wiring.display, make(wiring), now_ms)

    def show(self, face: ClockFace) -> None:
        """Draw ``face`` on the displays (call it on every change and every refresh)."""
        if self.kind in ("oled", "sh1106"):
            lines = oled_lines(face.text)
            line = lines[self._stood(lines) // PAGE_MS % len(lines)] if lines else ""
            for side in range(len(self.devices)):
                self._send(side, render_oled(face, side, line))
        elif self.kind == "max7219":
            self._send(0, render_segments(segment_text(face, self._page(face))))

    def _send(self, index: int, image: Image.Image) -> None:
        # a frame over I2C takes ~25 ms: send only what changed (the time once a second)
        frame = image.tobytes()
        if frame == self._sent[index]:
            return
        try:
            self.devices[index].display(image)
        except (OSError, LumaError) as exc:  # luma's i2c turns EREMOTEIO into its own
            self._sent[index] = None
            self.refused += 1
            if self.refused == 1 or self.refused % 100 == 0:
                log.warning("display %d refused a frame (%d so far): %s", index, self.refused, exc)
            return
        self._sent[index] = frame

    def _page(self, face: ClockFace) -> str | None:
        """The MAX7219's page of words now, None when it shows the times."""
        now = self._now()
        if self._online is False and face.host_online:
            self._greeting_until = now + PAGE_MS
        self._online = face.host_online
        if self._greeting_until is not None:
            if now < self._greeting_until:
                return TABLE_OK_PAGE
            self._greeting_until = None
        pages = _pages(face)
        stood = self._stood(pages)
        if not pages:
            return None
        index = stood % (len(pages) * PAGE_MS + TIMES_MS) // PAGE_MS
        return pages[index] if index < len(pages) else None

    def _stood(self, pages: list[str]) -> int:
        """How long these pages have stood: they turn from when they change."""
        now = self._now()
        if pages != self._pages:
            self._pages, self._pages_since = pages, now
        return now - self._pages_since

    def images(self) -> list[Image.Image]:
        """What each dummy device shows (left, right; or the one MAX7219 chain)."""
        return [device.image for device in self.devices]

    def close(self) -> None:
        """Blank the displays and let them go (one that does not answer is let go as it is)."""
        for index, device in enumerate(self.devices):
            try:
                device.cleanup()
            except (OSError, LumaError) as exc:
                log.warning("display %d could not be blanked: %s", index, exc)
