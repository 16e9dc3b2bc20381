"""Who may open a table's log, and how (docs/events.md, "Who opens a log").

The writer holds the one read-write connection; every other reader opens it
read-only; and while a connection of this process has the file open nothing in the
process opens the file except through SQLite. Closing any descriptor of a file drops
every POSIX lock the process holds on it, SQLite's included (sqlite.org/howtocorrupt.html,
2.2): a reader that did so in the table's own process let the next process to close
the file delete the running table's ``-wal``, and the table went on acknowledging
events into a deleted file (issue 19).

Real files, real processes for the third-party readers, a real mosquitto and the real
command line for the enforcement test.
"""

from __future__ import annotations

import builtins
import io
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from clock.log.eventlog import EventLog, LogError, export_jsonl, held, peek, verify
from clock.log.log_files import SQLITE_MAGIC, is_sqlite, load_log
from clock.table.session import TableSpec
from engine.events import ClockPressed, Event, GameStarted
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.table_setup import open_table
from firmware_bridge.venue.director_link import DirectorLink
from terminal_ui.cli import main
from tests.helpers import Broker

START = GameStarted(t=0, variant="nzasp", players=("Ann", "Ben"))


def _sidecars(path: Path) -> tuple[Path, Path, Path]:
    return path, Path(f"{path}-wal"), Path(f"{path}-shm")


def _other_process(path: Path, mode: str) -> int:
    """A third party's plain sqlite3 connection in another process (URI ``mode``, "rw" or
    "ro"): it counts the rows, closes, and says how many it saw."""
    code = (
        "import sqlite3, sys\n"
        f"c = sqlite3.connect({path.resolve().as_uri() + '?mode=' + mode!r}, uri=True)\n"
        "print(c.execute('SELECT count(*) FROM events').fetchone()[0])\n"
        "c.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
    )
    return int(done.stdout)


def _reader_export(path: Path) -> None:
    export_jsonl(path, io.StringIO())


def _reader_load(path: Path) -> None:
    load_log(path)


def _reader_is_sqlite(path: Path) -> None:
    assert is_sqlite(path)


def _reader_verify(path: Path) -> None:
    assert verify(path).ok


def _reader_readonly(path: Path) -> None:
    with EventLog.open_readonly(path) as log:
        list(log.records())


READERS: dict[str, Callable[[Path], None]] = {
    "export_jsonl": _reader_export,
    "load_log": _reader_load,
    "is_sqlite": _reader_is_sqlite,
    "verify": _reader_verify,
    "open_readonly": _reader_readonly,
}


@pytest.mark.parametrize("reader", READERS)
def test_a_reader_in_the_writers_process_leaves_its_wal_alone(tmp_path: Path, reader: str) -> None:
    """The bug as measured, at its smallest: a reader in the table's own process, then a
    third party's read-write connection in another process, opened and closed. Every
    event the writer commits after that must be in the file other processes read."""
    path = tmp_path / "t3.sqlite"
    with EventLog.open(path) as writer:
        writer.append(START)
        writer.append(ClockPressed(t=1, player=0))
        READERS[reader](path)
        assert _other_process(path, "rw") == 2
        assert Path(f"{path}-wal").exists(), "the running table's WAL was removed"
        for i in range(3):
            writer.append(ClockPressed(t=2 + i, player=(i + 1) % 2))
        assert _other_process(path, "ro") == writer.head()[0] == 5


