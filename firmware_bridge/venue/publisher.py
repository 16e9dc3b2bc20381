"""A table on MQTT: its state for everyone, its commands for the director.

:class:`TablePublisher` attaches to a running :class:`clock.table.service.TableService`:

- each committed event goes out once on ``events`` (QoS 1, not retained, well
  under 1 kB: the event and the log's ``seq``, so a consumer sees a gap);
- after every update, and every ``refresh_s`` seconds while nothing happens, the
  small **live** document (clocks, scores, phase, result, signatures, device:
  ``report(..., live=True)``) goes to ``live``, **retained** with a **message
  expiry** of ``expiry_s``: a viewer that connects later has it at once, and one
  nobody refreshes disappears, so stale times never look live;
- the full **snapshot** (the whole report: board, history, rulings) goes to
  ``state``, retained, only when it is worth it: on connecting, when the phase
  changes, when the director asks (``{"type": "get_state"}``), and at most every
  ``snapshot_s`` seconds while the log's ``seq`` moves; an idle table sends none;
- it publishes a retained ``online`` on ``status``, with ``offline`` as its will;
  a clean close removes the retained state and publishes ``offline`` itself
  (a clean disconnect fires no will);
- it serves ``director/commands``: each message is one JSON event
  (docs/events.md) with an optional ``"id"``; the event is submitted to the
  service and the answer (the :class:`clock.table.service.Ack`) is published to the
  MQTT v5 response topic with the command's correlation data, or, for 3.1.1
  clients, to ``director/replies``; the ``id`` is echoed either way. A command
  redelivered with an ``id`` already answered is answered again, not re-run;
- ``{"type": "get_log", "id": ...}`` is not an event: it is answered with the
  table's game log as JSON Lines (``"log"``, ``"count"``; refused commands
  included, marked ``"refused": true``), read from the log
  file through a second, read-only connection, so the director can see the timeline.

Payloads are in docs/mqtt.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections import OrderedDict

import aiomqtt
import msgspec
from msgspec.structs import replace

from clock.log.eventlog import LogError, export_jsonl
from clock.table.service import Ack, TableService, Update
from engine.events import decode_event, encode_event
from engine.rules.game_report import GameReport, LiveReport
from engine.rules.replay import game_report, live_report
from firmware_bridge.mqtt.connection import (
    BrokerSettings,
    MqttSession,
    publish_properties,
)
from firmware_bridge.mqtt.topics import TableTopics, client_id
from firmware_bridge.venue.table_document import DeviceStatus, DirectorReply, TableDocument

__all__ = ["GET_LOG", "GET_STATE", "STATE_VERSION", "TablePublisher", "ack_reply"]

log = logging.getLogger(__name__)

STATE_VERSION = 1
"""``"v"`` in state and reply payloads."""
_REMEMBERED_IDS = 256
_SUBMIT_TIMEOUT_S = 5.0
GET_LOG = "get_log"
"""The director command that asks for the table's game log (not an event)."""
GET_STATE = "get_state"
"""The command that asks for a fresh snapshot on ``state`` (a consumer that saw a gap)."""


def ack_reply(ack: Ack, ident: str | None) -> DirectorReply:
    """The reply to a command the game answered."""
    kind = type(ack.event).__name__
    event = msgspec.json.decode(msgspec.json.encode(ack.event))
    if ack.accepted:
        return DirectorReply(
            v=STATE_VERSION, id=ident, accepted=True, type=kind, event=event, seq=ack.seq
        )
    return DirectorReply(
        v=STATE_VERSION,
        id=ident,
        accepted=False,
        type=kind,
        event=event,
        reason=ack.reason,
        rule=ack.rule,
    )


def _refused(ident: str | None, error: str, kind: str | None = None) -> DirectorReply:
    return DirectorReply(v=STATE_VERSION, id=ident, accepted=False, type=kind, error=error)


