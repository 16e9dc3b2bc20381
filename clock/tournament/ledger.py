"""An event's ledger: the tournament's log, append-only, hash-chained SQLite, like a
table's game log (the word "ledger" keeps the two apart: a game log holds one
table's events, the ledger the event's pairings and results).

Each row holds one :mod:`engine.tournament.records` record as JSON and the
SHA-256 chain hash of the log's :func:`clock.log.eventlog.chain_hash`, so a
pairing or result altered afterwards breaks the chain. A one-row ``head`` table,
updated in the same transaction as each append (triggers keep it naming the last
row), gives away records cut from the tail inside the file; the head's count and
hash, the :class:`Anchor`, printed and published outside the file, gives away a
file cut or rewritten as a whole. A record is checked against the event as it
stands before it is written (a refused record is not written: the log is
unchanged), and committed with ``synchronous=FULL``.

Several processes may write one event's ledger at once (the director's console and
the ``rackclock event`` commands): each append takes SQLite's write lock, reads
the records others appended since, applies them, and only then checks and
appends its own, so no writer refuses on a stale view or forks the chain. A
process reaches the file only through its one connection (closing any other
descriptor of the file would drop SQLite's locks: "How To Corrupt An SQLite
Database File" 2.2); every reader opens it read-only.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from os import PathLike
from pathlib import Path
from types import TracebackType

import msgspec

from clock.log import eventlog
from clock.log.eventlog import LEDGER_FORMAT, ZERO_HASH, LogError, chain_hash, connect, disconnect
from clock.user_files import load_variant
from engine.errors import DataFileError
from engine.rules.variant import register_variant
from engine.tournament.records import Created, Record, decode_record, encode_record
from engine.tournament.state import EventState, replay

__all__ = ["Anchor", "EventLedger", "parse_anchor", "read_ledger", "verify_ledger"]

FORMAT = LEDGER_FORMAT

_APPEND_ONLY = "the event log is append-only"
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE records (seq INTEGER PRIMARY KEY, body BLOB NOT NULL, hash BLOB NOT NULL)",
    f"CREATE TRIGGER records_append_only_u BEFORE UPDATE ON records "
    f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END",
    f"CREATE TRIGGER records_append_only_d BEFORE DELETE ON records "
    f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END",
)
# The head, as the table's log keeps one (clock/log/eventlog.py): a record cut from
# the tail with the triggers dropped leaves the head naming more records than there are.
_HEAD = (
    "CREATE TABLE head (id INTEGER PRIMARY KEY CHECK (id = 0), "
    "count INTEGER NOT NULL, hash BLOB NOT NULL)",
    "CREATE TRIGGER records_extend_head BEFORE INSERT ON records "
    "WHEN NEW.seq IS NOT (SELECT count + 1 FROM head) "
    f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}: a new record must extend the head'); END",
    "CREATE TRIGGER head_follows BEFORE UPDATE ON head "
    "WHEN NEW.id IS NOT OLD.id OR NEW.count IS NOT OLD.count + 1 "
    "OR NEW.hash IS NOT (SELECT hash FROM records WHERE seq = NEW.count) "
    f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}: the head must name the last record'); END",
    "CREATE TRIGGER head_no_delete BEFORE DELETE ON head "
    f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END",
)

_ANCHOR = re.compile(r"(\d+):([0-9a-fA-F]{12,64})")
_ANCHOR_SHOWN = 16
"""Hex digits of the hash an anchor shows (64 bits: no one forges a match by chance)."""


class Anchor(msgspec.Struct, frozen=True):
    """The ledger's head outside the file: how many records, and the last one's chain hash."""

    count: int
    hash: str
    """The hash in hex: all 64 digits, or a prefix of at least 12 (as typed)."""

    def __str__(self) -> str:
        return f"{self.count}:{self.hash[:_ANCHOR_SHOWN]}"


def parse_anchor(text: str) -> Anchor:
    """``COUNT:HASH`` as printed by ``event pair``/``publish``.

    Raises:
        LogError: Not an anchor (quoted).
    """
    m = _ANCHOR.fullmatch(text.strip())
    if m is None or int(m[1]) < 1:
        raise LogError(
            f"{text!r} is not an anchor: expected COUNT:HASH as event pair prints it "
            "(e.g. 12:9f2c4e7a01b3d5c6, at least 12 hex digits)"
        )
    return Anchor(int(m[1]), m[2].lower())


class EventLedger:
    """One event's ledger, open for reading and appending (or only reading)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        key: str,
        path: str,
        records: list[tuple[Record, bytes]],
        version: int,
        *,
        readonly: bool = False,
    ) -> None:
        """Use :meth:`create` or :meth:`open`."""
        self._conn = conn
        self._key: str | None = key
        """How this process counts the connection (clock.log.eventlog.connect); None
        once closed."""
        self.path = path
        self.readonly = readonly
        """Opened only to read: :meth:`append` refuses."""
        self.state = replay(r for r, _ in records)
        """The event after every record read from the log."""
        _register_variants(self.state)
        self._count = len(records)
        self._hash = records[-1][1]
        self._version = version
        """SQLite's ``data_version`` no later than the records read: a newer one means
        another connection committed since."""

    @classmethod
    def create(cls, path: str | PathLike[str], event_text: str, source: str) -> EventLedger:
        """Start a new event's ledger from its event file's text.

        Raises:
            LogError: The file exists or cannot be made.
            TournamentError: The event file is not an event (nothing is written).
        """
        where = Path(path)
        if where.exists():
            raise LogError(f"{str(where)!r} already exists: an event's ledger is made once")
        first = Created(event_text, source, uuid.uuid4().hex)  # this log's own event id
        replay([first])  # refuses a bad event file before the file is made
        try:
            conn, key = connect(where, "rwc")
        except sqlite3.Error as exc:
            raise LogError(f"cannot create {str(where)!r}: {exc}") from exc
        body = encode_record(first)
        digest = chain_hash(ZERO_HASH, 1, 0, False, body)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("BEGIN IMMEDIATE")
            for sql in _SCHEMA + _HEAD:
                conn.execute(sql)
            conn.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            conn.execute("INSERT INTO head VALUES (0, 0, ?)", (ZERO_HASH,))
            conn.execute("INSERT INTO records VALUES (1, ?, ?)", (body, digest))
            conn.execute("UPDATE head SET count = 1, hash = ? WHERE id = 0", (digest,))
            conn.execute("COMMIT")
            version = _data_version(conn)
        except sqlite3.Error as exc:  # a full disk, a folder that refuses the WAL file
            disconnect(conn, key)
            raise LogError(f"cannot create {str(where)!r}: {exc}") from exc
        return cls(conn, key, str(where), [(first, digest)], version)

    @classmethod
    def open(cls, path: str | PathLike[str], *, readonly: bool = False) -> EventLedger:
        """Open an event's ledger and replay it; ``readonly`` for a reader that follows
        a log others write (a venue screen, ``verify``): it never writes, never
        checkpoints.

        Raises:
            LogError: Not an event's ledger (a table's game log is named as one), or its
                chain or head is broken (with the record).
            TournamentError: A record the rules refuse (with its number).
        """
        shown = repr(str(path))
        if not Path(path).is_file():
            raise LogError(f"no event's ledger at {shown}")
        try:
            conn, key = connect(Path(path), "ro" if readonly else "rw")
        except sqlite3.Error as exc:
            raise LogError(f"cannot open {shown}: {exc}") from exc
        try:
            if not readonly:
                conn.execute("PRAGMA synchronous=FULL")
                _add_head(conn, shown)
            version = _data_version(conn)  # before reading: a commit meanwhile is seen later
            conn.execute("BEGIN")  # one snapshot: the records and the head agree
            try:
                records = _read(conn, shown, 0, ZERO_HASH)
                _check_head(conn, shown, len(records), records[-1][1] if records else ZERO_HASH)
            finally:
                conn.execute("COMMIT")
            if not records:
                raise LogError(f"{shown} holds no records: not an event's ledger")
            return cls(conn, key, str(path), records, version, readonly=readonly)
        except sqlite3.Error as exc:  # not SQLite at all, or SQLite refusing it
            disconnect(conn, key)
            raise _sqlite_error(shown, exc) from exc
        except BaseException:
            disconnect(conn, key)
            raise

    @property
    def anchor(self) -> Anchor:
        """The head as this ledger last read or wrote it."""
        return Anchor(self._count, self._hash.hex())

    def records(self) -> list[Record]:
        """The records as this ledger last read or wrote them, in order (record 1 first),
        read again from the file with the chain checked: what ``event show --history``
        lists. Works on a ledger opened read-only.

        Raises:
            LogError: The file cannot be read or its chain breaks.
        """
        shown = repr(self.path)
        try:
            self._conn.execute("BEGIN")
            try:
                read = _read(self._conn, shown, 0, ZERO_HASH)
            finally:
                self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise _sqlite_error(shown, exc) from exc
        # others may have appended since: only what self.state holds (its names, its seeds)
        return [record for record, _ in read[: self._count]]

    def refresh(self) -> bool:
        """Take the records other processes appended since; whether there were any.

        Cheap when nothing changed: SQLite's ``data_version`` says whether another
        connection committed (a WAL file's commit leaves the main file's mtime alone).

        Raises:
            LogError, TournamentError: What was appended cannot be read or applied.
        """
        try:
            version = _data_version(self._conn)
            if version == self._version:
                return False
            self._conn.execute("BEGIN")
            try:
                got = self._catch_up()
            finally:
                self._conn.execute("COMMIT")
        except sqlite3.Error as exc:  # the file replaced or damaged under us
            raise _sqlite_error(repr(self.path), exc) from exc
        self._version = version
        return got > 0

    def append(self, record: Record) -> EventState:
        """Bring the event up to date, check ``record`` against it, then commit it.

        Raises:
            TournamentError: The event refuses it; the log is unchanged.
            LogError: The log was opened read-only, or others appended what cannot be read.
        """
        if self.readonly:
            raise LogError(f"cannot write {self.path!r}: it was opened read-only")
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")  # the write lock: no one appends until COMMIT
        except sqlite3.Error as exc:
            raise LogError(f"cannot write {self.path!r}: {exc}") from exc
        try:
            self._append_locked(record)
        except sqlite3.Error as exc:  # a trigger's refusal, a full disk: nothing written
            raise LogError(f"cannot write {self.path!r}: {exc}") from exc
        return self.state

    def _append_locked(self, record: Record) -> None:
        """:meth:`append` holding the write lock: commit, or roll back and re-read."""
        conn = self._conn
        applied = False
        try:
            # holding the write lock no one else commits: this version is exact
            self._version = _data_version(conn)
            self._catch_up()
            self.state.apply(record)  # raises before anything is written
            applied = True
            body = encode_record(record)
            seq = self._count + 1
            digest = chain_hash(self._hash, seq, 0, False, body)
            conn.execute("INSERT INTO records VALUES (?, ?, ?)", (seq, body, digest))
            conn.execute("UPDATE head SET count = ?, hash = ? WHERE id = 0", (seq, digest))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                conn.execute("ROLLBACK")
            if applied:  # the state took a record the file did not: read it all again
                self._reload()
            raise
        self._count, self._hash = seq, digest

    def _reload(self) -> None:
        self._conn.execute("BEGIN")
        try:
            records = _read(self._conn, repr(self.path), 0, ZERO_HASH)
        finally:
            self._conn.execute("COMMIT")
        self.state = replay(r for r, _ in records)
        self._count, self._hash = len(records), records[-1][1]

    def _catch_up(self) -> int:
        """Inside a transaction: apply the records after ours; how many."""
        shown = repr(self.path)
        new = _read(self._conn, shown, self._count, self._hash)
        for record, digest in new:
            self.state.apply(record)
            self._count += 1
            self._hash = digest
        _check_head(self._conn, shown, self._count, self._hash)
        return len(new)

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._key is not None:
            disconnect(self._conn, self._key)
            self._key = None

    def __enter__(self) -> EventLedger:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _sqlite_error(shown: str, exc: sqlite3.Error) -> LogError:
    """SQLite's refusal as the one line a reader gets: a file that is not SQLite
    (``file is not a database``) is named as not an event's ledger."""
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        return LogError(f"{shown} is not an event's ledger (not an SQLite file: {exc})")
    return LogError(f"cannot read {shown}: {exc}")