def test_peek_never_opens_a_log_this_process_holds(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with EventLog.open(path) as writer:
        writer.append(START)
        assert held(path)
        assert held(tmp_path / "." / "t.sqlite")  # by the real path
        assert peek(path, 16) is None
        with EventLog.open_readonly(path):
            assert peek(path, 16) is None
        assert peek(path, 16) is None  # the writer still holds it
    assert not held(path)
    assert peek(path, 16) == SQLITE_MAGIC


def test_a_read_only_log_refuses_to_append_and_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with pytest.raises(LogError, match="no game log at"):
        EventLog.open_readonly(path)
    assert not path.exists()
    assert not held(path)  # a failed open holds nothing
    with EventLog.open(path) as writer:
        writer.append(START)
    before = path.read_bytes()
    with EventLog.open_readonly(path) as log:
        with pytest.raises(LogError, match="read-only"):
            log.append(ClockPressed(t=5, player=0))
        assert log.head()[0] == 1
    assert path.read_bytes() == before
    # SQLite makes an empty -wal (and the -shm index) for a reader of a WAL file; it
    # holds nothing, and the next writer takes it over.
    assert Path(f"{path}-wal").stat().st_size == 0


def test_a_read_only_log_reads_what_a_crashed_writer_left(tmp_path: Path) -> None:
    """A table killed mid-game leaves its events in the WAL: a read-only reader sees them
    and leaves the WAL where it is (recovery is the next writer's)."""
    path = tmp_path / "t.sqlite"
    code = (
        "import os\n"
        "from clock.log.eventlog import EventLog\n"
        "from engine.events import ClockPressed, GameStarted\n"
        f"w = EventLog.open({str(path)!r})\n"
        "w.append(GameStarted(t=0, variant='nzasp', players=('Ann', 'Ben')))\n"
        "w.append(ClockPressed(t=1, player=0))\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)
    assert Path(f"{path}-wal").stat().st_size > 0
    events, _ = load_log(path)
    assert [type(ev) for _, ev in events] == [GameStarted, ClockPressed]
    assert verify(path).ok
    assert Path(f"{path}-wal").stat().st_size > 0


# --- every reader the project has, beside a running table --------------------------------

EVENT_FILE = """
name = "Club night"

[[division]]
name = "A"
variant = "nzasp"
rounds = 1
plan = [{ rounds = "1", system = "round-robin" }]
players = [{ name = "Ann", rating = 1800 }, { name = "Ben", rating = 1750 }]
"""


class Watch:
    """Records every Python-level open of the log's files and every SQLite connection
    to the log, while patched in."""

    def __init__(self, log: Path) -> None:
        self.files = {os.path.realpath(p) for p in _sidecars(log)}
        self.log = str(log.resolve())
        self.opened: list[str] = []
        self.connected: list[str] = []

    def _forbidden(self, file: object) -> bool:
        if not isinstance(file, str | bytes | os.PathLike):
            return False  # a descriptor already open
        return os.path.realpath(os.fsdecode(file)) in self.files

    def patch(self, mp: pytest.MonkeyPatch) -> None:
        real_open, real_os_open, real_connect = builtins.open, os.open, sqlite3.connect

        def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:
            if self._forbidden(file):
                self.opened.append(f"open({file!s})")
                raise AssertionError(f"open() of the held log {file}")
            return real_open(file, *args, **kwargs)

        def guarded_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
            if self._forbidden(path):
                self.opened.append(f"os.open({path!s})")
                raise AssertionError(f"os.open() of the held log {path}")
            return real_os_open(path, *args, **kwargs)

        def watched_connect(database: Any, *args: Any, **kwargs: Any) -> Any:
            if self.log in unquote(os.fsdecode(database)):
                self.connected.append(os.fsdecode(database))
            return real_connect(database, *args, **kwargs)

        mp.setattr(builtins, "open", guarded_open)
        mp.setattr(io, "open", guarded_open)  # pathlib's Path.open calls io.open
        mp.setattr(os, "open", guarded_os_open)
        mp.setattr(sqlite3, "connect", watched_connect)


def _cli(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


async def test_every_reader_reaches_a_running_tables_log_only_read_only_through_sqlite(
    tmp_path: Path,
    mosquitto: Broker,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A table on the broker, its log written by its service in this process; every
    reader the project has reads that log here, between presses: no ``open()`` of the
    file or its ``-wal``/``-shm``, and every SQLite connection to it is ``mode=ro``."""
    log = tmp_path / "t3.sqlite"
    (tmp_path / "e.toml").write_text(EVENT_FILE, encoding="utf-8")
    assert _cli("event", "new", tmp_path / "e.toml", "-o", tmp_path / "e.sqlite") == 0
    spec = TableSpec(
        log=log, variant="nzasp", mode="scoresheet", clock=f"mqtt:{mosquitto.url('/club/t3')}"
    )
    watch = Watch(log)
    session = open_table(spec)
    async with session:
        service = session.service
        assert held(log)
        watch.patch(monkeypatch)
        side = 0

        async def press() -> None:
            nonlocal side
            ack = await service.submit(ClockPressed(player=side), "test")
            assert ack.accepted, ack
            side = 1 - side

        readers: list[Callable[[], object]] = [
            lambda: export_jsonl(log, io.StringIO()),
            lambda: load_log(log),
            lambda: is_sqlite(log),
            lambda: verify(log),
            lambda: _cli("replay", log),
            lambda: _cli("log", "verify", log),
            lambda: _cli("log", "export", log, "-o", tmp_path / "out.jsonl"),
            lambda: _cli("log", "export", log, "--include-refused"),
            lambda: _cli("export", "gcg", log),
            lambda: _cli("export", "naspa", log, "--round", "1"),
            lambda: _cli("event", "results", tmp_path / "e.sqlite", log),
        ]
        statuses = []
        for read in readers:
            await press()
            statuses.append(read())
        link = DirectorLink(parse_url(mosquitto.url()), desk="watch")
        async with link:
            await press()
            text = await link.get_log_text(TableTopics("club", "t3"))
        events: list[Event] = [ev for _, ev in load_log(log)[0]]
    err = capsys.readouterr().err
    assert watch.opened == [], watch.opened
    assert watch.connected, "the readers never reached the log"
    assert [c for c in watch.connected if not c.endswith("?mode=ro")] == []
    # every reader answered: no internal error; what refused says one line why
    assert 70 not in statuses, err
    assert statuses[4:8] == [0, 0, 0, 0], err
    assert len(text.splitlines()) == len(events)  # the director saw every event
    assert [type(ev) for ev in events].count(ClockPressed) == len(readers) + 1
