"""A whole Toronto speed game at the real ``rackclock scorekeeper``, under tmux (issue 20,
"done when": a lockout and an undo).

The scorekeeper command runs in a tmux window of 120x30 (test_e2e_tmux.py's driver)
on a log file, with a director's variant file (docs/variants.md, "A director's
variant") that extends ``toronto-speed`` with 4 s clocks and the no-more-plays
cutoff at 1 s of overtime instead of 3:00 and -1:01 (``initial_ms``,
``cutoff_overtime_ms``), so the lockout (TOR-8) comes in real time within seconds.
From the start screen to both signatures the keys a scorekeeper and two players
press go in with ``tmux send-keys``: entries ``q24``, ``-`` and ``2:b12`` out of
order, an ``undo``, a ``fix``, the locked-out turn's score refused with TOR-8 and
``-`` recorded, the racks. Then ``rackclock replay --json`` must put every entry on
the turn meant and give the result computed here by hand, and ``rackclock log
verify`` must pass.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.tmux import Terminal, squeeze, tmux_terminal
from tests.system.test_kill9 import RACKCLOCK
from tests.system.test_log_readers import rackclock

INITIAL_MS = 4_000
CUTOFF_MS = 1_000
VARIANT = f"""\
name = "speed-quick"
title = "Toronto speed play with 4 s clocks, for a test"
extends = "toronto-speed"

