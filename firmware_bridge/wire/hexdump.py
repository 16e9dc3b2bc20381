"""The hexdump format of a clock link's bytes, without I/O: one line per chunk sent or
received, read back and decoded into messages. The file is written by
:class:`firmware_bridge.host.hexdump_file.HexDump` (``hexdump=FILE`` of a serial clock,
``--hexdump`` of the emulated clock and the gateway), which also decodes one from the
command line.

For dispute forensics: when a player says "I pressed before my flag fell",
the director can line the bytes on the wire up with the game log. Each line
carries the table time (the same integer milliseconds the log's ``t`` uses),
the wall clock, the direction and the bytes::

    t=123456789 2026-11-21T14:03:07.123456Z RX 13 | 03 01 02 00 07 00 01 e2 40 00 a3 1c 00
    t=123456790 2026-11-21T14:03:07.124001Z TX 9  | 06 01 08 00 01 00 07 5c 13 00
    t=123457000 2026-11-21T14:03:07.333170Z -- open socket://127.0.0.1:7000
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from firmware_bridge.wire.framing import FrameDecoder, FrameError
from firmware_bridge.wire.protocol import ProtocolError, decode

__all__ = ["DumpLine", "decode_dump", "parse_dump"]


@dataclass(frozen=True, slots=True)
class DumpLine:
    """One line of a dump: :meth:`text` writes it, :func:`parse_dump` reads it back."""

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

    def text(self) -> str:
        """The line as a dump holds it (without its newline)."""
        if self.direction == "--":
            return f"t={self.t} {self.wall} -- {self.note}"
        return f"t={self.t} {self.wall} {self.direction} {len(self.data):<3d}| {self.data.hex(' ')}"


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
    """Human-readable messages from a dump, one string per frame, note or error (frames
    split across reads are reassembled per direction; a note starts both afresh)."""
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
