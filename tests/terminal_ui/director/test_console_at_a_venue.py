"""The director's console at a venue (issue 23 §4): a finished game says whether both
players signed, names are never cut (at 80 and 120 columns, and when the terminal
is resized), and the export dialog shows every path whole.

Offline, on SQLite game logs; Textual's Pilot; every wait a bounded loop of pauses.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from clock.log.eventlog import EventLog
from engine.events import ClockPressed, Event, GameStarted, Resigned, Signed, TilesPlaced
from engine.rules.replay import live_report, replay
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.overview import fit_overview, signed_text
from terminal_ui.director.rows import Row, summarize
from terminal_ui.director.screens.export import ExportScreen
from tests.helpers import screen_text, until
from tests.terminal_ui.test_director import config, write_sqlite

WIDE = ("Wilhelmina Featherstonehaugh", "Konstantinos Papadopoulos")
"""Two long names (28 and 25 columns), as a venue's entry list has them."""
ODD = "Kim [kimbo] Lee"
"""A name with what looks like markup: shown as typed, not read as a style."""


def game(*players: str, signed: tuple[int, ...] = (), over: bool = True) -> list[Event]:
    """A game between ``players``: in play, or over (the second resigned) and signed
    by the seats in ``signed``."""
    events: list[Event] = [
        GameStarted(t=0, variant="nzasp", players=(players[0], players[1])),
        TilesPlaced(t=1_000, player=0, move="8D WINDY"),
        ClockPressed(t=1_500, player=0),
    ]
    if over:
        events.append(Resigned(t=3_000, player=1))
        events += [Signed(t=4_000 + i, player=seat) for i, seat in enumerate(signed)]
    return events


def append(path: Path, event: Event) -> None:
    with EventLog.open(path) as log:
        log.append(event)


def shown(app: DirectorApp) -> list[str]:
    """The terminal's lines as a person sees them."""
    return screen_text(app).splitlines()  # type: ignore[arg-type]  # it reads only the App


def cell(app: DirectorApp, label: str, column: str) -> str:
    """What the overview holds in ``column`` for the table ``label``."""
    key = next(r.key for r in app.rows if r.label == label)
    return str(app.query_one("#overview", DataTable).get_cell(key, column))


def row_of(events: list[Event], label: str) -> Row:
    state, rejected = replay(list(enumerate(events, start=1)))
    assert not rejected
    return summarize(label, label, live_report(state, state.t))


# --- who signed -------------------------------------------------------------------------------


async def test_a_finished_game_says_whether_both_players_signed(tmp_path: Path) -> None:
    logs = [
        write_sqlite(tmp_path / "t1.sqlite", game("Ann Able", "Ben Baker", signed=(0, 1))),
        write_sqlite(tmp_path / "t2.sqlite", game("Cyd Cole", "Dee Dunn", signed=(1,))),
        write_sqlite(tmp_path / "t3.sqlite", game("Eli Eyre", "Fay Ford")),
        write_sqlite(tmp_path / "t4.sqlite", game("Gus Gray", "Hal Hart", over=False)),
    ]
    app = DirectorApp(config(tmp_path, logs))
    async with app.run_test(size=(120, 30)) as pilot:
        await until(pilot, lambda: len(app.rows) == 4, "four rows")
        assert {r.label: cell(app, r.label, "signed") for r in app.rows} == {
            "t1": "signed 2/2",
            "t2": "unsigned: Cyd Cole",  # who has not signed
            "t3": "unsigned: both",
            "t4": "",  # in play: nothing to sign yet
        }
        text = "\n".join(shown(app))
        assert all(w in text for w in ("signed 2/2", "unsigned: Cyd Cole", "unsigned: both"))
        # Cyd signs at the table: the console says so at its next look at the log
        append(logs[1], Signed(t=5_000, player=0))
        app.refresh_overview()
        await until(pilot, lambda: cell(app, "t2", "signed") == "signed 2/2", "t2 signed")


def test_signatures_in_words() -> None:
    assert signed_text(row_of(game("Ann", "Ben", signed=(1, 0)), "t1")) == "signed 2/2"
    assert signed_text(row_of(game("Ann", "Ben", signed=(0,)), "t1")) == "unsigned: Ben"
    assert signed_text(row_of(game("Ann", "Ben"), "t1")) == "unsigned: both"
    assert signed_text(row_of(game("Ann", "Ben", over=False), "t1")) == ""


# --- names whole --------------------------------------------------------------------------------


def venue(tmp_path: Path) -> list[Path]:
    """A table with long names and a finished game Wilhelmina signed, a table with a
    bracketed name, and a short one in play."""
    return [
        write_sqlite(tmp_path / "t1.sqlite", game(*WIDE, signed=(0,))),
        write_sqlite(tmp_path / "t2.sqlite", game(ODD, "Ann Able", over=False)),
        write_sqlite(tmp_path / "t3.sqlite", game("Bo", "Cy", over=False)),
    ]


def whole(lines: list[str], name: str) -> bool:
    """Whether ``name`` is on one line of the screen, every letter of it."""
    return any(name in line for line in lines)