def _data_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


def _add_head(conn: sqlite3.Connection, shown: str) -> None:
    """Give a log made before the head existed its head (in one transaction)."""
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as exc:
        raise LogError(f"{shown} is not an event's ledger: {exc}") from exc
    if "head" in names or "records" not in names:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        records = _read(conn, shown, 0, ZERO_HASH)
        count, digest = len(records), records[-1][1] if records else ZERO_HASH
        for sql in _HEAD:
            conn.execute(sql)
        conn.execute("INSERT INTO head VALUES (0, ?, ?)", (count, digest))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _read(
    conn: sqlite3.Connection, shown: str, after: int, prev: bytes
) -> list[tuple[Record, bytes]]:
    """The records after record ``after`` (whose hash is ``prev``), chain checked."""
    try:
        fmt = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.Error as exc:
        raise LogError(f"{shown} is not an event's ledger: {exc}") from exc
    if fmt is not None and fmt[0] == eventlog.FORMAT:  # named for what it is
        raise LogError(f"{shown} is a table's game log; give the event's ledger")
    if fmt is None or fmt[0] != FORMAT:
        raise LogError(f"{shown} is not an event's ledger (format {fmt!r})")
    try:
        rows = conn.execute(
            "SELECT seq, body, hash FROM records WHERE seq > ? ORDER BY seq", (after,)
        ).fetchall()
    except sqlite3.Error as exc:
        raise LogError(f"{shown} is not an event's ledger: {exc}") from exc
    out: list[tuple[Record, bytes]] = []
    for want, (seq, body, digest) in enumerate(rows, start=after + 1):
        # a row edited by hand may hold text, not bytes: it cannot match its hash
        body = body if isinstance(body, bytes) else str(body).encode()
        digest = digest if isinstance(digest, bytes) else b""
        if seq != want or chain_hash(prev, seq, 0, False, body) != digest:
            raise LogError(f"{shown}: the chain breaks at record {want}; it was altered")
        prev = bytes(digest)
        try:
            out.append((decode_record(body), prev))
        except msgspec.DecodeError as exc:
            raise LogError(f"{shown} record {seq}: {exc}") from exc
    return out


