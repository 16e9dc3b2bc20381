"""The console's prizes screen (key W, ``director --event``): the prize sheet of each
division, its special prizes from the game logs the console holds (Pilot)."""

from __future__ import annotations

from pathlib import Path

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
