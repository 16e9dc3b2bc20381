"""Round assignments on the venue broker: the director's event publishes each
table's game, retained, on the table's ``assignment`` topic; a table reads its own
when it starts (docs/mqtt.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import aiomqtt

from engine.tournament.assignment import Assignment, decode_assignment, encode_assignment
from firmware_bridge.venue.mqtt_session import BrokerSettings, MqttSession
from firmware_bridge.venue.topics import TableTopics, client_id

__all__ = ["fetch_assignment", "publish_assignments"]


async def publish_assignments(
    broker: BrokerSettings, venue: str, assignments: Sequence[Assignment], *, timeout_s: float = 10
) -> int:
    """Publish each assignment retained (QoS 1) to its table; returns how many the
    broker acknowledged.

    Raises:
        TimeoutError: The broker could not be reached in ``timeout_s``.
    """
    session = MqttSession(
        broker, identifier=client_id("director", venue, "event"), session_expiry_s=0
    )
    session.start()
    try:
        await session.wait_connected(timeout_s)
        sent = [
            session.send(
                TableTopics(venue, a.table_name).assignment,
                encode_assignment(a),
                qos=1,
                retain=True,
            )
            for a in assignments
        ]
        async with asyncio.timeout(timeout_s):
            done = await asyncio.gather(*sent)
    finally:
        await session.close()
    return sum(done)


async def fetch_assignment(
    broker: BrokerSettings, table: TableTopics, *, timeout_s: float = 10
) -> Assignment:
    """The table's assignment (the retained message on its topic).

    Raises:
        TimeoutError: None arrived in ``timeout_s`` (the round is not published, or
            the broker is out of reach).
        EventFileError: What arrived is not an assignment.
    """
    got: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()

    def on_message(msg: aiomqtt.Message) -> None:
        if not got.done() and isinstance(msg.payload, bytes | bytearray) and msg.payload:
            got.set_result(bytes(msg.payload))

    session = MqttSession(
        broker,
        identifier=client_id("viewer", table.venue, table.table) + "-assignment",
        subscriptions=[table.assignment],
        on_message=on_message,
        session_expiry_s=0,
    )
    session.start()
    try:
        async with asyncio.timeout(timeout_s):
            payload = await got
    finally:
        await session.close()
    return decode_assignment(payload, table.assignment)
