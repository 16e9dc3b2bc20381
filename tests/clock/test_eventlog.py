"""The hash-chained SQLite event log: round trips, protection, verify, JSONL, durability.

Every log here is a real file on disk (``tmp_path``). Tampering is done the way
an outsider would: a plain :mod:`sqlite3` connection that drops the triggers,
edits rows, and puts the same triggers back.
"""

from __future__ import annotations

import hashlib
import io
import os
import selectors
import signal
import sqlite3
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clock.log import eventlog
from clock.log.eventlog import (
    FORMAT_VERSION,
    ZERO_HASH,
    EventLog,
    LogError,
    LogRecord,
    chain_hash,
    connect,
    export_jsonl,
    import_jsonl,
    verify,
    verify_and_read,
)
from engine.errors import EngineError, Refusal
from engine.events import (
    Adjudicated,
    Adjusted,
    Challenged,
    ClockPressed,
    Event,
    GameStarted,
    Neutralized,
    Passed,
    Resumed,
    TilesDrawn,
    TilesPlaced,
    encode_event,
)
from engine.rules.replay import replay, report
from tests.helpers import REPO

GAME: list[Event] = [
    GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")),
    TilesPlaced(t=31000, player=0, move="8D WINDY", score=32),
    ClockPressed(t=31500, player=0),
    TilesDrawn(t=33000, player=0, count=5),
    TilesPlaced(t=40000, player=1, move="7C GALE", score=16),
    ClockPressed(t=41000, player=1),
    Challenged(t=42000, player=0, words=("GALE", "AW")),
    Adjudicated(t=52000, acceptable=True),
    Neutralized(t=60000, by="director", reason="a dispute at the next table"),
    Resumed(t=75000, by="director"),
    Adjusted(t=76000, by="director", player=1, score_delta=-2, reason="miscount"),
]


def make_log(path: Path, events: list[Event] = GAME) -> list[int]:
    with EventLog.open(path) as log:
        return [log.append(ev) for ev in events]


def tamper(path: Path, *statements: str) -> None:
    """Drop the triggers, run ``statements``, and put the very same triggers back."""
    conn = sqlite3.connect(path)
    try:
        triggers = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
        ).fetchall()
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        for sql in statements:
            conn.execute(sql)
        for _, sql in triggers:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def problem_seqs(path: Path) -> list[int]:
    result = verify(path)
    assert not result.ok
    return [seq for seq, _ in result.problems]


# --- append and read ---------------------------------------------------------------------


def test_append_read_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    seqs = make_log(path)
    assert seqs == list(range(1, len(GAME) + 1))
    with EventLog.open(path, create=False) as log:
        assert list(log.events()) == list(zip(seqs, GAME, strict=True))
        records = list(log.records())
    assert [r.body for r in records] == [encode_event(ev) for ev in GAME]
    assert [r.type for r in records] == [
        "game_started",
        "tiles_placed",
        "clock_pressed",
        "tiles_drawn",
        "tiles_placed",
        "clock_pressed",
        "challenged",
        "adjudicated",
        "neutralized",
        "resumed",
        "adjusted",
    ]
    assert all(isinstance(r, LogRecord) and not r.refused for r in records)


