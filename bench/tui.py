"""Benchmark: CPU used by each screen while a game runs, beside a minimal Textual clock.

``python -m bench.tui [--seconds 30]``

Each case runs in its own process, headless (Textual's ``run_test``, a real
monotonic clock, the log on disk), for ``--seconds``, and reports the CPU time
of that process (every thread: the screen, the table service, its log's thread)
as a share of one core:

- ``table-running``: the table terminal, a clock running;
- ``table-neutral``: the same game neutralized (nothing on screen changes);
- ``scorekeeper``: the speed scorekeeper, a clock running;
- ``director-100``: the director console over 100 table logs;
- ``minimal-clock``: the yardstick, a minimal Textual app with two big clocks
  (``Digits``) redrawn when their seconds change, the same refresh the screens need.

Each screen's ratio is its CPU over the minimal clock's, measured in the same run.
Floor: within 2x; goal: within 1.2x. The last line is JSON:
``{"seconds", "cpu": {case: share}, "ratio": {case: ratio}}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path

CASES = ("minimal-clock", "table-running", "table-neutral", "scorekeeper", "director-100")
FLOOR = 2.0
GOAL = 1.2
SIZE = (100, 30)
SETTLE_S = 3.0
"""Unmeasured seconds after each case's set-up, before the measured stretch."""

Measure = Callable[[], Awaitable[None]]
"""Sleeps through the measured stretch, taking the CPU and wall time around it."""


async def _minimal(measure: Measure) -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Digits

    from engine.clocktext import clock_text

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield Digits("25:00", id="a")
            yield Digits("25:00", id="b")

        def on_mount(self) -> None:
            self.t0 = time.monotonic()
            self.tick()

        def tick(self) -> None:
            left = int(1_500_000 - (time.monotonic() - self.t0) * 1000)
            self.query_one("#a", Digits).update(clock_text(left))
            self.set_timer(left % 1000 / 1000 + 0.001, self.tick)

    async with Minimal().run_test(headless=True, size=SIZE):
        await measure()


async def _table(measure: Measure, neutral: bool) -> None:
    from terminal_ui.table.app import TableApp
    from terminal_ui.table.config import TableConfig

    with tempfile.TemporaryDirectory() as tmp:
        cfg = TableConfig(log=Path(tmp) / "t.sqlite", players=("Ann", "Ben"))
        app = TableApp(cfg)
        async with app.run_test(headless=True, size=SIZE) as pilot:
            while app._start is None and app.state.variant is None:
                await pilot.pause()
            await pilot.press("f1")
            while app.state.variant is None:
                await pilot.pause()
            if neutral:
                from engine.events import Neutralized

                assert app.service is not None
                await app.service.submit(Neutralized(by="players", reason="bench"))
            await pilot.pause()
            await measure()


async def _scorekeeper(measure: Measure) -> None:
    from terminal_ui.scorekeeper.app import ScorekeeperApp
    from terminal_ui.scorekeeper.config import ScorekeeperConfig

    with tempfile.TemporaryDirectory() as tmp:
        app = ScorekeeperApp(ScorekeeperConfig(log=Path(tmp) / "s.sqlite"))
        async with app.run_test(headless=True, size=SIZE) as pilot:
            while app._start is None and app.state.variant is None:
                await pilot.pause()
            await pilot.press("f1")  # the start screen: the clock starts at a clock key
            while app.state.variant is None:
                await pilot.pause()
            await pilot.pause()
            await measure()


async def _director(measure: Measure) -> None:
    from clock.log.eventlog import EventLog
    from terminal_ui.director.app import DirectorApp
    from terminal_ui.director.config import DirectorConfig
    from tests.support.gamelog import numbered, random_log

    with tempfile.TemporaryDirectory() as tmp:
        logs = []
        for i in range(100):
            path = Path(tmp) / f"t{i + 1}.sqlite"
            events = random_log(i, "nzasp")
            with EventLog.open(path) as log:
                for _, ev in numbered(events[: len(events) // 2]):  # games in progress
                    log.append(ev)
            logs.append(path)
        app = DirectorApp(DirectorConfig(logs=tuple(logs), export_dir=Path(tmp)))
        async with app.run_test(headless=True, size=SIZE) as pilot:
            while len(app.rows) < 100:
                await pilot.pause()
            await measure()


def run_case(case: str, seconds: float) -> float:
    """CPU share of one core used by ``case`` over ``seconds`` of steady state (set-up:
    logs written, imports, the game started, the first :data:`SETTLE_S` seconds on
    screen, is not measured)."""
    marks: list[tuple[float, float]] = []

    async def measure() -> None:
        # The first layout passes after the screen appears (styles, the footer, a
        # hundred rows) are set-up too: a day-long screen is judged on its steady state.
        await asyncio.sleep(SETTLE_S)
        marks.append((time.process_time(), time.monotonic()))
        await asyncio.sleep(seconds)
        marks.append((time.process_time(), time.monotonic()))

    runs: dict[str, Callable[[], Coroutine[object, object, None]]] = {
        "minimal-clock": lambda: _minimal(measure),
        "table-running": lambda: _table(measure, neutral=False),
        "table-neutral": lambda: _table(measure, neutral=True),
        "scorekeeper": lambda: _scorekeeper(measure),
        "director-100": lambda: _director(measure),
    }
    asyncio.run(runs[case]())
    (cpu0, wall0), (cpu1, wall1) = marks
    return (cpu1 - cpu0) / (wall1 - wall0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tui", description=__doc__)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--case", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.case:
        print(json.dumps({"case": args.case, "cpu": run_case(args.case, args.seconds)}))
        return 0
    cpu: dict[str, float] = {}
    for case in CASES:
        done = subprocess.run(
            [sys.executable, "-m", "bench.tui", "--case", case, "--seconds", str(args.seconds)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            return 1
        cpu[case] = json.loads(done.stdout.strip().splitlines()[-1])["cpu"]
        print(f"{case:<14} {cpu[case]:6.1%} of a core", flush=True)
    base = cpu["minimal-clock"]
    ratio = {c: round(cpu[c] / base, 2) for c in CASES if c != "minimal-clock"}
    worst = max(ratio.values())
    for case, r in ratio.items():
        print(f"{case:<14} {r:5.2f}x the minimal clock")
    verdict = "met" if worst <= FLOOR else "NOT met"
    print(f"floor: every screen within {FLOOR:g}x (goal {GOAL:g}x): {verdict}")
    print(
        json.dumps(
            {
                "seconds": args.seconds,
                "cpu": {c: round(v, 4) for c, v in cpu.items()},
                "ratio": ratio,
            }
        )
    )
    return 0 if worst <= FLOOR else 1


if __name__ == "__main__":
    raise SystemExit(main())
