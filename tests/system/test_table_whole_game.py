"""One whole game at the real ``rackclock table`` under tmux, at 80x24 and at 120x40
(issue 25, section 3), with long names, as a new player meets it: the start screen and
the clocks behind it, plays, a challenge of some of the words, the clock neutralized and
resumed, six passes, the racks, quitting before the signatures (the command that resumes
the game printed whole) and coming back to sign, and quitting. At every step the status
line's hint must be on the screen whole (wrapped, never cut), and the clocks must show
their times: the game's starting time before the game, the log's own readings at the end.

The emulated clock (the clock keys) is the table's clock. A missing tmux skips this test,
unless ``REQUIRE_SYSTEM_DEPS=1`` (``make test``), where it fails.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from rich.console import Console
from textual.renderables.digits import Digits

from clock.log.eventlog import EventLog, verify
from engine.clocktext import clock_text
from engine.rules.replay import replay
from engine.rules.state import Phase
from tests.support.tmux import Terminal, squeeze, tmux_terminal

RACKCLOCK = Path(sys.executable).parent / "rackclock"
ANN, BEN = "Annabelle Whitcombe", "Benjamin Okonkwo"


def digit_rows(time: str) -> list[str]:
    """The three rows the big clock digits draw ``time`` with (Textual's own renderer)."""
    console = Console(file=io.StringIO(), width=40, color_system=None, record=True)
    console.print(Digits(time))
    return console.export_text().splitlines()


def clocks_read(screen: str, left: str, right: str) -> bool:
    """Whether the two big clocks, side by side, read ``left`` and ``right``."""
    lines = screen.splitlines()
    rows = list(zip(digit_rows(left), digit_rows(right), strict=True))
    return any(
        all(a in line and b in line.split(a, 1)[1] for line, (a, b) in zip(at, rows, strict=True))
        for at in (lines[i : i + len(rows)] for i in range(len(lines) - len(rows) + 1))
    )


def shows(term: Terminal, *hints: str) -> str:
    """Wait until each hint is on the screen whole (its words in order, wrapped or not)."""
    return term.wait(repr(hints), lambda s: all(h in squeeze(s) for h in hints))


def enter(term: Terminal, text: str) -> None:
    """Type a command and press Enter."""
    term.type(text)
    term.wait(f"{text!r} typed", lambda s: text in s)
    term.keys("Enter")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_a_whole_game_at_the_table_fits_the_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    log = tmp_path / "game.sqlite"
    with tmux_terminal(tmp_path, size=size) as term:
        # pytest-xdist's workers export COLUMNS=80 and LINES=24, which the app would
        # take for its size (shutil.get_terminal_size reads them first): the window's
        # own size is the test's
        table = f"{RACKCLOCK} table --players '{ANN},{BEN}' --log {log}"
        term.start(f"env -u COLUMNS -u LINES {table}")
        screen = term.wait_for("A new game", "25:00 each")
        if size[1] >= 40:  # at 24 lines the start screen covers the clocks
            # behind it, both clocks read the game's starting time, not 0:00
            assert clocks_read(screen, "25:00", "25:00"), screen
        term.start_game("]")  # Ben starts Ann's clock
        shows(term, f"{ANN} to play")

        enter(term, "8d windy")
        shows(term, "on the board: 8D WINDY (32)")
        term.type("[")
        shows(term, f"{BEN} to play | 8D WINDY may be challenged")
        enter(term, "7c galey")
        shows(term, "on the board: 7C GALEY (34)")
        term.type("]")
        shows(term, f"{ANN} to play | 7C GALEY may be challenged")

        # Ann challenges all but GALEY: only the words chosen show an X
        enter(term, "challenge")
        term.wait_for("Challenge: pick the words")
        term.keys("Space")
        screen = term.wait("GALEY left out", lambda s: "▐ ▌ GALEY" in s)
        assert all(f"▐X▌ {w}" in screen for w in ("AW", "LI", "EN", "YD")), screen
        term.keys("Enter")
        term.wait_for("No word list: the adjudicator rules")
        term.type("v")
        shows(term, f"{ANN} to play")

        enter(term, "neutral lighting")
        shows(term, f"{ANN} to play (neutralized: lighting (players)) | type resume to restart")
        enter(term, "resume")
        term.wait("the clock to run again", lambda s: "type resume" not in squeeze(s))
        for n in range(6):
            enter(term, "pass")
            if n < 5:
                shows(term, f"{(BEN, ANN)[n % 2]} to play")
        shows(term, "game over: enter the tiles left on the racks | type racks AEI - (the")

        enter(term, "racks aeinrst eeiorst")
        term.wait_for("Game over", "not yet")
        term.keys("Escape")  # the summary closes: the status line is in view
        screen = shows(term, "game over | each player signs with their clock key")
        assert "may be challenged" not in screen
        term.keys("C-q")  # not signed yet: it asks
        shows(term, "Quit before both players have signed?")
        term.type("y")  # the terminal then prints the command that resumes it, whole
        resume = f"rackclock table --log {log}"
        term.wait("the command printed", lambda s: "resume it with:" in s)
        printed = term.tmux("capture-pane", "-p", "-J", "-t", term.target)  # wraps joined
        assert f"resume it with: {resume}" in printed, printed
        term.tmux("respawn-pane", "-k", "-t", term.target, f"env -u COLUMNS -u LINES {table}")
        term.wait_for("Game over", "not yet")  # the log's game, still to be signed
        term.keys("Escape")
        shows(term, "game over | each player signs with their clock key")
        term.type("[")
        shows(term, f"{BEN} signs with their clock key")
        term.type("]")
        screen = shows(term, "game over | both have signed: ctrl+N the next game")

        with EventLog.open_readonly(log) as lg:
            state, rejected = replay(lg.events())
        assert not rejected
        assert state.phase is Phase.OVER
        assert state.signed == (True, True)
        left, right = (clock_text(state.clock.remaining(s, state.t)) for s in (0, 1))
        assert clocks_read(screen, left, right), (left, right, screen)

        term.keys("C-q")  # signed: it quits at once
        term.wait("the table terminal to quit", lambda s: "game log:" in s)
    assert verify(log).ok
