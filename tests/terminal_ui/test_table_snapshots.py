"""SVG snapshots of the table terminal at 80x24 (``pytest --snapshot-update`` to accept).

Deterministic: fixed names, a :class:`FakeTimeline` (the clocks show fixed
times), the command line's cursor not blinking, and the sub-title naming only
the log file, not the temporary directory it is in. Snapshot tests are plain
``def`` tests: ``snap_compare`` runs the app itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from clock.timeline import FakeTimeline
from engine.play.lexicon import WordList
from engine.rules.state import Phase
from terminal_ui.shared.command_input import CommandInput
from terminal_ui.shared.help import HelpScreen
from terminal_ui.table.app import TableApp
from terminal_ui.table.screens import AdjudicationScreen, ChallengeScreen, StartScreen
from tests.helpers import command, config, game, long_game, owed, play, started, text_of, until

SnapCompare = Callable[..., bool]
RunBefore = Callable[[Pilot[int]], Awaitable[None]]


async def steady(pilot: Pilot[int]) -> TableApp:
    """The started app, with what varies from run to run fixed."""
    app = await started(pilot)
    app.sub_title = app.sub_title.replace(str(app.config.log), app.config.log.name)
    app.query_one(CommandInput).cursor_blink = False
    await pilot.pause()
    return app


def test_snapshot_opening(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await until(pilot, lambda: "Ann to play" in text_of(app, "#phase"), "the phase")

    assert snap_compare(TableApp(config(tmp_path)), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_plays_board_and_live_score(snap_compare: SnapCompare, tmp_path: Path) -> None:
    cfg = config(tmp_path)
    timeline = cfg.timeline
    assert isinstance(timeline, FakeTimeline)

    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        timeline.advance(42_000)
        await play(pilot, app, "8d windy", "[")
        last = game(app).last
        await command(pilot, "written", lambda: last is not game(app).last)  # NZASP 6.3.4
        await command(pilot, "draw 5", lambda: owed(app) == 0)
        timeline.advance(75_000)
        app.draw_clocks()  # the clocks as of now (their next tick would do it)
        await pilot.press("ctrl+b")
        line = app.query_one(CommandInput)
        line.value = "7c gale"  # typed, not laid: the score shows before Enter
        line.cursor_position = len(line.value)
        await until(pilot, lambda: "= 16" in text_of(app, "#feedback"), "the live score")

    assert snap_compare(TableApp(cfg), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_adjudication_verdict(snap_compare: SnapCompare, tmp_path: Path) -> None:
    words = WordList.from_lines("test list", ["windy", "aw", "li", "en", "yd"])

    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await play(pilot, app, "8d windy", "[")
        await play(pilot, app, "7c galey", "]")
        await command(pilot, "challenge", lambda: isinstance(app.screen, ChallengeScreen))
        await pilot.press("enter")  # every word formed
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen), "adjudication")
        assert game(app).phase is Phase.CHALLENGE
        await pilot.press("j")
        await pilot.pause()

    app = TableApp(config(tmp_path, words=words))
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_snapshot_start_screen(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the log's path, shown, is the same in every run

    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, TableApp)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await pilot.pause()

    cfg = config(tmp_path, log=Path("table.sqlite"))
    assert snap_compare(TableApp(cfg), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_help(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await pilot.press("f12")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")

    assert snap_compare(TableApp(config(tmp_path)), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_long_history(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await long_game(pilot, app)
        await pilot.pause()

    assert snap_compare(TableApp(config(tmp_path)), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_board_with_a_blank(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await command(pilot, "8d wind?", lambda: game(app).composing is not None)
        await command(pilot, "blank y", lambda: not getattr(game(app).composing, "unnamed", 1))
        await pilot.press("[")
        await until(pilot, lambda: game(app).scores[0] > 0, "the press")
        await pilot.press("ctrl+b")
        await pilot.pause()

    assert snap_compare(TableApp(config(tmp_path)), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_a_refusal(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await play(pilot, app, "8d windy", "[")
        await command(pilot, "draw 99", lambda: "refused" in text_of(app, "#feedback"))

    assert snap_compare(TableApp(config(tmp_path)), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_high_contrast(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await steady(pilot)
        await play(pilot, app, "8d windy", "[")

    cfg = config(tmp_path, high_contrast=True)
    assert snap_compare(TableApp(cfg), terminal_size=(80, 24), run_before=run_before)
