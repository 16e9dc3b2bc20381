"""Time penalties at their boundaries, counted from the exact milliseconds.

NZASP 8.4: "ten points for every minute overtime or part thereof": 0.5 s over is
a part of a minute and costs 10; 60.5 s over costs 20. Speed play (TOR-7): 1
point per second (or part, an assumed reading). A federation that counts the
seconds a clock shows sets ``penalty_resolution_ms = 1000`` in its variant.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.user_files import register_variant_files
from engine.events import EndRacks, GameStarted, Passed
from engine.rules.machine import apply
from engine.rules.procedures.common import penalty
from engine.rules.state import GameState


def _running(variant: str) -> GameState:
    start = GameStarted(t=0, variant=variant, players=("Ann", "Ben"))
    register_variant_files([start])  # a director's file is read at the edge, as a table does
    return apply(GameState(), start)


@pytest.mark.parametrize(
    ("over_ms", "points"),
    [
        (0, 0),
        (1, 10),
        (500, 10),
        (999, 10),
        (60_000, 10),
        (60_001, 20),
        (60_500, 20),
        (120_000, 20),
        (121_000, 30),
        (600_000, 100),
    ],
)
def test_ten_points_per_minute_or_part(over_ms: int, points: int) -> None:
    st = _running("nzasp")
    assert penalty(st, 0, 1_500_000 + over_ms) == points


@pytest.mark.parametrize(
    ("over_ms", "points"), [(0, 0), (500, 1), (1000, 1), (1001, 2), (30_200, 31), (61_000, 61)]
)
def test_speed_play_one_point_per_second(over_ms: int, points: int) -> None:
    st = _running("toronto-speed")
    assert penalty(st, 0, 180_000 + over_ms) == points


def test_a_federation_may_count_the_seconds_a_clock_shows(tmp_path: Path) -> None:
    f = tmp_path / "shown.toml"
    f.write_text(
        'name = "shown"\nextends = "nzasp"\n[params]\npenalty_resolution_ms = 1000\n',
        encoding="utf-8",
    )
    st = _running(str(f))
    assert penalty(st, 0, 1_500_999) == 0  # the clock still shows -0:00
    assert penalty(st, 0, 1_501_000) == 10
    assert penalty(st, 0, 1_560_500) == 10  # shows -1:00
    assert penalty(st, 0, 1_561_000) == 20


def test_the_ruling_and_the_penalty_agree() -> None:
    # 60.5 s over: a minute and a part of the next: 20, and the ruling says so.
    st = _running("nzasp")
    t = 1_560_500
    for i in range(6):
        st = apply(st, Passed(t=t + i, player=i % 2))
    st = apply(st, EndRacks(t=t + 10, racks=("AEINRST", "AEILNOU")))
    assert st.result is not None
    assert st.result.penalties == (20, 0)
    assert any("1:00.5 overtime: -20" in r.text for r in st.rulings)
