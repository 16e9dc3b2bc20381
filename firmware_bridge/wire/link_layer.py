"""The link layer, without I/O: sequence numbers, ACKs, bounded retransmit,
heartbeats and loss detection, for either end of a serial line.

Feed it received bytes and the time; it returns the messages to deliver and
the bytes to send. Both the host transport and the emulated clock firmware
drive one of these, so both ends follow docs/clock-protocol.md exactly.

A press or a pause (:func:`durable`) is not acknowledged on arrival: an ACK tells
the device the press is safe, so the host sends it with :meth:`Link.ack` once the
press is committed to the log. A repeat that arrives meanwhile is not answered
(the ACK is still to come); a repeat of one already acknowledged is answered again.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from firmware_bridge.wire.framing import FrameDecoder, FrameError, encode_frame
from firmware_bridge.wire.protocol import (
    Ack,
    Heartbeat,
    Hello,
    Message,
    Nak,
    NakReason,
    Pause,
    Press,
    ProtocolError,
    decode,
    encode,
    needs_ack,
)

__all__ = [
    "HEARTBEAT_MS",
    "LOST_AFTER_MS",
    "MAX_RETRIES",
    "RETRY_MS",
    "Link",
    "LinkStats",
    "durable",
]

HEARTBEAT_MS = 250
"""Send a heartbeat when nothing else was sent for this long."""
LOST_AFTER_MS = 1000
"""The peer is lost after this long without any valid frame (an unplug is noticed within 1 s)."""
RETRY_MS = 100
"""Retransmit an unacknowledged message after this long."""
MAX_RETRIES = 5
"""Give up on a message after this many retransmissions."""
_SEEN = 64  # sequence numbers remembered for de-duplication


@dataclass
class LinkStats:
    """Counters for the log and the director's screen."""

    frames_in: int = 0
    frames_bad: int = 0
    payloads_bad: int = 0
    duplicates: int = 0
    retransmits: int = 0
    given_up: int = 0
    naks_in: int = 0
    errors: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        """Keep the last few error texts."""
        self.errors.append(text)
        del self.errors[:-20]

    def add(self, more: LinkStats) -> None:
        """Add the counters of ``more`` to these (and keep the last 20 error texts)."""
        for name, value in vars(more).items():
            if name == "errors":
                self.errors.extend(value)
                del self.errors[:-20]
            else:
                setattr(self, name, getattr(self, name) + value)


def durable(msg: Message) -> bool:
    """Whether ``msg`` is acknowledged only once it is on disk (a press, a pause)."""
    return isinstance(msg, Press | Pause)


@dataclass
class _Pending:
    msg: Message
    sent_ms: int
    retries: int = 0


