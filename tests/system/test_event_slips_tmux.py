"""Results from paper slips typed into the real ``rackclock event slips`` in a terminal
(tmux): the 100 games of a 200-player round at the prompt, a refused line, an undo
and a correction, then ``event missing`` and ``event standings`` as processes, and the
ledger holding every record with who typed it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.tournament.records import Result, Retracted
from tests.support.tmux import Terminal, tmux_terminal
from tests.system.test_kill9 import RACKCLOCK
from tests.terminal_ui.test_event import rackclock
from tests.terminal_ui.test_event_slips import (
    big_event,
    check_standings,
    ledger_records,
    ledger_state,
    slips,
)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Terminal]:
    with tmux_terminal(tmp_path, size=(100, 30)) as term:
        yield term


def test_slips_typed_at_the_prompt_then_missing(tmux: Terminal, tmp_path: Path) -> None:
    log = big_event(tmp_path, players=200)
    lines, want = slips(log)
    tmux.start(f"exec {RACKCLOCK} event slips {log} --by sam")
    tmux.wait_for("slips for Big Saturday, division A round 1, as sam", "slip>")
    for line in lines[:99]:  # typed ahead, as fast as the director types
        tmux.type(line)
        tmux.keys("Enter")
    a, sa, b, sb = lines[99].split()
    tmux.type(f"{a} {sa} {a} {sb}")  # a slip misread: one player twice
    tmux.keys("Enter")
    tmux.wait_for(f"refused: both players are #{a} ")
    tmux.type("m")
    tmux.keys("Enter")
    tmux.wait_for("division A round 1: 1 game(s) without a result")
    tmux.type(lines[99])
    tmux.keys("Enter")
    tmux.type("u")
    tmux.keys("Enter")
    tmux.wait_for("(no result again)")
    tmux.type(f"{a} {int(sa) + 1} {b} {sb}")  # typed wrong, then corrected
    tmux.keys("Enter")
    tmux.type(f"c {lines[99]} --reason added wrong")
    tmux.keys("Enter")
    tmux.wait_for("corrected: R1 T")
    tmux.type("q")
    tmux.keys("Enter")
    tmux.wait("the command to end", lambda _: tmux.dead())

    missing = rackclock("event", "missing", log)
    assert missing.returncode == 0, missing.stderr
    assert missing.stdout == "division A round 1: every result is in\n"
    made = [r for r in ledger_records(log) if isinstance(r, Result | Retracted)]
    assert len(made) == 103  # 100 slips, the one undone, typed again, corrected
    assert {r.by for r in made} == {"sam"}
    assert [r.reason for r in made[-3:]] == ["undo", "", "added wrong"]
    check_standings(ledger_state(log), want)
    standings = rackclock("event", "standings", log)
    assert standings.returncode == 0, standings.stderr
    assert standings.stdout.startswith("division A after round 1:")
    assert len(standings.stdout.splitlines()) > 200
