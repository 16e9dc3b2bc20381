"""The clock wire protocol, version 1: messages and their binary payloads.

Pure code: bytes in, messages out; a message in, bytes out. No I/O. The
serial framing around these payloads is :mod:`firmware_bridge.wire.framing`; the
MQTT form is :func:`to_json` / :func:`from_json`. docs/clock-protocol.md is the
specification; this module is its reference implementation.

Payload layout (all integers big-endian)::

    version:u8  type:u8  seq:u16  body...

``seq`` counts the sender's messages (wrapping at 65536). ACK, NAK and
HEARTBEAT are never acknowledged; every other message is, by an ACK carrying
its seq.
"""

from __future__ import annotations

import enum
import json
import struct
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CAP_BEEPER",
    "CAP_OWN_TIME",
    "CAP_PAUSE_BUTTON",
    "CAP_TEXT",
    "NO_SIDE",
    "PROTOCOL_VERSION",
    "Ack",
    "Beep",
    "Heartbeat",
    "Hello",
    "Message",
    "MessageType",
    "Nak",
    "NakReason",
    "Pause",
    "Press",
    "ProtocolError",
    "Set",
    "State",
    "Text",
    "decode",
    "encode",
    "from_json",
    "needs_ack",
    "to_json",
]

PROTOCOL_VERSION = 1
NO_SIDE = 0xFF
"""The ``running`` byte when no side runs."""

CAP_OWN_TIME = 1 << 0
"""The device keeps its own time and reports it with each press."""
CAP_TEXT = 1 << 1
"""The device has a text display."""
CAP_BEEPER = 1 << 2
"""The device can beep."""
CAP_PAUSE_BUTTON = 1 << 3
"""The device has a pause button."""

MAX_TEXT = 64
"""Longest TEXT, in UTF-8 bytes."""


class ProtocolError(ValueError):
    """A payload that is not a valid message. ``offset`` is where it went wrong."""

    def __init__(self, message: str, offset: int = 0, nak: int = 3) -> None:
        super().__init__(f"{message} (at byte {offset})")
        self.offset = offset
        """Byte offset in the payload."""
        self.nak = nak
        """The NAK reason code to answer with (see :class:`NakReason`)."""


class MessageType(enum.IntEnum):
    """Message type codes."""

    HELLO = 0x01
    PRESS = 0x02
    PAUSE = 0x03
    STATE = 0x04
    SET = 0x05
    TEXT = 0x06
    BEEP = 0x07
    ACK = 0x08
    NAK = 0x09
    HEARTBEAT = 0x0A


class NakReason(enum.IntEnum):
    """Why a message was refused."""

    BAD_FRAME = 1
    """CRC or framing error (sent for the last seq seen, or 0)."""
    UNKNOWN_TYPE = 2
    BAD_PAYLOAD = 3
    UNSUPPORTED_VERSION = 4
    BUSY = 5


@dataclass(frozen=True, slots=True)
class Hello:
    """The start of a link session, either way: who is talking, what it can do, and
    which session this is (each side draws a new one when it starts counting its
    sequence numbers from 1 again)."""

    seq: int
    device_id: str
    capabilities: int
    version: int = PROTOCOL_VERSION
    session: int = 0
    """The sender's session (u32, not 0); 0 from a sender that predates sessions."""


@dataclass(frozen=True, slots=True)
class Press:
    """Device -> host: a player pressed their side."""

    seq: int
    side: int
    device_ms: int
    """The device's own millisecond counter at the press (wraps at 2**32)."""
    remaining_ms: tuple[int, int] | None = None
    """Both times the device showed at the press (devices that keep their own time)."""


@dataclass(frozen=True, slots=True)
class Pause:
    """Device -> host: the pause button."""

    seq: int


@dataclass(frozen=True, slots=True)
class State:
    """Device -> host: what the device shows now."""

    seq: int
    remaining_ms: tuple[int, int]
    running: int | None


@dataclass(frozen=True, slots=True)
class Set:
    """Host -> device: show these times; run ``running`` unless paused."""

    seq: int
    remaining_ms: tuple[int, int]
    running: int | None
    paused: bool


@dataclass(frozen=True, slots=True)
class Text:
    """Host -> device: a message for the display (at most 64 UTF-8 bytes)."""

    seq: int
    text: str


@dataclass(frozen=True, slots=True)
class Beep:
    """Host -> device: sound the buzzer."""

    seq: int
    duration_ms: int = 200


