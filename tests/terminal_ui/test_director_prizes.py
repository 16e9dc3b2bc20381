"""The console's prizes screen (key W, ``director --event``): the prize sheet of each
division, its special prizes from the game logs the console holds (Pilot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from engine.tournament.errors import ResultError
from engine.tournament.sheets.sheet import cell_width
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.prizes import PrizesScreen
from tests.helpers import until
from tests.terminal_ui.test_event_prizes import day


async def test_key_w_shows_the_prizes_from_the_logs_the_console_holds(tmp_path: Path) -> None:
    log = day(tmp_path)
    tables = (tmp_path / "tables" / "t1.sqlite", tmp_path / "tables" / "t2.sqlite")
    app = DirectorApp(DirectorConfig(logs=tables, export_dir=tmp_path, event=log))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: len(app.tables) == 2, "both logs loaded")
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, PrizesScreen), "the prizes screen")
        assert isinstance(app.screen, PrizesScreen)
        shown = app.screen.shown.splitlines()
        assert shown[0] == "Prize Day, division A: prizes after round 2"
        assert any(line.split()[:3] == ["high", "play", "Hal"] for line in shown)
        bingos = next(line for line in shown if line.startswith("most bingos"))
        assert bingos.split()[2:4] == ["Cyd", "4"]
        await pilot.press("w")  # the same key closes it
        await until(pilot, lambda: not isinstance(app.screen, PrizesScreen), "closed")


async def test_without_an_event_the_key_says_how_to_get_one(tmp_path: Path) -> None:
    day(tmp_path)
    app = DirectorApp(
        DirectorConfig(logs=(tmp_path / "tables" / "t1.sqlite",), export_dir=tmp_path)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: "--event LEDGER" in app.feedback, "the advice")
        assert not isinstance(app.screen, PrizesScreen)


@pytest.mark.parametrize("width", [80, 120])
async def test_the_prize_sheet_scrolls_sideways_and_never_wraps(tmp_path: Path, width: int) -> None:
    # the special prizes' grid is wider than 120 columns: each line stays one line
    # (the table not garbled into the next), the screen scrolls sideways to it
    log = day(tmp_path)
    tables = (tmp_path / "tables" / "t1.sqlite", tmp_path / "tables" / "t2.sqlite")
    app = DirectorApp(DirectorConfig(logs=tables, export_dir=tmp_path, event=log))
    async with app.run_test(size=(width, 40)) as pilot:
        await until(pilot, lambda: len(app.tables) == 2, "both logs loaded")
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, PrizesScreen), "the prizes screen")
        assert isinstance(app.screen, PrizesScreen)
        await pilot.pause()
        lines = app.screen.shown.splitlines()
        static = app.screen.query_one("#prizes", Static)
        box = app.screen.query_one("#prizes-dialog")
        longest = max(cell_width(line) for line in lines)
        assert longest > 80  # the case: wider than the terminal
        assert static.size.width >= longest  # no shown line is longer than the widget
        assert static.size.height == len(lines)  # so none wrapped
        # wider than the screen: it scrolls sideways to the lines' end
        assert box.max_scroll_x == max(0, longest - box.scrollable_content_region.width)
        assert (box.max_scroll_x > 0) == (width == 80)


async def test_a_prize_error_is_a_line_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = day(tmp_path)

    def broken(*_: object) -> str:
        raise ResultError("round 1: something odd in a log")

    monkeypatch.setattr("terminal_ui.director.app.prizes_text", broken)
    tables = (tmp_path / "tables" / "t1.sqlite",)
    app = DirectorApp(DirectorConfig(logs=tables, export_dir=tmp_path, event=log))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: len(app.tables) == 1, "the log loaded")
        await pilot.press("w")
        await until(pilot, lambda: "cannot make the prize list" in app.feedback, "the line")
        assert app.feedback == "cannot make the prize list: round 1: something odd in a log"
        assert not isinstance(app.screen, PrizesScreen)
        assert app.is_running
