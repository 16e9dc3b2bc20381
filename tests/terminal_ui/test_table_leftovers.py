"""The table terminal's leftovers a new player met (issue 25 §3): a refused clock leaves
no log, the board and the status behind the start screen speak of the game to come,
answers in words, the quit dialog's command whole and printed again, an offline clock
on the start screen. Pilot with fake time and a real log on disk; the command line as
a process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rich.text import Text
from textual.widgets import Static

from engine.rules.state import Phase
from terminal_ui.shared.command_input import CommandInput
from terminal_ui.shared.help import HelpScreen
from terminal_ui.table.app import TableApp
from terminal_ui.table.help import SCORESHEET_COMMANDS
from terminal_ui.table.screens import QuitScreen, StartScreen
from tests.helpers import command, config, game, play, screen_text, started, text_of, until

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")


def behind(app: TableApp, selector: str) -> str:
    """The text of a line of the table screen, under whatever dialog is up."""
    content = app.screen_stack[0].query_one(selector, Static).content
    return " ".join(Text.from_markup(str(content)).plain.split())


def test_a_refused_clock_leaves_no_log_and_names_none(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    for _ in range(2):  # each try would have used up a number
        out = subprocess.run(
            [RACKCLOCK, "table", "--clock", "bogus"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env=env,
        )
        assert out.returncode == 2, out
        assert "clock 'bogus': names no clock" in out.stderr
        assert "game log" not in out.stdout
    games = tmp_path / "data" / "rackclock" / "games"
    assert not games.exists() or list(games.iterdir()) == []


async def test_the_board_behind_the_start_screen_is_the_game_to_come(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path, mode="board")).run_test(size=(120, 30)) as pilot:
        app = pilot.app
        assert isinstance(app, TableApp)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await pilot.press("ctrl+b")
        await pilot.pause()
        board = " ".join(screen_text(app).split())
        assert "scoresheet" not in board
        assert "no board yet: it shows once the game starts" in board
        assert "not_started" not in board
        assert behind(app, "#phase") == "a new game: a clock key ([ or ]) starts it"


async def test_answers_are_said_in_words_not_event_names(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(100, 30)) as pilot:
        app = await started(pilot)
        await command(pilot, "8d windy", lambda: app.last_ack is not None)
        assert text_of(app, "#feedback") == "ok: Ann lays 8D WINDY (32)"
        await pilot.press("[")
        await until(pilot, lambda: game(app).turn == 1, "Ann's press")
        line = app.query_one("#command")
        await pilot.click(line)
        await pilot.press("h", "o", "l", "d")
        assert text_of(app, "#feedback") == "Enter: Ben holds the play"
        await pilot.press("enter")
        await until(pilot, lambda: game(app).phase is Phase.HOLD, "the hold")
        assert text_of(app, "#feedback") == "ok: Ben holds the play"
        shown = screen_text(app)
        for name in ("TilesPlaced", "HoldCalled", "(#"):
            assert name not in shown, name


async def test_ctrl_n_mid_game_says_when_and_after_it_no_old_game_shows(
    tmp_path: Path,
) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(120, 30)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert "ctrl+N starts the next game once this one is over" in text_of(app, "#feedback")
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the next start screen")
        shown = " ".join(screen_text(app).split())
        for old in ("WINDY +32", "both have signed", "game over", "resign"):
            assert old not in shown, old
        assert behind(app, "#moves") == "(no moves yet)"
        assert behind(app, "#rulings") == "(no rulings yet)"


async def test_the_quit_dialog_keeps_the_command_whole(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(120, 30)) as pilot:
        app = await started(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        lines = [ln.strip(" ┃│▌▐█") for ln in screen_text(app).splitlines()]
        command_line = f"rackclock table --log {cfg.log}"
        assert any(command_line in ln for ln in lines), "the command on one line"
        # the sentences wrap at the dialog's width, not at hard breaks: none ends short
        said = next(i for i, ln in enumerate(lines) if "The game is kept" in ln)
        assert "counting while" in " ".join(lines[said].split()), lines[said]
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.resume == f"rackclock table --log {cfg.log}"  # the command line prints it


async def test_an_offline_clock_shows_on_the_start_screen(tmp_path: Path) -> None:
    cfg = config(tmp_path, clock="serial:/dev/nonexist")
    async with TableApp(cfg).run_test(size=(100, 30)) as pilot:
        app = pilot.app
        assert isinstance(app, TableApp)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await until(
            pilot,
            lambda: "CLOCK OFFLINE" in text_of(app, "#start-link"),
            "the offline clock on the start screen",
        )
        assert "/dev/nonexist" in text_of(app, "#start-link")


async def test_scoresheet_mode_takes_what_the_scorekeeper_takes(tmp_path: Path) -> None:
    """Toronto speed opens in scoresheet mode: a turn is scored as on the scorekeeper's
    screen (first letter and score), a pass scores 0 by itself, and the hint and the
    help are the scoresheet's."""
    cfg = config(tmp_path, variant="toronto-speed")
    async with TableApp(cfg).run_test(size=(100, 40)) as pilot:
        app = await started(pilot)
        assert "score (Q24" in str(app.query_one("#command", CommandInput).placeholder)
        await pilot.press("[")  # Ann's turn ends
        await until(pilot, lambda: game(app).turn == 1, "Ann's press")
        assert "score Ann's turn 1" in text_of(app, "#phase")
        await command(pilot, "8D WINDY", lambda: "not an entry" in text_of(app, "#feedback"))
        assert "Q24" in text_of(app, "#feedback")
        await command(pilot, "w32", lambda: game(app).scores == (32, 0))
        assert text_of(app, "#feedback") == "ok: Ann turn 1: W 32"
        assert "Ann W +32 32" in text_of(app, "#moves")
        await command(pilot, "pass", lambda: game(app).scored == (1, 1))  # its 0, by itself
        await command(pilot, "undo", lambda: game(app).scores == (0, 0))  # Ann's W 32
        await pilot.press("f12")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        shown = screen_text(app)
        for example, _ in SCORESHEET_COMMANDS:
            assert example in shown, example
        assert "8D WINDY" not in shown
