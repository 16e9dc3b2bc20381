"""Crash test: ``rackclock serve`` killed with SIGKILL at random points, 20 rounds.

Each round starts the real command on the same log, resumes the game the
previous round left (it must come back neutralized, with a ``service_restarted``
event whose gap is logged and mentioned in the ruling), plays a random number
of commands (presses alternating with the running side, scores, pauses), and
kills the process at a random moment, sometimes with commands still in flight,
sometimes while it is still starting up. After each kill, every event the
process acknowledged (printed after its commit) must be in the log with the
same type and time, and the hash chain must be intact.

nzasp in scoresheet mode: 25:00 clocks (no deadline can fire in a round) and
presses need no plays. Output is read with ``selectors`` and timeouts, so a hung
process fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from clock.log.eventlog import verify
from engine.clocktext import clock_text
from engine.events import decode_event
from engine.rules.replay import replay
from engine.rules.state import GameState, Phase
from tests.helpers import REPO
from tests.support.log_rows import Row, log_rows

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

RACKCLOCK = Path(sys.executable).parent / "rackclock"
ROUNDS = 20
SEED = 20261121
LINE_TIMEOUT_S = 5.0
"""A line the process owes us must come within this; otherwise it is hung."""


def _game(rows: list[Row]) -> GameState:
    """The game the log holds, replayed as the service replays it."""
    st, rejected = replay(
        (r.seq, decode_event(json.dumps({**r.body, "t": r.t}))) for r in rows if not r.refused
    )
    assert not rejected, rejected
    return st


# --- the process -------------------------------------------------------------------------


class Table:
    """One ``rackclock serve`` process, its output read line by line with timeouts."""

    def __init__(self, log: Path, stderr_path: Path, *extra: str) -> None:
        """``extra``: more ``serve`` options (e.g. ``--clock mqtt://...``)."""
        self.started_ns = time.monotonic_ns()
        """When the test started the process (monotonic, as the service's timeline)."""
        self._stderr = stderr_path.open("ab")
        self.proc = subprocess.Popen(
            [
                str(RACKCLOCK),
                "serve",
                "--variant",
                "nzasp",
                "--mode",
                "scoresheet",
                "--log",
                str(log),
                "--players",
                "Ann,Ben",
                *extra,
            ],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdin is not None
        self._fd = self.proc.stdout.fileno()
        os.set_blocking(self._fd, False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._fd, selectors.EVENT_READ)
        self._buf = b""
        self._eof = False
        self.lines: list[dict[str, Any]] = []
        """Every complete line printed so far, in order."""
        self._next = 0

    def _pump(self, timeout: float) -> None:
        """Read what is there (waiting at most ``timeout``) into complete lines."""
        if self._eof:
            return
        if not self._sel.select(timeout=max(0.0, timeout)):
            return
        try:
            chunk = os.read(self._fd, 65536)
        except BlockingIOError:
            return
        if not chunk:
            self._eof = True
            return
        self._buf += chunk
        *complete, self._buf = self._buf.split(b"\n")
        docs = (json.loads(line) for line in complete if line.strip())
        # Device status lines (the emulated clock coming online) are not commits.
        self.lines.extend(doc for doc in docs if "device" not in doc)

    def next_line(self, timeout: float = LINE_TIMEOUT_S) -> dict[str, Any]:
        """The next printed line; fails if none comes in time."""
        deadline = time.monotonic() + timeout
        while self._next >= len(self.lines):
            left = deadline - time.monotonic()
            assert left > 0, f"no output within {timeout} s (rc {self.proc.poll()})"
            assert not self._eof, f"the service exited (rc {self.proc.wait()})"
            self._pump(left)
        line = self.lines[self._next]
        self._next += 1
        return line

    def watch(self, seconds: float) -> None:
        """Keep reading for ``seconds`` (the random delay before a kill)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and not self._eof:
            self._pump(left)

    def send(self, line: str) -> None:
        """Write one command line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def kill(self) -> int:
        """SIGKILL, then read whatever it printed before it died; returns a monotonic
        time (ns) after its death."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=LINE_TIMEOUT_S)
        dead_ns = time.monotonic_ns()
        deadline = time.monotonic() + LINE_TIMEOUT_S
        while not self._eof:
            left = deadline - time.monotonic()
            assert left > 0, "stdout stayed open after the kill"
            self._pump(left)
        assert self.proc.returncode == -signal.SIGKILL, self.proc.returncode
        return dead_ns

    def quit(self) -> None:
        """Stop cleanly: ``quit``, then end of input (``serve`` only exits on 'quit'
        once its stdin reader thread sees end of input)."""
        assert self.proc.stdin is not None
        self.send("quit")
        self.proc.stdin.close()
        assert self.proc.wait(timeout=LINE_TIMEOUT_S) == 0

    def close(self) -> None:
        """Never leave a process behind, whatever happened."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None and not f.closed:
                f.close()
        self._sel.close()
        self._stderr.close()

    def acks(self) -> dict[int, tuple[str, int]]:
        """Every commit printed: seq -> (type, t)."""
        return {d["seq"]: (d["type"], d["t"]) for d in self.lines if "seq" in d}


# --- playing -------------------------------------------------------------------------------


@dataclass
class Tracker:
    """What the test expects of the game, to send only commands the rules accept."""

    turn: int
    neutral: bool
    presses: list[int] = field(default_factory=lambda: [0, 0])
    scored: list[int] = field(default_factory=lambda: [0, 0])

    @classmethod
    def of(cls, st: GameState) -> Tracker:
        assert st.phase is Phase.PLAYING, st.phase
        return cls(st.turn, bool(st.clock.neutral), list(st.presses), list(st.scored))

    def scorable(self) -> list[int]:
        """Players with a turn the scorekeeper may score now."""
        return [
            p for p in (0, 1) if self.scored[p] < self.presses[p] + (1 if self.turn == p else 0)
        ]


def _expect(table: Table, type_name: str) -> dict[str, Any]:
    line = table.next_line()
    assert line.get("type") == type_name, (type_name, line)
    assert isinstance(line.get("seq"), int), line
    return line


def _one_command(table: Table, rng: random.Random, game: Tracker) -> None:
    """Send one command the rules accept and wait for its commit."""
    r = rng.random()
    if game.neutral:
        if r < 0.5:
            table.send("pause")
        else:
            table.send(json.dumps({"type": "resumed", "by": "director"}))
        _expect(table, "Resumed")
        game.neutral = False
    elif r < 0.6:
        table.send(f"press {game.turn}")
        _expect(table, "ClockPressed")
        game.presses[game.turn] += 1
        game.turn = 1 - game.turn
    elif r < 0.85 and game.scorable():
        p = rng.choice(game.scorable())
        score = rng.randint(0, 90)
        letter = rng.choice("ABCDEFGHIJKLMNOPRSTUVWYZ")
        table.send(
            json.dumps({"type": "turn_scored", "player": p, "score": score, "first_letter": letter})
        )
        _expect(table, "TurnScored")
        game.scored[p] += 1
    else:
        table.send("pause")
        _expect(table, "Neutralized")
        game.neutral = True


def _resume(table: Table, log: Path, before: list[Row], dead_ns: int) -> None:
    """The game the last kill interrupted comes back neutralized, the gap logged."""
    line = table.next_line()
    assert line.get("resumed") is True, line
    assert line["neutralized"], line
    new = log_rows(log)[len(before) :]
    restarted = [r for r in new if r.type_name == "ServiceRestarted" and not r.refused]
    assert len(restarted) == 1, new
    gap = restarted[0].body["gap_ms"]
    assert isinstance(gap, int)
    assert gap > 0, restarted[0]
    # The gap covers at least the time from the kill to this process's start.
    down_ms = (table.started_ns - dead_ns) // 1_000_000
    assert gap >= down_ms - 1, (gap, down_ms)
    table.send("state")
    state = table.next_line()["state"]
    assert state["neutralized"], state
    down = clock_text(gap, tenths=True)
    assert any(f"down {down}" in ruling["text"] for ruling in state["rulings"]), state["rulings"]


def _check_after_kill(log: Path, acked: dict[int, tuple[str, int]], stderr: Path) -> None:
    """No acknowledged event lost, and the chain intact."""
    rows = log_rows(log)
    if rows or acked:  # else killed before the log's schema was committed
        result = verify(log)
        assert result.ok, (result.problems, stderr.read_text())
    stored = {r.seq: r for r in rows}
    for seq, (type_name, t) in sorted(acked.items()):
        assert seq in stored, f"acknowledged seq {seq} ({type_name}) is not in the log"
        row = stored[seq]
        assert not row.refused, row
        assert (row.type_name, row.t) == (type_name, t), (seq, row, type_name, t)


def test_kill9_rounds(tmp_path: Path) -> None:
    log = tmp_path / "table.db"
    stderr = tmp_path / "serve.stderr"
    rng = random.Random(SEED)
    acked: dict[int, tuple[str, int]] = {}
    """Every commit acknowledged in any round."""
    dead_ns = 0
    early_kills = resumes = 0
    for round_no in range(ROUNDS + 1):
        before = log_rows(log)
        in_progress = _game(before).phase not in (Phase.NOT_STARTED, Phase.OVER)
        table = Table(log, stderr)
        try:
            if round_no == ROUNDS:  # one last start: the last kill must be resumed too
                assert in_progress
                _resume(table, log, before, dead_ns)
                table.quit()
                break
            if round_no > 0 and rng.random() < 0.15:
                # Killed while starting: replaying, recovering, or before the first line.
                table.watch(rng.uniform(0.0, 0.25))
                early_kills += 1
            else:
                if in_progress:
                    _resume(table, log, before, dead_ns)
                    resumes += 1
                    table.send(json.dumps({"type": "resumed", "by": "director"}))
                    _expect(table, "Resumed")
                else:
                    _expect(table, "GameStarted")
                game = Tracker.of(_game(log_rows(log)))
                for _ in range(rng.randint(0, 12)):
                    _one_command(table, rng, game)
                if not game.neutral:
                    # Presses still in flight at the kill.
                    turn = game.turn
                    for _ in range(rng.choice((0, 0, 1, 2, 3))):
                        table.send(f"press {turn}")
                        turn = 1 - turn
                table.watch(rng.choice((0.0, rng.uniform(0.0, 0.004), rng.uniform(0.0, 0.03))))
            dead_ns = table.kill()
        finally:
            table.close()
        round_acks = table.acks()
        for seq, ack in round_acks.items():
            assert acked.setdefault(seq, ack) == ack, (seq, acked[seq], ack)
        _check_after_kill(log, acked, stderr)
    assert resumes >= ROUNDS // 2, (resumes, early_kills)
    assert verify(log).ok
