"""The scorekeeper's screen around the game (issue 20 §5): the start screen the table
terminal has, ctrl+Q asking first, ctrl+N for the next game, and what the panels say.

Driven with Textual's Pilot on a FakeTimeline; every game is logged to a real SQLite
file in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

from clock.timeline import FakeTimeline
from engine.rules.state import Phase
from terminal_ui.scorekeeper.widgets import ResultScreen
from terminal_ui.shared.start import QuitScreen, StartScreen
from tests.helpers import until
from tests.terminal_ui.test_scorekeeper import SIZE, make_app, started, text, type_entry


async def test_the_clock_waits_for_a_clock_key(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        facts = str(app.screen.query_one("#start-facts").render())
        assert "Ann" in facts
        assert "Ben" in facts
        assert "Toronto" in facts
        assert "3:00 each" in facts
        assert "Starts  Ann" in facts
        tl.advance(22_000)  # the scorekeeper reads the help: no player's time goes
        await pilot.press("f12")
        await pilot.pause()
        await pilot.press("f12")
        assert app.state.phase is Phase.NOT_STARTED
        await pilot.press("right_square_bracket")  # either clock key starts the game
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the start")
        await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the game")
        st = app.state
        assert st.clock.running == 0  # Ann starts
        assert st.clock.remaining(0, tl.now_ms()) == 180_000
        assert st.presses == (0, 0)  # the starting key is not a press


async def test_quitting_mid_game_asks_first(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        said = str(app.screen.query_one("#quit-resume").render())
        assert f"rackclock scorekeeper --log {tmp_path / 'game.sqlite'}" in said
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, QuitScreen), "back to the game")
        assert app.is_running
        assert app.state.phase is Phase.PLAYING
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "asked again")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.return_code == 0


async def test_ctrl_n_starts_the_next_game_with_seats_swapped(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await type_entry(pilot, "resign")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the result")
        assert "ctrl+N" in str(app.screen.query_one("#dialog Label:last-of-type").render())
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the next start")
        facts = str(app.screen.query_one("#start-facts").render())
        assert "Left    Ben" in facts
        assert "Starts  Ben" in facts
        await pilot.press("f1")
        await until(pilot, lambda: app.state.games == 2, "the next game")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "its start")
        assert app.state.players == ("Ben", "Ann")
        assert not isinstance(app.screen, ResultScreen)
        assert "Ben" in text(app, "#target")
