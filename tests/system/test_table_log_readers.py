"""Reading a running table terminal's log loses nothing (issue 19; docs/events.md,
"Who opens a log").

The real ``rackclock table`` (the Textual table terminal) runs under tmux on a log
file, in scoresheet mode (a press needs no play) with the emulated clock, and the
players press their clock keys. Between presses every reader that is a program of
its own reads the log (:func:`tests.system.test_log_readers.cli_readers`: ``event
results``, ``replay``, ``log verify``, ``log export``, ``export gcg``, ``export
naspa``, a plain sqlite3 connection read-write and read-only). Then the terminal's
process is killed with SIGKILL: every press the screen showed is in the log, in
order, and ``rackclock log verify`` agrees.

"Acknowledged" at the terminal means the screen shows the event: the terminal draws
the state the table service publishes only after the event is committed to the log
(clock/table/service.py, ``_commit``), so once the screen says the other player is
to play, that press is on disk.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.log_rows import log_rows
from tests.support.tmux import WAIT_S, Terminal, tmux_terminal
from tests.system.test_kill9 import RACKCLOCK
from tests.system.test_log_readers import cli_readers, new_event, rackclock

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

PLAYERS = ("Ann", "Ben")
KEYS = ("[", "]")
"""Each player's clock key (left, right): the one that ends that player's turn."""


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Terminal]:
    """A fresh tmux server (test_e2e_tmux.py's) whose data directory is ``tmp_path``."""
    with tmux_terminal(tmp_path) as term:
        yield term


def test_readers_beside_the_table_terminal_lose_no_shown_event(
    tmux: Terminal, tmp_path: Path
) -> None:
    log = tmp_path / "t1.sqlite"
    events = new_event(tmp_path)
    # exec: the pane's process is the terminal itself, the one the kill must hit
    tmux.start(
        f"exec {RACKCLOCK} table --mode scoresheet --clock emulated --log {log} "
        f"--players {','.join(PLAYERS)}"
    )
    tmux.start_game("]")  # Ben starts Ann's clock, as at a real table
    tmux.wait_for(f"{PLAYERS[0]} to play")
    shown = 0
    """Presses the screen showed (each is on disk: see the module's docstring)."""

    def press() -> None:
        """The player on turn presses their clock key; wait for the screen to show it."""
        nonlocal shown
        turn = shown % 2
        tmux.type(KEYS[turn])
        tmux.wait_for(f"{PLAYERS[1 - turn]} to play")
        shown += 1

    for read in cli_readers(log, events, lambda: 1 + shown):  # game_started + presses
        press()
        read()
        press()
    for _ in range(3):
        press()
    pid = int(tmux.tmux("display-message", "-p", "-t", tmux.target, "#{pane_pid}"))
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + WAIT_S
    while not tmux.dead():
        assert time.monotonic() < deadline, "the terminal outlived SIGKILL"
        time.sleep(0.02)

    rows = log_rows(log)
    assert [r.type_name for r in rows] == ["GameStarted", *["ClockPressed"] * shown]
    assert [r.body["player"] for r in rows[1:]] == [i % 2 for i in range(shown)]
    verified = rackclock("log", "verify", log)
    assert verified.returncode == 0, verified.stdout
    assert f"({1 + shown} events," in verified.stdout