def test_hash_chain_formula(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    with EventLog.open(path) as log:
        records = list(log.records())
        count, head = log.head()
    prev = bytes(32)
    for r in records:
        expected = hashlib.sha256(
            prev + struct.pack(">Q", r.seq) + struct.pack(">q", r.t) + b"\x00" + r.body
        ).digest()
        assert r.prev_hash == prev
        assert r.hash == expected == chain_hash(prev, r.seq, r.t, False, r.body)
        prev = r.hash
    assert (count, head) == (len(GAME), prev)


def test_time_is_resolved_and_filled_in(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with EventLog.open(path) as log:
        assert log.head() == (0, ZERO_HASH)
        log.append(GameStarted(variant="nzasp", players=("Ann", "Ben")))  # nothing: 0
        log.append(TilesPlaced(player=0, move="8D WINDY", score=32), t=31000)  # given t
        log.append(ClockPressed(player=0))  # the previous row's t
        log.append(Passed(player=1, t=50000), t=99)  # the event's own t wins
        got = [(seq, ev.t) for seq, ev in log.events()]
        bodies = [r.body for r in log.records()]
    assert got == [(1, 0), (2, 31000), (3, 31000), (4, 50000)]
    assert b'"t"' not in bodies[1]  # stored as encode_event gave it, t in the row
    assert b'"t":50000' in bodies[3]


def test_events_feed_replay(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    direct, direct_rejected = replay(enumerate(GAME, start=1))
    with EventLog.open(path) as log:
        logged, logged_rejected = replay(log.events())
    assert report(logged, rejected=logged_rejected) == report(direct, rejected=direct_rejected)
    assert logged_rejected == []
    assert logged.scores == (32, 26 - 2)  # the challenge bonus, then the ruling


def test_pragmas_wal_and_synchronous_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "table.db"
    make_log(path, GAME[:2])
    # the log's own connection, as connect() (the one way the project opens it) made it
    opened: list[sqlite3.Connection] = []

    def keep(where: str | Path, mode: str) -> tuple[sqlite3.Connection, str]:
        conn, key = connect(where, mode)
        opened.append(conn)
        return conn, key

    monkeypatch.setattr(eventlog, "connect", keep)
    for _ in range(2):  # fresh, then reopened
        with EventLog.open(path):
            conn = opened[-1]
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
            assert conn.isolation_level is None


def test_reopen_continues_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path, GAME[:4])
    with EventLog.open(path) as log:
        assert log.append(GAME[4]) == 5
    with EventLog.open(path, create=False) as log:
        assert [log.append(ev) for ev in GAME[5:]] == list(range(6, len(GAME) + 1))
        assert [ev for _, ev in log.events()] == GAME
    result = verify(path)
    assert result.ok, result.problems
    assert result.count == len(GAME)


def test_closed_log_refuses(tmp_path: Path) -> None:
    log = EventLog.open(tmp_path / "table.db")
    log.close()
    log.close()
    with pytest.raises(LogError, match="closed"):
        log.append(GAME[0])


# --- refused rows ------------------------------------------------------------------------


def test_refused_rows_are_kept_but_not_replayed(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with EventLog.open(path) as log:
        log.append(GAME[0])
        no = Refusal("player 1 pressed, but it is player 0's turn", "NZASP 6.1")
        assert log.append(ClockPressed(player=1), t=2000, refused=no) == 2
        log.append(GAME[1])
        assert [seq for seq, _ in log.events()] == [1, 3]
        assert [seq for seq, _ in log.events(include_refused=True)] == [1, 2, 3]
        rec = list(log.records())[1]
    assert rec.refused
    assert (rec.reason, rec.rule, rec.t) == (no.reason, no.rule, 2000)
    assert rec.hash == chain_hash(rec.prev_hash, 2, 2000, True, rec.body)
    assert verify(path).ok


def test_verify_and_read_gives_verify_and_the_events_in_one_pass(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with EventLog.open(path) as log:  # held open by its writer while it is read
        log.append(GAME[0])
        log.append(ClockPressed(player=1), t=2000, refused=Refusal("not your turn", "NZASP 6.1"))
        log.append(TilesPlaced(player=0, move="8D WINDY", score=32), t=31000)  # t from the row
        found, events = verify_and_read(path)
        assert found == verify(path)
        assert found.ok, found.problems
        assert events == list(log.events())
    assert [(seq, ev.t) for seq, ev in events] == [(1, 0), (3, 31000)]

    forged = encode_event(TilesPlaced(t=31000, player=0, move="8D WINDY", score=62)).hex()
    tamper(path, f"UPDATE events SET body = x'{forged}' WHERE seq = 3")
    found, _ = verify_and_read(path)
    assert found == verify(path)
    assert [seq for seq, _ in found.problems] == [3]


# --- protection --------------------------------------------------------------------------


def test_update_and_delete_are_refused_by_triggers(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    with EventLog.open(path) as log:
        before = list(log.records())
        head = log.head()
    conn = sqlite3.connect(path)
    try:
        for sql in (
            "UPDATE events SET body = CAST('{}' AS BLOB) WHERE seq = 2",
            "UPDATE events SET t = 0",
            "DELETE FROM events WHERE seq = 3",
            "DELETE FROM events",
            "DELETE FROM head",
            "UPDATE head SET count = 2",
            "INSERT INTO events (seq, t, type, body, prev_hash, hash)"
            " VALUES (99, 0, 'passed', x'7b7d', zeroblob(32), zeroblob(32))",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only event log"):
                conn.execute(sql)
            conn.rollback()
    finally:
        conn.close()
    with EventLog.open(path) as log:
        assert list(log.records()) == before
        assert log.head() == head
    assert verify(path).ok


def test_verify_ok_on_fresh_and_filled_logs(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    EventLog.open(empty).close()
    result = verify(empty)
    assert result.ok, result.problems
    assert (result.count, result.head_hash) == (0, ZERO_HASH.hex())

    full = tmp_path / "full.db"
    make_log(full)
    result = verify(full)
    assert result.ok, result.problems
    with EventLog.open(full) as log:
        assert (result.count, result.head_hash) == (len(GAME), log.head()[1].hex())


def test_verify_detects_altered_body(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    forged = encode_event(TilesPlaced(t=31000, player=0, move="8D WINDY", score=62)).hex()
    tamper(path, f"UPDATE events SET body = x'{forged}' WHERE seq = 2")
    result = verify(path)
    assert [seq for seq, _ in result.problems] == [2]
    assert "hash mismatch" in result.problems[0][1]


def test_verify_detects_altered_t(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    tamper(path, "UPDATE events SET t = 30000 WHERE seq = 3")
    result = verify(path)
    assert [seq for seq, _ in result.problems] == [3, 3]  # the hash, and the body's own t
    assert "hash mismatch" in result.problems[0][1]


def test_verify_detects_altered_refused_flag(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    tamper(path, "UPDATE events SET refused = 1, reason = 'x', rule = 'y' WHERE seq = 6")
    assert problem_seqs(path) == [6]


def test_verify_detects_rehashed_row_by_the_broken_link(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    with EventLog.open(path) as log:
        rec = list(log.records())[1]
    body = encode_event(TilesPlaced(t=31000, player=0, move="8D WINDY", score=62))
    digest = chain_hash(rec.prev_hash, 2, 31000, False, body)
    tamper(
        path, f"UPDATE events SET body = x'{body.hex()}', hash = x'{digest.hex()}' WHERE seq = 2"
    )
    result = verify(path)
    assert [seq for seq, _ in result.problems] == [3]
    assert "broken link" in result.problems[0][1]


def test_verify_detects_row_deleted_in_the_middle(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    tamper(path, "DELETE FROM events WHERE seq = 5")
    result = verify(path)
    assert [seq for seq, _ in result.problems] == [5]
    assert "gap" in result.problems[0][1]
    assert result.count == len(GAME) - 1


def test_verify_detects_truncation(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    tamper(path, "DELETE FROM events WHERE seq >= 9")
    result = verify(path)
    assert [seq for seq, _ in result.problems] == [9]
    assert "truncated" in result.problems[0][1]
    with pytest.raises(LogError, match="damaged"):  # and nobody appends to it
        EventLog.open(path)


def test_verify_detects_altered_head(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    tamper(path, "UPDATE head SET hash = zeroblob(32)")
    result = verify(path)
    assert [seq for seq, _ in result.problems] == [len(GAME)]
    assert "head hash" in result.problems[0][1]


def test_verify_detects_missing_head(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    tamper(path, "DELETE FROM head")
    assert problem_seqs(path) == [0]
    with pytest.raises(LogError, match="head row is missing"):
        EventLog.open(path)


def test_verify_detects_dropped_trigger(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.commit()
    conn.close()
    result = verify(path)
    assert result.problems == (
        (0, "trigger events_no_update is missing: the log is not protected"),
    )


def test_verify_non_log_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE scores (player TEXT, score INTEGER)")
    conn.commit()
    conn.close()
    result = verify(path)
    assert not result.ok
    assert [seq for seq, _ in result.problems] == [0]
    assert "not a rackclock game log" in result.problems[0][1]


def test_verify_garbage_file(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not a database\n" * 200)
    result = verify(path)
    assert not result.ok
    assert [seq for seq, _ in result.problems] == [0]
    assert str(path) in result.problems[0][1]


def test_verify_missing_file(tmp_path: Path) -> None:
    result = verify(tmp_path / "nowhere.db")
    assert not result.ok
    assert [seq for seq, _ in result.problems] == [0]


# --- opening what is not a log -----------------------------------------------------------


def test_open_non_log_sqlite_raises(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE scores (player TEXT, score INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(LogError, match="not a rackclock game log") as info:
        EventLog.open(path)
    assert repr(str(path)) in str(info.value)
    assert isinstance(info.value, EngineError)
    conn = sqlite3.connect(path)  # and it was left alone
    assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("scores",)]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_open_garbage_file_raises(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"\x00\x01 definitely not SQLite " * 100)
    with pytest.raises(LogError, match="not a rackclock game log") as info:
        EventLog.open(path)
    assert repr(str(path)) in str(info.value)


def test_open_unknown_version_raises(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path, GAME[:1])
    tamper(path, f"UPDATE meta SET value = '{FORMAT_VERSION + 1}' WHERE key = 'version'")
    with pytest.raises(LogError, match="format version '2'") as info:
        EventLog.open(path)
    assert repr(str(path)) in str(info.value)
    assert problem_seqs(path) == [0]


def test_open_missing_without_create_raises(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.db"
    with pytest.raises(LogError, match="no game log at"):
        EventLog.open(path, create=False)
    assert not path.exists()


# --- JSON Lines --------------------------------------------------------------------------


def test_export_import_round_trip(tmp_path: Path) -> None:
    src = tmp_path / "src.db"
    with EventLog.open(src) as log:
        log.append(GameStarted(variant="nzasp", players=("Ann", "Ben")))
        log.append(TilesPlaced(player=0, move="8D WINDY", score=32), t=31000)
        log.append(ClockPressed(player=1), refused=Refusal("not your turn", "NZASP 6.1"))
        log.append(ClockPressed(player=0, t=31500))
        expected = [encode_event(ev) for _, ev in log.events()]
        expected_all = [encode_event(ev) for _, ev in log.events(include_refused=True)]

    out = io.StringIO()
    assert export_jsonl(src, out) == 3
    lines = out.getvalue().splitlines()
    assert [line.encode() for line in lines] == expected
    assert all('"t":' in line for line in lines)
    result = import_jsonl(io.StringIO(out.getvalue()), tmp_path / "copy.db")
    assert (result.count, result.errors) == (3, ())
    with EventLog.open(tmp_path / "copy.db") as copy:
        assert [encode_event(ev) for _, ev in copy.events()] == expected
    assert verify(tmp_path / "copy.db").ok

    out = io.StringIO()
    assert export_jsonl(src, out, include_refused=True) == 4
    refused_line = out.getvalue().splitlines()[2]
    assert refused_line == (
        '{"type":"clock_pressed","t":31000,"player":1,'
        '"refused":true,"reason":"not your turn","rule":"NZASP 6.1"}'
    )
    result = import_jsonl(out.getvalue().splitlines(), tmp_path / "copy2.db")
    assert (result.count, result.errors) == (4, ())
    with EventLog.open(tmp_path / "copy2.db") as copy:
        assert [encode_event(ev) for _, ev in copy.events()] == expected
        assert [encode_event(ev) for _, ev in copy.events(include_refused=True)] == expected_all
        rec = list(copy.records())[2]
        assert (rec.refused, rec.reason, rec.rule) == (True, "not your turn", "NZASP 6.1")


def test_import_reports_malformed_lines(tmp_path: Path) -> None:
    text = "\n".join(
        [
            '{"t":0,"type":"game_started","variant":"nzasp","players":["Ann","Ben"]}',
            '{"t":31000,"type":"tiles_placed","player":0,"move":"8D WINDY","score":32',
            "",
            '{"t":31500,"type":"clock_pressed","player":0}',
            '{"type":"no_such_event"}',
            '{"type":"clock_pressed","player":1}',
        ]
    )
    path = tmp_path / "table.db"
    result = import_jsonl(text.splitlines(keepends=True), path)
    assert result.count == 3
    assert [line for line, _ in result.errors] == [2, 5]
    assert "tiles_placed" in result.errors[0][1]
    with EventLog.open(path) as log:
        assert [(seq, ev.t, type(ev)) for seq, ev in log.events()] == [
            (1, 0, GameStarted),
            (2, 31500, ClockPressed),
            (3, 31500, ClockPressed),
        ]
    assert verify(path).ok


def test_import_refuses_a_non_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    make_log(path, GAME[:2])
    with pytest.raises(LogError, match="already holds 2 events"):
        import_jsonl(['{"type":"passed","player":0}'], path)
    with EventLog.open(path) as log:
        assert log.head()[0] == 2


# --- durability --------------------------------------------------------------------------

WRITER = """\
import sys
from clock.log.eventlog import EventLog
from engine.events import ClockPressed

log = EventLog.open(sys.argv[1])
i = 0
while True:
    seq = log.append(ClockPressed(player=i % 2, t=i * 10))
    print(seq, flush=True)
    i += 1
"""


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_durable_across_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    data = b""
    deadline = time.monotonic() + 60
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while data.count(b"\n") < 50:
            left = deadline - time.monotonic()
            assert left > 0, "the writer did not print 50 seqs in time"
            if sel.select(timeout=left):
                chunk = os.read(fd, 65536)
                assert chunk, f"the writer exited early (rc {proc.poll()})"
                data += chunk
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    data += proc.stdout.read()  # whatever it printed before it died
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL

    printed = [int(line) for line in data.split(b"\n")[:-1]]  # the last piece may be cut
    assert len(printed) >= 50
    assert printed == list(range(1, len(printed) + 1))
    result = verify(path)  # read-only, straight after the crash
    assert result.ok, result.problems
    assert result.count >= len(printed)
    with EventLog.open(path, create=False) as log:
        seqs = {r.seq for r in log.records()}
    assert set(printed) <= seqs
