"""Bringing a table up with this package's clocks: the one place that knows both the
transports (:mod:`firmware_bridge.host`) and the venue (:mod:`firmware_bridge.venue`).

:func:`open_table` parses the ``--clock`` text once with the transports' registry
(:data:`firmware_bridge.host.transports.TRANSPORTS`) and gives
:class:`clock.table.session.TableSession` the spec, the registry and what to attach.
A clock on a broker gets the table process's one connection
(:func:`firmware_bridge.mqtt.connection.table_connection`), made here and handed to
both the clock link and the venue publisher (the clock closes it when the table stops,
after the publisher has left); only such a table is published.
"""

from __future__ import annotations

from dataclasses import replace

from clock.device.clock_spec import ClockContext
from clock.device.interface import ClockDevice
from clock.table.service import TableService
from clock.table.session import TableSession, TableSpec, parse_clock
from clock.timeline import Timeline
from firmware_bridge.host.transports import MQTT, TRANSPORTS, MqttSpec

__all__ = ["PUBLISH_EXPIRY_S", "open_table"]

PUBLISH_EXPIRY_S = 60
"""Message expiry of a table's retained live document (refreshed twice as often)."""


def open_table(spec: TableSpec, *, timeline: Timeline | None = None) -> TableSession:
    """The table session for ``spec`` with this package's clocks: its clock opened by
    its transport, and, when the clock is on a broker, the table published there
    (:class:`~firmware_bridge.venue.publisher.TablePublisher`) over the clock's
    connection.

    Raises:
        clock.table.session.SessionError: The clock spec names no clock, or a bad one.
        engine.errors.EngineError: The variant cannot be loaded.
    """
    clock = parse_clock(spec.clock, TRANSPORTS)
    if not isinstance(clock, MqttSpec):
        return TableSession(spec, timeline=timeline, clocks=TRANSPORTS, clock=clock)

    from firmware_bridge.host.mqtt_clock import MqttClock
    from firmware_bridge.mqtt.connection import table_connection
    from firmware_bridge.venue.publisher import TablePublisher

    # The clock closes it when the table stops, after the publisher has left and flushed.
    connection = table_connection(clock.broker)

    def open_clock(spec: MqttSpec, context: ClockContext) -> ClockDevice:
        return MqttClock(spec.broker, timeline=context.timeline, session=connection)

    def publish(service: TableService) -> TablePublisher:
        return TablePublisher(
            service,
            clock.broker,
            expiry_s=PUBLISH_EXPIRY_S,
            refresh_s=PUBLISH_EXPIRY_S / 2,
            session=connection,
        )

    on_connection = TRANSPORTS.with_(replace(MQTT, open=open_clock))
    return TableSession(spec, timeline=timeline, clocks=on_connection, clock=clock, attach=publish)
