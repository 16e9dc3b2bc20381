"""An event's log: append-only, hash-chained SQLite, like a table's game log.

Each row holds one :mod:`engine.tournament.records` record as JSON and the
SHA-256 chain hash of the log's :func:`clock.log.eventlog.chain_hash`, so a
pairing or result altered afterwards breaks the chain. A record is checked
against the event as it stands before it is written (a refused record is not
written: the log is unchanged), and committed with ``synchronous=FULL``.
"""

from __future__ import annotations

import sqlite3
from os import PathLike
from pathlib import Path
from types import TracebackType

import msgspec

from clock.log.eventlog import ZERO_HASH, LogError, chain_hash
from engine.tournament.records import Created, Record, decode_record, encode_record
from engine.tournament.state import EventState, replay

__all__ = ["EventLedger", "read_event", "verify_ledger"]

FORMAT = "rackclock-event"

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE records (seq INTEGER PRIMARY KEY, body BLOB NOT NULL, hash BLOB NOT NULL)",
    "CREATE TRIGGER records_append_only_u BEFORE UPDATE ON records "
    "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER records_append_only_d BEFORE DELETE ON records "
    "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
)


class EventLedger:
    """One event's log, open for reading and appending (one writer)."""

    def __init__(self, conn: sqlite3.Connection, path: str, state: EventState) -> None:
        """Use :meth:`create` or :meth:`open`."""
        self._conn = conn
        self.path = path
        self.state = state
        """The event after every record in the log."""

    @classmethod
    def create(cls, path: str | PathLike[str], event_text: str, source: str) -> EventLedger:
        """Start a new event's log from its event file's text.

        Raises:
            LogError: The file exists or cannot be made.
            TournamentError: The event file is not an event (nothing is written).
        """
        where = Path(path)
        if where.exists():
            raise LogError(f"{str(where)!r} already exists: an event's log is made once")
        first = Created(event_text, source)
        state = replay([first])
        try:
            conn = sqlite3.connect(where, isolation_level=None)
        except sqlite3.Error as exc:
            raise LogError(f"cannot create {str(where)!r}: {exc}") from exc
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("BEGIN IMMEDIATE")
        for sql in _SCHEMA:
            conn.execute(sql)
        conn.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
        body = encode_record(first)
        conn.execute(
            "INSERT INTO records VALUES (1, ?, ?)", (body, chain_hash(ZERO_HASH, 1, 0, False, body))
        )
        conn.execute("COMMIT")
        return cls(conn, str(where), state)

    @classmethod
    def open(cls, path: str | PathLike[str]) -> EventLedger:
        """Open an event's log and replay it.

        Raises:
            LogError: Not an event log, or its chain is broken (with the row).
            TournamentError: A record the rules refuse (with its number).
        """
        records = _read(path)
        conn = sqlite3.connect(Path(path), isolation_level=None)
        conn.execute("PRAGMA synchronous=FULL")
        return cls(conn, str(path), replay(records))

    def append(self, record: Record) -> EventState:
        """Check ``record`` against the event, then commit it.

        Raises:
            TournamentError: The event refuses it; the log is unchanged.
        """
        self.state.apply(record)  # raises before anything is written
        body = encode_record(record)
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
            seq = row[0] + 1
            conn.execute(
                "INSERT INTO records VALUES (?, ?, ?)",
                (seq, body, chain_hash(bytes(row[1]), seq, 0, False, body)),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            self.state = replay(_read(self.path))
            raise
        return self.state

    def close(self) -> None:
        """Close the file."""
        self._conn.close()

    def __enter__(self) -> EventLedger:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _read(path: str | PathLike[str]) -> list[Record]:
    shown = repr(str(path))
    if not Path(path).is_file():
        raise LogError(f"no event log at {shown}")
    try:
        conn = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)
        try:
            fmt = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            rows = conn.execute("SELECT seq, body, hash FROM records ORDER BY seq").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise LogError(f"{shown} is not a rackclock event log: {exc}") from exc
    if fmt is None or fmt[0] != FORMAT:
        raise LogError(f"{shown} is not a rackclock event log (format {fmt!r})")
    out: list[Record] = []
    prev = ZERO_HASH
    for want, (seq, body, digest) in enumerate(rows, start=1):
        # a row edited by hand may hold text, not bytes: it cannot match its hash
        body = body if isinstance(body, bytes) else str(body).encode()
        digest = digest if isinstance(digest, bytes) else b""
        if seq != want or chain_hash(prev, seq, 0, False, body) != digest:
            raise LogError(f"{shown}: the chain breaks at record {want}; it was altered")
        prev = bytes(digest)
        try:
            out.append(decode_record(body))
        except msgspec.DecodeError as exc:
            raise LogError(f"{shown} record {seq}: {exc}") from exc
    return out


def verify_ledger(path: str | PathLike[str]) -> int:
    """The number of records, after checking the chain and replaying them.

    Raises:
        LogError, TournamentError: The first problem found.
    """
    records = _read(path)
    replay(records)
    return len(records)


def read_event(path: str | PathLike[str]) -> EventState:
    """The event as its log stands, read without taking the writer's part (a venue
    screen follows the director's log this way).

    Raises:
        LogError, TournamentError: It cannot be read.
    """
    return replay(_read(path))