[params]
initial_ms = {INITIAL_MS}
cutoff_overtime_ms = {CUTOFF_MS}
"""
RACK_VALUE = {"AEI": 3, "BCD": 8}
"""Tile values left on the racks (A, E, I 1; B, C 3; D 2), deducted at the cutoff (TOR-9)."""


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Terminal]:
    """A fresh tmux server with a 120x30 window (the lockout line fits 120 columns)."""
    with tmux_terminal(tmp_path, size=(120, 30)) as term:
        yield term


def test_a_speed_game_with_a_lockout_and_an_undo(tmux: Terminal, tmp_path: Path) -> None:
    variant = tmp_path / "speed-quick.toml"
    variant.write_text(VARIANT)
    log = tmp_path / "speed.sqlite"
    tmux.start(
        f"exec {RACKCLOCK} scorekeeper --variant {variant} --log {log} --players Ann,Ben --first 0"
    )
    tmux.start_game("]")  # Ben starts Ann's clock
    tmux.wait_for("Ann to play")

    def enter(text: str, *shown: str) -> str:
        """Type ``text`` and Enter; wait until the sheets show each of ``shown`` (the
        entry line takes the next entry once this one is recorded)."""
        tmux.type(text)
        tmux.keys("Enter")
        return tmux.wait(repr(shown), lambda s: all(t in squeeze(s) for t in shown))

    # Two turns each, pressed quickly; the scorekeeper catches up afterwards.
    for key, nxt in (("[", "Ben"), ("]", "Ann"), ("[", "Ben"), ("]", "Ann")):
        tmux.type(key)
        tmux.wait_for(f"{nxt} to play")
    enter("q24", "1 Q +24 24")  # Ann's turn 1
    enter("-", "1 +0 0")  # Ben's turn 1: scoreless
    enter("2:b12", "2 B +12 12")  # Ben's turn 2, before Ann's turn 2 (out of order)
    enter("a10", "2 A +10 34")  # Ann's turn 2
    enter("undo", "undo -10 24")  # takes back Ann's turn 2
    enter("a20", "2 A +20 44")
    # Ann's turn 1 was 30, not 24: the sheet adds the difference as a line of its own
    # (the answer on the feedback line: the rulings pane wraps as the lockout's ruling,
    # which may come first on a loaded machine, pushes it down)
    enter("fix 1:1 q30", "fix +6 50", "ok: Ann turn 1 corrected: Q 30")
    # Ann's clock has run through the catching up; past -0:01 she may make no more plays.
    screen = tmux.wait_for("LOCKED OUT")
    assert "Ann LOCKED OUT (TOR-8): no more plays" in screen
    tmux.type("[")  # Ann presses anyway: her turn 3 scores 0
    tmux.wait_for("Ben to play")
    enter("w40")  # the play she made: refused, never moved onto Ben's turn
    # the cutoff as the variant sets it (it said -1:01 whatever the variant)
    # (wait for the whole answer, the screen's hint included: it wraps over several
    # lines, and on an 80-column screen a two-line feedback once cut the hint off)
    screen = squeeze(tmux.wait("the refusal", lambda s: "enter - for it" in squeeze(s)))
    assert "refused: Ann's turn 3 came after -0:01" in screen
    assert "TOR-8" in screen
    tmux.keys("C-u")  # (a refusal the screen makes itself leaves the entry on the line)
    enter("-", "3 +0 50")  # Ann's turn 3 scores 0
    tmux.keys("F8")  # Ben passes while Ann may not play: the game ends (TOR-9)
    tmux.wait_for("enter the tiles left on the racks")
    enter("racks AEI BCD")
    tmux.wait_for("Game over", "Ann wins")
    tmux.type("[")
    tmux.type("]")
    screen = tmux.wait_for("Ann: signed", "Ben: signed")

    # The log, read by programs of their own.
    verified = rackclock("log", "verify", log)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    out = rackclock("replay", "--json", log)
    assert out.returncode == 0, out.stderr
    game = json.loads(out.stdout)
    rows = [ev["text"].replace(" actor=scorekeeper", "") for ev in game["events"]]
    # The refused entry is in the log for the director (issue 20 §3), bound to its turn.
    refused = [ev for ev in game["events"] if ev["refused"]]
    assert [(r["text"].replace(" actor=scorekeeper", ""), r["rule"][:5]) for r in refused] == [
        ("turn_scored Ann score=40 first_letter=W turn=3", "TOR-8")
    ]
    # Every entry on the turn meant, in the order typed; the locked-out turn is Ann's 3rd.
    accepted = [r for r, ev in zip(rows, game["events"], strict=True) if not ev["refused"]]
    assert [r for r in accepted if r.startswith(("turn_scored", "turn_corrected"))] == [
        "turn_scored Ann score=24 first_letter=Q turn=1",
        "turn_scored Ben score=0 turn=1",
        "turn_scored Ben score=12 first_letter=B turn=2",
        "turn_scored Ann score=10 first_letter=A turn=2",
        "turn_corrected Ann turn=2 undo=True",
        "turn_scored Ann score=20 first_letter=A turn=2",
        "turn_corrected Ann turn=1 score=30 first_letter=Q",
        "turn_scored Ann score=0 turn=3",
        "turn_scored Ben score=0 turn=3",  # Ben's pass, recorded by the screen
    ]
    # By hand: Ann's clock ran from the start to her press, and from each of Ben's
    # presses to her next; the cutoff ended the game (TOR-8, TOR-9).
    presses = [
        (ev["t"], ev["text"].split()[1]) for ev in game["events"] if "clock_pressed" in ev["text"]
    ]
    assert [who for _, who in presses] == ["Ann", "Ben", "Ann", "Ben", "Ann"]
    starts = [game["game_started_ms"]] + [t for t, who in presses if who == "Ben"]
    ends = [t for t, who in presses if who == "Ann"]
    ann_used = sum(end - start for start, end in zip(starts, ends, strict=True))
    overtime = ann_used - INITIAL_MS
    assert overtime > CUTOFF_MS  # she was locked out before her third press
    penalty = math.ceil(overtime / 1000)  # TOR-7: a point a second or part
    ann = 30 + 20 + 0 - RACK_VALUE["AEI"] - penalty
    ben = 0 + 12 + 0 - RACK_VALUE["BCD"]
    assert game["result"]["scores"] == [ann, ben]
    assert game["result"]["penalties"] == [penalty, 0]
    assert game["result"]["winner"] == 0
    assert game["signed"] == [True, True]
    assert f"Ann wins {ann} to {ben}" in screen  # what the players signed
