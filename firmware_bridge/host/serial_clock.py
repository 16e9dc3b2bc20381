"""A clock device over a serial line: the host side of docs/clock-protocol.md.

:class:`SerialClock` implements :class:`clock.device.interface.ClockDevice` over
pyserial-asyncio-fast. The URL is anything pyserial opens: a path
(``/dev/ttyACM0``, ``/dev/serial/by-id/...``, a pty), ``hwgrep://VID:PID``, or
``socket://host:port`` for a clock on TCP.

Tasks (both named, both owned by the instance):

- ``serial-clock.supervise``: opens the port, waits for it to be lost (a read
  error, EOF, or the link's 1 s of silence), reports :class:`DeviceOffline`,
  and reopens with backoff (0.2 s doubling to 5 s; back to 0.2 s after a
  session that reached HELLO);
- ``serial-clock.poll``: every ``poll_ms`` (20 ms) it lets the link retransmit
  and heartbeat, and checks for silence.

Received bytes are decoded in the transport's callback, without a task switch:
a press becomes a :class:`SidePressed` in the event queue at once, and its ACK
goes back when the service has committed it (``on_disk``); other messages are
acknowledged at once. On HELLO the device is reported online and reconciled: it
gets a SET with the times the service last set (advanced by the time since)
and the current text. Errors are counted in :attr:`SerialClock.stats` and
logged; none stops the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import serial
import serial_asyncio_fast

from clock.device.device_time import DeviceTime
from clock.device.interface import (
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    PausePressed,
    SidePressed,
    TimesReported,
)
from clock.timeline import MonotonicTimeline, Timeline
from firmware_bridge.host.heartbeat import sample_heartbeat
from firmware_bridge.host.hexdump_file import HexDump
from firmware_bridge.wire.link_layer import Link, LinkStats
from firmware_bridge.wire.protocol import (
    MAX_TEXT,
    Beep,
    Hello,
    Message,
    Pause,
    Press,
    Set,
    State,
    Text,
)

__all__ = ["HELLO_GRACE_MS", "HOST_ID", "SerialClock"]

log = logging.getLogger(__name__)

HOST_ID = "rackclock"
"""The ``device_id`` of the host's own HELLO."""
HELLO_GRACE_MS = 500
"""A device that talks but sent no HELLO this long after the port opened (it was
already running when the host (re)connected) is taken as online anyway."""


@dataclass(eq=False)
class _Conn:
    """One open port: its transport, its link and how it ended."""

    link: Link
    opened_ms: int
    lost: asyncio.Future[str]
    made: asyncio.Future[None]
    closed: asyncio.Future[None]
    transport: asyncio.Transport | None = None
    in_session: bool = False
    hello_seen: bool = False
    device_session: int | None = None
    """The session of the device's last HELLO."""
    device_time: DeviceTime = field(default_factory=DeviceTime)
    """The device's clock offset in this connection (from its heartbeats and presses)."""
    errors_logged: int = 0
    poller: asyncio.Task[None] | None = field(default=None, repr=False)


class _HostProtocol(asyncio.Protocol):
    def __init__(self, owner: SerialClock, conn: _Conn) -> None:
        self.owner = owner
        self.conn = conn

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.conn.transport = transport
        if not self.conn.made.done():
            self.conn.made.set_result(None)

    def data_received(self, data: bytes) -> None:
        try:
            self.owner._on_bytes(self.conn, data)
        except Exception:  # a bug here must not take the port (or the table) down
            self.conn.link.stats.note("internal error handling received bytes")
            log.exception("%s: error handling %d received bytes", self.owner.url, len(data))

    def eof_received(self) -> bool | None:
        _resolve(self.conn.lost, "end of file: the device closed the connection")
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        _resolve(self.conn.lost, f"port lost: {exc}" if exc else "port closed")
        if not self.conn.closed.done():
            self.conn.closed.set_result(None)


def _resolve(fut: asyncio.Future[str], reason: str) -> None:
    if not fut.done():
        fut.set_result(reason)


def _clip_text(text: str) -> str:
    raw = text.encode("utf-8", errors="replace")[:MAX_TEXT]
    return raw.decode("utf-8", errors="ignore")


