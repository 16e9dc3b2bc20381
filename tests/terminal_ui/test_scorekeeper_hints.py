"""The scorekeeper's screen as the table terminal now is (issue 25, section 3): hints
wrap rather than cut at 80 and 120 columns, follow the game (nothing to challenge
after a resignation, who has yet to sign, nothing to sign once both have), and
ctrl+Q asks before leaving a finished game unsigned.

Driven with Textual's Pilot on a FakeTimeline; every game is logged to a real SQLite
file in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Label, Static

from clock.timeline import FakeTimeline
from engine.rules.state import Phase
from terminal_ui.scorekeeper.app import ScorekeeperApp
from terminal_ui.scorekeeper.widgets import ResultScreen
from terminal_ui.shared.start import QuitScreen
from tests.helpers import screen_text, until
from tests.support.tmux import squeeze
from tests.terminal_ui.table.test_first_use import LONG_NAMES
from tests.terminal_ui.test_scorekeeper import SIZE, make_app, press_clock, started, type_entry


def line(app: ScorekeeperApp, selector: str) -> str:
    """A line of the scorekeeper's screen (under any dialog), markup removed, its words
    single-spaced."""
    content = app.screen_stack[0].query_one(selector, Static).content
    return squeeze(Text.from_markup(str(content)).plain)


def shown(app: ScorekeeperApp) -> str:
    """The terminal's words, single-spaced: a line wrapped on screen reads whole."""
    return squeeze(screen_text(app))  # type: ignore[arg-type]


def how(app: ScorekeeperApp) -> str:
    """What the result dialog says is left to do."""
    return squeeze(str(app.screen.query_one("#how", Label).render()))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_every_hint_fits_the_status_lines(tmp_path: Path, size: tuple[int, int]) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    app.config.players = LONG_NAMES
    async with app.run_test(size=size) as pilot:
        await started(pilot)

        async def whole(selector: str, what: str) -> None:
            hint = line(app, selector)
            assert what in hint, hint
            await until(pilot, lambda: hint in shown(app), f"{hint!r} whole")

        await press_clock(pilot, 0)
        await whole("#phase", "Benjamin Okonkwo-Hartley may hold or challenge")
        await whole("#target", "Tab: other player")
        await pilot.press("f9")
        await until(pilot, lambda: app.state.clock.neutral is not None, "the pause")
        await whole("#phase", "type resume to restart the clock")
        await pilot.press("f9")
        await until(pilot, lambda: app.state.clock.neutral is None, "the clock again")
        tl.advance(242_000)  # Benjamin's clock past -1:01 (TOR-8)
        await until(pilot, lambda: app.state.locked[1], "the lockout")
        await whole("#phase", "LOCKED OUT (TOR-8): no more plays")
        assert line(app, "#phase").endswith("the turn scores 0")


async def test_the_hints_follow_a_resignation_and_the_signatures(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        assert "Ben may hold or challenge Ann's turn 1" in line(app, "#phase")
        await type_entry(pilot, "resign")  # Ben, on turn, resigns
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the result")
        assert "may hold or challenge" not in line(app, "#phase")  # the game is over
        assert "each player signs with their clock key" in line(app, "#phase")
        assert line(app, "#target") == "game over: 1 turn was not scored"  # Ann's play
        assert "Players confirm with their clock key" in how(app)
        await pilot.press("f2")
        await until(pilot, lambda: app.state.signed == (False, True), "Ben's signature")
        await until(pilot, lambda: "Ann signs with their clock key" in line(app, "#phase"), "Ann")
        await pilot.press("f1")
        await until(pilot, lambda: app.state.signed == (True, True), "Ann's signature")
        await until(pilot, lambda: "both have signed" in line(app, "#phase"), "both")
        assert "signs with" not in line(app, "#phase")
        assert "ctrl+N" in line(app, "#phase")
        await until(pilot, lambda: "Both players have signed" in how(app), "the dialog")
        assert "confirm" not in how(app)
        assert "ctrl+N" in how(app)


async def test_quitting_a_finished_unsigned_game_asks_first(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await type_entry(pilot, "resign")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the resignation")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the result")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        assert "Quit before both players have signed?" in shown(app)
        said = squeeze(str(app.screen.query_one("#quit-resume", Static).render()))
        assert f"rackclock scorekeeper --log {tmp_path / 'game.sqlite'}" in said
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "back to the result")
        assert app.is_running
        await pilot.press("f1", "f2")
        await until(pilot, lambda: all(app.state.signed), "both signatures")
        await pilot.press("ctrl+q")  # signed: nothing is left to keep, it quits at once
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.return_code == 0
