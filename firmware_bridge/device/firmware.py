"""The emulated clock firmware: the reference device for hardware builders.

:class:`ClockFirmware` is what a physical clock runs, in Python: its own
millisecond timekeeping, two player buttons and a pause button, a display
(both times, the running side, a line of text) and a beeper. It speaks
docs/clock-protocol.md as the **device**.

The core is transport-agnostic and works on messages:

- :meth:`ClockFirmware.hello` is the HELLO to send on connect;
- :meth:`ClockFirmware.press` / :meth:`ClockFirmware.pause` are the buttons:
  the display switches at once, then the message goes to :attr:`ClockFirmware.emit`
  (the transport's sink; with no transport attached it is dropped and counted);
- :meth:`ClockFirmware.handle` applies what the host sends (SET, TEXT, BEEP).

The serial form adds the framed link layer (:class:`firmware_bridge.wire.link_layer.Link`:
seq, ACKs, retransmits, heartbeats) without doing any I/O itself:
:meth:`~ClockFirmware.serial_open` (bytes to send on connect),
:meth:`~ClockFirmware.serial_receive` (bytes in -> bytes out),
:meth:`~ClockFirmware.serial_poll` (bytes due now) and
:meth:`~ClockFirmware.serial_send`. :mod:`firmware_bridge.device.serial_runner` drives
it over a serial port (or pty) and a raw file descriptor. An MQTT runner uses
the message level directly (``hello``/``handle``/``emit`` with
:func:`firmware_bridge.wire.protocol.to_json`).

Session rules the firmware follows (a hardware clock should do the same):

- on connect it sends HELLO; until the host answers with its SET it sends the
  HELLO again every :data:`HELLO_RETRY_MS` (the host may open the port later,
  and opening a port flushes what was queued);
- when the host is silent for 1 s it is lost: the clock keeps its own time, and
  the first frame heard afterwards starts a new session (a fresh link and a
  HELLO), so the host reconciles the display with its SET.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from clock.device.core import ClockCore
from engine.clocktext import clock_text
from firmware_bridge.wire.link_layer import Link, LinkStats
from firmware_bridge.wire.protocol import (
    CAP_BEEPER,
    CAP_OWN_TIME,
    CAP_PAUSE_BUTTON,
    CAP_TEXT,
    Beep,
    Hello,
    Message,
    Pause,
    Press,
    Set,
    State,
    Text,
)

__all__ = [
    "DEFAULT_CAPABILITIES",
    "HELLO_RETRY_MS",
    "ClockFirmware",
    "Display",
]

log = logging.getLogger(__name__)

DEFAULT_CAPABILITIES = CAP_OWN_TIME | CAP_TEXT | CAP_BEEPER | CAP_PAUSE_BUTTON
"""What the emulated clock can do."""
HELLO_RETRY_MS = 500
"""Send HELLO again this often until the host answers it with a SET."""


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Display:
    """What the clock shows."""

    remaining_ms: tuple[int, int]
    """Both times, negative in overtime."""
    running: int | None
    """The side whose time runs (None: neither)."""
    paused: bool
    """Both clocks stopped."""
    text: str
    """The text line."""
    beeps: int
    """How many times it beeped."""
    host_online: bool
    """Whether the host answers."""

    def render(self) -> str:
        """One line for a terminal: ``[>25:00<] 24:13  paused  | text``."""
        cells = []
        for side in (0, 1):
            shown = clock_text(self.remaining_ms[side], minute_digits=2)
            cells.append(f">{shown}<" if self.running == side and not self.paused else f" {shown} ")
        flags = []
        if self.paused:
            flags.append("paused")
        if not self.host_online:
            flags.append("no host")
        line = f"[{cells[0]}] [{cells[1]}]"
        if flags:
            line += "  " + ", ".join(flags)
        if self.text:
            line += f"  | {self.text}"
        return line


class ClockFirmware:
    """A two-button tournament clock that keeps its own time."""

    def __init__(
        self,
        device_id: str = "rackclock-emu",
        *,
        initial_ms: int = 1_500_000,
        device_authoritative: bool = False,
        clock: Callable[[], int] | None = None,
        capabilities: int = DEFAULT_CAPABILITIES,
    ) -> None:
        self.device_id = device_id
        """Sent in HELLO."""
        self.capabilities = capabilities
        """Capability bits sent in HELLO."""
        self.device_authoritative = device_authoritative
        """Send both shown times with each press."""
        self._clock = clock or _monotonic_ms
        self.core = ClockCore(self._clock, initial_ms=initial_ms)
        """The clock's own timekeeping and press rule (the one clock core)."""
        self.text = ""
        """The text line."""
        self.beeps = 0
        """Beeps sounded."""
        self.beep_ms = 0
        """Duration of the last beep."""
        self.sets = 0
        """SETs applied."""
        self.host_online = False
        """Whether the host answers (serial: any valid frame within 1 s)."""
        self.presses = 0
        """Button presses (sides and pause)."""
        self.dropped = 0
        """Messages dropped because no transport was attached."""
        self.emit: Callable[[Message], None] | None = None
        """The transport's sink for outgoing messages (seq is assigned by the transport)."""
        self.listeners: list[Callable[[Display], None]] = []
        """Called with the new display after every change."""
        self._link: Link | None = None
        self._hello_at = 0
        self._in_session = False  # the host answered our HELLO with its SET
        self._stats_done = LinkStats()

    # --- time and display -------------------------------------------------------
    def now_ms(self) -> int:
        """The clock's own monotonic milliseconds."""
        return self._clock()

    def device_ms(self) -> int:
        """The free-running 32-bit counter sent in PRESS and HEARTBEAT."""
        return self._clock() & 0xFFFFFFFF

    @property
    def running(self) -> int | None:
        """The side named to run on this clock (its time runs unless paused)."""
        return self.core.running

    @property
    def paused(self) -> bool:
        """Both clocks stopped (until the first press or the host's SET says otherwise)."""
        return self.core.paused

    def remaining(self, side: int) -> int:
        """What the clock shows for ``side``."""
        return self.core.remaining(side)

    def display(self) -> Display:
        """A snapshot of the display."""
        return Display(
            (self.remaining(0), self.remaining(1)),
            self.running,
            self.paused,
            self.text,
            self.beeps,
            self.host_online,
        )

    def _changed(self) -> None:
        if not self.listeners:
            return
        shown = self.display()
        for fn in list(self.listeners):
            try:
                fn(shown)
            except Exception:
                log.exception("display listener failed")

    def _send(self, msg: Message) -> None:
        if self.emit is None:
            self.dropped += 1
            return
        self.emit(msg)

    # --- buttons -------------------------------------------------------------------
    def press(self, side: int, at_ms: int | None = None) -> Press:
        """Player ``side`` ends their turn: the other side runs at once, then PRESS goes out.

        ``at_ms``: when the button went down (:meth:`now_ms`), if the press is handled
        later; the PRESS carries that instant and the clock switches at it.
        """
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, got {side}")
        # A refused press (the start screen's, whose clock is stopped with the starter
        # named) is stamped at its edge too: the table starts the game from it.
        at = self.now_ms() if at_ms is None else at_ms
        shown = self.core.shown_at(at)  # the times at the press itself
        if self.core.press(side, at):
            at = self.core.since_ms  # never before the last change, as the core counted it
        self.presses += 1
        msg = Press(0, side, at & 0xFFFFFFFF, shown if self.device_authoritative else None)
        self._changed()
        self._send(msg)
        return msg

    def pause(self) -> Pause:
        """The pause button: stops both clocks at once (resuming is the host's answer)."""
        self.core.pause()
        self.presses += 1
        msg = Pause(0)
        self._changed()
        self._send(msg)
        return msg

    def report_state(self) -> State:
        """Send what the clock shows (a STATE message)."""
        running = None if self.paused else self.running
        msg = State(0, (self.remaining(0), self.remaining(1)), running)
        self._send(msg)
        return msg

    # --- host messages ---------------------------------------------------------------
    def hello(self) -> Hello:
        """The HELLO for a new session."""
        return Hello(0, self.device_id, self.capabilities)

    def handle(self, msg: Message) -> None:
        """Apply a message from the host; anything not meant for a device is ignored."""
        if isinstance(msg, Set):
            self.core.set(msg.remaining_ms, msg.running, msg.paused)
            self.sets += 1
        elif isinstance(msg, Text):
            self.text = msg.text
        elif isinstance(msg, Beep):
            self.beeps += 1
            self.beep_ms = msg.duration_ms
        else:
            log.debug("ignoring %s from the host", type(msg).__name__)
            return
        self._changed()

    def _host(self, online: bool) -> None:
        if online != self.host_online:
            self.host_online = online
            self._changed()

    # --- the serial link (sans I/O) ------------------------------------------------------
    @property
    def stats(self) -> LinkStats:
        """Link counters over all sessions so far."""
        total = LinkStats(**{k: v for k, v in vars(self._stats_done).items() if k != "errors"})
        total.errors = list(self._stats_done.errors)
        if self._link is not None:
            total.add(self._link.stats)
        return total

    def _new_session(self, now: int) -> bytes:
        if self._link is not None:
            self._stats_done.add(self._link.stats)
        self._link = Link(now)
        self._in_session = False
        self._hello_at = now
        return self._link.send(self.hello(), now)

    def serial_open(self) -> bytes:
        """The port is up: a new session; returns the bytes to send (a flush byte and HELLO)."""
        self._host(False)
        return b"\x00" + self._new_session(self._clock())

    def serial_close(self) -> None:
        """The port is gone."""
        if self._link is not None:
            self._stats_done.add(self._link.stats)
            self._link = None
        self._host(False)

    def serial_send(self, msg: Message) -> bytes:
        """The frame for ``msg`` (button messages); empty when no port is open."""
        if self._link is None:
            self.dropped += 1
            return b""
        return self._link.send(msg, self._clock())

    def serial_receive(self, data: bytes) -> bytes:
        """Bytes from the host in; the bytes to answer with out."""
        link = self._link
        if link is None:
            return b""
        now = self._clock()
        lost_before = link.ever_heard and not link.alive(now)
        msgs, reply = link.receive(data, now)
        out = bytearray(reply)
        heard = link.ever_heard and link.alive(now)
        if heard and lost_before:
            # the host is back after being lost: it may have restarted, so start over
            for msg in msgs:
                self.handle(msg)
            out += self._new_session(now)
            self._host(False)
            return bytes(out)
        if heard and not self.host_online:
            self.host_online = True  # shown with the first change below, or on its own
            if not any(isinstance(m, Set | Text | Beep) for m in msgs):
                self._changed()
        for msg in msgs:
            if isinstance(msg, Hello):
                # The host started a new session (its link counts from 1 again; our link
                # has forgotten its old numbers): say who we are again, until a SET.
                self._in_session = False
                out += link.send(self.hello(), now)
                self._hello_at = now
                continue
            if isinstance(msg, Set):
                self._in_session = True
            self.handle(msg)
        return bytes(out)

    def serial_poll(self) -> bytes:
        """Bytes due now: retransmissions, heartbeats, a repeated HELLO."""
        link = self._link
        if link is None:
            return b""
        now = self._clock()
        out = link.poll(now, self.device_ms())
        if link.ever_heard and not link.alive(now):
            self._host(False)
        elif not self._in_session and now - self._hello_at >= HELLO_RETRY_MS:
            # no SET yet: the HELLO was lost (or flushed when the host opened the port)
            self._hello_at = now
            out += link.send(self.hello(), now)
        return out
