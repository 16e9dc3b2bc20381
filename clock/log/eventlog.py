"""The table's game log: append-only, hash-chained, one SQLite file per table.

Every event the table accepts is appended here and committed (fsync) before
anything acknowledges it; a refused command may be kept too, for forensics,
marked ``refused`` and never replayed. The file may hold several games one
after another. Each row's hash covers the previous row's hash, so an edit
anywhere breaks the chain, and a one-row ``head`` table, updated in the same
transaction as each append, gives away rows cut from the tail. The format
(schema, pragmas, triggers, the hash byte by byte) is documented in
docs/events.md, "The game log file".

Who may open a log, and how (docs/events.md, "Who opens a log"): the table's
writer holds one read-write connection; every other reader opens it read-only
(:meth:`EventLog.open_readonly`, :func:`verify`, :func:`export_jsonl`) and never
checkpoints or removes the WAL; and while a connection of this process has the file
open, nothing in the process opens the file except through SQLite (:func:`peek`).
POSIX locks belong to the process, not the descriptor: closing any descriptor of the
file would drop the writer's locks, and another process closing the file would then
delete the running table's ``-wal`` with the events acknowledged in it.

The engine never reads a clock: ``t`` comes with the event or from the caller.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import struct
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import TextIO

import msgspec
from msgspec.structs import replace

from engine.errors import EngineError, Refusal
from engine.events import Event, decode_event, encode_event

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "LEDGER_FORMAT",
    "ZERO_HASH",
    "EventLog",
    "ImportResult",
    "LogError",
    "LogRecord",
    "VerifyResult",
    "chain_hash",
    "connect",
    "disconnect",
    "export_jsonl",
    "held",
    "import_jsonl",
    "peek",
    "verify",
    "verify_and_read",
]

FORMAT = "rackclock-eventlog"
"""The ``meta`` table's ``format`` value: what marks a file as a game log."""
LEDGER_FORMAT = "rackclock-event"
"""The ``format`` an event's ledger (:mod:`clock.tournament.ledger`) writes: a file of
the other kind is named for what it is, in either reader's refusal."""
FORMAT_VERSION = 1
"""The ``meta`` table's ``version`` value this module reads and writes."""
ZERO_HASH = bytes(32)
"""``prev_hash`` of the first row: 32 zero bytes."""

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1
_APPEND_ONLY = "append-only event log"

StrPath = str | PathLike[str]

_TABLES = (
    """CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
)""",
    """CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    t INTEGER NOT NULL,
    type TEXT NOT NULL,
    body BLOB NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    rule TEXT,
    prev_hash BLOB NOT NULL,
    hash BLOB NOT NULL
)""",
    """CREATE TABLE head (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    count INTEGER NOT NULL,
    hash BLOB NOT NULL
)""",
)

# name -> the exact CREATE TRIGGER text (SQLite keeps it verbatim in sqlite_master,
# so verify() can tell a trigger replaced by a weaker one).
_TRIGGERS = {
    "events_no_update": f"""CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END""",
    "events_no_delete": f"""CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END""",
    "events_in_chain": f"""CREATE TRIGGER events_in_chain BEFORE INSERT ON events
WHEN NEW.seq IS NOT (SELECT count + 1 FROM head)
  OR NEW.prev_hash IS NOT (SELECT hash FROM head)
BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}: a new row must extend the head'); END""",
    "head_follows": f"""CREATE TRIGGER head_follows BEFORE UPDATE ON head
WHEN NEW.id IS NOT OLD.id
  OR NEW.count IS NOT OLD.count + 1
  OR NEW.hash IS NOT (SELECT hash FROM events WHERE seq = NEW.count)
BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}: the head must name the last row'); END""",
    "head_no_delete": f"""CREATE TRIGGER head_no_delete BEFORE DELETE ON head
BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END""",
}


class LogError(EngineError):
    """The file is not a game log, has an unknown format version, or is damaged."""


class LogRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the ``events`` table, as stored."""

    seq: int
    """1, 2, 3, ... with no gaps."""
    t: int
    """The event's resolved time (ms on the table's timeline)."""
    type: str
    """The event's ``type`` tag (also inside ``body``)."""
    body: bytes
    """The event's JSON exactly as :func:`~engine.events.encode_event` gave it (may lack ``t``)."""
    refused: bool
    """True for a refused command kept for forensics; never replayed."""
    reason: str | None
    """The refusal's reason (refused rows only)."""
    rule: str | None
    """The rule that refused it (refused rows only)."""
    prev_hash: bytes
    """The previous row's ``hash`` (:data:`ZERO_HASH` for seq 1)."""
    hash: bytes
    """:func:`chain_hash` of this row."""

    def event(self) -> Event:
        """The decoded event, with ``t`` filled in from the row."""
        return _with_t(decode_event(self.body), self.t)


class VerifyResult(msgspec.Struct, frozen=True, kw_only=True):
    """What :func:`verify` found. Problems about the whole file have seq 0."""

    ok: bool
    count: int
    """Rows in the ``events`` table."""
    head_hash: str
    """The head row's hash in hex ("" when there is no head row)."""
    problems: tuple[tuple[int, str], ...] = ()


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """What :func:`import_jsonl` did: events appended, and lines it could not read."""

    count: int
    errors: tuple[tuple[int, str], ...] = ()
    """``(line, message)``; lines are 1-based."""


class _RefusedMark(msgspec.Struct, frozen=True):
    """The extra fields a refused row carries in JSON Lines."""

    refused: bool = False
    reason: str | None = None
    rule: str | None = None


_mark_decoder = msgspec.json.Decoder(_RefusedMark)


def chain_hash(prev_hash: bytes, seq: int, t: int, refused: bool, body: bytes) -> bytes:
    """SHA-256(prev_hash || seq u64 BE || t i64 BE || refused byte || body)."""
    h = hashlib.sha256(prev_hash)
    h.update(struct.pack(">Qq", seq, t))
    h.update(b"\x01" if refused else b"\x00")
    h.update(body)
    return h.digest()


def _with_t(event: Event, t: int) -> Event:
    return event if event.t == t else replace(event, t=t)


def _uri(path: StrPath, mode: str) -> str:
    return f"{Path(path).resolve().as_uri()}?mode={mode}"


def _shown(path: StrPath) -> str:
    return repr(str(path))


# --- the logs this process holds open ----------------------------------------------------

# POSIX advisory locks belong to a process and a file, not to a descriptor: closing any
# descriptor of the file drops every lock the process holds on it, SQLite's included
# (sqlite.org/howtocorrupt.html, section 2.2). A table whose locks are gone looks closed
# to other processes: the next one to close a read-write connection checkpoints and
# deletes the table's -wal and -shm, and the table goes on committing into a deleted
# file (issue 19: 20 of 25 acknowledged events lost). So every connection this module
# makes is counted here, by the file's real path, and a Python-level read of the file
# (peek) happens only while none is open. The lock makes the check and the read one
# step: no connection opens between them.
_held: Counter[str] = Counter()
_held_lock = threading.Lock()


def _key(path: StrPath) -> str:
    return os.path.realpath(os.fspath(path))


def held(path: StrPath) -> bool:
    """Whether a connection of this process has the log at ``path`` open."""
    with _held_lock:
        return _held[_key(path)] > 0


def peek(path: StrPath, size: int) -> bytes | None:
    """The first ``size`` bytes of the file at ``path``, read with a plain ``open()``; or
    None when a connection of this process has it open (it is then a SQLite log, and
    closing a descriptor of it would drop that connection's locks).

    Raises:
        OSError: The file cannot be read.
    """
    with _held_lock:
        if _held[_key(path)]:
            return None
        with open(path, "rb") as f:
            return f.read(size)


def connect(path: StrPath, mode: str) -> tuple[sqlite3.Connection, str]:
    """A connection to ``path`` in SQLite URI ``mode`` ("ro", "rw", "rwc"), counted as
    held until :func:`disconnect`; and the key to release it by. The one way this
    project opens a SQLite file of its own (a table's game log, the event's ledger), so that
    :func:`peek` never reads a file a connection of this process holds.

    Raises:
        sqlite3.Error: SQLite cannot open it.
    """
    key = _key(path)
    with _held_lock:
        _held[key] += 1  # before SQLite opens the file: no peek may run from here on
    try:
        conn = sqlite3.connect(
            _uri(path, mode), uri=True, isolation_level=None, check_same_thread=False
        )
    except BaseException:
        _release(key)
        raise
    return conn, key


