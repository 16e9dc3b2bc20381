"""Serial framing: COBS frames delimited by 0x00, each ending in a CRC-16/CCITT.

Pure code. A frame on the wire is ``COBS(payload + CRC16(payload)) + b"\\x00"``,
with CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, big-endian;
``binascii.crc_hqx(data, 0xFFFF)``; check value 0x29B1 for ``b"123456789"``).
COBS removes every zero byte from the frame, so a zero always ends one, and a
receiver that joins mid-stream or meets a corrupted frame resynchronizes at
the next zero.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

__all__ = [
    "MAX_FRAME",
    "FrameDecoder",
    "FrameError",
    "cobs_decode",
    "cobs_encode",
    "crc16",
    "encode_frame",
]

MAX_FRAME = 512
"""Longest encoded frame accepted, delimiter excluded; longer input is dropped."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` without any zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x22")
    b'\\x02\\x11\\x02"'
    """
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`.

    Raises:
        ValueError: A zero byte inside, or a block that runs past the end.
    """
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError(f"zero byte inside a COBS frame at offset {i}")
        end = i + code
        if end > n:
            raise ValueError(f"COBS block at offset {i} runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise ValueError(f"zero byte inside a COBS frame at offset {i + 1 + block.index(0)}")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    """The bytes to send for one payload: COBS(payload + CRC) + 0x00."""
    return cobs_encode(payload + crc16(payload).to_bytes(2, "big")) + b"\x00"


@dataclass(frozen=True, slots=True)
class FrameError:
    """A frame that was dropped, and where it started in the byte stream."""

    offset: int
    """Offset in the stream of the frame's first byte."""
    reason: str
    """Why it was dropped."""


class FrameDecoder:
    """Turns a byte stream into payloads. Feed it whatever arrives; it keeps
    partial frames between calls and never raises on bad input."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        """Longest encoded frame accepted."""
        self._buf = bytearray()
        self._start = 0  # stream offset of _buf[0]
        self._offset = 0  # bytes consumed so far
        self._skipping = False  # discarding an over-long frame until the next zero
        self.frames = 0
        """Good frames decoded."""
        self.errors = 0
        """Frames dropped."""

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        """Payloads (and errors) completed by ``data``, in order."""
        out: list[bytes | FrameError] = []
        for byte in data:
            pos = self._offset
            self._offset += 1
            if byte != 0:
                if self._skipping:
                    continue
                if not self._buf:
                    self._start = pos
                self._buf.append(byte)
                if len(self._buf) > self.max_frame:
                    out.append(FrameError(self._start, f"frame longer than {self.max_frame} bytes"))
                    self.errors += 1
                    self._buf.clear()
                    self._skipping = True
                continue
            if self._skipping:
                self._skipping = False
                continue
            if not self._buf:
                continue  # empty frames (runs of zeros) are idle filler
            out.append(self._finish(bytes(self._buf), self._start))
            self._buf.clear()
        return out

    def _finish(self, raw: bytes, start: int) -> bytes | FrameError:
        try:
            body = cobs_decode(raw)
        except ValueError as exc:
            self.errors += 1
            return FrameError(start, f"bad COBS: {exc}")
        if len(body) < 3:
            self.errors += 1
            return FrameError(start, f"frame of {len(body)} bytes is too short for a CRC")
        payload, crc = body[:-2], int.from_bytes(body[-2:], "big")
        if crc16(payload) != crc:
            self.errors += 1
            return FrameError(
                start, f"CRC mismatch: got 0x{crc:04x}, computed 0x{crc16(payload):04x}"
            )
        self.frames += 1
        return payload
