"""The service's side of an MQTT clock: a :class:`clock.device.interface.ClockDevice`.

:class:`MqttClock` subscribes to one table's ``clock/events`` and
``clock/status``, decodes the JSON messages of docs/clock-protocol.md, drops
duplicates and stale messages by ``seq`` (:class:`SeqFilter`), and turns them
into device events. Commands from the service (SET, TEXT, BEEP) go to
``clock/commands`` at QoS 1. Garbage on the events topic is counted and
ignored. A press or pause is acknowledged to the broker (PUBACK) only once the
service has committed it (``on_disk``): until then the broker keeps it for us, so
a service killed in between gets it again on restart. Topics and behaviour:
docs/mqtt.md.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Literal

import aiomqtt

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
from firmware_bridge.mqtt.connection import BrokerSettings, MqttSession
from firmware_bridge.mqtt.topics import TableTopics, client_id
from firmware_bridge.wire.protocol import (
    Beep,
    Heartbeat,
    Hello,
    Message,
    Pause,
    Press,
    ProtocolError,
    Set,
    State,
    Text,
    from_json,
    to_json,
)

__all__ = ["ClockStats", "MqttClock", "SeqFilter", "Verdict"]

log = logging.getLogger(__name__)

Verdict = Literal["new", "duplicate", "stale"]
"""What :meth:`SeqFilter.check` makes of a sequence number."""


class SeqFilter:
    """Accepts each sequence number once and in order (16-bit, wrapping).

    - ``duplicate``: one of the last ``size`` numbers accepted (a QoS 1 redelivery);
    - ``stale``: behind the newest accepted (serial-number arithmetic, RFC 1982):
      it arrived after a later message was acted on, so acting on it now would
      put a press in the wrong place in the game; the next SET corrects the device;
    - ``new``: anything else.

    A HELLO in a new session (``new_session=True``) starts the window over; from a
    clock without sessions, a HELLO that is not ahead means it restarted (its counter
    starts again at 1): pass ``restart=True`` and the window starts over.

    >>> f = SeqFilter()
    >>> [f.check(s) for s in (1, 2, 2, 1, 3)]
    ['new', 'new', 'duplicate', 'duplicate', 'new']
    >>> w = SeqFilter()
    >>> [w.check(s) for s in (65534, 65535, 0, 1, 65535, 65000)]
    ['new', 'new', 'new', 'new', 'duplicate', 'stale']
    """

    def __init__(self, size: int = 64) -> None:
        self._seen: deque[int] = deque(maxlen=size)
        self._newest: int | None = None

    def check(self, seq: int, *, restart: bool = False, new_session: bool = False) -> Verdict:
        """Whether ``seq`` is new; a new one is remembered. ``new_session``: a HELLO
        whose session differs from the last (the window starts over, ahead or not)."""
        ahead = self._newest is None or 0 < (seq - self._newest) & 0xFFFF < 0x8000
        if new_session or (restart and not ahead):
            self._seen.clear()
            self._newest = None
        elif seq in self._seen:
            return "duplicate"
        elif not ahead:
            return "stale"
        self._seen.append(seq)
        self._newest = seq
        return "new"


@dataclass
class ClockStats:
    """What arrived from the device, for logs and the director's screen."""

    messages: int = 0
    """Messages on the events topic."""
    garbage: int = 0
    """Payloads that were not a valid message (ignored)."""
    duplicates: int = 0
    """Redeliveries dropped by seq."""
    stale: int = 0
    """Messages older than one already acted on (dropped)."""
    unexpected: int = 0
    """Valid messages a device does not send (SET, ACK, ...): ignored."""
    last_error: str = ""
    """The last garbage payload's error."""