def disconnect(conn: sqlite3.Connection, key: str) -> None:
    conn.close()
    _release(key)


def _release(key: str) -> None:
    with _held_lock:
        _held[key] -= 1
        if _held[key] <= 0:
            del _held[key]


class EventLog:
    """One table's game log, open for reading and appending.

    Use one :class:`EventLog` per file as the single writer; it may be handed
    between threads but must not be used by two at once. Every other reader uses
    :meth:`open_readonly`.
    """

    def __init__(
        self, conn: sqlite3.Connection, path: str, key: str, *, readonly: bool = False
    ) -> None:
        """Use :meth:`open` or :meth:`open_readonly`."""
        self._conn: sqlite3.Connection | None = conn
        self._key = key
        self.readonly = readonly
        """Opened with :meth:`open_readonly`: it reads, and never appends."""
        # (count, last hash, last t) after our own last commit: this connection is
        # the only writer, so each append need not read them back from the file.
        self._tail: tuple[int, bytes, int] | None = None
        self.path = path
        """The file, as given to :meth:`open`."""

    # --- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: StrPath, *, create: bool = True, created: str | None = None) -> EventLog:
        """Open the log at ``path``; with ``create``, make a new one if there is none.

        ``created`` is an informational timestamp for the ``meta`` table of a new
        file (outside the hash chain); by default SQLite's own UTC time is used.

        Raises:
            LogError: the file is missing (``create=False``), is not a game log,
                has an unknown format version, or its head does not match its last row.
        """
        return cls._open(path, "rwc" if create else "rw", created=created)

    @classmethod
    def open_readonly(cls, path: StrPath) -> EventLog:
        """Open the existing log at ``path`` to read it, as every reader that is not the
        table's writer must: a read-only connection (SQLite URI ``mode=ro``), which
        never checkpoints the WAL nor removes it, so a running table loses nothing.

        Raises:
            LogError: the file is missing, is not a game log, has an unknown format
                version, or its head does not match its last row.
        """
        return cls._open(path, "ro", created=None)

    @classmethod
    def _open(cls, path: StrPath, mode: str, *, created: str | None) -> EventLog:
        shown = _shown(path)
        where = Path(path)
        if where.is_dir():
            raise LogError(f"{shown} is a folder; give a game log file (e.g. table.sqlite)")
        if mode == "rwc" and not where.exists() and not where.parent.is_dir():
            raise LogError(
                f"cannot create {shown}: the folder {str(where.parent)!r} does not exist"
            )
        if where.is_file() and _looks_like_json_lines(where):
            raise LogError(
                f"{shown} is a JSON Lines export, not a game log: import it first "
                f"(rackclock log import {where} NEW.sqlite)"
            )
        try:
            conn, key = connect(path, mode)
        except sqlite3.Error as exc:
            what = "cannot create" if mode == "rwc" else "no game log at"
            raise LogError(f"{what} {shown}: {exc}") from exc
        try:
            _prepare(conn, shown, mode=mode, created=created)
        except BaseException:
            disconnect(conn, key)
            raise
        return cls(conn, str(path), key, readonly=mode == "ro")

    def close(self) -> None:
        """Close the file (idempotent). Every append is already committed."""
        if self._conn is not None:
            disconnect(self._conn, self._key)
            self._conn = None

    def __enter__(self) -> EventLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise LogError(f"the game log {_shown(self.path)} is closed")
        return self._conn

    # --- writing -------------------------------------------------------------------------

    def append(self, event: Event, *, t: int | None = None, refused: Refusal | None = None) -> int:
        """Append ``event`` and commit (fsync) it; returns its seq.

        Its time is ``event.t`` if set, else ``t``, else the previous row's, else 0.
        With ``refused``, the row is kept for forensics with the refusal's reason
        and rule, and never replayed.

        Raises:
            LogError: the log was opened read-only, or ``t`` does not fit.
        """
        db = self._db
        if self.readonly:
            raise LogError(f"the game log {_shown(self.path)} is open read-only")
        db.execute("BEGIN IMMEDIATE")
        try:
            if self._tail is None:
                count, last_hash = _read_head(db)
                self._tail = (count, last_hash, _last_t(db, count))
            tail = self._insert(db, *self._tail, event, t, refused)
            db.execute("COMMIT")
        except BaseException:
            self._tail = None  # read the head again next time
            db.execute("ROLLBACK")
            raise
        self._tail = tail
        return tail[0]

    @staticmethod
    def _insert(
        db: sqlite3.Connection,
        count: int,
        last_hash: bytes,
        last_t: int,
        event: Event,
        t: int | None,
        refused: Refusal | None,
    ) -> tuple[int, bytes, int]:
        """Insert one row inside the caller's transaction; returns (seq, hash, t)."""
        row_t = event.t if event.t is not None else t if t is not None else last_t
        if not _INT64_MIN <= row_t <= _INT64_MAX:
            raise LogError(f"t={row_t!r} does not fit in a signed 64-bit integer")
        body = encode_event(event)
        seq = count + 1
        digest = chain_hash(last_hash, seq, row_t, refused is not None, body)
        db.execute(
            "INSERT INTO events (seq, t, type, body, refused, reason, rule, prev_hash, hash)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                seq,
                row_t,
                type(event).__struct_config__.tag,
                body,
                int(refused is not None),
                refused.reason if refused is not None else None,
                refused.rule if refused is not None else None,
                last_hash,
                digest,
            ),
        )
        db.execute("UPDATE head SET count = ?, hash = ? WHERE id = 0", (seq, digest))
        return seq, digest, row_t

    # --- reading -------------------------------------------------------------------------

    def head(self) -> tuple[int, bytes]:
        """``(count, hash of the last row)``; ``(0, ZERO_HASH)`` for an empty log."""
        return _read_head(self._db)

    def records(self, *, refused_only: bool = False) -> Iterator[LogRecord]:
        """Every row, refused ones included, in seq order; only the refused rows with
        ``refused_only`` (what :meth:`events` leaves out)."""
        where = " WHERE refused != 0" if refused_only else ""
        cur = self._db.execute(
            "SELECT seq, t, type, body, refused, reason, rule, prev_hash, hash"
            f" FROM events{where} ORDER BY seq"
        )
        for seq, t, typ, body, refused, reason, rule, prev_hash, digest in cur:
            yield LogRecord(
                seq=seq,
                t=t,
                type=typ,
                # a body edited by hand may come back as TEXT (as in events())
                body=body.encode("utf-8") if isinstance(body, str) else bytes(body),
                refused=bool(refused),
                reason=reason,
                rule=rule,
                prev_hash=bytes(prev_hash),
                hash=bytes(digest),
            )

    def events(self, *, include_refused: bool = False) -> Iterator[tuple[int, Event]]:
        """``(seq, event)`` in order, ``t`` filled in; refused rows only on request.

        The pairs feed :func:`engine.rules.replay.replay` directly.

        Raises:
            LogError: a stored body no longer decodes (the file was damaged).
        """
        where = "" if include_refused else " WHERE refused = 0"
        cur = self._db.execute(f"SELECT seq, t, body FROM events{where} ORDER BY seq")
        for seq, t, body in cur:
            # A body edited by hand outside the chain may come back as TEXT; read it as
            # written and let verify() report the edit.
            raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
            try:
                event = decode_event(raw)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                raise LogError(f"{_shown(self.path)} seq {seq}: cannot read event: {exc}") from exc
            yield seq, _with_t(event, t)


