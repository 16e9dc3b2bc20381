"""The director's side of the venue broker: every table's state, and commands.

:class:`DirectorLink` holds one persistent MQTT session that

- subscribes to every table's retained ``live`` document and ``status``
  (``rackclock/v1/+/+/live``, ``.../status``) and keeps the latest of each in
  :attr:`DirectorLink.tables` (a :class:`TableSnapshot` per table), calling
  ``on_change`` after each;
- sends director commands (docs/mqtt.md, "Director commands and replies"):
  one event with a fresh ``"id"``, the v5 response topic
  ``rackclock/v1/<venue>/<table>/director/replies/<desk>`` and the id as
  correlation data; :meth:`DirectorLink.command` returns the table's reply;
- asks a table for its game log (``{"type": "get_log"}``, answered with JSON
  Lines): :meth:`DirectorLink.get_log`.

The console (``rackclock director``) and the venue hub's archive
(``rackclock venue``) both use it.

Every message is read at this edge: a ``live`` document into the table's typed
document (:func:`~firmware_bridge.venue.table_document.read_live`), anything over
:data:`~firmware_bridge.mqtt.topics.MAX_DOCUMENT_BYTES` refused unread (a reply:
:data:`~firmware_bridge.mqtt.topics.MAX_MESSAGE_BYTES`), a reply into
:class:`~firmware_bridge.venue.table_document.DirectorReply`. One that
does not fit is dropped and counted (:attr:`DirectorLink.garbage`), leaves its
table stale with the last good document, and is said once per table and reason
(:attr:`DirectorLink.notices`, ``on_notice``): it never reaches a row, and a
reply that does not read answers no command (it waits on, for a good one or
its timeout).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiomqtt
import msgspec

from engine.events import Event, encode_event
from engine.rules.replay import Refused, Rejected, parse_jsonl_with_refused
from firmware_bridge.mqtt.connection import BrokerSettings, MqttSession, publish_properties
from firmware_bridge.mqtt.topics import (
    TableTopics,
    TopicError,
    every_table,
    parse_topic,
    process_id,
)
from firmware_bridge.venue.publisher import GET_LOG
from firmware_bridge.venue.table_document import (
    BadDocument,
    DirectorReply,
    HeldDocument,
    Notices,
    bad_status,
    read_reply,
)

__all__ = ["DirectorError", "DirectorLink", "TableSnapshot", "reply_text"]

log = logging.getLogger(__name__)

_UNSAFE = str.maketrans({c: "_" for c in " /+#\t"})


class DirectorError(RuntimeError):
    """A command that got no reply in time, or a log the table could not give."""


@dataclass
class TableSnapshot(HeldDocument):
    """What the broker last said about one table: its live document as held, and
    whether it is stale, by the rule the venue page follows too
    (:class:`firmware_bridge.venue.table_document.HeldDocument`), and its status."""

    table: TableTopics
    """Which table."""
    raw: bytes | None = None
    """The last good live document's payload as it came (docs/mqtt.md, "Table
    state"; the hub's archive writes it unchanged, keys a newer table adds
    included), set only once it read as the typed :attr:`live`; None: none heard yet."""
    online: bool | None = None
    """The table terminal's retained status; None: not heard."""
    updates: int = 0
    """States received."""
    _decoded: tuple[bytes, dict[str, Any]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def doc(self) -> dict[str, Any] | None:
        """:attr:`raw` as JSON, decoded when first asked for (None: none heard yet)."""
        if self.raw is None:
            return None
        if self._decoded is None or self._decoded[0] is not self.raw:
            self._decoded = (self.raw, msgspec.json.decode(self.raw, type=dict[str, Any]))
        return self._decoded[1]


def reply_text(reply: DirectorReply) -> str:
    """A reply in words: ``accepted: Adjusted (#43)`` or ``refused: reason (rule)``."""
    if reply.accepted:
        return f"accepted: {reply.type or ''} (#{reply.seq})"
    if reply.pending:
        return f"pending: {reply.error or ''}"
    if reply.error is not None:
        return f"refused: {reply.error}"
    return f"refused: {reply.reason or ''} ({reply.rule or ''})"


class DirectorLink:
    """Every table's state and status, and director commands with their replies.

    Args:
        broker: The broker (a path in its URL is ignored).
        desk: Names this console in reply topics and command ids.
        identifier: MQTT client id; default ``rackclock-director-<desk>-<host>-<pid>-<random>``
            (:func:`~firmware_bridge.mqtt.topics.process_id`: two desks of one name, or
            two hubs, never knock each other off), behind the login's name.
        on_change: Called with the table after each state or status (must not block).
        session_expiry_s: The broker keeps our session this long while we are away
            (short: a director who is away needs no queue of old states).
        venue: Follow only this venue's tables (None: every venue on the broker).
    """

    def __init__(
        self,
        broker: BrokerSettings,
        *,
        desk: str = "desk",
        identifier: str | None = None,
        on_change: Callable[[TableTopics], None] | None = None,
        session_expiry_s: int = 60,
        venue: str | None = None,
    ) -> None:
        self.desk = desk.translate(_UNSAFE) or "desk"
        """This console's name in reply topics."""
        self.tables: dict[TableTopics, TableSnapshot] = {}
        """The latest of every table heard of."""
        self.garbage = 0
        """Payloads that were not a state or a reply."""
        self.notices: list[str] = []
        """``club/t1: bad live document: ...``, once per table and reason, newest last
        (the last 50)."""
        self.on_notice: Callable[[str], None] | None = None
        """Called with each new notice (the hub prints it)."""
        self._said = Notices()
        self.on_change = on_change
        """Called with the table after each state or status (must not block); whoever
        holds the link may replace it (the venue benchmark times the hub this way)."""
        self._pending: dict[str, tuple[TableTopics, asyncio.Future[DirectorReply]]] = {}
        """Commands waiting for their reply, by id: the table asked, and the answer."""
        # the small live documents, not the snapshots: a venue's traffic stays small
        subs = [every_table(venue, "live"), every_table(venue, "status")]
        if broker.protocol == 5:
            subs.append(every_table(venue, f"director/replies/{self.desk}"))
        else:  # 3.1.1: replies come to director/replies, matched by id
            subs.append(every_table(venue, "director/replies"))
        self.session = MqttSession(
            broker,
            identifier=identifier or process_id("director", self.desk),
            subscriptions=subs,
            on_message=self._on_message,
            session_expiry_s=session_expiry_s,
        )
        """The broker connection."""

    async def __aenter__(self) -> DirectorLink:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def start(self) -> None:
        """Start connecting (in the background)."""
        self.session.start()

    async def close(self) -> None:
        """Disconnect; commands still waiting fail."""
        for _, fut in self._pending.values():
            if not fut.done():
                fut.set_exception(DirectorError("the director link closed"))
        self._pending.clear()
        await self.session.close()

    # --- incoming --------------------------------------------------------------------------
    def _snapshot(self, table: TableTopics) -> TableSnapshot:
        snap = self.tables.get(table)
        if snap is None:
            snap = self.tables[table] = TableSnapshot(table)
        return snap

    def _on_message(self, msg: aiomqtt.Message) -> None:
        topic = msg.topic.value
        payload = msg.payload if isinstance(msg.payload, bytes) else str(msg.payload).encode()
        if "/director/replies" in topic:  # .../director/replies[/<desk>]: matched by id
            self._on_reply(topic, payload)
            return
        try:
            table, suffix = parse_topic(topic)
        except TopicError:
            self.garbage += 1
            return
        if suffix == "live":
            self._on_state(table, payload)
        elif suffix == "status":
            bad = bad_status(payload)
            if bad is not None:
                self._bad(table, bad)
                return
            self._snapshot(table).online = payload.strip() == b"online"
            self._changed(table)

    def _on_state(self, table: TableTopics, payload: bytes) -> None:
        snap = self._snapshot(table)
        # empty: a clean stop removed it; one that does not read: the last good one
        # is kept and the table is stale (HeldDocument, the page's rule too)
        got = snap.take(payload, time.time_ns() // 1_000_000)
        if isinstance(got, BadDocument):
            self._bad(table, got)
        elif got is not None:
            snap.raw = payload
            snap.updates += 1
        self._changed(table)

    def _bad(self, table: TableTopics, bad: BadDocument) -> None:
        """A message from ``table`` that does not read: counted, said once per reason."""
        self.garbage += 1
        log.debug("director: %s on %s", bad, table.base)
        line = self._said.first(f"{table.venue}/{table.table}", bad)
        if line is None:
            return
        self.notices.append(line)
        del self.notices[:-50]
        if self.on_notice is not None:
            self.on_notice(line)

    def _on_reply(self, topic: str, payload: bytes) -> None:
        # .../<venue>/<table>/director/replies[/<desk>]: the table it came from
        table = TableTopics(*topic.split("/")[2:4]) if topic.count("/") >= 5 else None
        reply = read_reply(payload)
        if isinstance(reply, BadDocument):
            # answers nothing: the command asked waits on for a good reply, or times out
            if table is None:
                self.garbage += 1
            else:
                self._bad(table, reply)
            return
        asked = self._pending.get(str(reply.id))
        if asked is None:
            return
        if not topic.startswith(asked[0].director_replies):
            # only the table asked may answer: its reply topics are its own login's
            # (deploy/mosquitto), so another table cannot pass its log off as this one's
            self.garbage += 1
            return
        del self._pending[str(reply.id)]
        if not asked[1].done():
            asked[1].set_result(reply)

    def _changed(self, table: TableTopics) -> None:
        if self.on_change is not None:
            try:
                self.on_change(table)
            except Exception:  # a screen's bug must not drop the connection
                log.exception("director: on_change failed for %s", table.base)

    # --- commands ---------------------------------------------------------------------------
    async def request(
        self, table: TableTopics, doc: dict[str, Any], *, timeout_s: float = 10.0
    ) -> DirectorReply:
        """Send one command document to ``table`` and return its reply.

        Raises:
            DirectorError: No reply within ``timeout_s`` (the table is away, or the
                broker refused the command: a login without the director's rights).
        """
        ident = f"{self.desk}-{uuid.uuid4().hex[:16]}"
        doc = {**doc, "id": ident}
        fut: asyncio.Future[DirectorReply] = asyncio.get_running_loop().create_future()
        self._pending[ident] = (table, fut)
        reply_topic = f"{table.director_replies}/{self.desk}"
        self.session.send(
            table.director_commands,
            json.dumps(doc, separators=(",", ":")).encode(),
            properties=publish_properties(response_topic=reply_topic, correlation=ident.encode()),
        )
        try:
            async with asyncio.timeout(timeout_s):
                return await fut
        except TimeoutError:
            raise DirectorError(
                f"{table.venue}/{table.table} did not answer within {timeout_s:g} s"
            ) from None
        finally:
            self._pending.pop(ident, None)

    async def command(
        self, table: TableTopics, event: Event, *, timeout_s: float = 10.0
    ) -> DirectorReply:
        """Submit ``event`` to ``table`` (stamped there on arrival); the table's reply.

        Raises:
            DirectorError: No reply in time.
        """
        doc = json.loads(encode_event(event))
        doc.pop("t", None)  # the table stamps it
        return await self.request(table, doc, timeout_s=timeout_s)

    async def get_log(
        self, table: TableTopics, *, timeout_s: float = 10.0
    ) -> tuple[list[tuple[int, Event]], list[Rejected], list[Refused]]:
        """The table's game log, as ``(line, event)`` pairs, unreadable lines, and the
        refused commands it keeps (never replayed; the timeline shows them).

        Raises:
            DirectorError: No reply in time, or the table could not read its log.
        """
        return parse_jsonl_with_refused(await self.get_log_text(table, timeout_s=timeout_s))

    async def get_log_text(self, table: TableTopics, *, timeout_s: float = 10.0) -> str:
        """The table's game log as JSON Lines text.

        Raises:
            DirectorError: No reply in time, or the table could not read its log.
        """
        reply = await self.request(table, {"type": GET_LOG}, timeout_s=timeout_s)
        if not reply.accepted or reply.log is None:
            why = reply.error if reply.error is not None else reply_text(reply)
            raise DirectorError(f"{table.venue}/{table.table}: no log: {why}")
        return reply.log
