"""The start of a game at the table and scorekeeper terminals: a log another writer
holds refused in one line, a second clock key on the start screen that is no press,
and ctrl+N's rematch outside the event."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from clock.log.eventlog import EventLog
from clock.log.log_files import load_log_with_refused
from clock.table.service import TableService
from clock.table.session import TableSpec
from clock.timeline import FakeTimeline
from engine.events import GameStarted
from engine.rules.state import Phase
from terminal_ui.scorekeeper.app import ScorekeeperApp
from terminal_ui.shared.start import StartScreen, next_game
from terminal_ui.table.app import TableApp
from tests.helpers import config, until
from tests.terminal_ui.test_scorekeeper import SIZE, make_app


def logged(path: Path) -> list[str]:
    """The log's events by name, and its refused commands (at the table a press with no
    play on the board is refused, NZASP 6.3.3, and kept for forensics)."""
    events, _, refused = load_log_with_refused(path)
    return [type(e).__name__ for _, e in events] + [
        f"refused {type(r.event).__name__}" for r in refused
    ]


def exit_line(capsys: pytest.CaptureFixture[str]) -> str:
    """What the app printed as it exited (Textual prints the exit message to stderr,
    wrapped at the test console's width: joined back here)."""
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    return " ".join(out.err.split())


async def start_twice(pilot: Pilot[Any], key: str) -> None:
    """Press ``key`` on the start screen, and again after the game has begun but before
    the screen closes: the session's begin is held open (its GameStarted committed)
    until the second key has been handled, so the second key lands in that gap every
    time, not only on a slow machine."""
    app = pilot.app
    assert isinstance(app, TableApp | ScorekeeperApp)
    await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
    session = app.session
    assert session is not None
    assert app.emulated is not None
    real, entered, go = session.begin, asyncio.Event(), asyncio.Event()

    async def held_begin() -> None:
        await real()
        entered.set()
        await go.wait()

    session.begin = held_begin  # type: ignore[method-assign]  # the gap made to last
    await pilot.press(key)
    await until(pilot, entered.is_set, "the game being begun")
    tl = app.config.timeline
    assert isinstance(tl, FakeTimeline)
    tl.advance(2_000)  # a real turn's time
    await pilot.press(key)
    go.set()
    await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the game")
    await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the game screen")
    await app.emulated.drained()  # a press made is taken
    await pilot.pause(0.1)


async def test_a_table_on_a_log_another_writer_holds_exits_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = config(tmp_path)
    holder = TableService(cfg.log, timeline=FakeTimeline(1_000), heartbeat_ms=0)
    async with holder:
        app = TableApp(cfg)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: not app.is_running, "the app to exit")
    assert app.return_value == 1  # the CLI exits with what run() returns
    line = exit_line(capsys)
    assert line.startswith("rackclock table: table.sqlite is held by "), line


async def test_a_scorekeeper_on_a_log_another_writer_holds_exits_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = make_app(tmp_path)
    holder = TableService(app.config.log, timeline=FakeTimeline(1_000), heartbeat_ms=0)
    async with holder, app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.is_running, "the app to exit")
    assert app.return_value == 1  # the CLI exits with what run() returns
    line = exit_line(capsys)
    assert line.startswith("rackclock scorekeeper: game.sqlite is held by "), line


async def test_a_second_clock_key_on_the_table_start_screen_is_no_press(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    app = TableApp(cfg)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_twice(pilot, "f1")
    names = logged(cfg.log)
    assert names == [GameStarted.__name__]  # no press, committed or refused


async def test_a_second_clock_key_on_the_scorekeeper_start_screen_is_no_press(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await start_twice(pilot, "left_square_bracket")
    names = logged(app.config.log)
    assert names == [GameStarted.__name__]  # no press, committed or refused


@pytest.mark.parametrize("with_game", [True, False])
def test_ctrl_n_after_an_event_game_is_a_friendly_rematch_outside_the_event(
    tmp_path: Path, with_game: bool
) -> None:
    """The rematch is not the event's pairing again (``event results`` would refuse
    it as a second result): its spec and so its GameStarted carry no event tags."""
    log = tmp_path / "table.sqlite"
    with EventLog.open(log) as lg:  # an empty log: next_game falls back on the spec's own
        if with_game:
            lg.append(
                GameStarted(t=1_000, variant="nzasp", players=("Ann", "Ben"), round=3, table="7")
            )
    spec = TableSpec(
        log=log,
        variant="nzasp",
        players=("Ann", "Ben"),
        round=3,
        division="A",
        table="7",
        event="Open",
        event_id="abc123",
    )
    nxt = next_game(spec)
    assert nxt.players == ("Ben", "Ann")
    assert nxt.new_game
    assert (nxt.round, nxt.division, nxt.table, nxt.event, nxt.event_id) == (None,) * 5