def _prepare(conn: sqlite3.Connection, shown: str, *, mode: str, created: str | None) -> None:
    """Check (or, in mode "rwc", create) the schema; a writer's connection then sets the
    pragmas (a read-only one reads the file as the writer keeps it)."""
    try:
        names = _table_names(conn)
        if not names:
            if mode != "rwc":
                raise LogError(f"{shown} is not a rackclock game log (it is empty)")
            # WAL is persistent and must be set outside a transaction.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                if not _table_names(conn):  # nobody else created it meanwhile
                    _create_schema(conn, created)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        else:
            _check_format(conn, shown, names)
            if mode != "ro":
                journal = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(journal).lower() != "wal":
                    raise LogError(f"{shown}: cannot switch to WAL journal mode (got {journal!r})")
        if mode != "ro":
            conn.execute("PRAGMA synchronous=FULL")
        # One read transaction: a writer appending meanwhile must not make the head
        # and the last row look out of step.
        conn.execute("BEGIN")
        try:
            count, last_hash = _read_head(conn)
            row = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        finally:
            conn.execute("COMMIT")
        last_seq, row_hash = (0, ZERO_HASH) if row is None else (row[0], bytes(row[1]))
        if (count, last_hash) != (last_seq, row_hash):
            raise LogError(
                f"{shown} is damaged: the head names {count} events but the last row is"
                f" seq {last_seq}, or their hashes differ; run verify"
            )
    except sqlite3.Error as exc:
        raise LogError(f"{shown} is not a rackclock game log: {exc}") from exc


