"""A table's state document on the broker (docs/mqtt.md, "Table state"): the
envelope around the game's report, as the table's publisher writes it and the
director's link and the venue page read it, and when it is too old to trust; and
a table's reply to a director's command (docs/mqtt.md, "Director commands and
replies"): :class:`DirectorReply`, written by the table's publisher and read by
the director's link with :func:`read_reply`.

The envelope is ``TableDocument[LiveReport]`` on ``live`` (:data:`LiveDocument`)
and ``TableDocument[GameReport]`` on ``state`` (:data:`Snapshot`). A consumer
reads a payload with :func:`read_live` or :func:`read_snapshot`, which give the
document or a :class:`BadDocument` saying why not.

What a consumer holds of a table's ``live`` document, and whether to trust it, is
one :class:`HeldDocument` for the director's console and the venue page alike: the
last good document is kept when the table removes it or sends one that does not
read, and the table is then stale, as it is with none or with one past its expiry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from engine.rules.game_report import GameReport, LiveReport
from firmware_bridge.mqtt.topics import MAX_DOCUMENT_BYTES, MAX_MESSAGE_BYTES

__all__ = [
    "STALE_GRACE_MS",
    "BadDocument",
    "DeviceStatus",
    "DirectorReply",
    "HeldDocument",
    "LiveDocument",
    "Notices",
    "Snapshot",
    "TableDocument",
    "bad_status",
    "document_age_ms",
    "is_stale",
    "oversize",
    "read_document",
    "read_live",
    "read_reply",
    "read_snapshot",
]

ReportT = TypeVar("ReportT", bound=LiveReport | GameReport)
T = TypeVar("T")

STALE_GRACE_MS = 1000
"""How far past its expiry a document may be before it is stale: its age is read
against the table's wall clock (``published_at_ms``), and two machines' clocks
differ by a little."""
_UNKNOWN_EXPIRY_S = 10
"""The expiry assumed for a document that gives none."""


class DeviceStatus(msgspec.Struct, frozen=True):
    """The table's clock device, as its service sees it."""

    online: bool | None = None
    id: str = ""
    reason: str = ""
    """Why it is offline (``cable unplugged``); ``""`` while online."""
    offline_since_ms: int | None = None
    """On the table's timeline (``now_ms``): since when it has been offline."""


class TableDocument(msgspec.Struct, Generic[ReportT], frozen=True, kw_only=True):
    """The envelope: which table, when, its device, and the game's report in ``state``.

    Defaults stand for keys a table of another version leaves out; the report
    itself is required (a payload without one is no state)."""

    v: int = 1
    """The payload version (``STATE_VERSION``)."""
    venue: str = ""
    table: str = ""
    seq: int | None = None
    """The log's sequence number of the last event; None before the first."""
    published_at_ms: int | None = None
    """When it was published, on the table's wall clock (Unix ms)."""
    expires_s: int | None = None
    """Its message expiry."""
    device: DeviceStatus | None = None
    now_ms: int | None = None
    """The table's time when it was published (its timeline, like ``state.at_ms``)."""
    neutralized_since_ms: int | None = None
    """On the table's timeline: since when a neutralized clock has been stopped."""
    state: ReportT
    """The game: ``report(..., live=True)`` on ``live``, the whole on ``state``."""


LiveDocument = TableDocument[LiveReport]
"""What a table publishes on ``live``."""
Snapshot = TableDocument[GameReport]
"""What a table publishes on ``state``."""


