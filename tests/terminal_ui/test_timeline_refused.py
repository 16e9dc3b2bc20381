"""The director's timeline shows every refused command in its place, counts the row
under the cursor, speaks game time to the tenth, and says how a penalty is counted;
the scorekeeper's and the table terminal's clocks say it too (issue 20, §3 and §4)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from clock.timeline import FakeTimeline
from engine.events import GameStarted, TimeChecked
from engine.rules.replay import replay
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.screens.timeline import TimelineScreen
from terminal_ui.shared.widgets import PlayerClock
from terminal_ui.table.app import TableApp
from tests.helpers import config as table_config
from tests.helpers import started as table_started
from tests.helpers import until
from tests.terminal_ui.test_director import SIZE, config, text_of, write_sqlite
from tests.terminal_ui.test_replay_times import T0, accepted, write_log
from tests.terminal_ui.test_scorekeeper import digits, make_app, status
from tests.terminal_ui.test_scorekeeper import started as sheet_started


async def open_timeline(app: DirectorApp, pilot: Pilot[int]) -> TimelineScreen:
    await until(pilot, lambda: len(app.rows) == 1, "the row")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
    screen = app.screen
    assert isinstance(screen, TimelineScreen)
    await until(pilot, lambda: screen.state.variant is not None, "the game")
    return screen


async def test_refused_rows_are_stepped_through_in_their_place(tmp_path: Path) -> None:
    log = write_log(tmp_path / "t.sqlite")  # 1-5, 6 and 7 refused, 8
    app = DirectorApp(config(tmp_path, [log]))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_timeline(app, pilot)
        # at the end: the header counts the row under the cursor (it said 6/6 on event 8)
        assert "event 8 (8/8 of this game)" in text_of(screen, "#when")
        assert "at +0:26.0 game time" in text_of(screen, "#when")
        await pilot.press("home", "down", "down", "down", "down", "down")
        assert "event 6 (6/8 of this game)" in text_of(screen, "#when")
        assert "at +0:25.2 game time" in text_of(screen, "#when")
        shown = text_of(screen, "#events")
        assert "5 +0:25.0 tiles_placed Dee" in shown
        assert (
            "> 6 +0:25.2 REFUSED clock_pressed Cyd: Cyd's clock is not running: "
            "it is Dee's turn [NZASP 6.3.3" in shown
        )
        assert "7 +0:25.4 REFUSED clock_pressed Cyd" in shown
        assert "8 +0:26.0 clock_pressed Dee" in shown
        # never replayed: the game as the accepted events left it
        assert screen.state == replay(enumerate(accepted()[:5], start=1), at=T0 + 25_200)[0]
        # each clock to the tenth of a second
        assert "Cyd 32 24:57.5 | Dee 0 24:37.3 running" in text_of(screen, "#clocks")
        await pilot.press("down")
        assert "> 7 +0:25.4 REFUSED" in text_of(screen, "#events")
        await pilot.press("down")
        assert "event 8 (8/8 of this game)" in text_of(screen, "#when")
        assert screen.state.scores == (32, 16)
        await pilot.press("up", "up")
        assert "> 6 +0:25.2 REFUSED" in text_of(screen, "#events")


async def test_two_rows_at_one_instant_are_two_steps(tmp_path: Path) -> None:
    start = GameStarted(t=0, variant="nzasp", players=("Ann", "Ben"))
    log = write_sqlite(tmp_path / "t.sqlite", [start, TimeChecked(t=5_000), TimeChecked(t=5_000)])
    app = DirectorApp(config(tmp_path, [log]))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_timeline(app, pilot)
        await pilot.press("home", "down")
        assert "event 2 (2/3 of this game)" in text_of(screen, "#when")
        await pilot.press("down")
        assert "event 3 (3/3 of this game)" in text_of(screen, "#when")


async def test_the_timeline_says_how_the_penalty_is_counted(tmp_path: Path) -> None:
    start = GameStarted(t=0, variant="toronto-speed", players=("Ann", "Ben"))
    log = write_sqlite(tmp_path / "t.sqlite", [start, TimeChecked(t=183_400)])
    app = DirectorApp(config(tmp_path, [log]))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_timeline(app, pilot)
        assert "Ann 0 -0:03.4 running penalty 4 (each started second costs 1)" in text_of(
            screen, "#clocks"
        )


async def test_the_scorekeeper_says_each_started_second_counts(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=(80, 24)) as pilot:
        await sheet_started(pilot)
        tl.advance(183_400)  # Ann's 3:00 and 3.4 s more (TOR-7: a point a second or part)
        await until(pilot, lambda: "penalty -4" in status(app, 0), "the penalty")
        assert digits(app, 0) == "-0:03"
        assert "penalty -4 (each started second costs 1)" in status(app, 0)


async def test_the_table_terminal_says_each_started_minute_counts(tmp_path: Path) -> None:
    cfg = table_config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await table_started(pilot)
        left = app.query_one("#p0", PlayerClock)
        assert isinstance(cfg.timeline, FakeTimeline)
        cfg.timeline.advance(1_500_000 + 5_000)
        await until(pilot, lambda: left.has_class("-overtime"), "overtime")
        text = str(left.query_one(".status", Static).render())
        assert "OVERTIME, penalty 10 (each started minute costs 10)" in text