def _looks_like_json_lines(path: Path) -> bool:
    """Whether the file starts like JSON Lines (an event export) rather than SQLite.
    A file this process holds open is a log: it is not read (:func:`peek`)."""
    try:
        head = peek(path, 64)
    except OSError:
        return False
    return head is not None and head.lstrip().startswith(b"{")


def _table_names(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _create_schema(conn: sqlite3.Connection, created: str | None) -> None:
    for sql in _TABLES:
        conn.execute(sql)
    for sql in _TRIGGERS.values():
        conn.execute(sql)
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [("format", FORMAT), ("version", str(FORMAT_VERSION))],
    )
    # The engine reads no clock: the caller (the clock service) says when, or nobody does.
    if created is not None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('created', ?)", (created,))
    conn.execute("INSERT INTO head (id, count, hash) VALUES (0, 0, ?)", (ZERO_HASH,))


def _check_format(conn: sqlite3.Connection, shown: str, names: set[str]) -> None:
    """Raise LogError unless the file says it is a game log of a known version."""
    if "meta" in names and "events" not in names:
        kind = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if kind is not None and kind[0] == LEDGER_FORMAT:
            raise LogError(f"{shown} is an event's ledger; give a table's game log")
    if not {"meta", "events", "head"} <= names:
        raise LogError(f"{shown} is not a rackclock game log (no meta, events and head tables)")
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    if meta.get("format") != FORMAT:
        raise LogError(
            f"{shown} is not a rackclock game log (format {meta.get('format')!r},"
            f" expected {FORMAT!r})"
        )
    if meta.get("version") != str(FORMAT_VERSION):
        raise LogError(
            f"{shown} has game log format version {meta.get('version')!r};"
            f" this program reads version {FORMAT_VERSION}"
        )


def _read_head(conn: sqlite3.Connection) -> tuple[int, bytes]:
    row = conn.execute("SELECT count, hash FROM head WHERE id = 0").fetchone()
    if row is None:
        raise LogError("the game log is damaged: its head row is missing; run verify")
    return int(row[0]), bytes(row[1])


def _last_t(conn: sqlite3.Connection, count: int) -> int:
    row = conn.execute("SELECT t FROM events WHERE seq = ?", (count,)).fetchone()
    return 0 if row is None else int(row[0])


# --- verify ------------------------------------------------------------------------------


def verify(path: StrPath) -> VerifyResult:
    """Check the file at ``path`` read-only: SQLite integrity, format, chain, head, triggers.

    Never raises for a bad file: every finding is a ``(seq, message)`` problem
    (seq 0 for the file as a whole).
    """
    return _verify_file(path, None)


def verify_and_read(path: StrPath) -> tuple[VerifyResult, list[tuple[int, Event]]]:
    """:func:`verify`, and the events the same pass decoded: ``(seq, event)`` in order,
    ``t`` filled in, refused rows left out, as :meth:`EventLog.events` gives them.

    One read-only connection and one read of each row (issue 19's benchmark: verifying
    and then loading read every log twice). The events are whole only when the
    result is ``ok``; a row whose body does not decode is a problem, not an event.
    """
    kept: list[tuple[int, Event]] = []
    return _verify_file(path, kept), kept


