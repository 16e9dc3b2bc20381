"""MQTT topic names and client identifiers: pure code, no I/O.

Every topic lives under ``rackclock/v1/<venue>/<table>/``:

========================  =====================  =========================================
topic (after the prefix)  direction              what
========================  =====================  =========================================
``clock/events``          device -> service      HELLO, PRESS, PAUSE, STATE (JSON, QoS 1)
``clock/commands``        service -> device      SET, TEXT, BEEP (JSON, QoS 1)
``clock/status``          device                 retained ``online``; will ``offline``
``events``                service                each committed event once, with its seq
``live``                  service                retained small live document, message expiry
``state``                 service                retained full snapshot (phase change, on request)
``status``                service                retained ``online``; will ``offline``
``director/commands``     director -> service    a JSON event, answered with a reply
``director/replies``      service -> director    the answer (or the v5 response topic)
``assignment``            event -> table         retained: the round's game at this table
========================  =====================  =========================================

docs/mqtt.md is the specification.

>>> t = TableTopics("club", "t1")
>>> t.clock_events
'rackclock/v1/club/t1/clock/events'
>>> parse_topic("rackclock/v1/club/t1/state")
(TableTopics(venue='club', table='t1'), 'state')
>>> client_id("clock", "club", "t1", host="pi-7")
'rackclock-clock-club-t1-pi-7'
>>> owned_id("t1", "rackclock-clock-club-t1-pi-7")
't1-rackclock-clock-club-t1-pi-7'
"""

from __future__ import annotations

import os
import re
import secrets
import socket
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "DEFAULT_VENUE",
    "MAX_DOCUMENT_BYTES",
    "MAX_MESSAGE_BYTES",
    "MAX_PACKET_BYTES",
    "PREFIX",
    "Role",
    "TableTopics",
    "TopicError",
    "client_id",
    "every_table",
    "owned_id",
    "parse_topic",
    "process_id",
    "process_tag",
    "table_from_path",
    "table_order",
]

PREFIX = "rackclock/v1"
"""Every rackclock topic starts with this; ``v1`` is the protocol version."""
DEFAULT_VENUE = "default"
"""The venue when a URL names only a table."""
MAX_DOCUMENT_BYTES = 256 * 1024
"""The largest ``live``, ``state``, ``status`` or ``assignment`` payload a consumer
reads (the director's link, the hub, the venue page); a larger one is dropped unread.
A whole game's snapshot is about 17 KiB (measured on generated games), so a
document past this is no table's, and one table's cannot fill every browser."""
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""The largest message of all, on the broker (its ``message_size_limit``) and in a
director's link: a table's answer to ``get_log`` carries its whole game log (about
7 KiB a game, every game of the day at that table)."""
MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 64 * 1024
"""The largest packet a client of ours accepts (MQTT 5's Maximum Packet Size, sent on
connect): the largest message with room for its topic and properties. A broker of the
venue's own never sends more (its ``message_size_limit``); one that has no limit drops
a larger message for this client instead of sending it whole."""


Role = Literal["clock", "service", "table", "director", "viewer", "bench"]
"""Who a client is: the clock device, the service's clock link, the table
publisher, a director's console, a read-only viewer, a benchmark."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")

_SUFFIXES = (
    "clock/events",
    "clock/commands",
    "clock/status",
    "events",
    "live",
    "state",
    "status",
    "director/commands",
    "director/replies",
    "assignment",
)


class TopicError(ValueError):
    """A venue or table name that cannot be a topic level, or a topic not ours."""


