"""End to end: the README's main command, ``make run``, played with keys in a real terminal.

The table terminal runs under tmux (its own server on a private socket, a
window of 80x24) with ``XDG_DATA_HOME`` in ``tmp_path``, so the game log lands
there. Keys go in with ``tmux send-keys``; the screen is read back with
``tmux capture-pane -p``, as a player would see it. After ctrl+q the log is
replayed and must give the scores the screen showed.

A missing tmux skips this test, unless ``REQUIRE_SYSTEM_DEPS=1`` (``make test``),
where it fails: scripts/system-deps installs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from clock.log.eventlog import EventLog, verify
from engine.events import ClockPressed, Passed, TilesPlaced
from engine.rules.replay import replay
from engine.rules.state import Phase
from tests.support.tmux import Terminal, squeeze, tmux_terminal


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A fresh tmux server whose data directory is ``tmp_path``."""
    with tmux_terminal(tmp_path) as term:
        yield term


def test_make_run_plays_a_game_at_the_table(terminal: Terminal, tmp_path: Path) -> None:
    terminal.start("make run")
    # The start screen: who plays, the rules and time, who starts; no clock runs yet.
    terminal.wait_for("A new game", "25:00 each", "Press a clock key ([ or ]) to start")
    terminal.start_game("]")  # Player 2 starts Player 1's clock, as at a real table
    terminal.wait_for("Player 1  0", "Player 2  0", "Player 1 to play", "NZASP 3.2, 3.3")
    # The help is one key away, and says every command with an example.
    terminal.keys("F12")
    terminal.wait_for("rackclock help", "8D WINDY")
    terminal.keys("Escape")
    terminal.wait("the help to close", lambda s: "rackclock help" not in s)
    # Player 1 types a play: its score shows before anything is laid.
    terminal.type("8d windy")
    terminal.wait_for("8D WINDY: WINDY 32 = 32")
    terminal.keys("Enter")
    terminal.wait_for("on the board: 8D WINDY (32)")
    terminal.type("[")  # the left player's clock key, with the command line focused
    screen = terminal.wait_for("Player 1  32", "Player 2 to play", "8D WINDY may be challenged")
    assert "Player 1 8D WINDY +32 32" in squeeze(screen)
    # Player 2 answers and presses the right clock key.
    terminal.type("7c gale")
    terminal.wait_for("7C GALE: GALE 7, AW 5, LI 2, EN 2 = 16")
    terminal.keys("Enter")
    terminal.wait_for("on the board: 7C GALE (16)")
    terminal.type("]")
    screen = terminal.wait_for("Player 2  16", "Player 1 to play")
    assert "Player 1  32" in screen
    assert "Player 2 7C GALE +16 16" in squeeze(screen)
    # Player 1 passes; the rulings pane cites the rules.
    terminal.type("pass")
    terminal.keys("Enter")
    screen = terminal.wait_for("Player 2 to play")
    assert "Player 1 - +0 32" in squeeze(screen)
    assert "NZASP" in screen
    assert "refused" not in screen
    # A command that is wrong says what to type instead, and stays on screen.
    terminal.type("draw 99")
    terminal.keys("Enter")
    terminal.wait_for("refused:")
    # Player 2 resigns: the result, then both players sign with their clock keys.
    terminal.type("resign")
    terminal.keys("Enter")
    terminal.wait_for("Game over", "Player 1 wins")
    terminal.type("[")
    terminal.type("]")
    terminal.wait_for("Player 1: signed", "Player 2: signed")

    terminal.keys("C-q")  # the game is over: no question
    terminal.wait("the table terminal to quit", lambda s: "game log:" in s)

    logs = sorted((tmp_path / "rackclock" / "games").glob("*.sqlite"))
    assert [p.name for p in logs] == ["table-0001.sqlite"]
    assert verify(logs[0]).ok
    with EventLog.open(logs[0], create=False) as log:
        events = [ev for _, ev in log.events()]
        state, rejected = replay(log.events())
    assert not rejected
    assert state.scores == (32, 16)
    assert state.phase is Phase.OVER
    assert state.result is not None
    assert state.result.winner == 0
    assert state.signed == (True, True)
    assert state.players == ("Player 1", "Player 2")
    assert [type(ev) for ev in events if isinstance(ev, TilesPlaced | ClockPressed | Passed)] == [
        TilesPlaced,
        ClockPressed,
        TilesPlaced,
        ClockPressed,
        Passed,
    ]