def _verify_file(path: StrPath, kept: list[tuple[int, Event]] | None) -> VerifyResult:
    shown = _shown(path)
    if not Path(path).is_file():
        return VerifyResult(ok=False, count=0, head_hash="", problems=((0, f"no file {shown}"),))
    try:
        conn, key = connect(path, "ro")
    except sqlite3.Error as exc:
        return VerifyResult(
            ok=False, count=0, head_hash="", problems=((0, f"cannot open {shown}: {exc}"),)
        )
    try:
        return _verify(conn, shown, kept)
    except sqlite3.Error as exc:
        problem = (0, f"{shown} is not a readable rackclock game log: {exc}")
        return VerifyResult(ok=False, count=0, head_hash="", problems=(problem,))
    finally:
        disconnect(conn, key)


def _verify(
    conn: sqlite3.Connection, shown: str, kept: list[tuple[int, Event]] | None
) -> VerifyResult:
    problems: list[tuple[int, str]] = []
    conn.execute("BEGIN")  # one consistent snapshot for every read below
    # The full check, not quick_check: it also matches each index against its table,
    # page-level damage the chain (which reads only the rows) may not see; on a table
    # log (no index but the primary key's) the two took the same 0.2 ms a log
    # (bench.event's 50 logs, 2026-11-26), so nothing is saved by the weaker one.
    integrity = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
    if integrity != ["ok"]:
        problems.extend((0, f"SQLite integrity check: {msg}") for msg in integrity)
    names = _table_names(conn)
    try:
        _check_format(conn, shown, names)
    except LogError as exc:
        problems.append((0, str(exc)))
        return VerifyResult(ok=False, count=0, head_hash="", problems=tuple(problems))

    triggers = dict(
        conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    )
    for name, sql in _TRIGGERS.items():
        if name not in triggers:
            problems.append((0, f"trigger {name} is missing: the log is not protected"))
        elif triggers[name] != sql:
            problems.append((0, f"trigger {name} has been altered"))

    count = 0
    expected = 1
    prev = ZERO_HASH
    last_seq = 0
    cur = conn.execute(
        "SELECT seq, t, type, body, refused, prev_hash, hash FROM events ORDER BY seq"
    )
    for seq, t, typ, body, refused, prev_hash, digest in cur:
        count += 1
        p, event = _check_row(seq, t, typ, body, refused, prev_hash, digest, expected, prev)
        problems.extend(p)
        if kept is not None and event is not None and refused == 0:
            kept.append((seq, _with_t(event, t)))
        expected = seq + 1 if isinstance(seq, int) else expected + 1
        prev = digest if isinstance(digest, bytes) else ZERO_HASH
        last_seq = seq if isinstance(seq, int) else last_seq

    head_rows = conn.execute("SELECT id, count, hash FROM head").fetchall()
    head_hash = ""
    if not head_rows:
        problems.append((0, "the head row is missing: the tail cannot be checked"))
    elif len(head_rows) > 1:
        problems.append((0, f"the head table has {len(head_rows)} rows, expected 1"))
    else:
        _, head_count, head_digest = head_rows[0]
        head_hash = bytes(head_digest).hex() if isinstance(head_digest, bytes) else ""
        if head_count != last_seq:
            if isinstance(head_count, int) and head_count > last_seq:
                problems.append(
                    (
                        last_seq + 1,
                        f"truncated: the head names {head_count} events but the log ends at"
                        f" seq {last_seq} (seq {last_seq + 1}..{head_count} missing)",
                    )
                )
            else:
                problems.append(
                    (
                        _int_or_0(head_count) + 1,
                        f"the head names {head_count!r} events but the log goes on to"
                        f" seq {last_seq}: rows added without the head, or head altered",
                    )
                )
        elif head_digest != prev:
            problems.append((last_seq, f"the head hash does not match the hash of seq {last_seq}"))
    conn.execute("COMMIT")
    return VerifyResult(ok=not problems, count=count, head_hash=head_hash, problems=tuple(problems))


def _int_or_0(value: object) -> int:
    return value if isinstance(value, int) else 0


