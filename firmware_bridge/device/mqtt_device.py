"""A clock device on MQTT: the device's side of docs/mqtt.md, for any clock core.

:class:`MqttDevice` connects a clock core (a :class:`DeviceCore`: the emulated
firmware, :class:`firmware_bridge.device.firmware.ClockFirmware`, or the gateway's
serial clock) to a broker as the table's clock:

- on every connect it publishes a retained ``online`` on ``clock/status``
  (its will is a retained ``offline``) and a HELLO on ``clock/events``;
- each button message the firmware emits gets the next ``seq`` and goes to
  ``clock/events`` at QoS 1 through the session's outbox, so a press made while
  the broker is away is sent when it is back (the service drops repeats by seq);
- SET, TEXT and BEEP from ``clock/commands`` are applied to the firmware (SET
  is idempotent, so a redelivered one does no harm);
- the table service's ``status`` tells the display whether the host is there.

:func:`run_mqtt` runs it until cancelled (``rackclock emulate-clock``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Generic, Protocol

import aiomqtt
from typing_extensions import TypeVar

from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.mqtt.connection import BrokerSettings, MqttSession, TlsOptions, parse_url
from firmware_bridge.mqtt.topics import DEFAULT_VENUE, TableTopics, client_id
from firmware_bridge.wire.protocol import (
    Heartbeat,
    Hello,
    Message,
    ProtocolError,
    from_json,
    to_json,
)

__all__ = ["DeviceCore", "MqttDevice", "run_mqtt"]

log = logging.getLogger(__name__)


class DeviceCore(Protocol):
    """What the MQTT device side needs of a clock: the emulated firmware, or a
    serial clock seen through the gateway."""

    emit: Callable[[Message], None] | None
    """Set by :class:`MqttDevice`: where the clock's own messages go."""
    host_online: bool
    """Whether the table service answers (shown on the display)."""

    def hello(self) -> Hello:
        """The clock's HELLO."""
        ...

    def device_ms(self) -> int | None:
        """The clock's free-running 32-bit counter, sent in a HEARTBEAT after HELLO
        (the service keeps the clock's offset from it); None when not known."""
        ...

    def handle(self, msg: Message) -> None:
        """Apply a command from the service (SET, TEXT, BEEP)."""
        ...


CoreT = TypeVar("CoreT", bound=DeviceCore, default=ClockFirmware)
"""The clock behind the MQTT device side: the emulated firmware unless said otherwise."""