class MqttClock:
    """A clock device on the far side of an MQTT broker.

    Args:
        broker: The broker; its ``table`` is used when ``table`` is not given.
        table: The table whose clock this is.
        identifier: MQTT client id; by default derived from role ``service``,
            the table and this host.
        session_expiry_s: How long the broker keeps our session (and queues the
            device's presses) while we are disconnected.
        session: The table process's one connection to ride
            (:func:`firmware_bridge.mqtt.connection.table_connection`, made by what
            brings the table up and shared with its publisher); this clock takes its
            two topics and closes it when the table stops, after the publisher has
            left. By default the clock opens its own.
    """

    def __init__(
        self,
        broker: BrokerSettings,
        table: TableTopics | None = None,
        *,
        identifier: str | None = None,
        session_expiry_s: int = 7200,
        timeline: Timeline | None = None,
        session: MqttSession | None = None,
    ) -> None:
        table = table or broker.table
        if table is None:
            raise ValueError("MqttClock needs a table: give one, or a URL path /<venue>/<table>")
        self.table = table
        """The table's topics."""
        self.stats = ClockStats()
        """Counters."""
        self.timeline: Timeline = timeline or MonotonicTimeline()
        """The table's time, for the device's clock offset."""
        self.device_time = DeviceTime()
        """The device's clock offset (from its heartbeats and presses)."""
        self._queue: asyncio.Queue[DeviceEvent | None] = asyncio.Queue()
        self._filter = SeqFilter()
        self._seq = 0
        self._online: bool | None = None
        self._shown: tuple[tuple[int, int], int | None] = ((0, 0), None)
        self._closed = False
        self._device_session: int | None = None
        self._awaiting: dict[int, list[Callable[[], None]]] = {}
        """Presses and pauses not yet on disk, by seq: the PUBACKs waiting for each."""
        if session is not None:
            session.route(table.clock_events, self._on_message)
            session.route(table.clock_status, self._on_message)
            session.add_on_disconnect(self._on_disconnect)
        self.session = session or MqttSession(
            broker,
            identifier=identifier or client_id("service", table.venue, table.table),
            subscriptions=(table.clock_events, table.clock_status),
            on_message=self._on_message,
            on_disconnect=self._on_disconnect,
            session_expiry_s=session_expiry_s,
            manual_ack=True,
        )
        """The broker connection (the table's only one when it was handed one)."""

    # --- ClockDevice ---------------------------------------------------------------
    async def events(self) -> AsyncIterator[DeviceEvent]:
        """Presses, pauses, reports and online/offline changes, until closed."""
        self.session.start()
        while True:
            ev = await self._queue.get()
            if ev is None:
                return
            yield ev

    async def set_times(
        self, remaining_ms: tuple[int, int], running: int | None, paused: bool
    ) -> None:
        """Queue a SET (a newer one replaces it if it has not gone out); never waits."""
        self._shown = (remaining_ms, running)
        self._command(Set(self._next_seq(), remaining_ms, running, paused), key="set")

    async def run(self, side: int) -> None:
        """Run ``side`` from the times last set."""
        self._command(Set(self._next_seq(), self._shown[0], side, False), key="set")

    async def pause(self) -> None:
        """Stop both sides at the times last set."""
        self._command(Set(self._next_seq(), self._shown[0], self._shown[1], True), key="set")

    async def show_text(self, text: str) -> None:
        """Put ``text`` on the display (cut to the protocol's 64 bytes)."""
        raw = text.encode("utf-8")[:64].decode("utf-8", "ignore")
        self._command(Text(self._next_seq(), raw))

    async def beep(self) -> None:
        """Sound the buzzer for 200 ms."""
        self._command(Beep(self._next_seq(), 200))

    async def close(self) -> None:
        """Send what is queued (briefly), disconnect, and end the event stream."""
        if self._closed:
            return
        self._closed = True
        await self.session.close()
        self._queue.put_nowait(None)

    # --- inside ------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def _command(self, msg: Message, key: str | None = None) -> None:
        if self._closed:
            return
        self.session.start()
        self.session.send(self.table.clock_commands, to_json(msg), key=key)

    def _emit(self, ev: DeviceEvent) -> None:
        if isinstance(ev, DeviceOnline):
            self._online = True
        elif isinstance(ev, DeviceOffline):
            self._online = False
        self._queue.put_nowait(ev)

    def _on_disconnect(self, why: str) -> None:
        if self._online is not False:
            self._emit(DeviceOffline(f"broker connection lost: {why}"))
        self._online = None  # the retained status will tell us again on reconnect

    def _on_message(self, msg: aiomqtt.Message) -> None:
        topic = msg.topic.value
        payload = msg.payload if isinstance(msg.payload, bytes) else str(msg.payload).encode()
        if topic == self.table.clock_status:
            self._on_status(payload)
        elif topic == self.table.clock_events:
            self._on_event(payload, msg)

    def _on_status(self, payload: bytes) -> None:
        text = payload.decode("utf-8", "replace").strip()
        if text == "online" and self._online is not True:
            self._emit(DeviceOnline())
        elif text == "offline" and self._online is not False:
            self._emit(DeviceOffline("device offline (its status says so, or its will fired)"))

    def _on_disk(self, seq: int, raw: aiomqtt.Message) -> Callable[[], None]:
        """The PUBACKs of a press (and of its repeats meanwhile), sent once it is on disk."""
        self._awaiting[seq] = [self.session.ack_later(raw)]

        def done() -> None:
            for ack in self._awaiting.pop(seq, ()):
                ack()

        return done

    def _on_event(self, payload: bytes, raw: aiomqtt.Message) -> None:
        self.stats.messages += 1
        try:
            msg = from_json(payload)
        except (ProtocolError, ValueError, RecursionError) as exc:
            self.stats.garbage += 1
            self.stats.last_error = str(exc)
            log.warning("clock %s: ignored a bad message: %s", self.table.base, exc)
            return
        now = self.timeline.now_ms()
        if isinstance(msg, Heartbeat):
            sample_heartbeat(self.device_time, now, msg.device_ms, f"clock {self.table.base}", log)
            return
        if not isinstance(msg, Hello | Press | Pause | State):
            self.stats.unexpected += 1
            return
        new_session = False
        if isinstance(msg, Hello):
            # A clock names its session in HELLO: the same one again (it reconnected) keeps
            # the window; another (it restarted) starts it over. Without one (0), a HELLO
            # that is not ahead means a restart.
            new_session = msg.session != 0 and msg.session != self._device_session
            if msg.session != 0:
                self._device_session = msg.session
        verdict = self._filter.check(
            msg.seq, restart=isinstance(msg, Hello) and msg.session == 0, new_session=new_session
        )
        if verdict == "duplicate":
            self.stats.duplicates += 1
            if msg.seq in self._awaiting:
                # the original is not on disk yet: acknowledge the repeat with it
                self._awaiting[msg.seq].append(self.session.ack_later(raw))
            return
        if verdict == "stale":
            self.stats.stale += 1
            log.warning("clock %s: dropped stale seq %d", self.table.base, msg.seq)
            return
        match msg:
            case Hello():
                if new_session or msg.session == 0:
                    self.device_time.reset()  # a clock that restarted counts from 0 again
                self._emit(DeviceOnline(msg.device_id))
            case Press():
                reading = self.device_time.read(now, msg.device_ms)
                # seq is not passed on: it is de-duplicated here with a 64-number
                # window, and after a device restart the service's own check
                # (last seq only) could mistake a new press for a repeat.
                self._queue.put_nowait(
                    SidePressed(
                        msg.side,
                        msg.device_ms,
                        None,
                        msg.remaining_ms,
                        device_at_ms=reading.at,
                        device_fault=reading.fault,
                        on_disk=self._on_disk(msg.seq, raw),
                    )
                )
            case Pause():
                self._queue.put_nowait(PausePressed(None, on_disk=self._on_disk(msg.seq, raw)))
            case State():
                self._queue.put_nowait(TimesReported(msg.remaining_ms, msg.running))