@dataclass(frozen=True, slots=True)
class Ack:
    """Either way: the message ``acked`` arrived and was taken."""

    seq: int
    acked: int


@dataclass(frozen=True, slots=True)
class Nak:
    """Either way: the message ``nakked`` was refused."""

    seq: int
    nakked: int
    reason: NakReason


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Either way, every 250 ms: the link is alive."""

    seq: int
    device_ms: int = 0


Message = Hello | Press | Pause | State | Set | Text | Beep | Ack | Nak | Heartbeat

_TYPE = {
    Hello: MessageType.HELLO,
    Press: MessageType.PRESS,
    Pause: MessageType.PAUSE,
    State: MessageType.STATE,
    Set: MessageType.SET,
    Text: MessageType.TEXT,
    Beep: MessageType.BEEP,
    Ack: MessageType.ACK,
    Nak: MessageType.NAK,
    Heartbeat: MessageType.HEARTBEAT,
}


def needs_ack(msg: Message) -> bool:
    """Whether the receiver must ACK ``msg``."""
    return not isinstance(msg, Ack | Nak | Heartbeat)


def _side(value: int | None) -> int:
    if value is None:
        return NO_SIDE
    if value not in (0, 1):
        raise ProtocolError(f"running must be 0, 1 or None, got {value!r}")
    return value


def _check_side(value: int, offset: int, allow_none: bool) -> int | None:
    if value == NO_SIDE and allow_none:
        return None
    if value not in (0, 1):
        raise ProtocolError(f"side must be 0 or 1, got {value}", offset)
    return value


def _u16(n: int) -> int:
    if not 0 <= n <= 0xFFFF:
        raise ProtocolError(f"seq {n} out of range 0..65535")
    return n


def encode(msg: Message) -> bytes:
    """The payload of ``msg`` (before framing).

    Raises:
        ProtocolError: A field out of its range.
    """
    head = struct.pack(">BBH", PROTOCOL_VERSION, _TYPE[type(msg)], _u16(msg.seq))
    try:
        match msg:
            case Hello():
                ident = msg.device_id.encode("utf-8")
                if len(ident) > 255:
                    raise ProtocolError("device id longer than 255 bytes")
                return (
                    head
                    + struct.pack(">BHB", msg.version, msg.capabilities, len(ident))
                    + ident
                    + struct.pack(">I", msg.session & 0xFFFFFFFF)
                )
            case Press():
                if msg.side not in (0, 1):
                    raise ProtocolError(f"side must be 0 or 1, got {msg.side!r}")
                if msg.remaining_ms is None:
                    return head + struct.pack(">BIB", msg.side, msg.device_ms & 0xFFFFFFFF, 0)
                return head + struct.pack(
                    ">BIBii", msg.side, msg.device_ms & 0xFFFFFFFF, 1, *msg.remaining_ms
                )
            case Pause():
                return head
            case State():
                return head + struct.pack(">iiB", *msg.remaining_ms, _side(msg.running))
            case Set():
                return head + struct.pack(
                    ">iiBB", *msg.remaining_ms, _side(msg.running), 1 if msg.paused else 0
                )
            case Text():
                raw = msg.text.encode("utf-8")
                if len(raw) > MAX_TEXT:
                    raise ProtocolError(f"text longer than {MAX_TEXT} bytes")
                return head + struct.pack(">B", len(raw)) + raw
            case Beep():
                return head + struct.pack(">H", msg.duration_ms)
            case Ack():
                return head + struct.pack(">H", _u16(msg.acked))
            case Nak():
                return head + struct.pack(">HB", _u16(msg.nakked), int(msg.reason))
            case Heartbeat():
                return head + struct.pack(">I", msg.device_ms & 0xFFFFFFFF)
    except struct.error as exc:
        raise ProtocolError(f"field out of range in {type(msg).__name__}: {exc}") from None
    except UnicodeEncodeError as exc:
        raise ProtocolError(f"text in {type(msg).__name__} is not encodable as UTF-8") from exc
    raise ProtocolError(f"cannot encode {msg!r}")  # pragma: no cover - exhaustive match


def _need(part: bytes, size: int, what: str, base: int) -> None:
    """Check that ``part`` (which starts at byte ``base`` of the payload) has ``size`` bytes."""
    if len(part) != size:
        raise ProtocolError(
            f"{what} payload is {len(part)} bytes, expected {size}", base + min(len(part), size)
        )


def decode(payload: bytes) -> Message:
    """The message in ``payload``.

    Raises:
        ProtocolError: With the offset of the first byte that does not fit.
    """
    if len(payload) < 4:
        raise ProtocolError(
            f"payload of {len(payload)} bytes is shorter than the 4-byte header", len(payload)
        )
    version, code, seq = struct.unpack_from(">BBH", payload)
    if version != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol version {version}, expected {PROTOCOL_VERSION}", 0, nak=4)
    try:
        kind = MessageType(code)
    except ValueError:
        raise ProtocolError(f"unknown message type 0x{code:02x}", 1, nak=2) from None
    body = payload[4:]
    if kind is MessageType.HELLO:
        if len(body) < 4:
            raise ProtocolError("HELLO body shorter than 4 bytes", len(payload))
        ver, caps, n = struct.unpack_from(">BHB", body)
        session = 0
        if len(body) == 4 + n + 4:  # with the session (a sender without one stops at the id)
            (session,) = struct.unpack_from(">I", body, 4 + n)
            body = body[: 4 + n]
        _need(body[4:], n, "HELLO device id", 8)
        try:
            ident = body[4:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError("HELLO device id is not UTF-8", 8 + exc.start) from None
        return Hello(seq, ident, caps, ver, session)
    if kind is MessageType.PRESS:
        if len(body) < 6:
            raise ProtocolError("PRESS body shorter than 6 bytes", len(payload))
        side, dev_ms, flags = struct.unpack_from(">BIB", body)
        checked = _check_side(side, 4, allow_none=False)
        assert checked is not None
        if flags == 0:
            _need(body, 6, "PRESS", 4)
            return Press(seq, checked, dev_ms)
        if flags != 1:
            raise ProtocolError(f"PRESS flags 0x{flags:02x} unknown", 9)
        _need(body, 14, "PRESS with times", 4)
        r0, r1 = struct.unpack_from(">ii", body, 6)
        return Press(seq, checked, dev_ms, (r0, r1))
    if kind is MessageType.PAUSE:
        _need(body, 0, "PAUSE", 4)
        return Pause(seq)
    if kind is MessageType.STATE:
        _need(body, 9, "STATE", 4)
        r0, r1, running = struct.unpack(">iiB", body)
        return State(seq, (r0, r1), _check_side(running, 12, allow_none=True))
    if kind is MessageType.SET:
        _need(body, 10, "SET", 4)
        r0, r1, running, paused = struct.unpack(">iiBB", body)
        if paused not in (0, 1):
            raise ProtocolError(f"SET paused must be 0 or 1, got {paused}", 13)
        return Set(seq, (r0, r1), _check_side(running, 12, allow_none=True), paused == 1)
    if kind is MessageType.TEXT:
        if not body:
            raise ProtocolError("TEXT without a length byte", 4)
        n = body[0]
        if n > MAX_TEXT:
            raise ProtocolError(f"TEXT of {n} bytes exceeds {MAX_TEXT}", 4)
        _need(body[1:], n, "TEXT", 5)
        try:
            return Text(seq, body[1:].decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise ProtocolError("TEXT is not UTF-8", 5 + exc.start) from None
    if kind is MessageType.BEEP:
        _need(body, 2, "BEEP", 4)
        return Beep(seq, struct.unpack(">H", body)[0])
    if kind is MessageType.ACK:
        _need(body, 2, "ACK", 4)
        return Ack(seq, struct.unpack(">H", body)[0])
    if kind is MessageType.NAK:
        _need(body, 3, "NAK", 4)
        nakked, reason = struct.unpack(">HB", body)
        try:
            return Nak(seq, nakked, NakReason(reason))
        except ValueError:
            raise ProtocolError(f"NAK reason {reason} unknown", 6) from None
    _need(body, 4, "HEARTBEAT", 4)
    return Heartbeat(seq, struct.unpack(">I", body)[0])


# --- the MQTT form: the same messages as JSON objects ---------------------------

_NAMES = {t: t.name.lower() for t in MessageType}
_BY_NAME = {name: t for t, name in _NAMES.items()}


def to_json(msg: Message) -> bytes:
    """The JSON form used on MQTT, e.g. ``{"v":1,"type":"press","seq":7,"side":0,...}``."""
    doc: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": _NAMES[_TYPE[type(msg)]]}
    for name in msg.__slots__:
        value = getattr(msg, name)
        if isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, NakReason):
            value = value.name.lower()
        doc[name] = value
    return json.dumps(doc, separators=(",", ":")).encode()


def _int(doc: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ProtocolError(f"field {key!r} must be an integer {lo}..{hi}, got {value!r}")
    return value


def _pair(doc: dict[str, Any], key: str) -> tuple[int, int]:
    value = doc.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ProtocolError(f"field {key!r} must be two integers, got {value!r}")
    lo, hi = -(2**31), 2**31 - 1
    if not all(lo <= v <= hi for v in value):
        raise ProtocolError(f"field {key!r} out of range: {value!r}")
    return (value[0], value[1])


def _running(doc: dict[str, Any]) -> int | None:
    value = doc.get("running")
    if value is None:
        return None
    if value not in (0, 1) or isinstance(value, bool):
        raise ProtocolError(f"field 'running' must be 0, 1 or null, got {value!r}")
    return int(value)


def _utf8_len(text: str) -> float:
    """Length in UTF-8 bytes; infinite for text that has no UTF-8 form (lone surrogates)."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return float("inf")