class MqttDevice(Generic[CoreT]):
    """One clock core, one table, one persistent MQTT session.

    Args:
        fw: The clock core (the emulated firmware, or the gateway's serial clock).
        broker: The broker; its ``table`` is used when ``table`` is not given.
        table: The table this clock sits on.
        identifier: MQTT client id; by default derived from role ``clock``.
        session_expiry_s: How long the broker keeps the session (queued commands).
        present: Whether the clock itself is there at the start (a gateway's serial
            clock is not until it answers); the status says so on each connect.
    """

    def __init__(
        self,
        fw: CoreT,
        broker: BrokerSettings,
        table: TableTopics | None = None,
        *,
        identifier: str | None = None,
        session_expiry_s: int = 7200,
        present: bool = True,
    ) -> None:
        table = table or broker.table
        if table is None:
            raise ValueError("MqttDevice needs a table (or a URL path /<venue>/<table>)")
        self.fw = fw
        """The firmware."""
        self.table = table
        """The table's topics."""
        self.garbage = 0
        """Payloads on the commands topic that were not valid messages."""
        self._seq = 0
        self.link_session = secrets.randbits(32) or 1
        """Named in every HELLO: this device's sequence numbers, counted from 1 once
        (a reconnect keeps them; a restart is a new session)."""
        self._present = present
        self.session = MqttSession(
            broker,
            identifier=identifier or client_id("clock", table.venue, table.table),
            subscriptions=(table.clock_commands, table.status),
            on_message=self._on_message,
            on_connect=self._on_connect,
            on_disconnect=self._on_disconnect,
            will=aiomqtt.Will(table.clock_status, b"offline", qos=1, retain=True),
            session_expiry_s=session_expiry_s,
        )
        """The broker connection."""

    def start(self) -> None:
        """Attach to the firmware and start connecting."""
        self.fw.emit = self._emit
        self.session.start()

    async def close(self, flush_s: float = 1.0) -> None:
        """Publish ``offline``, send what is queued, disconnect, detach."""
        self.fw.emit = None
        self.session.send(self.table.clock_status, b"offline", retain=True)
        await self.session.close(flush_s=flush_s)
        self.fw.host_online = False

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def _emit(self, msg: Message) -> None:
        if isinstance(msg, Hello):
            msg = replace(msg, session=self.link_session)
        self.session.send(self.table.clock_events, to_json(replace(msg, seq=self._next_seq())))

    @property
    def present(self) -> bool:
        """Whether the clock itself is there (see :meth:`set_present`)."""
        return self._present

    def set_present(self, present: bool) -> None:
        """Whether the clock itself is there (a gateway's serial clock may be unplugged):
        the retained ``clock/status`` says so, and a clock that comes back says HELLO."""
        self._present = present
        if present:
            # HELLO first: the service learns the clock's identity before the status
            # says it is online (the outbox keeps this order).
            self._emit(self.fw.hello())
            counter = self.fw.device_ms()
            if counter is not None:
                # the service learns the clock's offset now, before any press is late
                self._emit(Heartbeat(0, counter))
        status = b"online" if present else b"offline"
        self.session.send(self.table.clock_status, status, retain=True, key="status")

    async def _on_connect(self) -> None:
        self.set_present(self._present)

    def _on_disconnect(self, why: str) -> None:
        self.fw.host_online = False

    def _on_message(self, msg: aiomqtt.Message) -> None:
        payload = msg.payload if isinstance(msg.payload, bytes) else str(msg.payload).encode()
        topic = msg.topic.value
        if topic == self.table.status:
            self.fw.host_online = payload.strip() == b"online"
            return
        try:
            command = from_json(payload)
        except ProtocolError as exc:
            self.garbage += 1
            log.warning("clock %s: ignored a bad command: %s", self.table.base, exc)
            return
        self.fw.host_online = True
        self.fw.handle(command)


async def run_mqtt(
    fw: ClockFirmware,
    url: str,
    table: str | None = None,
    *,
    venue: str | None = None,
    identifier: str | None = None,
    tls: TlsOptions | None = None,
) -> None:
    """Run ``fw`` as the clock of ``table`` on the broker at ``url`` until cancelled.

    The table is ``table`` in ``venue``; either may come from the URL's path
    (``mqtt://host/<venue>/<table>``); the venue defaults to ``default``.
    Reconnects forever with backoff; a clean stop publishes ``offline``. A broker
    not reached at the start is a warning, once (the session warns of a lost
    connection, and tells each failed retry only as info).

    Raises:
        ValueError: A bad URL, or no table named anywhere.
    """
    broker = parse_url(url, tls=tls)
    named = broker.table
    if table is None and named is None:
        raise ValueError(f"no table: give one, or put /<venue>/<table> in the URL {url!r}")
    topics = TableTopics(
        venue or (named.venue if named else DEFAULT_VENUE),
        table or (named.table if named else ""),
    )
    link = MqttDevice(fw, broker, topics, identifier=identifier)
    link.start()
    try:
        await _tell_unreached(link, f"{broker.host}:{broker.port}")
        await asyncio.Future()  # until cancelled
    finally:
        with contextlib.suppress(Exception):
            await link.close()


async def _tell_unreached(link: MqttDevice[ClockFirmware], where: str) -> None:
    """Warn once if the first connection fails; return once connected or warned.

    The session warns when a connection it had is lost, but a broker it never
    reached is only info at every retry: a clock that never finds its table would
    say nothing where its service's log shows it.
    """
    session = link.session
    waits = [asyncio.ensure_future(e.wait()) for e in (session.connected, session.failed)]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    if session.stats.connects == 0:  # failed before it ever connected
        log.warning(
            "clock %s: cannot reach the broker at %s (%s); still trying",
            link.table.base,
            where,
            session.stats.last_error,
        )
