"""The event's log written by the director's console and the command line at once,
and a command killed with SIGKILL while it writes (issue 19 §1).

The console (``rackclock director --event LOG`` on the tables' log files, under
Pilot in this process) takes each table's result as its players sign, on its
refresh, while ``rackclock event result`` processes record other games and
corrections. Round 1: the console takes two tables' games while two commands
record the other two. Round 2 (paired with ``rackclock event pair``): the console
takes two more while correction commands for round 1 are killed with SIGKILL at
points spread over their run (the last ones while they write, or just after).

Acknowledged means: for a command, it exited 0 having printed the game; for the
console, its event screen lists the result under "Taken from the tables" (the desk
adds that line only after the log's append returned). Every acknowledged record is
in the log, a killed command's record is there whole or not at all, and ``rackclock
event verify`` finds the chain and its head intact.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from msgspec.structs import replace

from clock.log.eventlog import EventLog
from clock.tournament.ledger import EventLedger
from engine.events import Event, Signed
from engine.tournament.assignment import Assignment, round_assignments
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Record, Result, decode_record
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.event import EventScreen
from tests.system.test_kill9 import RACKCLOCK
from tests.system.test_log_readers import rackclock
from tests.terminal_ui.test_event import game, table_log

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 2
plan = [{ rounds = "1-2", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
  { name = "Eve Ezra", rating = 1400 },
  { name = "Fay Fox", rating = 1300 },
  { name = "Gus Gray", rating = 1200 },
  { name = "Hal Hunt", rating = 1100 },
]
"""
RACKS = ("AEIRSTT", "AEILNOU")
"""What the racks hold at the end of each table's game (game(): 25 to -7)."""
KILLS = (0.5, 0.75, 0.9, 1.0, 1.1)
"""When each correction command is killed, as a share of a command's measured run."""
SEED = 20261126
LIMIT_S = 20.0


def start(
    log: Path, a: Assignment, scores: tuple[int, int], reason: str = ""
) -> subprocess.Popen[str]:
    """``rackclock event result`` for table ``a``'s game, started (not waited for)."""
    args = [str(RACKCLOCK), "event", "result", str(log), str(a.round)]
    args += [a.players[0], str(scores[0]), a.players[1], str(scores[1])]
    args += ["--reason", reason] if reason else []
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def records(log: Path) -> list[Record]:
    """The log's records, read through a read-only connection."""
    conn = sqlite3.connect(f"{log.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [
            decode_record(bytes(b))
            for (b,) in conn.execute("SELECT body FROM records ORDER BY seq")
        ]
    finally:
        conn.close()


def last_t(log: EventLog) -> int:
    """The time of the log's last event."""
    return max(ev.t or 0 for _, ev in log.events())


def sign(path: Path) -> None:
    """Both players sign the table's last game, as at the table."""
    with EventLog.open(path, create=False) as log:
        t = last_t(log)
        log.append(Signed(t=t + 100, player=0))
        log.append(Signed(t=t + 200, player=1))


def next_game(path: Path, events: list[Event]) -> None:
    """The table's next game, after its last one in the same log."""
    with EventLog.open(path, create=False) as log:
        t = last_t(log) + 1_000
        for ev in events:
            log.append(replace(ev, t=(ev.t or 0) + t))


