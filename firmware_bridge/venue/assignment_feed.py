"""A table's assignment, its game in the current round: published by the director's
event on the venue broker, and read by a table from the broker or, without one,
from the event's ledger.

On the broker (docs/mqtt.md) each table's assignment is retained on its
``assignment`` topic: :func:`publish_assignments` writes a round's (clearing the
tables it does not use), :func:`retained_assignments` reads every table's,
:func:`published_anchor` the newest ledger anchor among them (``event verify
--broker``), :func:`fetch_assignment` one table's, :func:`follow_assignment` each
new one.

``--assignment SOURCE`` (the table terminal, the scorekeeper, ``serve``) names
where a table reads its own: the venue broker and the table
(``mqtt://broker:1883/VENUE/TABLE``: the retained assignment), or the event's
ledger and the table (``LEDGER@TABLE``, e.g. ``event.sqlite@t3``: the latest
round paired in it): :func:`load_assignment` reads it once,
:func:`follow_assignments` follows it. This module is the one reader of that
grammar.
The record itself is :class:`engine.tournament.assignment.Assignment`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import aiomqtt

from engine.tournament.assignment import (
    Assignment,
    decode_assignment,
    encode_assignment,
    latest_paired_round,
)
from engine.tournament.errors import EventFileError
from firmware_bridge.mqtt.connection import (
    BrokerSettings,
    MqttSession,
    is_broker_url,
    parse_url,
    parse_venue_url,
)
from firmware_bridge.mqtt.topics import (
    Role,
    TableTopics,
    every_table,
    parse_topic,
    process_id,
    table_order,
)

if TYPE_CHECKING:
    from clock.tournament.ledger import Anchor

__all__ = [
    "AssignmentError",
    "fetch_assignment",
    "follow_assignment",
    "follow_assignments",
    "load_assignment",
    "publish_assignments",
    "published_anchor",
    "retained_assignments",
]

log = logging.getLogger(__name__)


class AssignmentError(ValueError):
    """The assignment cannot be had, with the reason (the source quoted)."""


# --- on the broker -----------------------------------------------------------------

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
        identifier=process_id("director", venue, "event"),
        session_expiry_s=0,
    )
    session.start()
    try:
        await session.wait_connected(timeout_s)
        used = {a.table_name for a in assignments}
        stale = sorted((set(held) | set(clear)) - used, key=table_order)
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
        identifier=process_id(role, venue, "assignments"),
        subscriptions=[every_table(venue, "assignment")],
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


async def published_anchor(url: str) -> Anchor:
    """The newest ledger anchor in the retained assignments of the venue ``url``
    names (``mqtt://host:port/VENUE``): what ``event verify --broker`` checks the
    ledger against.

    Raises:
        ValueError: Not a venue's URL (:func:`parse_venue_url`).
        LogError: The broker holds no assignment with an anchor.
        EventFileError: A retained payload that is not an assignment.
        TimeoutError: The broker did not answer.
    """
    from clock.log.eventlog import LogError
    from clock.tournament.ledger import parse_anchor

    broker, venue = parse_venue_url(url)
    held = await retained_assignments(broker, venue)
    anchors = [
        parse_anchor(a.anchor)
        for a in (decode_assignment(p, f"{url} {t}") for t, p in held.items())
        if a.anchor
    ]
    if not anchors:
        raise LogError(f"{url}: no published assignment carries an anchor")
    return max(anchors, key=lambda a: a.count)


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
        identifier=process_id("viewer", table.venue, table.table, "follow"),
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
        identifier=process_id("viewer", table.venue, table.table, "assignment"),
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


# --- --assignment SOURCE -------------------------------------------------------------


def load_assignment(source: str, *, timeout_s: float = 10) -> Assignment:
    """The assignment SOURCE names (blocking: it runs its own event loop for a broker).

    Raises:
        AssignmentError: A bad source, no such table in the round, or no broker.
    """
    from clock.log.eventlog import LogError
    from engine.errors import EngineError

    try:
        if is_broker_url(source):
            return _from_broker(source, timeout_s)
        return _from_ledger(source)
    except (LogError, EngineError, OSError) as exc:
        raise AssignmentError(f"--assignment {source}: {exc}") from exc


async def follow_assignments(source: str, on_assignment: Callable[[Assignment], None]) -> None:
    """Hand ``on_assignment`` each assignment SOURCE gives the table, now and as the
    director publishes new rounds, until cancelled. Only a broker's source is
    followed; with a ledger's (``LEDGER@t3``) this returns at once: such a
    table is started again for its next game."""
    if not is_broker_url(source):
        return
    broker = parse_url(source)
    if broker.table is not None:
        await follow_assignment(broker, broker.table, on_assignment)


def _from_broker(url: str, timeout_s: float) -> Assignment:
    broker = parse_url(url)
    if broker.table is None:
        raise AssignmentError(f"--assignment {url}: name the table: mqtt://broker/VENUE/TABLE")
    try:
        return asyncio.run(fetch_assignment(broker, broker.table, timeout_s=timeout_s))
    except TimeoutError:
        raise AssignmentError(
            f"--assignment {url}: no assignment for {broker.table.table} within {timeout_s:g} s "
            "(is the round published? is the broker reachable?)"
        ) from None


def _from_ledger(source: str) -> Assignment:
    from clock.tournament.ledger import read_ledger
    from engine.tournament.assignment import round_assignments

    path, sep, table = source.rpartition("@")
    if not sep or not path or not table:
        raise AssignmentError(
            f"--assignment {source!r}: expected LEDGER@TABLE (event.sqlite@t3) "
            "or mqtt://broker/VENUE/TABLE"
        )
    state = read_ledger(Path(path))  # read-only: the director's tools may be writing it
    latest = latest_paired_round(state)
    if not latest:
        raise AssignmentError(f"--assignment {source!r}: no round is paired yet")
    for a in round_assignments(state, latest):
        if table in (a.table_name, str(a.table)):
            return a
    raise AssignmentError(f"--assignment {source!r}: no table {table!r} in round {latest}")
