"""The serial-to-MQTT gateway: a USB-attached clock on the venue broker.

A table computer with a clock on its USB port, and the table service running
elsewhere (or at the director's hub), runs ``rackclock gateway``. Toward the
clock it is the host of the serial link (:class:`SerialClock`: framing, acks,
retransmits, heartbeats, reconnect after an unplug); toward the broker it is
the table's clock device (docs/mqtt.md): every button message goes to
``clock/events`` as JSON at QoS 1 through a persistent session, and SET, TEXT
and BEEP from ``clock/commands`` are relayed back down the serial line.

``clock/status`` is retained ``online`` while the serial clock answers and
``offline`` when it is unplugged; the MQTT will says ``offline`` if the
gateway itself dies, so the service always knows whether a clock is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace

import aiomqtt

from clock.device import (
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    PausePressed,
    SidePressed,
    TimesReported,
)
from firmware_bridge.mqtt_client import BrokerSettings, MqttSession
from firmware_bridge.protocol import (
    Beep,
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
from firmware_bridge.serial_clock import SerialClock
from firmware_bridge.topics import TableTopics, client_id

__all__ = ["Gateway", "to_message"]

log = logging.getLogger(__name__)


def to_message(ev: DeviceEvent, device_id: str, capabilities: int) -> Message | None:
    """The protocol message that republishes a device event (seq filled in later)."""
    if isinstance(ev, SidePressed):
        return Press(0, ev.side, (ev.device_ms or 0) & 0xFFFFFFFF, ev.remaining_ms)
    if isinstance(ev, PausePressed):
        return Pause(0)
    if isinstance(ev, TimesReported):
        return State(0, ev.remaining_ms, ev.running)
    if isinstance(ev, DeviceOnline):
        return Hello(0, ev.device_id or device_id, capabilities)
    return None


class Gateway:
    """One serial clock republished as one table's clock on a broker."""

    def __init__(
        self,
        serial: SerialClock,
        broker: BrokerSettings,
        table: TableTopics,
        *,
        identifier: str | None = None,
    ) -> None:
        self.serial = serial
        """The clock on the serial port."""
        self.table = table
        """The table's topics."""
        self.forwarded = 0
        """Messages sent up to the broker."""
        self.relayed = 0
        """Commands sent down to the clock."""
        self.garbage = 0
        """Payloads on the commands topic that were not valid messages."""
        self.clock_online = False
        """Whether the serial clock answers."""
        self._seq = 0
        self.session = MqttSession(
            broker,
            identifier=identifier or client_id("clock", table.venue, table.table),
            subscriptions=(table.clock_commands,),
            on_message=self._on_message,
            on_connect=self._on_connect,
            will=aiomqtt.Will(table.clock_status, b"offline", qos=1, retain=True),
        )
        """The broker connection (persistent session, reconnects with backoff)."""

    async def run(self) -> None:
        """Forward until cancelled; then publish ``offline`` and close both sides."""
        self.serial.start()
        self.session.start()
        try:
            async for ev in self.serial.events():
                self._forward(ev)
        finally:
            self.session.send(self.table.clock_status, b"offline", retain=True)
            with contextlib.suppress(Exception):
                await self.session.close(flush_s=1.0)
            await self.serial.close()

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def _publish(self, msg: Message) -> None:
        payload = to_json(replace(msg, seq=self._next_seq()))
        self.session.send(self.table.clock_events, payload)
        self.forwarded += 1

    def _forward(self, ev: DeviceEvent) -> None:
        if isinstance(ev, DeviceOffline):
            self.clock_online = False
            log.warning("clock on %s offline: %s", self.serial.url, ev.reason)
            self.session.send(self.table.clock_status, b"offline", retain=True, key="status")
            return
        if isinstance(ev, DeviceOnline):
            self.clock_online = True
            self.session.send(self.table.clock_status, b"online", retain=True, key="status")
        msg = to_message(ev, self.serial.device_id, self.serial.capabilities)
        if msg is not None:
            self._publish(msg)

    async def _on_connect(self) -> None:
        status = b"online" if self.clock_online else b"offline"
        self.session.send(self.table.clock_status, status, retain=True, key="status")
        if self.clock_online:
            self._publish(Hello(0, self.serial.device_id, self.serial.capabilities))

    def _on_message(self, msg: aiomqtt.Message) -> None:
        payload = msg.payload if isinstance(msg.payload, bytes) else str(msg.payload).encode()
        try:
            command = from_json(payload)
        except ProtocolError as exc:
            self.garbage += 1
            log.warning("gateway %s: ignored a bad command: %s", self.table.base, exc)
            return
        task: asyncio.Task[None] | None = None
        if isinstance(command, Set):
            task = asyncio.create_task(
                self.serial.set_times(command.remaining_ms, command.running, command.paused)
            )
        elif isinstance(command, Text):
            task = asyncio.create_task(self.serial.show_text(command.text))
        elif isinstance(command, Beep):
            task = asyncio.create_task(self.serial.beep())
        else:
            self.garbage += 1
            return
        self.relayed += 1
        task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("gateway: the clock did not take a command: %s", task.exception())