def _check_head(conn: sqlite3.Connection, shown: str, count: int, last: bytes) -> None:
    """The head row names the last record read (inside the same read transaction)."""
    try:
        rows = conn.execute("SELECT count, hash FROM head").fetchall()
    except sqlite3.Error:
        raise LogError(
            f"{shown} has no head: a record cut from its end cannot be seen; "
            "open it once with rackclock event show to add one"
        ) from None
    if len(rows) != 1:
        raise LogError(f"{shown}: the head table has {len(rows)} rows, expected 1")
    head_count, head_hash = rows[0]
    if head_count != count:
        if isinstance(head_count, int) and head_count > count:
            raise LogError(
                f"{shown} is truncated: its head names {head_count} records but it ends at "
                f"record {count} (records {count + 1}..{head_count} missing)"
            )
        raise LogError(
            f"{shown}: its head names {head_count!r} records but it holds {count}: "
            "records added without the head, or the head altered"
        )
    if head_hash != last:
        raise LogError(f"{shown}: the head's hash is not record {count}'s: it was altered")


def verify_ledger(path: str | PathLike[str], *, anchor: Anchor | None = None) -> Anchor:
    """The ledger's head, after checking the chain and the head row, replaying every
    record, and (given an ``anchor`` printed or published earlier) checking that the
    log still holds that record with that hash: a log may have grown since its
    anchor, never shrunk or changed under it. Opened read-only.

    Raises:
        LogError, TournamentError: The first problem found.
    """
    with EventLedger.open(path, readonly=True) as ledger:
        if anchor is not None:
            _check_anchor(ledger, anchor)
        return ledger.anchor