def from_json(data: bytes) -> Message:
    """Decode the JSON form.

    Raises:
        ProtocolError: Not JSON, an unknown type, or a field of the wrong type.
    """
    try:
        doc = json.loads(data)
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc}", exc.start) from None
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc}", exc.pos) from None
    except (ValueError, RecursionError) as exc:
        # an integer beyond the interpreter's digit limit, or nesting too deep to parse
        raise ProtocolError(f"not a usable JSON message: {str(exc)[:80]}") from None
    if not isinstance(doc, dict):
        raise ProtocolError("a message must be a JSON object")
    version = doc.get("v")
    if not isinstance(version, int) or isinstance(version, bool) or version != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol version {doc.get('v')!r}, expected {PROTOCOL_VERSION}")
    kind = _BY_NAME.get(str(doc.get("type")))
    if kind is None:
        raise ProtocolError(f"unknown message type {doc.get('type')!r}")
    seq = _int(doc, "seq", 0, 0xFFFF)
    if kind is MessageType.HELLO:
        ident = doc.get("device_id")
        if not isinstance(ident, str) or not _utf8_len(ident) <= 255:
            raise ProtocolError("field 'device_id' must be a UTF-8 string of at most 255 bytes")
        session = _int(doc, "session", 0, 0xFFFFFFFF) if "session" in doc else 0
        return Hello(
            seq,
            ident,
            _int(doc, "capabilities", 0, 0xFFFF),
            _int(doc, "version", 0, 255),
            session,
        )
    if kind is MessageType.PRESS:
        times = None if doc.get("remaining_ms") is None else _pair(doc, "remaining_ms")
        return Press(seq, _int(doc, "side", 0, 1), _int(doc, "device_ms", 0, 0xFFFFFFFF), times)
    if kind is MessageType.PAUSE:
        return Pause(seq)
    if kind is MessageType.STATE:
        return State(seq, _pair(doc, "remaining_ms"), _running(doc))
    if kind is MessageType.SET:
        paused = doc.get("paused")
        if not isinstance(paused, bool):
            raise ProtocolError("field 'paused' must be true or false")
        return Set(seq, _pair(doc, "remaining_ms"), _running(doc), paused)
    if kind is MessageType.TEXT:
        text = doc.get("text")
        if not isinstance(text, str) or not _utf8_len(text) <= MAX_TEXT:
            raise ProtocolError(f"field 'text' must be a string of at most {MAX_TEXT} bytes")
        return Text(seq, text)
    if kind is MessageType.BEEP:
        return Beep(seq, _int(doc, "duration_ms", 0, 0xFFFF))
    if kind is MessageType.ACK:
        return Ack(seq, _int(doc, "acked", 0, 0xFFFF))
    if kind is MessageType.NAK:
        try:
            reason = NakReason[str(doc.get("reason")).upper()]
        except KeyError:
            raise ProtocolError(f"unknown NAK reason {doc.get('reason')!r}") from None
        return Nak(seq, _int(doc, "nakked", 0, 0xFFFF), reason)
    return Heartbeat(seq, _int(doc, "device_ms", 0, 0xFFFFFFFF))