class DirectorReply(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A table's answer to one director command, as it goes on the wire.

    ``v``, ``id`` and ``accepted`` are in every reply a table has ever sent (a
    pending one has ``"accepted": null``); every other key only where it means
    something, so a key left at its default stays off the wire, as before. The field
    order is the wire's key order."""

    v: int
    """The payload version (``STATE_VERSION``)."""
    id: str | None
    """The command's id; None: it had none (or was not JSON)."""
    accepted: bool | None
    """True: committed (or answered: ``get_log``, ``get_state``); False: refused or
    failed; None: still in the table's queue (:attr:`pending`)."""
    pending: bool = False
    """The table has not answered yet: ask again with the same id."""
    type: str | None = None
    """The event's class (``Adjusted``), or the command (``get_log``)."""
    event: dict[str, Any] | None = None
    """The event as the table stamped it, as JSON (docs/events.md; read it with
    :func:`engine.events.decode_event` to use it): a newer table's event reads."""
    seq: int | None = None
    """Where an accepted event went in the table's log."""
    reason: str | None = None
    """Why the game refused it."""
    rule: str | None = None
    """The rule that refused it."""
    count: int | None = None
    """``get_log``: the events in :attr:`log`."""
    log: str | None = None
    """``get_log``: the table's game log as JSON Lines."""
    error: str | None = None
    """Why the table could not run it (not an event, its disk failed) or is still
    waiting (:attr:`pending`)."""


class BadDocument(msgspec.Struct, frozen=True):
    """A payload that is not a table's state document, and why, quoting it:
    ``bad live document: Expected `array`, got `str` - at `$.state.clocks`: b'{...'``
    (msgspec names the field)."""

    reason: str
    """Why, and the payload's first bytes quoted (for the log)."""
    cause: str = ""
    """Why, without the payload: what a director is shown, the same for every payload
    wrong the same way (so it is said once, not on every refresh)."""

    def __str__(self) -> str:
        return self.reason

    @property
    def said(self) -> str:
        """What a screen shows: :attr:`cause` (or the reason, when none is given)."""
        return self.cause or self.reason


def _bad(cause: str, payload: bytes) -> BadDocument:
    return BadDocument(f"{cause}: {payload[:80]!r}", cause)


_live = msgspec.json.Decoder(LiveDocument)
_snapshot = msgspec.json.Decoder(Snapshot)


def oversize(kind: str, payload: bytes, limit: int = MAX_DOCUMENT_BYTES) -> BadDocument | None:
    """Why ``payload`` is too large to read as a ``kind`` (``live document``), or None."""
    if len(payload) <= limit:
        return None
    # the size itself stays out of the cause: a director is told once, not per size
    cause = f"bad {kind}: over the {limit}-byte limit"
    return BadDocument(f"{cause} ({len(payload)} bytes): {payload[:40]!r}", cause)


def read_document(
    decoder: msgspec.json.Decoder[T], kind: str, payload: bytes, limit: int = MAX_DOCUMENT_BYTES
) -> T | BadDocument:
    """A table's ``kind`` message (``assignment``) read by ``decoder``, or why not:
    over ``limit`` bytes (:func:`oversize`) or not one (msgspec's reason, quoting the
    payload)."""
    too_big = oversize(kind, payload, limit)
    if too_big is not None:
        return too_big
    try:
        return decoder.decode(payload)
    except msgspec.MsgspecError as exc:
        return _bad(f"bad {kind}: {exc}", payload)


def read_live(payload: bytes) -> LiveDocument | BadDocument:
    """A ``live`` payload (not empty: an empty one removes the document), or why not."""
    return read_document(_live, "live document", payload)


def read_snapshot(payload: bytes) -> Snapshot | BadDocument:
    """A ``state`` payload (not empty), or why not."""
    return read_document(_snapshot, "snapshot", payload)


_reply = msgspec.json.Decoder(DirectorReply)


def read_reply(payload: bytes) -> DirectorReply | BadDocument:
    """A table's reply to a director command, or why not: one answering ``get_log``
    carries the whole game log, so it may be as large as any message
    (:data:`~firmware_bridge.mqtt.topics.MAX_MESSAGE_BYTES`)."""
    return read_document(_reply, "director reply", payload, MAX_MESSAGE_BYTES)


_MAX_NOTICES = 8
"""Distinct reasons said per table; past them the table is only counted."""


@dataclass
class Notices:
    """Which reasons a consumer has already said for each table: a director is told
    that a table sends something wrong once per table and reason, not on every
    refresh (the table stays stale on screen meanwhile)."""

    said: dict[str, set[str]] = field(default_factory=dict)

    def first(self, table: str, bad: BadDocument) -> str | None:
        """``<table>: <cause>`` the first time ``table`` gives ``bad``'s cause, else None."""
        seen = self.said.setdefault(table, set())
        text = bad.said
        if text in seen or len(seen) >= _MAX_NOTICES:  # a table cannot flood the screen
            return None
        seen.add(text)
        return f"{table}: {text}"


def document_age_ms(doc: TableDocument[ReportT], wall_ms: int, received_wall_ms: int) -> int:
    """How old ``doc`` is at ``wall_ms`` (never negative): since it was published, or,
    when it does not say, since it arrived (``received_wall_ms``)."""
    at = doc.published_at_ms if doc.published_at_ms is not None else received_wall_ms
    return max(0, wall_ms - at)


def is_stale(doc: TableDocument[ReportT], wall_ms: int, received_wall_ms: int) -> bool:
    """Whether ``doc`` is older than its own expiry (plus :data:`STALE_GRACE_MS`) at
    ``wall_ms``.

    The broker drops an expired retained document for new subscribers, but one that
    had it is never told, and an MQTT 3.1.1 broker expires nothing: each consumer
    (the director's console, the venue page) asks this, the one rule. A document
    without an expiry is given 10 s.
    """
    expires = doc.expires_s if doc.expires_s is not None else _UNKNOWN_EXPIRY_S
    return document_age_ms(doc, wall_ms, received_wall_ms) > expires * 1000 + STALE_GRACE_MS


@dataclass(kw_only=True)
class HeldDocument:
    """What a consumer (the director's console, the venue page) holds of one table's
    ``live`` document, and the one rule for whether it is stale (:meth:`stale`).

    A director expects a table whose document is gone or garbage not to look
    healthy and live: the last good document is kept (the table's players and
    scores stay on screen) but the table is stale until a good one comes.
    """

    live: LiveDocument | None = None
    """The last document that read; None: none yet."""
    received_wall_ms: int = 0
    """When ``live`` arrived (Unix ms, this machine's clock)."""
    removed: bool = False
    """The table removed its retained document since (a clean stop)."""
    unreadable: BadDocument | None = None
    """The table's latest payload did not read, and why; None once one does."""

    def take(self, payload: bytes, wall_ms: int) -> LiveDocument | BadDocument | None:
        """A ``live`` payload that arrived at ``wall_ms``: the document it gives, why
        it is none (kept in :attr:`unreadable`), or None for an empty one (removed)."""
        if not payload:
            self.removed = True
            return None
        doc = read_live(payload)
        if isinstance(doc, BadDocument):
            self.unreadable = doc
            return doc
        self.live, self.received_wall_ms = doc, wall_ms
        self.removed, self.unreadable = False, None
        return doc

    def age_ms(self, wall_ms: int) -> int | None:
        """How old the last good document is at ``wall_ms`` (:func:`document_age_ms`);
        None without one."""
        if self.live is None:
            return None
        return document_age_ms(self.live, wall_ms, self.received_wall_ms)

    def stale(self, wall_ms: int) -> bool:
        """Whether the table's state is not to be trusted at ``wall_ms``: no document,
        a removed one, a payload since that did not read, or a document past its own
        expiry (:func:`is_stale`)."""
        if self.live is None or self.removed or self.unreadable is not None:
            return True
        return is_stale(self.live, wall_ms, self.received_wall_ms)


def bad_status(payload: bytes) -> BadDocument | None:
    """Why a ``status`` payload is not ``online``, ``offline`` or empty (a cleared
    retained one), or None."""
    if payload.strip() in (b"online", b"offline", b""):
        return None
    cause = "bad status: neither online nor offline"
    return BadDocument(f"{cause}: {payload[:40]!r}", cause)
