"""Reading a table's log from disk: a SQLite game log, or a JSON Lines export of one.

Every program that reads a log file (``rackclock replay``, the director's console,
the exports) reads it here, so each sees the same events and the variant files
the log's games name are registered before anything replays them. A SQLite log is
read read-only, and never opened with ``open()`` while this process has it open
(:func:`clock.log.eventlog.peek`): a running table may be writing it.
"""

from __future__ import annotations

from pathlib import Path

from clock.log.eventlog import EventLog, peek
from clock.user_files import register_variant_files
from engine.events import Event
from engine.rules.replay import Refused, Rejected, parse_jsonl_with_refused

__all__ = [
    "LOG_SUFFIXES",
    "SQLITE_MAGIC",
    "is_sqlite",
    "load_log",
    "load_log_with_refused",
    "log_files",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first bytes of every SQLite file (a game log); anything else is read as JSON Lines."""

LOG_SUFFIXES = (".sqlite", ".jsonl")
"""The names of the files a folder's logs are found by."""


def log_files(paths: list[Path]) -> list[Path]:
    """The files named, with folders replaced by the logs under them (by their
    :data:`LOG_SUFFIXES`, in name order): ``director --log`` and ``event results``
    on a folder such as the venue's archive.

    Raises:
        FileNotFoundError: A path that does not exist.
    """
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.suffix in LOG_SUFFIXES and f.is_file())
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"no such file: {p}")
    return out


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a SQLite file (a game log) rather than JSON Lines.

    A file a connection of this process holds open is a log, and is not read.

    Raises:
        OSError: The file cannot be read.
    """
    head = peek(path, len(SQLITE_MAGIC))
    return head is None or head == SQLITE_MAGIC


def load_log(path: Path) -> tuple[list[tuple[int, Event]], list[Rejected]]:
    """Read events from a SQLite game log or a JSON Lines file, and the variant
    files its games name (so that replaying them resolves those names).

    Raises:
        OSError: The file cannot be read.
        engine.errors.EngineError: A SQLite file that is not a game log.
    """
    events, bad, _ = _load(path, with_refused=False)
    return events, bad


def load_log_with_refused(
    path: Path,
) -> tuple[list[tuple[int, Event]], list[Rejected], list[Refused]]:
    """:func:`load_log`, and the refused commands the log keeps for forensics (with
    their reason and rule), to be shown among the events and never replayed.

    Raises:
        OSError: The file cannot be read.
        engine.errors.EngineError: A SQLite file that is not a game log.
    """
    return _load(path, with_refused=True)


def _load(
    path: Path, *, with_refused: bool
) -> tuple[list[tuple[int, Event]], list[Rejected], list[Refused]]:
    """A SQLite log's refused rows are read only ``with_refused``, and each row once
    (the console reads a table's log again at each of its commits)."""
    if is_sqlite(path):
        with EventLog.open_readonly(path) as log:
            events = list(log.events())
            rows = log.records(refused_only=True) if with_refused else ()
            refused = [Refused(r.seq, r.event(), r.reason or "", r.rule or "") for r in rows]
        register_variant_files(ev for _, ev in events)
        return events, [], refused
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [], [Rejected(line, f"not UTF-8 at byte offset {exc.start}", "events.md")], []
    events, bad, refused = parse_jsonl_with_refused(text)
    register_variant_files(ev for _, ev in events)
    return events, bad, refused
