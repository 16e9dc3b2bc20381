"""A running table terminal given ``--assignment mqtt://...`` offers the next round's
game once its game is over and both players have signed: the director pairs and
publishes round 2 from the shell while round 1 is still being signed at the table;
the table says nothing until both have signed, then ctrl+N brings round 2's start
screen, and its game is logged as round 2 with the assignment's players (a real
mosquitto; the commands run in-process)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static

from clock.log.eventlog import EventLog
from clock.timeline import FakeTimeline
from engine.events import GameStarted, Resigned, Signed
from firmware_bridge.venue.assignment_feed import load_assignment
from terminal_ui.cli import main
from terminal_ui.table.app import TableApp
from terminal_ui.table.config import TableConfig
from terminal_ui.table.screens import StartScreen, SummaryScreen
from tests.helpers import Broker, started, until
from tests.terminal_ui.test_event import new_event


def feedback(app: TableApp) -> str:
    """The table screen's feedback line (under the game-over summary, when it shows)."""
    line = app.screen_stack[0].query_one("#feedback", Static)
    return " ".join(Text.from_markup(str(line.content)).plain.split())


async def shell(capsys: pytest.CaptureFixture[str], *args: str | int | Path) -> None:
    """``rackclock event ARGS`` in-process (in a thread: the commands run their own loop)."""
    code = await asyncio.to_thread(main, ["event", *map(str, args)])
    assert code == 0, capsys.readouterr().err


async def test_the_table_offers_round_two_once_round_one_is_signed(
    tmp_path: Path, mosquitto: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)  # round 1: Ann Able v Ben Baker at t1
    await shell(capsys, "publish", log, "--broker", mosquitto.url("/club"))
    source = mosquitto.url("/club/t1")
    game = await asyncio.to_thread(load_assignment, source)
    cfg = TableConfig(
        log=tmp_path / "t1.sqlite",
        variant=game.variant,
        players=game.players,
        round=game.round,
        division=game.division,
        table=game.table_name,
        assignment=source,
        timeline=FakeTimeline(1_000_000),
    )
    app = TableApp(cfg)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        assert app.service is not None
        await app.service.submit(Resigned(player=1))  # Ben resigns: round 1 is over
        await app.service.submit(Signed(player=0))
        # the director records it and pairs and publishes round 2 meanwhile
        await shell(
            capsys, "result", log, 1, "Ann Able", 0, "Ben Baker", 0, "--forfeit", "Ben Baker"
        )
        await shell(capsys, "result", log, 1, "Cid Cole", 400, "Dee Dunn", 300)
        await shell(capsys, "pair", log)
        await shell(capsys, "publish", log, "--broker", mosquitto.url("/club"))
        await until(pilot, lambda: app.offered is not None, "round 2's assignment")
        assert "next game here" not in feedback(app)  # not signed by both yet
        await app.service.submit(Signed(player=1))
        await until(pilot, lambda: "round 2" in feedback(app), "the offer")
        offer = feedback(app)
        assert "ctrl+N: the next game here, round 2, division A:" in offer
        assert "Ann Able (starts) v Cid Cole" in offer
        summary = app.screen
        assert isinstance(summary, SummaryScreen)  # the summary says it too
        assert summary.next_game == offer
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "round 2's start screen")
        await pilot.press("f1")
        await until(pilot, lambda: app.state.games == 2, "round 2's game")
        await pilot.press("ctrl+q")
        await pilot.press("y")
    with EventLog.open(tmp_path / "t1.sqlite", create=False) as glog:
        starts = [ev for _, ev in glog.events() if isinstance(ev, GameStarted)]
    assert [(g.round, g.table, g.players) for g in starts] == [
        (1, "t1", ("Ann Able", "Ben Baker")),
        (2, "t1", ("Ann Able", "Cid Cole")),
    ]
