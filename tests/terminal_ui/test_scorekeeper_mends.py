"""Mends to the scorekeeper from a walk-through of issue 20: ctrl+N on a resumed log,
a short variant's clocks behind its start screen, undo until the players sign, the
dispute line, refused entries, and one exit code for a held log.

Driven with Textual's Pilot on a FakeTimeline; every game is logged to a real SQLite
file in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

from clock.timeline import FakeTimeline
from engine.rules.state import Phase
from terminal_ui.scorekeeper.widgets import ResultScreen
from terminal_ui.shared.start import StartScreen
from tests.helpers import until
from tests.terminal_ui.test_scorekeeper import (
    SIZE,
    digits,
    make_app,
    started,
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
