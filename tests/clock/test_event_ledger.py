"""The event's log with several writers and readers at once, its head and its anchor.

Two :class:`EventLedger` writers on one file (the director's console and the
``rackclock event`` commands): each append first takes what the other appended,
so neither refuses on a stale view nor forks the chain; readers open the file
read-only. The head row gives away a tail cut inside the file, the anchor one cut
or rewritten as a whole.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clock.log.eventlog import LogError, held, peek
from clock.log.log_files import is_sqlite
from clock.tournament.ledger import EventLedger, parse_anchor, read_ledger, verify_ledger
from engine.tournament.errors import TournamentError
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Result
from tests.helpers import REPO

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 3
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
]
"""


def new_log(tmp_path: Path, name: str = "club.sqlite") -> Path:
    log = tmp_path / name
    EventLedger.create(log, EVENT, "club.toml").close()
    return log


def test_two_writers_each_see_the_other_before_appending(tmp_path: Path) -> None:
    log = new_log(tmp_path)
    with EventLedger.open(log) as console, EventLedger.open(log) as shell:
        assert not console.refresh()  # nothing new: data_version unchanged
        shell.append(draw(shell.state.division("A"), 1))  # the shell pairs round 1
        # the console never looked: its append takes the pairing first (today: refused
        # with "round 1 is not paired")
        console.append(Result("A", 1, 1, 2, (400, 300)))
        assert console.state.records == 3 == console.anchor.count
        assert shell.refresh()  # the shell sees the console's result
        assert not shell.refresh()
        assert shell.state.division("A").results[1][(1, 2)].scores == (400, 300)
        assert shell.anchor == console.anchor
        # a refused record leaves the log and the writer's view as they were
        with pytest.raises(TournamentError):
            shell.append(Result("A", 1, 1, 2, (1, 2)))  # a second result needs a reason
        assert shell.anchor == console.anchor
    assert verify_ledger(log).count == 3


def test_a_reader_follows_the_writers_read_only(tmp_path: Path) -> None:
    log = new_log(tmp_path)
    with EventLedger.open(log, readonly=True) as page, EventLedger.open(log) as shell:
        assert not page.refresh()
        shell.append(draw(shell.state.division("A"), 1))
        assert page.refresh()
        assert 1 in page.state.division("A").pairings
        with pytest.raises(LogError, match="cannot write"):
            page.append(Result("A", 1, 1, 2, (400, 300)))
    assert verify_ledger(log).count == 2


