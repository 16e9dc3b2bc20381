"""The director's event screen (key S) at 80 and 120 columns: a game's line too wide
for the screen wraps only between its parts (the table and first player, `` v ``
and the second, the game's state), never inside a name (Pilot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.tournament.ledger import EventLedger
from engine.tournament.pairing.pair_round import draw
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.event import EventScreen, lay_out
from tests.helpers import screen_text

LONG = ("Maria-Christina Vasquez-Montgomery", "Konstantinos Papadopoulos-Georgiou")

EVENT = f"""
name = "Long names"
[[division]]
name = "A"
rounds = 2
plan = [{{ rounds = "1-2", system = "koth" }}]
players = [
  {{ name = "{LONG[0]}", rating = 1800 }},
  {{ name = "{LONG[1]}", rating = 1700 }},
  {{ name = "Cid Cole", rating = 1600 }},
  {{ name = "Dee Dunn", rating = 1500 }},
]
"""


@pytest.mark.parametrize("columns", [80, 120])
async def test_a_long_game_line_wraps_between_its_parts(tmp_path: Path, columns: int) -> None:
    log = tmp_path / "long.sqlite"
    with EventLedger.create(log, EVENT, "long.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
    app = DirectorApp(DirectorConfig(logs=(), export_dir=tmp_path, event=log))
    async with app.run_test(size=(columns, 40)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, EventScreen)
        shown = app.screen.shown.splitlines()
        on_screen = screen_text(app)  # type: ignore[arg-type]
    first, second = LONG if f"t1  {LONG[0]} (first)" in on_screen else LONG[::-1]
    # as the terminal shows it: each name whole, the second under the first
    drawn = [line.strip(" █▌▐┃") for line in on_screen.splitlines()]
    at = next(i for i, line in enumerate(drawn) if line.startswith("t1  "))
    assert drawn[at : at + 2] == [f"t1  {first} (first)", f"v {second}: not started"]
    at = shown.index(f"    t1  {first} (first)")
    # too wide for either screen: wrapped between parts, the rest under the names
    assert shown[at : at + 2] == [
        f"    t1  {first} (first)",
        f"        v {second}: not started",
    ]
    assert "    t2  Cid Cole (first) v Dee Dunn: not started" in shown  # fits: one line


def test_parts_go_on_a_line_while_they_fit() -> None:
    line = "    t1  Ann Able (first) v Konstantinos Papadopoulos-Georgiou: 412 to 380  in play"
    assert lay_out(line, 90) == line
    assert lay_out(line, 70).splitlines() == [
        "    t1  Ann Able (first) v Konstantinos Papadopoulos-Georgiou:",
        "        412 to 380  in play",
    ]
    assert lay_out(line, 40).splitlines() == [
        "    t1  Ann Able (first)",
        "        v Konstantinos Papadopoulos-Georgiou:",  # wider than 40: the widget folds it
        "        412 to 380  in play",
    ]
    playing = "    t2  Cid Cole (first) v Dee Dunn: 32 to 0  Cid Cole to play, clocks 24:58 / 24:59"
    assert lay_out(playing, 70).splitlines() == [
        "    t2  Cid Cole (first) v Dee Dunn: 32 to 0  Cid Cole to play,",
        "        clocks 24:58 / 24:59",
    ]
    standings = "     1  1-0  +50  Konstantinos Papadopoulos-Georgiou"
    assert lay_out(standings, 20) == standings  # not a game's line: the widget wraps it
