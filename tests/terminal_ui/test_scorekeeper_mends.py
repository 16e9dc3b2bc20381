"""Mends to the scorekeeper from a walk-through of issue 20: ctrl+N on a resumed log,
a short variant's clocks behind its start screen, undo until the players sign, the
dispute line, refused entries, and one exit code for a held log.

Driven with Textual's Pilot on a FakeTimeline; every game is logged to a real SQLite
file in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from clock.timeline import FakeTimeline
from engine.rules.state import Phase
from terminal_ui.scorekeeper.widgets import ResultScreen
from terminal_ui.shared.start import StartScreen
from tests.helpers import until
from tests.terminal_ui.test_scorekeeper import (
    SIZE,
    digits,
    make_app,
    press_clock,
    scored,
    started,
    text,
    type_entry,
)


def short_variant(tmp_path: Path) -> Path:
    """A variant file on Toronto speed play with four seconds a player."""
    path = tmp_path / "short.toml"
    path.write_text(
        'name = "short"\ntitle = "Short speed"\nextends = "toronto-speed"\n\n[params]\n'
        'initial_ms = { value = 4000, source = "a test: four seconds each" }\n',
        encoding="utf-8",
    )
    return path


def facts(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    return str(app.screen.query_one("#start-facts").render())


async def test_ctrl_n_on_a_resumed_log_keeps_the_games_players_and_rules(
    tmp_path: Path,
) -> None:
    tl = FakeTimeline()
    variant = short_variant(tmp_path)
    first = make_app(tmp_path, tl, variant=str(variant))
    async with first.run_test(size=SIZE) as pilot:
        await started(pilot)
        await type_entry(pilot, "resign")
        await until(pilot, lambda: first.state.phase is Phase.OVER, "the resignation")
        await until(pilot, lambda: isinstance(first.screen, ResultScreen), "the result")
        await pilot.press("left_square_bracket", "right_square_bracket")  # both sign
        await until(pilot, lambda: all(first.state.signed), "the signatures")
        await pilot.press("ctrl+q")
    # resumed as `rackclock scorekeeper --log game.sqlite`: the command line's defaults
    again = make_app(tmp_path, tl)
    again.config.players = ("Player 1", "Player 2")
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ResultScreen), "the result")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(again.screen, StartScreen), "the next start")
        shown = facts(again)
        assert "Left    Ben" in shown
        assert "Right   Ann" in shown
        assert "Rules   Short speed" in shown
        assert "0:04 each" in shown
        assert "Starts  Ben" in shown
        assert digits(again, 0) == "0:04"  # behind the start screen: the game's own time
        await pilot.press("f1")
        await until(pilot, lambda: again.state.games == 2, "the next game")
        await until(pilot, lambda: again.state.phase is Phase.PLAYING, "its start")
        assert again.state.players == ("Ben", "Ann")
        assert again.state.variant is not None
        assert again.state.variant.initial_ms == 4000


async def test_a_short_variants_clocks_show_its_time_before_the_start(tmp_path: Path) -> None:
    app = make_app(tmp_path, variant=str(short_variant(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert "0:04 each" in facts(app)
        assert (digits(app, 0), digits(app, 1)) == ("0:04", "0:04")


async def test_undo_stops_when_the_game_ends_and_fix_keeps_the_cutoffs_ending(
    tmp_path: Path,
) -> None:
    """undo until the game is over (the racks phase is over too); fix until a player
    signs, except one that would change why the game ended at the cutoff (TOR-9)."""
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        tl.advance(100_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "a20")
        tl.advance(50_000)
        await press_clock(pilot, 1)
        await type_entry(pilot, "b30")
        await scored(pilot, (1, 1))
        tl.advance(141_000)  # Ann past -1:01 and Ben ahead: the game ends (TOR-9)
        await until(pilot, lambda: app.state.phase is Phase.END_RACKS, "the cutoff")
        await type_entry(pilot, "undo")
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert "the game is over: every turn stays scored" in text(app, "#feedback")
        assert app.state.scored == (1, 1)
        app.query_one("#entry", Input).value = ""
        await type_entry(pilot, "fix 2:1 b10")  # Ben 10 to Ann's 20: he was behind
        await until(pilot, lambda: "would change that ending" in text(app, "#feedback"), "no")
        shown = text(app, "#feedback")
        assert "refused: the game ended at the cutoff because Ben was not behind" in shown
        assert "TOR-9" in shown or "TOR-8" in shown
        assert app.state.scores == (20, 30)
        app.query_one("#entry", Input).value = ""
        await type_entry(pilot, "fix 2:1 b25")  # still ahead: the ending stands
        await until(pilot, lambda: app.state.scores == (20, 25), "the correction")
        await type_entry(pilot, "racks AEI BCD")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the result")
        await pilot.press("escape")
        await type_entry(pilot, "fix 2:1 b15")  # Ben 15 to Ann's 20 as recorded
        await until(pilot, lambda: "would change that ending" in text(app, "#feedback"), "no")
        res = app.state.result
        assert res is not None
        assert res.scores == (20 - 3 - 61, 25 - 8)


async def test_the_dispute_line_says_who_claimed(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "a20")
        await scored(pilot, (1, 0))
        await type_entry(pilot, "dispute")
        await until(pilot, lambda: app.state.phase is Phase.SCORE_DISPUTE, "the dispute")
        line = text(app, "#phase")
        assert "Ann claims 20; type dispute N with the agreed score" in line
        assert "claims 20 and 20" not in line


async def test_a_refused_line_is_selected_and_every_refusal_says_refused(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        box = app.query_one("#entry", Input)
        await type_entry(pilot, "undo")  # nothing to take back yet
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert text(app, "#feedback").startswith("refused: no entry to take back")
        assert box.value == "undo"
        await pilot.press("q", "2", "4")  # the next key replaces the refused line
        assert box.value == "q24"
        box.value = ""
        await type_entry(pilot, "q 999")  # q99 with a key pressed twice
        await until(pilot, lambda: "typing slip" in text(app, "#feedback"), "the refusal")
        assert text(app, "#feedback").startswith("refused: 999 points for one turn")
        assert app.state.scored == (0, 0)
        await pilot.press("q", "9", "9", "enter")
        await scored(pilot, (1, 0))
        assert app.state.scores == (99, 0)
        await type_entry(pilot, "fix 1:0 q2")
        await until(pilot, lambda: "count from 1" in text(app, "#feedback"), "the answer")
        assert text(app, "#feedback").startswith("refused: no turn 0: 'fix 1:0 q2'.")
        box.value = ""
        await type_entry(pilot, "resign")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the resignation")
        await pilot.press("escape")
        await type_entry(pilot, "k12")
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert text(app, "#feedback").startswith("refused: ")
    assert app.state.scored == (1, 0)  # k12 scored nothing


def test_a_confirmed_high_score_parses() -> None:
    from terminal_ui.scorekeeper.entry import Entry, implausible, parse_entry

    assert parse_entry("q999!") == Entry(None, "Q", 999, sure=True)
    assert implausible(999, 0, True) is None
    assert implausible(999, 0, False) is not None
    assert implausible(700, 1200, True) is not None  # past any game's total


async def test_the_table_terminals_ctrl_n_on_a_resumed_log_reads_the_finished_game(
    tmp_path: Path,
) -> None:
    """The table terminal takes the next game from the same function: the finished
    game's players and rules, not the command line's defaults."""
    from terminal_ui.table.app import TableApp
    from terminal_ui.table.screens import StartScreen as TableStart
    from tests.helpers import command, config, game, screen_text
    from tests.helpers import started as table_started

    async with TableApp(config(tmp_path, variant="wespa")).run_test(size=(80, 24)) as pilot:
        app = await table_started(pilot)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
    resumed = config(tmp_path, players=("Player 1", "Player 2"))  # nzasp by default
    app = TableApp(resumed)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game(app).phase is Phase.OVER, "the finished game")
        await pilot.pause()
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, TableStart), "the next start screen")
        shown = screen_text(app)
        assert "Left    Ben" in shown
        assert "Right   Ann" in shown
        assert "WESPA" in shown


async def test_fix_cannot_push_a_player_past_what_a_game_reaches(tmp_path: Path) -> None:
    """fix replaces a turn's score: the player's total less the old entry, plus the
    new, must stay within the 1800 no game reaches (engine/tournament/scores.py)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "a900!")
        await press_clock(pilot, 1)
        await type_entry(pilot, "b10")
        await press_clock(pilot, 0)
        await type_entry(pilot, "c800!")
        await scored(pilot, (2, 1))
        assert app.state.scores == (1700, 10)
        await type_entry(pilot, "fix 1:2 c999!")  # 1700 - 800 + 999 = 1899
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert "999 would bring the player to 1899, past the 1800" in text(app, "#feedback")
        assert app.state.scores == (1700, 10)
        app.query_one("#entry", Input).value = ""
        await type_entry(pilot, "fix 1:1 a999!")  # 1700 - 900 + 999 = 1799
        await until(pilot, lambda: app.state.scores == (1799, 10), "the correction")
