"""What the tests share: paths, the broker's types, waiting without sleeping, the GCG
corpus, and the table terminal's Pilot helpers. Fixtures live in ``conftest.py``."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any, NoReturn, TypedDict

import pytest
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from clock.log.eventlog import EventLog
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import Event, decode_event
from engine.rules.replay import replay
from engine.rules.state import GameState
from firmware_bridge.venue.broker import (
    START_TIMEOUT_S,
    Mosquitto,
    find_mosquitto,
    free_port,
    wait_port,
)
from terminal_ui.shared.command_input import CommandInput
from terminal_ui.table.app import TableApp
from terminal_ui.table.config import TableConfig
from terminal_ui.table.screens import StartScreen

__all__ = [
    "BAD",
    "BAD_EXPECTED",
    "BAD_FILES",
    "DATA",
    "GCG",
    "GOLDEN",
    "GOOD",
    "GOOD_EXPECTED",
    "GOOD_FILES",
    "REAL",
    "REAL_FILES",
    "REAL_SCORES",
    "REPO",
    "SCENARIOS",
    "SHARED_GCG",
    "START_TIMEOUT_S",
    "T0",
    "UPDATE_GOLDEN",
    "Broker",
    "BrokerFactory",
    "background",
    "command",
    "config",
    "file_id",
    "find_mosquitto",
    "free_port",
    "game",
    "gcg_files",
    "load_json",
    "logged",
    "missing_part",
    "owed",
    "play",
    "rulings",
    "scenario_events",
    "screen_text",
    "started",
    "text_of",
    "type_text",
    "unnamed",
    "until",
    "wait_for",
    "wait_port",
]

# --- paths ---------------------------------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
"""The repository's root."""
DATA = REPO / "tests" / "data"
"""Test data: GCG records (hand-made and real)."""
SCENARIOS = REPO / "tests" / "scenarios"
"""Scenario files, one folder per variant."""
SHARED_GCG = REPO.parent / "shared" / "gcg"
"""Real records kept beside the repository, when that directory exists."""

# --- the broker ----------------------------------------------------------------------

Broker = Mosquitto
"""A mosquitto process on 127.0.0.1:``port``; ``restart()`` keeps the port and the data."""

BrokerFactory = Callable[..., Broker]
"""The ``mosquitto_factory`` fixture: ``factory(password_file=, acl_file=, extra="")``."""

# --- waiting without sleeping ----------------------------------------------------------


async def settle(svc: TableService, rounds: int = 50) -> None:
    """Let every task that is due run, on fake time, and every command they queue be
    committed (commits run on the log's thread): no sleeping, no wall-clock limit."""
    for _ in range(3):
        for _ in range(rounds):
            await asyncio.sleep(0)
        await svc.drained()


async def wait_for(cond: Callable[[], bool], what: str, limit_s: float = 5.0) -> float:
    """Poll ``cond`` every 5 ms on the event loop; fail the test after ``limit_s``.

    Returns the seconds it took."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not cond():
        if loop.time() - start > limit_s:
            pytest.fail(f"timed out after {limit_s} s waiting for {what}")
        await asyncio.sleep(0.005)
    return loop.time() - start


@contextlib.asynccontextmanager
async def background(
    coro: Coroutine[Any, Any, object], name: str
) -> AsyncIterator[asyncio.Task[object]]:
    """Run ``coro`` as a task for the block; cancel it afterwards."""
    task: asyncio.Task[object] = asyncio.create_task(coro, name=name)
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


# --- scenarios -----------------------------------------------------------------------


def scenario_events(path: Path) -> list[Event]:
    """The events of a scenario file that the rules accept (its expectations and the
    lines it expects refused left out), as a table's log would hold them."""
    events: list[Event] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        doc = json.loads(raw)
        if "type" not in doc or "expect_refused" in doc:
            continue
        events.append(decode_event(raw))
    return events


# --- the GCG corpus ------------------------------------------------------------------

GCG = DATA / "gcg"
GOOD = GCG / "good"
BAD = GCG / "bad"
GOLDEN = GCG / "golden"
REAL = DATA / "real"

UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"


class GoodExpectation(TypedDict):
    """One entry of ``data/gcg/expected.json``."""

    ok: bool
    complete: bool
    final_scores: dict[str, int]


class BadExpectation(TypedDict):
    """One entry of ``data/gcg/bad/expected.json``."""

    line: int
    contains: str


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


GOOD_EXPECTED: dict[str, GoodExpectation] = load_json(GCG / "expected.json")
BAD_EXPECTED: dict[str, BadExpectation] = load_json(BAD / "expected.json")

REAL_SCORES: dict[str, dict[str, int]] = {
    "doug_v_emely.gcg": {"doug": 451, "emely": 345},
    "guy_vs_bot.gcg": {"guy": 454, "bot": 424},
    "vs_frentz.gcg": {"cesar": 439, "frentz": 550},
}


def gcg_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.gcg")) if directory.is_dir() else []


GOOD_FILES = gcg_files(GOOD)
BAD_FILES = gcg_files(BAD)
REAL_FILES = gcg_files(REAL) + gcg_files(SHARED_GCG)