class Link:
    """One end of a clock link."""

    def __init__(
        self, now_ms: int = 0, *, defer_durable: bool = False, session: int | None = None
    ) -> None:
        self.session = session if session is not None else secrets.randbits(32) or 1
        """This end's session, sent in its HELLO: a new Link counts its seq from 1, so it
        is a new session (docs/clock-protocol.md, "Sessions")."""
        self.peer_session: int | None = None
        """The session of the peer's last HELLO (0: a peer without sessions)."""
        self.defer_durable = defer_durable
        """ACK a press or a pause only through :meth:`ack` (the host's side)."""
        self.on_peer_time: Callable[[int, int], None] | None = None
        """Called with (arrival time, the peer's ``device_ms``) for each HEARTBEAT: the
        host keeps the device's clock offset from them (clock/device/device_time.py)."""
        self._awaiting: set[int] = set()
        self._decoder = FrameDecoder()
        self._seq = 0
        self._pending: OrderedDict[int, _Pending] = OrderedDict()
        self._seen: deque[int] = deque(maxlen=_SEEN)
        self._last_rx = now_ms
        self._last_tx = now_ms
        self.stats = LinkStats()
        """Error and traffic counters."""
        self.ever_heard = False
        """True once any valid frame arrived."""

    def next_seq(self) -> int:
        """A fresh sequence number."""
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def send(self, msg: Message, now_ms: int) -> bytes:
        """Frame ``msg`` (its seq replaced by a fresh one); remember it until ACKed."""
        msg = replace(msg, seq=self.next_seq())
        if isinstance(msg, Hello):
            msg = replace(msg, session=self.session)
        if needs_ack(msg):
            self._pending[msg.seq] = _Pending(msg, now_ms)
        self._last_tx = now_ms
        return encode_frame(encode(msg))

    def receive(self, data: bytes, now_ms: int) -> tuple[list[Message], bytes]:
        """Messages to deliver (new ones, in order) and the bytes to answer with (ACKs)."""
        out: list[Message] = []
        reply = bytearray()
        for item in self._decoder.feed(data):
            if isinstance(item, FrameError):
                self.stats.frames_bad += 1
                self.stats.note(f"frame at byte {item.offset}: {item.reason}")
                continue
            try:
                msg = decode(item)
            except ProtocolError as exc:
                self.stats.payloads_bad += 1
                self.stats.note(f"payload: {exc}")
                seq = int.from_bytes(item[2:4], "big") if len(item) >= 4 else 0
                reply += self._raw(Nak(0, seq, NakReason(exc.nak)), now_ms)
                continue
            self.stats.frames_in += 1
            self._last_rx = now_ms
            self.ever_heard = True
            if isinstance(msg, Ack):
                self._pending.pop(msg.acked, None)
                continue
            if isinstance(msg, Nak):
                self.stats.naks_in += 1
                self.stats.note(f"peer refused seq {msg.nakked}: {msg.reason.name}")
                self._pending.pop(msg.nakked, None)
                continue
            if isinstance(msg, Heartbeat):
                if self.on_peer_time is not None:
                    self.on_peer_time(now_ms, msg.device_ms)
                continue
            later = self.defer_durable and durable(msg)
            if isinstance(msg, Hello) and not (msg.session and msg.session == self.peer_session):
                # A new session: the peer counts its seq from 1 again, so the numbers
                # seen before must not make its messages duplicates. A HELLO sent again
                # in the same session (its ACK was lost) resets nothing: it is
                # de-duplicated below like any message. A peer without sessions (0):
                # every HELLO is a new session.
                self.peer_session = msg.session
                self._seen.clear()
                self._awaiting.clear()
            elif msg.seq in self._seen:
                self.stats.duplicates += 1
                if msg.seq not in self._awaiting:
                    reply += self._raw(Ack(0, msg.seq), now_ms)
                continue
            if later:
                self._awaiting.add(msg.seq)
            else:
                reply += self._raw(Ack(0, msg.seq), now_ms)
            self._seen.append(msg.seq)
            out.append(msg)
        return out, bytes(reply)

    def ack(self, seq: int, now_ms: int) -> bytes:
        """The ACK of a press or pause now on disk (nothing if it is not awaited:
        answered already, or the peer has started a new session since)."""
        if seq not in self._awaiting:
            return b""
        self._awaiting.discard(seq)
        return self._raw(Ack(0, seq), now_ms)

    def awaiting(self) -> int:
        """Presses and pauses delivered and not yet acknowledged."""
        return len(self._awaiting)

    def _raw(self, msg: Ack | Nak | Heartbeat, now_ms: int) -> bytes:
        self._last_tx = now_ms
        return encode_frame(encode(replace(msg, seq=self.next_seq())))

    def poll(self, now_ms: int, device_ms: int = 0) -> bytes:
        """Bytes due now: retransmissions and, when idle, a heartbeat."""
        out = bytearray()
        for seq, p in list(self._pending.items()):
            if now_ms - p.sent_ms < RETRY_MS:
                continue
            if p.retries >= MAX_RETRIES:
                del self._pending[seq]
                self.stats.given_up += 1
                self.stats.note(f"seq {seq} unacknowledged after {MAX_RETRIES} retries")
                continue
            p.retries += 1
            p.sent_ms = now_ms
            self.stats.retransmits += 1
            out += encode_frame(encode(p.msg))
            self._last_tx = now_ms
        if now_ms - self._last_tx >= HEARTBEAT_MS:
            out += self._raw(Heartbeat(0, device_ms), now_ms)
        return bytes(out)

    def alive(self, now_ms: int) -> bool:
        """Whether a valid frame arrived within :data:`LOST_AFTER_MS`."""
        return now_ms - self._last_rx < LOST_AFTER_MS

    def pending(self) -> int:
        """Messages sent and not yet acknowledged."""
        return len(self._pending)
