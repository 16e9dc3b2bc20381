"""The table terminal as a first-time player meets it: the start screen, the help, a
refusal that stays readable, the whole history, quitting mid-game, the next game, one
key map (issue 13). Pilot, fake time, a real log on disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clock.timeline import FakeTimeline
from engine.events import Passed
from engine.rules.state import Phase
from terminal_ui.shared.help import HelpScreen
from terminal_ui.shared.keys import KEYMAP, clock_keys
from terminal_ui.table.app import TableApp
from terminal_ui.table.help import COMMANDS, SCORESHEET_COMMANDS
from terminal_ui.table.screens import QuitScreen, StartScreen
from tests.helpers import (
    REPO,
    T0,
    command,
    config,
    game,
    logged,
    long_game,
    play,
    screen_text,
    started,
    text_of,
    until,
)


def log_events(path: Path) -> list[str]:
    from clock.log.eventlog import EventLog

    with EventLog.open(path, create=False) as lg:
        return [type(e).__name__ for _, e in lg.events()]


async def test_the_start_screen_says_who_plays_and_the_clock_waits_for_a_key(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path)
    tl = cfg.timeline
    assert isinstance(tl, FakeTimeline)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, TableApp)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        shown = screen_text(app)
        for fact in (
            "Ann  (clock key [ / F1)",
            "Ben  (clock key ] / F2)",
            "NZASP Rules of Play (June 2022)",
            "25:00 each",
            "Starts  Ann",
            "Mode    board",
            "emulated (the clock keys)",
            "Press a clock key ([ or ]) to start Ann's clock.",
        ):
            assert fact in shown, (fact, shown)
        tl.advance(90_000)  # the players settle in: no clock runs, nothing is logged
        await pilot.pause()
        assert game(app).phase is Phase.NOT_STARTED
        assert log_events(cfg.log) == []
        await pilot.press("right_square_bracket")  # Ben starts Ann's clock
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the game")
        await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the table")
        tl.advance(5_000)
        assert game(app).clock.remaining(0, tl.now_ms()) == 1_500_000 - 5_000
    assert log_events(cfg.log) == ["GameStarted"]
    assert logged(cfg.log).t == T0 + 90_000  # the game began at the key, not at opening


async def test_help_lists_every_command_and_key(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(100, 50)) as pilot:
        app = await started(pilot)
        await pilot.press("f12")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        shown = screen_text(app)
        for example, _ in COMMANDS:
            assert example in shown, example
        for label in ("[ / F1", "] / F2", "ctrl+B", "ctrl+T", "ctrl+N", "F12", "ctrl+Q"):
            assert label in shown, label
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "the table")
        # the same help from the command line
        await command(pilot, "?", lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("f12")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "closed again")


def readme_rows(heading: str) -> list[tuple[str, str]]:
    """The rows of the README's table under the line starting ``heading``: (the
    example without its backticks, what it does)."""
    lines = (REPO / "README.md").read_text().split("\n" + heading, 1)[1].splitlines()
    rows = []
    for line in lines[1:]:
        if line.startswith("| "):
            example, what = (cell.strip() for cell in line.strip().strip("|").split(" | "))
            rows.append((example.strip("`"), what))
        elif rows:
            break
    return rows[2:]  # after the header and its rule


def test_the_readme_lists_the_helps_commands_row_for_row() -> None:
    """The README's lists are the in-app help's, the same rows in the same order."""
    assert readme_rows("What the table's command line takes") == list(COMMANDS)
    assert readme_rows("What the scorekeeper types") == list(SCORESHEET_COMMANDS)


def test_one_key_does_one_thing_everywhere() -> None:
    seen: dict[str, str] = {}
    for key in KEYMAP:
        for name in key.keys.split(","):
            assert name not in seen, f"{name} is {seen[name]} and {key.description}"
            seen[name] = key.description
    assert clock_keys("F5,f6") == ("f5", "f6")
    assert clock_keys(None) == ("left_square_bracket,f1", "right_square_bracket,f2")
    for bad in ("a,l", "f5", "f5,f5", "space,f6"):
        with pytest.raises(ValueError, match="--keys"):
            clock_keys(bad)


async def test_the_clock_keys_can_be_the_players_own(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path, clock_keys=("f5", "f6"))).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, TableApp)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await pilot.press("f5")
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the game")
        await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the table")
        await pilot.press("f1")  # no longer a clock key
        await pilot.pause()
        assert game(app).clock.running == 0
        assert "(clock key F5)" in screen_text(app)
        await command(pilot, "pass", lambda: game(app).turn == 1)
        await pilot.press("f6")  # Ben's key: his clock was running; the press is his
        await pilot.pause()
        assert "(clock key F6)" in screen_text(app)


async def test_a_refusal_stays_until_the_next_keystroke(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    tl = cfg.timeline
    assert isinstance(tl, FakeTimeline)
    async with TableApp(cfg).run_test(size=(100, 30)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        await command(pilot, "draw 99", lambda: app.last_ack is not None)
        refusal = text_of(app, "#feedback")
        assert refusal.startswith("refused: the bag holds 86 tiles, not 99: Ann is owed 5")
        assert "NZASP 6.3.6: replenish the rack from the bag" in refusal  # the rule that applies
        # time passes, the clock ticks, another answer arrives: the refusal stays
        tl.advance(3_000)
        assert app.service is not None
        await app.service.submit(Passed(player=1))
        for _ in range(5):
            await pilot.pause()
        assert text_of(app, "#feedback") == refusal
        await pilot.press("p")  # the next keystroke: the player has seen it
        await pilot.pause()
        assert "refused" not in text_of(app, "#feedback")


async def test_the_history_shows_the_whole_game_and_the_newest_move(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await long_game(pilot, app)
        history = game(app).history
        assert len(history) > 8
        moves = text_of(app, "#moves")
        for h in history:  # every move, none dropped (the old screen showed the last 8)
            assert f"{game(app).players[h.player]} {h.text} {h.score:+d} {h.total}" in moves
        newest = history[-1]
        pattern = (
            rf"{game(app).players[newest.player]} +{re.escape(newest.text)} +\+0 +{newest.total}"
        )
        assert any(re.search(pattern, ln) for ln in screen_text(app).splitlines()), (
            "the newest move is in view"
        )


async def test_a_settled_dispute_shows_both_numbers_whole(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy 30", "[")
        await until(pilot, lambda: game(app).phase is Phase.SCORE_DISPUTE, "the dispute")
        await command(pilot, "dispute 32", lambda: game(app).phase is not Phase.SCORE_DISPUTE)
        history = [h.text for h in game(app).history]
        settled = next(t for t in history if "->" in t)
        assert settled in text_of(app, "#moves")  # whole: 'score 30 -> 32', not cut


async def test_quitting_mid_game_asks_and_says_how_to_resume(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        assert "The game is kept" in screen_text(app)
        assert f"rackclock table --log {cfg.log}" in text_of(app, "#quit-resume")
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, QuitScreen), "back to the game")
        assert app.is_running
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "asked again")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running, "the app to quit")


async def test_after_the_end_one_key_starts_the_next_game_with_the_seats_swapped(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
        assert "ctrl+N: the next game" in screen_text(app)
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the next start screen")
        assert "Left    Ben" in screen_text(app)
        await pilot.press("f1")
        await until(pilot, lambda: game(app).games == 2, "the next game")
        assert game(app).players == ("Ben", "Ann")
        assert game(app).phase is Phase.PLAYING
    started_games = [e for e in log_events(cfg.log) if e == "GameStarted"]
    assert len(started_games) == 2


async def test_a_resumed_game_says_how_long_it_was_down_in_clock_time(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        await started(pilot)
    tl = FakeTimeline(T0 + 19_000)
    async with TableApp(config(tmp_path, timeline=tl)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await until(pilot, lambda: game(app).clock.neutral is not None, "neutralized")
        shown = " ".join(screen_text(app).split())
        assert "down 0:" in shown
        assert " ms" not in shown
