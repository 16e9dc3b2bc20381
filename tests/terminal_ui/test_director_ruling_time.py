"""A ruling's time is when it was made (issue 20 §2): the console offline, on fake wall
time. Before, two rulings made 20 s apart on a log no service runs carried the same
time, the log's last event's (the heartbeat was stale, so the table's time stood)."""

from __future__ import annotations

from pathlib import Path

from clock.log.log_files import load_log
from engine.events import GameStarted, Neutralized
from terminal_ui.director.app import DirectorApp
from tests.helpers import until
from tests.terminal_ui.test_director import SIZE, config, rule, select, write_sqlite


async def test_offline_rulings_made_20_s_apart_are_20_s_apart(tmp_path: Path) -> None:
    log = write_sqlite(
        tmp_path / "t1.sqlite",
        [
            GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")),
            Neutralized(t=10_000, by="Ann", reason="bag check"),
        ],
    )
    wall = [1_800_000_000_000]
    app = DirectorApp(config(tmp_path, [log]), wall_ms=lambda: wall[0])
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 1, "the table")
        await select(pilot, "t1")
        await rule(pilot, "a", player="Ann", score="-10", reason="phoney")
        await until(pilot, lambda: "(#3)" in app.feedback, "the first ruling")
        wall[0] += 20_000
        await rule(pilot, "a", player="Ben", score="5", reason="miscount")
        await until(pilot, lambda: "(#4)" in app.feedback, "the second ruling")
    events, _ = load_log(log)
    first, second = (ev.t for _, ev in events[-2:])
    assert first == 10_000  # no sign of life before it: the log's last instant
    assert second == 30_000
