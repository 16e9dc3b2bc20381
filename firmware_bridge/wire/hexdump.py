"""A timestamped hexdump of every byte a clock link sends and receives.

For dispute forensics: when a player says "I pressed before my flag fell",
the director can line the bytes on the wire up with the event log. Each line
carries the table time (the same integer milliseconds the log's ``t`` uses),
the wall clock, the direction and the bytes::

    t=123456789 2026-11-21T14:03:07.123456Z RX 13 | 03 01 02 00 07 00 01 e2 40 00 a3 1c 00
    t=123456790 2026-11-21T14:03:07.124001Z TX 9  | 06 01 08 00 01 00 07 5c 13 00
    t=123457000 2026-11-21T14:03:07.333170Z -- open socket://127.0.0.1:7000

Lines are flushed as they are written, so a crash loses nothing already
logged. ``python -m firmware_bridge.wire.hexdump FILE`` decodes a dump back into
messages (frames split across reads are reassembled per direction).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from firmware_bridge.wire.framing import FrameDecoder, FrameError
from firmware_bridge.wire.protocol import ProtocolError, decode

__all__ = ["DumpLine", "HexDump", "decode_dump", "main", "parse_dump"]


def _default_now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class HexDump:
    """Appends a line per chunk of bytes to a file (or any text stream)."""

    def __init__(
        self, target: str | Path | TextIO, now_ms: Callable[[], int] | None = None
    ) -> None:
        if isinstance(target, str | Path):
            self._out: TextIO = Path(target).open("a", encoding="utf-8")  # noqa: SIM115
            self._owned = True
        else:
            self._out = target
            self._owned = False
        self._now_ms = now_ms or _default_now_ms
        self.closed = False
        """True after :meth:`close`."""

    def _line(self, text: str) -> None:
        if self.closed:
            return
        wall = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
        try:
            self._out.write(f"t={self._now_ms()} {wall} {text}\n")
            self._out.flush()
        except (OSError, ValueError):  # a full disk must not stop the clock
            pass

    def rx(self, data: bytes) -> None:
        """Bytes received."""
        if data:
            self._line(f"RX {len(data):<3d}| {data.hex(' ')}")

    def tx(self, data: bytes) -> None:
        """Bytes sent."""
        if data:
            self._line(f"TX {len(data):<3d}| {data.hex(' ')}")

    def note(self, text: str) -> None:
        """A link event: opened, closed, lost."""
        self._line(f"-- {text}")

    def close(self) -> None:
        """Close the file (idempotent)."""
        if not self.closed:
            self.closed = True
            if self._owned:
                self._out.close()


@dataclass(frozen=True, slots=True)
class DumpLine:
    """One parsed line of a dump."""

    t: int
    """Table time in ms."""
    wall: str
    """Wall-clock time as written."""
    direction: str
    """``RX``, ``TX`` or ``--`` for a note."""
    data: bytes
    """The bytes (empty for a note)."""
    note: str = ""
    """The note's text."""


def parse_dump(lines: Iterable[str]) -> Iterator[DumpLine]:
    """The lines of a dump; lines that are not dump lines are skipped."""
    for line in lines:
        parts = line.rstrip("\n").split(" ", 3)
        if len(parts) < 4 or not parts[0].startswith("t="):
            continue
        try:
            t = int(parts[0][2:])
        except ValueError:
            continue
        direction, rest = parts[2], parts[3]
        if direction == "--":
            yield DumpLine(t, parts[1], direction, b"", rest)
        elif direction in ("RX", "TX") and "|" in rest:
            try:
                data = bytes.fromhex(rest.split("|", 1)[1])
            except ValueError:
                continue
            yield DumpLine(t, parts[1], direction, data)


def decode_dump(lines: Iterable[str]) -> Iterator[str]:
    """Human-readable messages from a dump, one string per frame, note or error."""
    decoders = {"RX": FrameDecoder(), "TX": FrameDecoder()}
    for item in parse_dump(lines):
        if item.direction == "--":
            decoders = {"RX": FrameDecoder(), "TX": FrameDecoder()}
            yield f"t={item.t} {item.wall} -- {item.note}"
            continue
        for frame in decoders[item.direction].feed(item.data):
            if isinstance(frame, FrameError):
                text = f"bad frame: {frame.reason}"
            else:
                try:
                    text = repr(decode(frame))
                except ProtocolError as exc:
                    text = f"bad payload {frame.hex(' ')}: {exc}"
            yield f"t={item.t} {item.wall} {item.direction} {text}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_bridge.wire.hexdump FILE``: decode a dump."""
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.wire.hexdump", description="Decode a clock link hexdump."
    )
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    with args.file.open(encoding="utf-8") as fh:
        for line in decode_dump(fh):
            sys.stdout.write(line + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