def test_readers_open_the_file_read_only_by_its_uri(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "a folder #2?"
    folder.mkdir()
    log = new_log(folder)
    opened: list[str] = []
    real = sqlite3.connect

    def connect(database: str, *args: Any, **kw: Any) -> sqlite3.Connection:
        opened.append(str(database))
        conn: sqlite3.Connection = real(database, *args, **kw)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    read_ledger(log)
    verify_ledger(log)
    with EventLedger.open(log, readonly=True):
        pass
    uri = log.resolve().as_uri()
    assert opened == [f"{uri}?mode=ro"] * 3
    assert "%23" in uri  # '#' and '?' in the path escaped
    assert "%3F" in uri


def test_a_record_cut_from_the_end_inside_the_file_is_found(tmp_path: Path) -> None:
    log = new_log(tmp_path)
    with EventLedger.open(log) as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
        ledger.append(Result("A", 1, 1, 2, (400, 300)))
    conn = sqlite3.connect(log)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM records WHERE seq = 3")
    conn.execute("DROP TRIGGER records_append_only_d")
    conn.execute("DELETE FROM records WHERE seq = 3")
    conn.commit()
    conn.close()
    with pytest.raises(LogError, match=r"truncated: its head names 3 records but it ends at"):
        verify_ledger(log)


def build(path: Path, results: int, name: str = "Club night") -> EventLedger:
    ledger = EventLedger.create(path, EVENT.replace("Club night", name), "club.toml")
    ledger.append(draw(ledger.state.division("A"), 1))
    for first, second in [(1, 2), (3, 4)][:results]:
        ledger.append(Result("A", 1, first, second, (400, 300)))
    return ledger


def test_the_anchor_finds_a_log_cut_or_rewritten_as_a_whole(tmp_path: Path) -> None:
    with build(tmp_path / "club.sqlite", 1) as ledger:
        anchor = ledger.anchor
        assert str(anchor) == f"3:{anchor.hash[:16]}"
        ledger.append(Result("A", 1, 3, 4, (350, 360)))
    # the log may grow after its anchor
    assert verify_ledger(tmp_path / "club.sqlite", anchor=parse_anchor(str(anchor))).count == 4
    # an earlier copy of the whole file is a sound log by itself: only the anchor tells
    build(tmp_path / "cut.sqlite", 0).close()
    assert verify_ledger(tmp_path / "cut.sqlite").count == 2
    with pytest.raises(LogError, match=r"ends at record 2 but the anchor 3:.* 3..3 are missing"):
        verify_ledger(tmp_path / "cut.sqlite", anchor=anchor)
    # a log made again with other records
    build(tmp_path / "other.sqlite", 1, "Other night").close()
    with pytest.raises(LogError, match=r"record 3's hash is .* the log was rewritten"):
        verify_ledger(tmp_path / "other.sqlite", anchor=anchor)


@pytest.mark.parametrize("text", ["", "12", "0:abcdefabcdef", "3:xyz", "3:abc"])
def test_a_bad_anchor_is_refused_quoted(text: str) -> None:
    with pytest.raises(LogError, match=f"{text!r} is not an anchor"):
        parse_anchor(text)


CHILD = """
import sys, time
from clock.tournament.ledger import EventLedger
from engine.tournament.records import Entered
from engine.tournament.spec import Player

path, tag, turn, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
alone = False
with EventLedger.open(path) as ledger:
    for i in range(n):
        # take turns: append when the count says so (the other's records seen through
        # refresh); once the other has been silent for a second, go on alone
        give_up = time.monotonic() + 1
        while not alone and ledger.anchor.count % 2 != turn:
            ledger.refresh()
            alone = time.monotonic() > give_up
        state = ledger.append(Entered("A", Player(f"{tag} {i}", 1000), 1))
        # the writer's view is the whole log after each append, the other's records too
        assert state.records == ledger.anchor.count, (state.records, ledger.anchor)
        print(f"{tag} {i}", flush=True)
"""


def test_two_writer_processes_one_killed_lose_no_acknowledged_record(tmp_path: Path) -> None:
    log = new_log(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def start(tag: str, turn: int, n: int) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", CHILD, str(log), tag, str(turn), str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )

    doomed, steady = start("x", 1, 100_000), start("y", 0, 150)  # 1 record: x starts
    assert doomed.stdout is not None
    assert steady.stdout is not None
    acked: list[str] = []
    for line in doomed.stdout:
        acked.append(line.strip())
        if len(acked) == 40:
            break
    assert len(acked) == 40, doomed.stderr.read() if doomed.stderr else ""
    os.kill(doomed.pid, signal.SIGKILL)  # mid-run: likely inside an append
    acked += doomed.stdout.read().splitlines()  # printed after their commits too
    doomed.wait(30)
    acked += steady.stdout.read().splitlines()
    assert steady.wait(60) == 0, steady.stderr.read() if steady.stderr else ""
    assert len(acked) >= 40 + 150
    head = verify_ledger(log)
    players = read_ledger(log).division("A").players
    assert head.count == 1 + len(players) - 4  # the event file, then one entry a record
    assert set(acked) <= {p.name for p in players}
    order = "".join(p.name[0] for p in players[4:])  # the entries in the log's order
    assert order.startswith("xy" * 39)  # in turns, each after the other's records
    assert order.endswith("y" * 50)  # then alone, x killed


def test_a_log_from_before_the_head_gets_one_from_its_writer(tmp_path: Path) -> None:
    log = new_log(tmp_path)
    conn = sqlite3.connect(log)  # make it as the earlier version did: no head
    for name in ("records_extend_head", "head_follows", "head_no_delete"):
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE head")
    conn.commit()
    conn.close()
    with pytest.raises(LogError, match="has no head: a record cut from its end cannot be seen"):
        verify_ledger(log)  # a reader does not change the file
    with EventLedger.open(log) as ledger:  # the writer adds it
        ledger.append(draw(ledger.state.division("A"), 1))
    assert verify_ledger(log).count == 2


def test_a_process_holding_the_event_log_never_opens_it_any_other_way(tmp_path: Path) -> None:
    """`event results` on a folder that holds the event's log itself asks whether each
    file is SQLite: a plain open()/close() of the held log would drop this process's
    POSIX locks on it (docs/events.md, "Who opens a log"). The ledger's connection is
    counted as held, so the question is answered without opening the file."""
    log = new_log(tmp_path)
    with EventLedger.open(log) as ledger:
        assert held(log)
        assert peek(log, 16) is None
        assert is_sqlite(log)
        with EventLedger.open(log, readonly=True):
            pass
        assert held(log)  # the reader's close leaves the writer's count
        ledger.append(draw(ledger.state.division("A"), 1))
    assert not held(log)
    assert peek(log, 16) == b"SQLite format 3\x00"
    assert verify_ledger(log).count == 2