class TablePublisher:
    """Publishes one table's state and status, and serves its director commands.

    Use as ``async with TablePublisher(service, broker):`` inside
    ``async with service``.

    Args:
        service: The running table service.
        broker: The broker; its ``table`` is used when ``table`` is not given.
        table: Which table this is.
        identifier: MQTT client id; by default derived from role ``table``.
        expiry_s: Message expiry of the retained live document.
        refresh_s: Republish the live document this often when nothing happens.
        snapshot_s: At most one snapshot this often while only the seq moves.
        snapshot_expiry_s: Message expiry of the retained snapshot.
        session: The table process's one connection, shared with its clock link
            (:func:`firmware_bridge.mqtt.connection.table_connection`, made by what
            brings the table up); the clock closes it when the table stops, after
            the publisher has left, so the publisher only flushes it. By default the
            publisher opens its own.
    """

    def __init__(
        self,
        service: TableService,
        broker: BrokerSettings,
        table: TableTopics | None = None,
        *,
        identifier: str | None = None,
        expiry_s: int = 60,
        refresh_s: float = 30.0,
        snapshot_s: float = 300.0,
        snapshot_expiry_s: int = 3600,
        session: MqttSession | None = None,
    ) -> None:
        table = table or broker.table
        if table is None:
            raise ValueError("TablePublisher needs a table (or a URL path /<venue>/<table>)")
        if refresh_s >= expiry_s:
            raise ValueError(f"refresh_s {refresh_s} must be shorter than expiry_s {expiry_s}")
        self.service = service
        """The table service."""
        self.table = table
        """The table's topics."""
        self.expiry_s = expiry_s
        """Message expiry of the retained state, seconds."""
        self.refresh_s = refresh_s
        """Seconds between republications of the live document when nothing changes."""
        self.snapshot_s = snapshot_s
        """Seconds between snapshots while only the seq moves."""
        self.snapshot_expiry_s = snapshot_expiry_s
        """Message expiry of the retained snapshot."""
        self.published = 0
        """Live documents queued for publication."""
        self.snapshots = 0
        """Snapshots queued for publication."""
        self.events_sent = 0
        """Events queued for publication."""
        self._want_snapshot = False  # each connect asks for one (_on_connect)
        self._snapshot_seq: int | None = None
        self._snapshot_at = float("-inf")
        self._phase: str | None = None
        self.commands = 0
        """Director commands received."""
        self._dirty = asyncio.Event()
        self._last_seq: int | None = None
        self._replies: OrderedDict[str, DirectorReply] = OrderedDict()
        self._in_flight: dict[str, asyncio.Future[Ack]] = {}
        self._commands: asyncio.Queue[tuple[bytes, str | None, bytes | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False
        self._owns_session = session is None
        self.session = session or MqttSession(
            broker,
            identifier=identifier or client_id("table", table.venue, table.table),
            subscriptions=(table.director_commands,),
            on_message=self._on_message,
            on_connect=self._on_connect,
            will=aiomqtt.Will(table.status, b"offline", qos=1, retain=True),
        )
        """The broker connection (shared with the clock link, or its own)."""

    async def __aenter__(self) -> TablePublisher:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def start(self) -> None:
        """Listen to the service and start publishing."""
        self._phase = self.service.state.phase.value
        self.service.add_listener(self._on_update)
        if self._owns_session:
            self.session.start()
        else:  # the clock link's connection: take our topic, and our part of each connect
            self.session.route(self.table.director_commands, self._on_message)
            self.session.add_on_connect(self._on_connect)
        self._tasks = [
            asyncio.create_task(self._publisher(), name=f"table[{self.table.base}].state"),
            asyncio.create_task(self._director(), name=f"table[{self.table.base}].director"),
        ]
        self._dirty.set()

    async def close(self, flush_s: float = 1.0) -> None:
        """Remove the retained state, publish ``offline``, send what is queued, disconnect."""
        if self._closed:
            return
        self._closed = True
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # empty: removes the retained documents
        self.session.send(self.table.state, b"", retain=True)
        self.session.send(self.table.live, b"", retain=True)
        self.session.send(self.table.status, b"offline", retain=True)
        if self._owns_session:
            await self.session.close(flush_s=flush_s)
        else:  # the clock link closes it when the table stops
            await self.session.flush(flush_s)

    # --- state -------------------------------------------------------------------
    def state_payload(self, *, live: bool = False) -> bytes:
        """The table state document, read now: the snapshot, or the ``live`` document."""
        svc = self.service
        st = svc.status
        now = svc.timeline.now_ms()
        clock = svc.state.clock
        doc = TableDocument[LiveReport | GameReport](
            v=STATE_VERSION,
            venue=self.table.venue,
            table=self.table.table,
            seq=self._last_seq,
            published_at_ms=time.time_ns() // 1_000_000,
            expires_s=self.expiry_s if live else self.snapshot_expiry_s,
            device=DeviceStatus(
                st.device_online, st.device_id, st.device_reason, st.offline_since_ms
            ),
            # on the table's timeline: how long a neutralized clock has been stopped
            now_ms=now,
            neutralized_since_ms=clock.since_ms if clock.neutral else None,
            state=live_report(svc.state, now) if live else game_report(svc.state, now),
        )
        return msgspec.json.encode(doc)

    def _on_update(self, update: Update) -> None:
        if update.seq is not None and update.event is not None:
            self._last_seq = update.seq
            # once, small, in commit order: never superseded (no key)
            body = b'{"v":%d,"seq":%d,"event":%s}' % (
                STATE_VERSION,
                update.seq,
                encode_event(update.event),
            )
            self.session.send(self.table.events, body)
            self.events_sent += 1
        phase = update.state.phase.value
        if phase != self._phase:
            self._phase = phase
            self._want_snapshot = True
        self._dirty.set()

    async def _on_connect(self) -> None:
        self.session.send(self.table.status, b"online", retain=True, key="status")
        self._want_snapshot = True
        self._dirty.set()

    def _snapshot_due(self) -> bool:
        if self._want_snapshot:
            return True
        moved = self._last_seq != self._snapshot_seq
        return moved and time.monotonic() - self._snapshot_at >= self.snapshot_s

    async def _publisher(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.refresh_s):
                    await self._dirty.wait()
            self._dirty.clear()
            self.session.send(
                self.table.live,
                self.state_payload(live=True),
                retain=True,
                properties=publish_properties(expiry_s=self.expiry_s),
                key="live",
            )
            self.published += 1
            if self._snapshot_due():
                self.publish_snapshot()

    def publish_snapshot(self) -> None:
        """Queue the full snapshot on ``state`` now (retained)."""
        self._want_snapshot = False
        self._snapshot_seq = self._last_seq
        self._snapshot_at = time.monotonic()
        self.session.send(
            self.table.state,
            self.state_payload(),
            retain=True,
            properties=publish_properties(expiry_s=self.snapshot_expiry_s),
            key="state",
        )
        self.snapshots += 1

    # --- director commands ------------------------------------------------------------
    def _on_message(self, msg: aiomqtt.Message) -> None:
        if msg.topic.value != self.table.director_commands:
            return
        self.commands += 1
        payload = msg.payload if isinstance(msg.payload, bytes) else str(msg.payload).encode()
        props = msg.properties
        response_topic: str | None = getattr(props, "ResponseTopic", None) if props else None
        correlation: bytes | None = getattr(props, "CorrelationData", None) if props else None
        self._commands.put_nowait((payload, response_topic, correlation))

    async def _director(self) -> None:
        """Run director commands one at a time, in arrival order."""
        while True:
            payload, response_topic, correlation = await self._commands.get()
            try:
                await self._answer(payload, response_topic, correlation)
            except Exception:  # one bad command must not stop the next ones
                log.exception("director command on %s failed", self.table.base)

    async def _answer(
        self, payload: bytes, response_topic: str | None, correlation: bytes | None
    ) -> None:
        ident: str | None = None
        kind: object = None
        try:
            doc = json.loads(payload)
            if isinstance(doc, dict):
                kind = doc.get("type")
                if isinstance(doc.get("id"), str):
                    ident = doc["id"]
        except (ValueError, RecursionError):  # not JSON: decode_event says why below
            pass
        if kind == GET_LOG:
            reply = await self._log_reply(ident)  # read-only: not remembered, may run twice
        elif kind == GET_STATE:
            self.publish_snapshot()
            reply = DirectorReply(v=STATE_VERSION, id=ident, accepted=True, type=GET_STATE)
        elif ident is not None and ident in self._replies:
            reply = self._replies[ident]
        else:
            reply = await self._run_command(payload, ident)
            if ident is not None and not reply.pending:
                # Only final answers are remembered: a command still in the table's
                # queue is waited for again, never submitted twice.
                self._replies[ident] = reply
                while len(self._replies) > _REMEMBERED_IDS:
                    self._replies.popitem(last=False)
        self.session.send(
            response_topic or self.table.director_replies,
            msgspec.json.encode(reply),
            properties=publish_properties(correlation=correlation) if correlation else None,
        )

    async def _log_reply(self, ident: str | None) -> DirectorReply:
        """The table's events as JSON Lines, refused commands included (marked, as
        ``log export --include-refused`` writes them): the director's timeline shows
        them in their place, and each line is the row's seq."""

        def read() -> tuple[str, int]:
            out = io.StringIO()
            n = export_jsonl(self.service.log_path, out, include_refused=True)
            return out.getvalue(), n

        error = ""
        for _ in range(3):
            try:
                # A second, read-only connection, in a thread: the table's writer never
                # waits for it, and nothing in this process opens the file but SQLite
                # (an open() and close() would drop the writer's locks: docs/events.md).
                text, count = await asyncio.to_thread(read)
            except (LogError, OSError) as exc:
                # a commit between the reader's head and last-row checks looks like damage
                error = str(exc)
                continue
            return DirectorReply(
                v=STATE_VERSION, id=ident, accepted=True, type=GET_LOG, count=count, log=text
            )
        return _refused(ident, error, GET_LOG)

    async def _run_command(self, payload: bytes, ident: str | None) -> DirectorReply:
        fut = self._in_flight.get(ident) if ident is not None else None
        if fut is None:
            try:
                event = decode_event(payload)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                return _refused(ident, str(exc))
            # Only the director's role may publish here (deploy/mosquitto ACL): whatever the
            # payload says, the director made it.
            fut = self.service.send(replace(event, actor="director"), "director")
            if ident is not None:
                self._in_flight[ident] = fut
        try:
            # Shielded: giving up waiting must not withdraw a command already queued.
            ack = await asyncio.wait_for(asyncio.shield(fut), _SUBMIT_TIMEOUT_S)
        except TimeoutError:
            return DirectorReply(
                v=STATE_VERSION,
                id=ident,
                accepted=None,
                pending=True,
                error="the table has not answered yet; ask again with the same id",
            )
        except Exception as exc:  # the table could not commit it (e.g. its disk failed)
            ack = None
            error = f"the table could not commit the command: {exc}"
        finally:
            if ident is not None and fut.done():
                self._in_flight.pop(ident, None)
        if ack is None:
            return _refused(ident, error)
        log.info("director command %s: %s", ident, "accepted" if ack.accepted else ack.reason)
        return ack_reply(ack, ident)
