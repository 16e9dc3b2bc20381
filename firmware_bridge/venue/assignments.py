"""Round assignments on the venue broker: the director's event publishes each
table's game, retained, on the table's ``assignment`` topic; a table reads its own
when it starts (docs/mqtt.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence

import aiomqtt

from engine.tournament.assignment import Assignment, decode_assignment, encode_assignment
from engine.tournament.errors import EventFileError
from firmware_bridge.mqtt.session import BrokerSettings, MqttSession
from firmware_bridge.mqtt.topics import PREFIX, Role, TableTopics, client_id, parse_topic

__all__ = [
    "fetch_assignment",
    "follow_assignment",
    "publish_assignments",
    "retained_assignments",
]

log = logging.getLogger(__name__)

_QUIET_S = 0.3
"""After the wildcard subscription is acknowledged, the retained assignments are taken
as all in once none has arrived for this long (the broker sends them at once; MQTT
has no "that was all")."""


async def publish_assignments(
    broker: BrokerSettings,
    venue: str,
    assignments: Sequence[Assignment],
    *,
    clear: Iterable[str] = (),
    timeout_s: float = 10,
) -> tuple[int, list[str]]:
    """Publish each assignment retained (QoS 1) to its table, and clear (an empty
    retained payload) the assignment of every other table that holds one on the
    broker or is named in ``clear`` (tables earlier rounds used), so a table the
    round does not use is not shown an old game. Returns how many assignments the
    broker acknowledged, and the tables cleared.

    Raises:
        TimeoutError: The broker could not be reached in ``timeout_s``.
    """
    held = await retained_assignments(broker, venue, role="director", timeout_s=timeout_s)
    session = MqttSession(
        broker,
        identifier=client_id("director", venue, "event"),
        session_expiry_s=0,
    )
    session.start()
    try:
        await session.wait_connected(timeout_s)
        used = {a.table_name for a in assignments}
        stale = sorted((set(held) | set(clear)) - used, key=_table_order)
        sent = [
            session.send(
                TableTopics(venue, a.table_name).assignment,
                encode_assignment(a),
                qos=1,
                retain=True,
            )
            for a in assignments
        ]
        cleared = [
            session.send(TableTopics(venue, t).assignment, b"", qos=1, retain=True) for t in stale
        ]
        async with asyncio.timeout(timeout_s):
            done = await asyncio.gather(*sent)
            await asyncio.gather(*cleared)
    finally:
        await session.close()
    return sum(done), stale


async def retained_assignments(
    broker: BrokerSettings, venue: str, *, role: Role = "viewer", timeout_s: float = 10
) -> dict[str, bytes]:
    """Every table's retained assignment on the broker (its payload), by table, read
    as ``role`` (``director`` when it publishes the next round).

    Raises:
        TimeoutError: The broker could not be reached in ``timeout_s``.
    """
    held: dict[str, bytes] = {}
    last = asyncio.Event()

    def on_message(msg: aiomqtt.Message) -> None:
        last.set()
        if isinstance(msg.payload, bytes | bytearray) and msg.payload:
            held[parse_topic(msg.topic.value)[0].table] = bytes(msg.payload)

    session = MqttSession(
        broker,
        identifier=client_id(role, venue, "assignments"),
        subscriptions=[_every_assignment(venue)],
        on_message=on_message,
        session_expiry_s=0,
    )
    session.start()
    try:
        await session.wait_connected(timeout_s)
        await _quiet(last)
    finally:
        await session.close()
    return held


async def follow_assignment(
    broker: BrokerSettings, table: TableTopics, on_assignment: Callable[[Assignment], None]
) -> None:
    """Hand ``on_assignment`` the table's assignment now and each new one the director
    publishes (a cleared one, and what is not an assignment, are passed over), until
    cancelled: a running table learns its next round's game this way."""

    def on_message(msg: aiomqtt.Message) -> None:
        if not isinstance(msg.payload, bytes | bytearray) or not msg.payload:
            return
        try:
            got = decode_assignment(bytes(msg.payload), table.assignment)
        except EventFileError as exc:
            log.warning("%s", exc)
            return
        on_assignment(got)

    session = MqttSession(
        broker,
        identifier=client_id("viewer", table.venue, table.table) + "-follow",
        subscriptions=[table.assignment],
        on_message=on_message,
        session_expiry_s=0,
    )
    session.start()
    try:
        await asyncio.Future()
    finally:
        await session.close()


async def _quiet(arrived: asyncio.Event) -> None:
    """Wait until no message has arrived for :data:`_QUIET_S`."""
    while True:
        arrived.clear()
        try:
            async with asyncio.timeout(_QUIET_S):
                await arrived.wait()
        except TimeoutError:
            return


def _every_assignment(venue: str) -> str:
    """The wildcard over every table's ``assignment`` topic of ``venue``."""
    return f"{PREFIX}/{TableTopics(venue, 't1').venue}/+/assignment"


def _table_order(name: str) -> tuple[int, str]:
    digits = name.lstrip("t")
    return (int(digits), name) if digits.isdigit() else (1 << 30, name)


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