def _check_anchor(ledger: EventLedger, anchor: Anchor) -> None:
    shown = repr(ledger.path)
    if anchor.count > ledger.anchor.count:
        raise LogError(
            f"{shown} ends at record {ledger.anchor.count} but the anchor {anchor} names "
            f"record {anchor.count}: records {ledger.anchor.count + 1}..{anchor.count} are missing"
        )
    try:
        row = ledger._conn.execute(
            "SELECT hash FROM records WHERE seq = ?", (anchor.count,)
        ).fetchone()
    except sqlite3.Error as exc:
        raise _sqlite_error(shown, exc) from exc
    have = bytes(row[0]).hex() if row is not None else ""
    if not have.startswith(anchor.hash):
        raise LogError(
            f"{shown}: record {anchor.count}'s hash is {have[:_ANCHOR_SHOWN]}, not the "
            f"anchor's {anchor.hash[:_ANCHOR_SHOWN]}: the log was rewritten since"
        )


def _register_variants(state: EventState) -> None:
    """Read the variant files the divisions name (their standings follow the variant's
    event rules), as a table reads its game's: the engine resolves a name only. A file
    that cannot be read is registered as its error, given when the standings need it."""
    for name in {div.variant for div in state.spec.divisions}:
        try:
            load_variant(name)
        except DataFileError as exc:
            register_variant(name, exc)


def read_ledger(path: str | PathLike[str]) -> EventState:
    """The event as its ledger stands, read without taking the writer's part.

    Raises:
        LogError, TournamentError: It cannot be read.
    """
    with EventLedger.open(path, readonly=True) as ledger:
        return ledger.state