def file_id(path: Path) -> str:
    """``good/x.gcg``, ``real/x.gcg``, or ``shared/x.gcg`` for a record beside the repository."""
    if path.is_relative_to(DATA):
        return path.relative_to(DATA).as_posix().removeprefix("gcg/")
    return f"shared/{path.name}"


# --- the table terminal under Pilot --------------------------------------------------

T0 = 1_000_000
"""Where the fake table time starts."""


def config(tmp_path: Path, **kw: object) -> TableConfig:
    """Ann (left) and Ben (right) play NZASP; the log is in ``tmp_path``."""
    cfg = TableConfig(log=tmp_path / "table.sqlite", players=("Ann", "Ben"))
    cfg.timeline = FakeTimeline(T0)
    for key, value in kw.items():
        setattr(cfg, key, value)
    return cfg


def screen_text(app: TableApp) -> str:
    """What the terminal shows now, as plain text (modal screens over the table)."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def text_of(app: TableApp, selector: str) -> str:
    """The text of a Static on the screen shown (markup removed, lines joined)."""
    content = app.screen.query_one(selector, Static).content
    return " ".join(Text.from_markup(str(content)).plain.split())


def rulings(app: TableApp) -> str:
    """The rulings pane's text, lines joined (it wraps long rulings)."""
    return " ".join(Text.from_markup(str(app.query_one("#rulings", Static).content)).plain.split())


async def until(
    pilot: Pilot[Any], cond: Callable[[], bool], what: str = "", tries: int = 800
) -> None:
    """Let the app run until ``cond()`` holds (at most ``tries`` pauses of 10 ms): fails
    rather than hangs, and shows the table terminal's screen when it fails there."""
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.01)
    app = pilot.app
    shown = screen_text(app) if isinstance(app, TableApp) else ""
    raise AssertionError(f"timed out waiting for {what}; the screen shows:\n{shown}")


async def started(pilot: Pilot[int]) -> TableApp:
    """The app once its service runs the game: a new game is started from its start
    screen with the left clock key, as the players do."""
    app = pilot.app
    assert isinstance(app, TableApp)
    await until(
        pilot,
        lambda: app.state.variant is not None or isinstance(app.screen, StartScreen),
        "the start screen or the game",
    )
    if isinstance(app.screen, StartScreen):
        games = app.state.games
        await pilot.press("f1")
        await until(pilot, lambda: app.state.games > games, "the game to start")
    await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the game screen")
    return app


def game(app: TableApp) -> GameState:
    """The state now (a call, so type checkers do not narrow it across awaits)."""
    return app.state


def owed(app: TableApp) -> int | None:
    """Tiles the last play still owes the bag."""
    last = app.state.last
    return None if last is None else app.state.owed[last.player]


def unnamed(app: TableApp) -> int | None:
    """Blanks not yet named: of the play on the board, else of the last play."""
    play = app.state.composing or app.state.last
    return None if play is None else play.unnamed


async def type_text(pilot: Pilot[int], text: str) -> None:
    """Type into the command line, key by key."""
    await pilot.press(*text)
    await pilot.pause()


async def command(pilot: Pilot[int], text: str, done: Callable[[], bool]) -> None:
    """Put ``text`` on the command line, press Enter, wait until ``done()``.

    The line is filled in one go (as a paste would), not key by key: each simulated
    key costs tens of milliseconds. Typing itself is tested with :func:`type_text`."""
    line = pilot.app.query_one(CommandInput)
    line.value = text
    line.cursor_position = len(text)
    await pilot.pause()
    await pilot.press("enter")
    await until(pilot, done, f"{text!r} to take effect")


async def play(pilot: Pilot[int], app: TableApp, text: str, key: str) -> None:
    """Lay a play, then press the clock key."""
    seat = game(app).turn
    await command(pilot, text, lambda: game(app).composing is not None)
    before = len(game(app).history)
    await pilot.press(key)
    await until(pilot, lambda: len(game(app).history) > before, f"{key} to end the turn")
    assert game(app).turn == 1 - seat


async def long_game(pilot: Pilot[int], app: TableApp) -> None:
    """Nine moves: four plays, then passes and an exchange (more than a screen holds)."""
    await play(pilot, app, "8d windy", "[")
    await play(pilot, app, "d6 zo.", "]")
    await play(pilot, app, "9e ax", "[")
    await play(pilot, app, "10f of", "]")
    for text in ("pass", "pass", "x 3", "pass", "pass"):
        n = len(app.state.history)
        await command(pilot, text, lambda n=n: len(app.state.history) > n)  # type: ignore[misc]


def logged(path: Path) -> GameState:
    """The game replayed from the log file."""
    with EventLog.open(path, create=False) as log:
        state, rejected = replay(log.events())
    assert not rejected
    return state


def missing_part(hint: str) -> NoReturn:
    """A system program a test drives is not installed: a failure under
    ``REQUIRE_SYSTEM_DEPS=1`` (``make test``, CI), else a skip, saying how to install it."""
    if os.environ.get("REQUIRE_SYSTEM_DEPS") == "1":
        pytest.fail(hint)
    pytest.skip(hint)