def _check_row(
    seq: object,
    t: object,
    typ: object,
    body: object,
    refused: object,
    prev_hash: object,
    digest: object,
    expected: int,
    prev: bytes,
) -> tuple[list[tuple[int, str]], Event | None]:
    """Problems with one row, given the seq and hash the chain expects; and its event,
    when its body decodes (None otherwise)."""
    if not isinstance(seq, int):
        return [(expected, f"seq {seq!r} is not an integer")], None
    out: list[tuple[int, str]] = []
    gap = seq != expected
    if seq < expected:
        out.append((seq, f"seq {seq} is out of order (expected {expected})"))
    elif gap:
        missing = f"seq {expected}" if seq == expected + 1 else f"seq {expected}..{seq - 1}"
        out.append((expected, f"gap: {missing} missing (rows deleted)"))
    if isinstance(body, str):
        body = body.encode()
    if not (
        isinstance(t, int)
        and isinstance(body, bytes)
        and refused in (0, 1)
        and isinstance(prev_hash, bytes)
        and isinstance(digest, bytes)
    ):
        out.append((seq, "a column has the wrong kind of value (t, body, refused or hashes)"))
        return out, None
    if not gap and prev_hash != prev:
        out.append((seq, f"broken link: prev_hash is not the hash of seq {seq - 1}"))
    if not _INT64_MIN <= t <= _INT64_MAX:
        out.append((seq, f"t {t} out of range"))
    elif chain_hash(prev_hash, seq, t, refused == 1, body) != digest:
        out.append((seq, "hash mismatch: body, t or refused altered"))
    try:
        event = decode_event(body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        out.append((seq, f"body is not an event: {exc}"))
        return out, None
    if type(event).__struct_config__.tag != typ:
        out.append((seq, f"type column {typ!r} does not match the body"))
    if event.t is not None and event.t != t:
        out.append((seq, f"t column {t} does not match the body's t {event.t}"))
    return out, event


# --- JSON Lines --------------------------------------------------------------------------


def export_jsonl(path: StrPath, out: TextIO, *, include_refused: bool = False) -> int:
    """Write the log at ``path`` as JSON Lines to ``out``; returns the lines written.

    Each line is :func:`~engine.events.encode_event` of the event with ``t``
    filled in; refused rows (only with ``include_refused``) carry the extra
    fields ``"refused": true, "reason", "rule"``. The log is read read-only: a running
    table may be writing it.

    Raises:
        LogError: ``path`` is not a sound game log.
    """
    n = 0
    with EventLog.open_readonly(path) as log:
        for rec in log.records():
            if rec.refused and not include_refused:
                continue
            line = encode_event(rec.event())
            if rec.refused:
                extra = msgspec.json.encode(
                    {"refused": True, "reason": rec.reason, "rule": rec.rule}
                )
                line = line[:-1] + b"," + extra[1:]
            out.write(line.decode() + "\n")
            n += 1
    return n


def import_jsonl(lines: Iterable[str], path: StrPath) -> ImportResult:
    """Append the events of JSON Lines ``lines`` to a new log at ``path``, in one commit.

    Lines that do not decode are reported with their 1-based number and
    skipped; blank lines are ignored. A line with ``"refused": true`` is kept
    as a refused row with its ``reason`` and ``rule``.

    Raises:
        LogError: ``path`` is an existing non-empty log, or not a game log.
    """
    errors: list[tuple[int, str]] = []
    with EventLog.open(path, create=True) as log:
        db = log._db
        db.execute("BEGIN IMMEDIATE")
        try:
            count, last_hash = _read_head(db)
            if count:
                raise LogError(
                    f"{_shown(path)} already holds {count} events; import only into a new log"
                )
            last_t = 0
            for lineno, line in enumerate(lines, start=1):
                text = line.strip()
                if not text:
                    continue
                try:
                    event = decode_event(text)
                    mark = _mark_decoder.decode(text)
                    refusal = Refusal(mark.reason or "", mark.rule or "") if mark.refused else None
                    count, last_hash, last_t = EventLog._insert(
                        db, count, last_hash, last_t, event, None, refusal
                    )
                except (msgspec.ValidationError, msgspec.DecodeError, LogError) as exc:
                    errors.append((lineno, f"cannot read {text[:80]!r}: {exc}"))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return ImportResult(count=count, errors=tuple(errors))
