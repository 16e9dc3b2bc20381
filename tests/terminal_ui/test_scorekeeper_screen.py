"""The scorekeeper's screen around the game (issue 20 §5): the start screen the table
terminal has, ctrl+Q asking first, ctrl+N for the next game, and what the panels say.

Driven with Textual's Pilot on a FakeTimeline; every game is logged to a real SQLite
file in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input

from clock.timeline import FakeTimeline
from clock.user_files import load_variant
from engine.rules.state import Phase
from terminal_ui.scorekeeper.sheet_text import short_rule
from terminal_ui.scorekeeper.widgets import ResultScreen
from terminal_ui.shared.start import QuitScreen, StartScreen
from tests.helpers import until
from tests.terminal_ui.test_scorekeeper import (
    SIZE,
    make_app,
    press_clock,
    scored,
    started,
    text,
    type_entry,
)


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


async def test_a_withdrawn_turn_shows_its_zero(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "w32")
        await scored(pilot, (1, 0))
        await press_clock(pilot, 1)  # Ann challenges before Ben's play is scored
        await type_entry(pilot, "challenge")
        await until(pilot, lambda: app.state.phase is Phase.CHALLENGE, "the challenge")
        await type_entry(pilot, "invalid")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the verdict")
        await type_entry(pilot, "h33")
        st = await scored(pilot, (1, 1))
        assert st.scores == (32, 0)
        await until(pilot, lambda: "withdrawn" in text(app, "#feedback"), "the answer")
        shown = text(app, "#feedback")
        assert "ok: Ben turn 1: 0, the play was withdrawn (H 33 does not count)" in shown
        assert "  1 H    +0     0" in text(app, "#sheet1")


async def test_rulings_name_the_player_and_the_word(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "e12")
        await scored(pilot, (1, 0))
        await pilot.press("f5")
        await until(pilot, lambda: app.state.phase is Phase.CHALLENGE, "the challenge")
        assert "Ben challenges Ann's turn 1 (E...): one challenge" in text(app, "#rulings")
        await pilot.press("f6")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the verdict")
        assert "Ann's turn 1 (E...) is acceptable (adjudicator)" in text(app, "#rulings")
        # words typed with the challenge are named
        await press_clock(pilot, 0)
        await type_entry(pilot, "challenge qi")
        await until(pilot, lambda: app.state.phase is Phase.CHALLENGE, "the second challenge")
        assert "Ben challenges Ann's turn 2 (QI)" in text(app, "#rulings")


async def test_a_score_dispute_says_who_claimed_what_and_who_agreed(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "q24")
        await scored(pilot, (1, 0))
        await type_entry(pilot, "dispute")
        await until(pilot, lambda: app.state.phase is Phase.SCORE_DISPUTE, "the dispute")
        assert (
            "Ben disputes the score of Ann's turn 1 (Q...): Ann claims 24; Ben does not agree"
        ) in text(app, "#rulings")
        await type_entry(pilot, "dispute 21")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the settlement")
        assert app.state.scores == (21, 0)
        assert (
            "score of Ann's turn 1 (Q...) settled at 21, not Ann's claim of 24 (both players "
            "agree; entered by the scorekeeper)"
        ) in text(app, "#rulings")


async def test_earlier_rulings_scroll_back(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        for _ in range(5):  # ten rulings: more than the panel shows
            await pilot.press("f9")
            await until(pilot, lambda: bool(app.state.clock.neutral), "the pause")
            await pilot.press("f9")
            await until(pilot, lambda: not app.state.clock.neutral, "the resume")
        assert len(app.state.rulings) > 10
        shown = text(app, "#rulings")
        assert shown.index("resumed") < shown.index("game started")  # newest first
        pane = app.query_one("#rulings-pane", VerticalScroll)
        assert pane.max_scroll_y > 0
        pane.scroll_end(animate=False)
        await pilot.pause()
        assert pane.scroll_y == pane.max_scroll_y  # the first ruling is reachable


async def test_the_lockout_instruction_fits_120_columns(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        tl.advance(242_000)  # Ben's clock past -1:01
        await until(pilot, lambda: app.state.locked[1], "the lockout")
        line = text(app, "#phase")
        assert "Ben LOCKED OUT (TOR-8): no more plays" in line
        assert line.endswith("the turn scores 0")
        assert len(line) <= 118  # the line's width inside its padding


@pytest.mark.parametrize("name", ["toronto-speed", "naspa", "nzasp", "wespa", "indonesia-open"])
def test_the_rule_column_is_cut_between_words(name: str) -> None:
    variant = load_variant(name)
    for param in variant.params:
        rule = variant.source(param)
        short = short_rule(rule)
        assert len(short) <= 28
        if short.endswith("..."):
            kept = short.removesuffix("...")
            whole = rule.split(":", 1)[0]
            assert whole.startswith(kept)
            assert whole[len(kept)] in " ,;(", (rule, short)  # never inside a word
    assert short_rule("NZASP 6.12.2.2 challenge procedure", 20) == "NZASP 6.12.2.2..."


async def test_minus_is_only_a_minus_on_the_sheet(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        app.query_one("#entry", Input).value = "24"
        await pilot.pause()
        assert "Enter: Ann turn 1: 24" in text(app, "#feedback")  # no letter: none shown
        app.query_one("#entry", Input).value = "-"
        await pilot.pause()
        assert "Enter: Ann turn 1: 0 (nothing scored)" in text(app, "#feedback")
        await pilot.press("enter")
        await scored(pilot, (1, 0))
        assert "ok: Ann turn 1: 0 (nothing scored)" in text(app, "#feedback")
        await pilot.press("f8")  # Ben passes; not scored yet while Ann's turn is open
        await until(pilot, lambda: app.state.presses[1] == 1, "the pass")
        assert "-" not in text(app, "#sheet0") + text(app, "#sheet1")