class SerialClock:
    """A physical (or emulated) clock on a serial port, as a :class:`ClockDevice`."""

    def __init__(
        self,
        url: str,
        *,
        timeline: Timeline | None = None,
        initial_ms: int = 1_500_000,
        baudrate: int = 115_200,
        hexdump: HexDump | str | Path | None = None,
        poll_ms: int = 20,
        backoff_min_s: float = 0.2,
        backoff_max_s: float = 5.0,
        open_timeout_s: float = 5.0,
        exclusive: bool = True,
    ) -> None:
        self.url = url
        """What pyserial opens."""
        self.timeline: Timeline = timeline or MonotonicTimeline()
        """The table's time (the link's clock)."""
        self.baudrate = baudrate
        self.poll_ms = poll_ms
        """Link poll period."""
        self.backoff_min_s = backoff_min_s
        self.backoff_max_s = backoff_max_s
        self.open_timeout_s = open_timeout_s
        self.exclusive = exclusive
        """Lock the port (``TIOCEXCL``/flock) so no other program talks to the clock."""
        self.device_id = ""
        """From the last HELLO."""
        self.capabilities = 0
        """From the last HELLO."""
        self.online: bool | None = None
        """None until the first connection attempt ends either way."""
        self.connects = 0
        """Ports opened."""
        self.open_failures = 0
        """Attempts to open the port that failed."""
        self.disconnects = 0
        """Open ports lost (unplugged, EOF, silence)."""
        self.unexpected = 0
        """Messages a device must not send (SET, TEXT, BEEP) received."""
        if isinstance(hexdump, HexDump):
            self._dump: HexDump | None = hexdump
            self._own_dump = False
        elif hexdump is not None:
            self._dump = HexDump(hexdump, self.timeline.now_ms)
            self._own_dump = True
        else:
            self._dump = None
            self._own_dump = False
        self._queue: asyncio.Queue[DeviceEvent | None] = asyncio.Queue()
        self._conn: _Conn | None = None
        self._supervisor: asyncio.Task[None] | None = None
        self._closed = False
        self._stats_done = LinkStats()
        self._last_button_seq: int | None = None
        # what the service last told the device, and when
        self._times = (initial_ms, initial_ms)
        self._running: int | None = None
        self._paused = True
        self._told_ms = self.timeline.now_ms()
        self._text = ""

    # --- lifecycle ------------------------------------------------------------------
    def start(self) -> None:
        """Start the supervisor (done on first use; needs a running event loop)."""
        if self._supervisor is None and not self._closed:
            self._supervisor = asyncio.get_running_loop().create_task(
                self._supervise(), name="serial-clock.supervise"
            )

    async def close(self) -> None:
        """Stop reconnecting, close the port and end :meth:`events` (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        self._queue.put_nowait(None)
        if self._dump is not None and self._own_dump:
            self._dump.close()

    @property
    def stats(self) -> LinkStats:
        """Link counters over every connection so far."""
        total = LinkStats()
        total.add(self._stats_done)
        if self._conn is not None:
            total.add(self._conn.link.stats)
        return total

    # --- the ClockDevice interface --------------------------------------------------
    async def events(self) -> AsyncIterator[DeviceEvent]:
        """Presses, pauses, reports and online/offline changes, until closed."""
        self.start()
        while True:
            ev = await self._queue.get()
            if ev is None:
                return
            yield ev

    def _now_times(self, now: int) -> tuple[int, int]:
        r0, r1 = self._times
        if self._running is not None and not self._paused:
            spent = now - self._told_ms
            if self._running == 0:
                r0 -= spent
            else:
                r1 -= spent
        return (r0, r1)

    def _tell(self, times: tuple[int, int], running: int | None, paused: bool) -> None:
        self._times = times
        self._running = running
        self._paused = paused
        self._told_ms = self.timeline.now_ms()
        self._send_set()

    async def set_times(
        self, remaining_ms: tuple[int, int], running: int | None, paused: bool
    ) -> None:
        """Show these times (sent now if the device is in session, else on its HELLO)."""
        self.start()
        self._tell(remaining_ms, running, paused)

    async def run(self, side: int) -> None:
        """Run ``side`` from the times last set."""
        self._tell(self._now_times(self.timeline.now_ms()), side, False)

    async def pause(self) -> None:
        """Stop both clocks."""
        self._tell(self._now_times(self.timeline.now_ms()), None, True)

    async def show_text(self, text: str) -> None:
        """Put ``text`` (cut to 64 UTF-8 bytes) on the display."""
        self._text = _clip_text(text)
        self._send(Text(0, self._text))

    async def beep(self) -> None:
        """Sound the buzzer for 200 ms."""
        self._send(Beep(0, 200))

    # --- sending ----------------------------------------------------------------------
    def _write(self, conn: _Conn, data: bytes) -> None:
        if not data or conn.transport is None or conn.transport.is_closing():
            return
        if self._dump is not None:
            self._dump.tx(data)
        try:
            conn.transport.write(data)
        except Exception as exc:  # a dying port must not take the caller down
            log.warning("%s: write failed: %s", self.url, exc)
            _resolve(conn.lost, f"write failed: {exc}")

    def _send(self, msg: Message) -> None:
        conn = self._conn
        if conn is None or not conn.in_session:
            return  # the HELLO reconciliation will send the current state
        self._write(conn, conn.link.send(msg, self.timeline.now_ms()))

    def _send_set(self) -> None:
        now = self.timeline.now_ms()
        self._send(Set(0, self._now_times(now), self._running, self._paused))

    # --- receiving -------------------------------------------------------------------
    def _emit(self, ev: DeviceEvent) -> None:
        self._queue.put_nowait(ev)

    def _on_bytes(self, conn: _Conn, data: bytes) -> None:
        if conn is not self._conn:
            return
        if self._dump is not None:
            self._dump.rx(data)
        now = self.timeline.now_ms()
        msgs, reply = conn.link.receive(data, now)
        self._write(conn, reply)
        for msg in msgs:
            self._on_message(conn, msg, now)
        self._log_errors(conn)

    def _button_seq(self, seq: int) -> int | None:
        # The link already dropped duplicates. A device that reset counts from 1 again,
        # so its first press could repeat the last press's seq across sessions: pass
        # None then, so the service does not take a new press for a repeat.
        if seq == self._last_button_seq:
            self._last_button_seq = None
            return None
        self._last_button_seq = seq
        return seq

    def _on_message(self, conn: _Conn, msg: Message, now: int) -> None:
        if isinstance(msg, Hello):
            new = msg.session == 0 or msg.session != conn.device_session
            if new:
                # a new session: a device that restarted starts its counter again
                conn.device_time.reset()
                conn.device_session = msg.session
            conn.hello_seen = True
            self.device_id = msg.device_id
            self.capabilities = msg.capabilities
            log.info(
                "%s: HELLO from %r (capabilities 0x%04x, session %08x)",
                self.url,
                msg.device_id,
                msg.capabilities,
                msg.session,
            )
            if new or not conn.in_session:
                self._session(conn)
            else:
                self._send_set()  # the same session announced again: show it the times
        elif isinstance(msg, Press):
            reading = conn.device_time.read(now, msg.device_ms)
            self._emit(
                SidePressed(
                    msg.side,
                    msg.device_ms,
                    self._button_seq(msg.seq),
                    msg.remaining_ms,
                    device_at_ms=reading.at,
                    device_fault=reading.fault,
                    on_disk=self._acker(conn, msg.seq),
                )
            )
        elif isinstance(msg, Pause):
            self._emit(PausePressed(self._button_seq(msg.seq), on_disk=self._acker(conn, msg.seq)))
        elif isinstance(msg, State):
            self._emit(TimesReported(msg.remaining_ms, msg.running))
        else:
            self.unexpected += 1
            conn.link.stats.note(f"device sent {type(msg).__name__}, which only a host sends")
            log.warning("%s: ignoring %s from the device", self.url, type(msg).__name__)

    def _heartbeat(self, conn: _Conn, now: int, device_ms: int) -> None:
        """A heartbeat's counter: a sample of the device's offset, unless it cannot be true."""
        sample_heartbeat(conn.device_time, now, device_ms, self.url, log)

    def _acker(self, conn: _Conn, seq: int) -> Callable[[], None]:
        """The ACK of ``seq``, to send once it is on disk (on the connection it came
        by: after a reconnect the device repeats it, and the repeat is answered)."""

        def ack() -> None:
            if conn is self._conn:
                self._write(conn, conn.link.ack(seq, self.timeline.now_ms()))

        return ack

    def _session(self, conn: _Conn) -> None:
        """The device is (back) in session: report it online and reconcile its display."""
        conn.in_session = True
        self.online = True
        self._emit(DeviceOnline(self.device_id))
        self._send_set()
        if self._text:
            self._send(Text(0, self._text))

    def _log_errors(self, conn: _Conn) -> None:
        s = conn.link.stats
        count = s.frames_bad + s.payloads_bad + s.naks_in + s.given_up
        if count > conn.errors_logged:
            conn.errors_logged = count
            log.warning("%s: link error #%d: %s", self.url, count, s.errors[-1] if s.errors else "")

    # --- the supervisor ------------------------------------------------------------------
    def _offline(self, reason: str) -> None:
        if self.online is not False:
            self.online = False
            self._emit(DeviceOffline(reason))

    async def _open(self) -> _Conn:
        loop = asyncio.get_running_loop()
        now = self.timeline.now_ms()
        conn = _Conn(
            Link(now, defer_durable=True),
            now,
            loop.create_future(),
            loop.create_future(),
            loop.create_future(),
        )
        conn.link.on_peer_time = lambda now, device_ms: self._heartbeat(conn, now, device_ms)
        self._conn = conn  # bytes may arrive before this coroutine resumes
        try:
            async with asyncio.timeout(self.open_timeout_s):
                await serial_asyncio_fast.create_serial_connection(
                    loop,
                    lambda: _HostProtocol(self, conn),
                    self.url,
                    baudrate=self.baudrate,
                    exclusive=self.exclusive,
                )
                await conn.made  # connection_made is scheduled, not called yet
        except BaseException:
            self._conn = None
            raise
        return conn

    async def _poll(self, conn: _Conn) -> None:
        period = self.poll_ms / 1000
        while not conn.lost.done():
            await asyncio.sleep(period)
            now = self.timeline.now_ms()
            self._write(conn, conn.link.poll(now))
            self._log_errors(conn)
            if not conn.link.alive(now):
                _resolve(
                    conn.lost,
                    "no frame from the device for 1 s"
                    if conn.link.ever_heard
                    else "the device did not answer within 1 s",
                )
            elif (
                not conn.in_session
                and conn.link.ever_heard
                and now - conn.opened_ms >= HELLO_GRACE_MS
            ):
                log.info("%s: the device talks without a HELLO; taking it as online", self.url)
                self._session(conn)

    async def _finish(self, conn: _Conn) -> None:
        if conn.poller is not None:
            conn.poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await conn.poller
        if conn.transport is not None:
            # after a read error the transport is already closing; aborting it again would
            # make pyserial-asyncio-fast call connection_lost twice (and fail the second time)
            if not conn.transport.is_closing():
                conn.transport.abort()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    await conn.closed
        self._stats_done.add(conn.link.stats)
        if self._conn is conn:
            self._conn = None

    async def _supervise(self) -> None:
        backoff = self.backoff_min_s
        while not self._closed:
            try:
                conn = await self._open()
            except asyncio.CancelledError:
                raise
            except (OSError, serial.SerialException, ValueError, TimeoutError) as exc:
                self.open_failures += 1
                reason = f"cannot open {self.url}: {exc}"
                log.warning("%s; retrying in %.1f s", reason, backoff)
                self._offline(reason)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self.backoff_max_s)
                continue
            self.connects += 1
            if self._dump is not None:
                self._dump.note(f"open {self.url}")
            # Our own HELLO: this link counts from 1 in a new session, so a device that
            # was running drops nothing of ours as a repeat (docs/clock-protocol.md).
            self._write(conn, conn.link.send(Hello(0, HOST_ID, 0), self.timeline.now_ms()))
            conn.poller = asyncio.get_running_loop().create_task(
                self._poll(conn), name="serial-clock.poll"
            )
            try:
                reason = await asyncio.shield(conn.lost)
            finally:
                await self._finish(conn)
            self.disconnects += 1
            if self._dump is not None:
                self._dump.note(f"lost: {reason}")
            log.warning("%s: %s; reconnecting", self.url, reason)
            self._offline(reason)
            if conn.in_session:
                backoff = self.backoff_min_s
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, self.backoff_max_s)