def _check(kind: str, name: str) -> str:
    if not _NAME.match(name):
        raise TopicError(
            f"{kind} {name!r} must be 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return name


@dataclass(frozen=True, slots=True)
class TableTopics:
    """The topics of one table."""

    venue: str
    """The venue (club, tournament hall): the first level after the prefix."""
    table: str
    """The table's name within the venue."""

    def __post_init__(self) -> None:
        _check("venue", self.venue)
        _check("table", self.table)

    @property
    def base(self) -> str:
        """``rackclock/v1/<venue>/<table>``."""
        return f"{PREFIX}/{self.venue}/{self.table}"

    @property
    def clock_events(self) -> str:
        """Device -> service: the device's messages."""
        return f"{self.base}/clock/events"

    @property
    def clock_commands(self) -> str:
        """Service -> device: SET, TEXT, BEEP."""
        return f"{self.base}/clock/commands"

    @property
    def clock_status(self) -> str:
        """The device's retained ``online``, and its will ``offline``."""
        return f"{self.base}/clock/status"

    @property
    def events(self) -> str:
        """Each committed event, once, with the log's seq."""
        return f"{self.base}/events"

    @property
    def live(self) -> str:
        """The retained live document: clocks, scores, phase (expires when not refreshed)."""
        return f"{self.base}/live"

    @property
    def state(self) -> str:
        """The retained full snapshot (on a change of phase, on request)."""
        return f"{self.base}/state"

    @property
    def status(self) -> str:
        """The table service's retained ``online``, and its will ``offline``."""
        return f"{self.base}/status"

    @property
    def director_commands(self) -> str:
        """Director -> service: one JSON event per message."""
        return f"{self.base}/director/commands"

    @property
    def assignment(self) -> str:
        """The director's event -> the table: the round's game here (retained)."""
        return f"{self.base}/assignment"

    @property
    def director_replies(self) -> str:
        """Service -> director: answers, when the command named no v5 response topic."""
        return f"{self.base}/director/replies"


def every_table(venue: str | None, suffix: str) -> str:
    """The wildcard over one topic of every table of ``venue`` (of every venue: None).

    >>> every_table("club", "live"), every_table(None, "status")
    ('rackclock/v1/club/+/live', 'rackclock/v1/+/+/status')

    Raises:
        TopicError: A venue that cannot be a topic level.
    """
    where = "+" if venue is None else _check("venue", venue)
    return f"{PREFIX}/{where}/+/{suffix}"


def parse_topic(topic: str) -> tuple[TableTopics, str]:
    """The table a topic belongs to and its suffix (``clock/events``, ``state``, ...).

    Raises:
        TopicError: Not a rackclock v1 table topic.
    """
    head = PREFIX + "/"
    if not topic.startswith(head):
        raise TopicError(f"topic {topic!r} is not under {PREFIX!r}")
    parts = topic[len(head) :].split("/", 2)
    if len(parts) != 3 or parts[2] not in _SUFFIXES:
        raise TopicError(f"topic {topic!r} is not a table topic")
    return TableTopics(parts[0], parts[1]), parts[2]


def table_from_path(path: str) -> TableTopics | None:
    """The table named by a URL path: ``/<venue>/<table>`` or ``/<table>``.

    Returns None for an empty path.

    >>> table_from_path("/club/t7")
    TableTopics(venue='club', table='t7')
    >>> table_from_path("/t7").venue
    'default'

    Raises:
        TopicError: More than two levels, or a name that cannot be a topic level.
    """
    parts = [p for p in path.split("/") if p]
    if not parts:
        return None
    if len(parts) == 1:
        return TableTopics(DEFAULT_VENUE, parts[0])
    if len(parts) == 2:
        return TableTopics(parts[0], parts[1])
    raise TopicError(f"URL path {path!r} must be /<venue>/<table> or /<table>")


def client_id(role: Role, venue: str, table: str, *, host: str | None = None) -> str:
    """An MQTT client identifier from role, table and host.

    Stable, so a reconnecting client resumes its persistent session (a table's: the
    key to its queued presses and director commands); distinct per role, table and
    host, so two programs never fight over one identifier (the broker drops the older
    connection and they would flap forever). A program two of which may run at once
    takes :func:`process_id` instead.
    """
    return _ident(role, (_check("venue", venue), _check("table", table)), host)


def process_id(role: Role, *names: str, host: str | None = None) -> str:
    """An MQTT client identifier of this process alone, for a program two of which may
    run at once (a venue page, a hub, a director's desk, a spectator, a reader of
    assignments): ``rackclock-<role>-<names>-<host>-<pid>-<random>``, so a second
    projector does not knock the first off; its session ends with it.

    >>> process_id("viewer", "club", "page", host="pc").startswith("rackclock-viewer-club-page-pc-")
    True
    >>> process_id("director", "hub") != process_id("director", "hub")
    True
    """
    safe = tuple(_UNSAFE.sub("_", name) or "_" for name in names)
    return f"{_ident(role, safe, host)}-{process_tag()}"


def _ident(role: Role, names: tuple[str, ...], host: str | None) -> str:
    """``rackclock-<role>-<names>-<host>`` (this machine's name by default, made safe)."""
    name = host if host is not None else socket.gethostname()
    safe = _UNSAFE.sub("_", name).strip("_") or "host"
    return "-".join(("rackclock", role, *names, safe))


def process_tag() -> str:
    """A tag no other connection has: this process's id and a random part (two
    connections of one process differ too).

    >>> process_tag() != process_tag()
    True
    """
    return f"{os.getpid()}-{secrets.token_hex(3)}"


def owned_id(login: str | None, identifier: str) -> str:
    """The identifier a client logged in as ``login`` connects with: ``identifier``
    behind ``<login>-``, the prefix a venue's broker requires (docs/mqtt.md,
    "Security": a client id belongs to its login); as it is without a login, or when
    it already begins so.

    >>> owned_id("viewer", "viewer-page")
    'viewer-page'
    >>> owned_id(None, "rackclock-viewer-club-page-pc")
    'rackclock-viewer-club-page-pc'
    """
    if not login or identifier.startswith(login + "-"):
        return identifier
    return f"{login}-{identifier}"


def table_order(name: str) -> tuple[int, str]:
    """The sort key of a table name, by its number: ``t2`` before ``t10``; a name
    without digits last.

    >>> sorted(["t10", "hall", "t2"], key=table_order)
    ['t2', 't10', 'hall']
    """
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 1 << 30, name)