@pytest.mark.parametrize("width", [80, 120])
async def test_names_are_never_cut(tmp_path: Path, width: int) -> None:
    app = DirectorApp(config(tmp_path, venue(tmp_path)))
    async with app.run_test(size=(width, 30)) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        await pilot.pause()
        lines = shown(app)
        for name in (*WIDE, ODD, "Ann Able"):
            assert whole(lines, name), (name, "\n".join(lines))
        grid = app.query_one("#overview", DataTable)
        # the rows fit the terminal: nothing scrolls sideways; a line per player, the
        # names one above the other, each with its signature (overview.fit_overview)
        assert grid.max_scroll_x == 0
        assert any(WIDE[0] in line and " signed " in line for line in lines)
        assert any(WIDE[1] in line and " unsigned " in line for line in lines)


async def test_a_resized_terminal_refits_the_names(tmp_path: Path) -> None:
    app = DirectorApp(config(tmp_path, venue(tmp_path)))
    async with app.run_test(size=(200, 30)) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        assert whole(shown(app), f"{WIDE[0]} v {WIDE[1]}")  # room for both on a line
        await pilot.resize_terminal(80, 30)
        await until(pilot, lambda: whole(shown(app), WIDE[1]) and not whole(shown(app), " v "),
                    "the names one above the other")  # fmt: skip
        assert whole(shown(app), WIDE[0])


def test_what_gives_way_first() -> None:
    """Narrower and narrower: the phase wraps, then columns with nothing in them and the
    age go, then a line per player, then a long word of the phase folds; the names are
    never split, and past that the phase scrolls sideways rather than cut a name."""
    rows = [row_of(game(*WIDE, signed=(0,)), "t1"), row_of(game("Bo", "Cy", over=False), "t2")]
    every = ("flags", "table", "players", "score", "clocks", "stopped", "phase", "signed", "age")
    fits = {width: fit_overview(rows, width) for width in (340, 200, 160, 120, 80, 60)}
    for fit in fits.values():
        at = fit.keys.index("players")
        names = [n for row in fit.cells for line in row[at].split("\n") for n in line.split(" v ")]
        assert WIDE[0] in names  # never split
        assert WIDE[1] in names
    seen = {w: (f.keys == every, f.stacked, f.fits, f.heights[0]) for w, f in fits.items()}
    assert seen[340] == (True, False, True, 1)  # roomy: all on one line
    assert seen[200] == (True, False, True, 4)  # the phase wraps first
    assert seen[160][:3] == (False, False, True)  # then the empty columns and the age go
    assert fits[160].keys == ("table", "players", "score", "clocks", "phase", "signed")
    assert seen[120][1:3] == (True, True)  # then a line per player
    t1 = dict(zip(fits[120].keys, fits[120].cells[0], strict=True))
    assert (t1["players"], t1["score"]) == ("\n".join(WIDE), "32\n0")
    assert t1["signed"] == "signed\nunsigned"  # each player's signature on that player's line
    phase = fits[80].cells[0][fits[80].keys.index("phase")].split("\n")
    assert "Featherstonehaugh" not in phase  # a word of the phase folded over lines,
    assert "Featherstonehaugh" in "".join(phase)  # every letter there
    assert seen[80][1:3] == (True, True)
    assert seen[60][1:3] == (True, False)  # too narrow for the names: the phase scrolls


# --- the export dialog's paths -----------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 120])
async def test_the_export_dialog_shows_the_whole_path(tmp_path: Path, width: int) -> None:
    log = write_sqlite(tmp_path / "t1.sqlite", game("Ann Able", "Ben Baker", signed=(0, 1)))
    out = tmp_path / ("spring-open-results-" * 4) / "division-a-after-round-eleven"
    app = DirectorApp(config(tmp_path, [log], export_dir=out, round=1))
    async with app.run_test(size=(width, 40)) as pilot:
        await until(pilot, lambda: len(app.rows) == 1, "the row")
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export dialog")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        await until(pilot, lambda: bool(screen.games), "the finished game")
        await pilot.press("enter")
        await until(pilot, lambda: screen.report is not None, "the export")
        assert screen.report is not None
        assert screen.report.paths
        await pilot.pause()
        # the dialog, as the terminal shows it, within its frame: a long path is folded
        # over lines, every character of it there (the lines joined without spaces)
        box = screen.query_one("#dialog").content_region
        assert box.right <= width
        lines = shown(app)[box.y : box.bottom]
        flat = "".join(line[box.x : box.right].replace(" ", "") for line in lines)
        assert f"into{out}" in flat
        for path in screen.report.paths:
            assert f"wrote{path}" in flat, path


async def test_a_game_without_its_round_keeps_its_names_and_its_field(tmp_path: Path) -> None:
    """Long names in the export dialog's line for a game whose log gives no round: the
    line wraps beside the round's field, which stays on the screen."""
    log = write_sqlite(tmp_path / "t1.sqlite", game(*WIDE, signed=(0, 1)))  # no round in its log
    app = DirectorApp(config(tmp_path, [log]))
    async with app.run_test(size=(80, 30)) as pilot:
        await until(pilot, lambda: len(app.rows) == 1, "the row")
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export dialog")
        screen = app.screen
        await until(pilot, lambda: bool(screen.query("#round-0")), "the round's field")
        await pilot.pause()
        field = screen.query_one("#round-0", Input)
        assert field.region.right <= 80
        box = screen.query_one("#dialog").content_region
        lines = shown(app)[box.y : box.bottom]
        flat = "".join(line[box.x : field.region.x].replace(" ", "") for line in lines)
        assert f"t1game1:{WIDE[0]}v{WIDE[1]}round:".replace(" ", "") in flat
