"""The serial-to-MQTT gateway: a USB-attached clock on the venue broker.

A table computer with a clock on its USB port, and the table service running
elsewhere (or at the director's hub), runs ``rackclock gateway``. Toward the
clock it is the host of the serial link (:class:`SerialClock`: framing, acks,
retransmits, heartbeats, reconnect after an unplug); toward the broker it is
the table's clock device, exactly as the emulated firmware is
(:class:`MqttDevice`: button messages to ``clock/events`` at QoS 1 through a
persistent session, SET, TEXT and BEEP from ``clock/commands`` relayed back
down the serial line).

``clock/status`` is retained ``online`` while the serial clock answers and
``offline`` when it is unplugged; the MQTT will says ``offline`` if the
gateway itself dies, so the service always knows whether a clock is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from clock.device.interface import (
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    PausePressed,
    SidePressed,
    TimesReported,
)
from firmware_bridge.device.mqtt_device import MqttDevice
from firmware_bridge.host.serial_clock import SerialClock
from firmware_bridge.mqtt.connection import BrokerSettings, MqttSession
from firmware_bridge.mqtt.topics import TableTopics, client_id
from firmware_bridge.wire.protocol import Beep, Hello, Message, Pause, Press, Set, State, Text

__all__ = ["Gateway", "to_message"]

log = logging.getLogger(__name__)


def to_message(ev: DeviceEvent) -> Message | None:
    """The protocol message that republishes a button or report (seq filled in later)."""
    if isinstance(ev, SidePressed):
        return Press(0, ev.side, (ev.device_ms or 0) & 0xFFFFFFFF, ev.remaining_ms)
    if isinstance(ev, PausePressed):
        return Pause(0)
    if isinstance(ev, TimesReported):
        return State(0, ev.remaining_ms, ev.running)
    return None


class _SerialCore:
    """The serial clock seen by :class:`MqttDevice` as its firmware."""

    def __init__(self, serial: SerialClock) -> None:
        self.serial = serial
        self.emit: Callable[[Message], None] | None = None
        self.host_online = False
        self.relayed = 0
        self.refused = 0

    def hello(self) -> Hello:
        return Hello(0, self.serial.device_id, self.serial.capabilities)

    def device_ms(self) -> int | None:
        # The serial clock's counter is only seen in its own messages: the service
        # learns the offset from the presses relayed (docs/clock-protocol.md).
        return None

    def handle(self, msg: Message) -> None:
        if isinstance(msg, Set):
            coro = self.serial.set_times(msg.remaining_ms, msg.running, msg.paused)
        elif isinstance(msg, Text):
            coro = self.serial.show_text(msg.text)
        elif isinstance(msg, Beep):
            coro = self.serial.beep()
        else:
            self.refused += 1  # not a command a clock takes
            return
        self.relayed += 1
        asyncio.create_task(coro).add_done_callback(_log_failure)


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
        self._core = _SerialCore(serial)
        self.link: MqttDevice[_SerialCore] = MqttDevice(
            self._core,
            broker,
            table,
            identifier=identifier or client_id("clock", table.venue, table.table),
            # Absent until the serial clock answers. Said on connect, not here: a
            # constructor runs outside the event loop (``rackclock gateway`` builds
            # the gateway before asyncio.run), where nothing can be queued.
            present=False,
        )
        """The device side on the broker, shared with the emulated firmware."""

    @property
    def session(self) -> MqttSession:
        """The broker connection (persistent session, reconnects with backoff)."""
        return self.link.session

    @property
    def relayed(self) -> int:
        """Commands sent down to the clock."""
        return self._core.relayed

    @property
    def clock_online(self) -> bool:
        """Whether the serial clock answers."""
        return self.link.present

    async def run(self) -> None:
        """Forward until cancelled; then publish ``offline`` and close both sides."""
        self.serial.start()
        self.link.start()
        try:
            async for ev in self.serial.events():
                self._forward(ev)
        finally:
            with contextlib.suppress(Exception):
                await self.link.close(flush_s=1.0)
            await self.serial.close()

    def _forward(self, ev: DeviceEvent) -> None:
        if isinstance(ev, DeviceOffline):
            log.warning("clock on %s offline: %s", self.serial.url, ev.reason)
            self.link.set_present(False)
            return
        if isinstance(ev, DeviceOnline):
            self.link.set_present(True)  # says HELLO too
            self.forwarded += 1
            return
        msg = to_message(ev)
        if msg is not None and self._core.emit is not None:
            self._core.emit(msg)
            self.forwarded += 1


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("gateway: the clock did not take a command: %s", task.exception())