async def test_console_and_cli_write_the_event_log_at_once(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    log = tmp_path / "club.sqlite"
    with EventLedger.create(log, EVENT, "club.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
        r1 = {a.table: a for a in round_assignments(ledger.state, 1)}
    tables = {
        n: table_log(
            tmp_path / f"t{n}.sqlite", game(r1[n].players, RACKS, rnd=1, sign=False, table=f"t{n}")
        )
        for n in (1, 2)
    }
    app = DirectorApp(DirectorConfig(logs=tuple(tables.values()), export_dir=tmp_path, event=log))
    by_cli: list[Result] = []
    """Results the command line acknowledged (by seeds, round and scores)."""

    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("s")
        await pilot.pause()

        def shown() -> str:
            app.refresh_overview()  # the console's timer: takes the signed games
            assert isinstance(app.screen, EventScreen)
            app.screen.redraw()
            return app.screen.shown

        def taken() -> list[str]:
            """The results the console's event screen says it took."""
            text = shown()
            part = text.partition("Taken from the tables:")[2]
            return [line.strip() for line in part.splitlines() if "(from " in line]

        async def until(cond: Callable[[], bool], what: str) -> None:
            deadline = time.monotonic() + LIMIT_S
            while not cond():
                assert time.monotonic() < deadline, f"{what}; the console shows:\n{shown()}"
                await pilot.pause(0.01)

        def acknowledged(
            proc: subprocess.Popen[str], a: Assignment, scores: tuple[int, int], reason: str = ""
        ) -> None:
            out, err = proc.communicate(timeout=LIMIT_S)
            assert proc.returncode == 0, err
            assert a.players[0] in out, out
            by_cli.append(Result("A", a.round, *a.seeds, scores, reason=reason))

        # round 1: two commands record tables 3 and 4 while the console takes 1 and 2
        cli = [
            (start(log, r1[3], (400, 350)), r1[3], (400, 350)),
            (start(log, r1[4], (380, 390)), r1[4], (380, 390)),
        ]
        sign(tables[1])
        await until(lambda: len(taken()) == 1, "the console to take table 1")
        sign(tables[2])  # while the commands start and write
        await until(
            lambda: len(taken()) == 2 and all(p.poll() is not None for p, _, _ in cli), "round 1"
        )
        for proc, a, scores in cli:
            acknowledged(proc, a, scores)

        # round 2, paired from the shell (its run, alone, times a command's); the
        # console takes tables 1 and 2 while corrections of round 1 are started one
        # by one and each killed at a point spread over a command's run
        began = time.monotonic()
        paired = rackclock("event", "pair", log)
        run_s = time.monotonic() - began
        assert paired.returncode == 0, paired.stderr
        assert app.desk is not None
        app.desk.refresh()
        r2 = {a.table: a for a in round_assignments(app.desk.state, 2)}
        for n in (1, 2):
            next_game(tables[n], game(r2[n].players, RACKS, rnd=2, sign=False, table=f"t{n}"))
        sign(tables[1])
        killed = 0
        for k, share in enumerate(KILLS):
            scores, reason = (401 + k, 350), f"recount {k}"  # each changes the result
            proc = start(log, r1[3], scores, reason)
            began = time.monotonic()
            at = share * run_s * rng.uniform(0.95, 1.05)
            while time.monotonic() - began < at and proc.poll() is None:
                shown()  # the console writes meanwhile
                await pilot.pause(0.002)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.communicate(timeout=LIMIT_S)
                killed += 1
            else:
                acknowledged(proc, r1[3], scores, reason)
            if k == len(KILLS) // 2:
                sign(tables[2])  # the console takes it while the next commands run
        await until(lambda: len(taken()) == 4, "the console to take round 2")
        by_console = taken()
        await pilot.press("escape")

    # the log after the kills: every acknowledged record, the chain intact
    got = records(log)
    results = [r for r in got if isinstance(r, Result)]
    for want in by_cli:
        assert any(
            (r.round, r.first, r.second, r.scores, r.reason)
            == (want.round, want.first, want.second, want.scores, want.reason)
            for r in results
        ), want
    from_tables = [r for r in results if r.game]
    assert len(from_tables) == len(by_console) == 4, by_console
    assert {(r.round, r.first, r.second) for r in from_tables} == {
        (1, *r1[1].seeds),
        (1, *r1[2].seeds),
        (2, *r2[1].seeds),
        (2, *r2[2].seeds),
    }
    assert killed > 0  # at least one command died before it could answer
    verified = rackclock("event", "verify", log)
    assert verified.returncode == 0, verified.stderr
    assert f"{len(got)} records, chain intact, head matches" in verified.stdout
    # and the next command writes on from there
    fixed = rackclock("event", "result", log, "2", r2[3].players[0], "300", r2[3].players[1], "200")
    assert fixed.returncode == 0, fixed.stderr
    assert rackclock("event", "verify", log).returncode == 0
