"""Time penalties at their boundaries, counted as the clock shows them.

"10 points per minute or part" (NZASP 8.4, NASPA): -0:01 costs 10, -1:00 costs
10, -1:01 costs 20. Speed play (TOR-7): 1 point per second. Overtime is
counted in whole seconds by default (``penalty_resolution_ms``, assumed), so a
clock showing -0:00 costs nothing; a director's variant may count milliseconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.files import register_variant_files
from engine.events import GameStarted
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
        (999, 0),
        (1000, 10),
        (59_999, 10),
        (60_000, 10),
        (60_999, 10),
        (61_000, 20),
        (120_000, 20),
        (121_000, 30),
        (600_000, 100),
    ],
)
def test_ten_points_per_minute_or_part(over_ms: int, points: int) -> None:
    st = _running("nzasp")
    assert penalty(st, 0, 1_500_000 + over_ms) == points


@pytest.mark.parametrize(
    ("over_ms", "points"), [(500, 0), (1000, 1), (30_200, 30), (30_999, 30), (61_000, 61)]
)
def test_speed_play_one_point_per_second(over_ms: int, points: int) -> None:
    st = _running("toronto-speed")
    assert penalty(st, 0, 180_000 + over_ms) == points


def test_a_director_may_count_milliseconds(tmp_path: Path) -> None:
    f = tmp_path / "strict.toml"
    f.write_text(
        'name = "strict"\nextends = "nzasp"\n[params]\npenalty_resolution_ms = 1\n',
        encoding="utf-8",
    )
    st = _running(str(f))
    assert penalty(st, 0, 1_500_001) == 10
    assert penalty(st, 0, 1_560_001) == 20


def test_the_ruling_and_the_penalty_agree_on_what_the_clock_shows() -> None:
    # 60.5 s over: the clock shows -1:00; the ruling says -1:00 and charges 10.
    from engine.events import EndRacks, Passed

    st = _running("nzasp")
    t = 1_560_500
    for i in range(6):
        st = apply(st, Passed(t=t + i, player=i % 2))
    st = apply(st, EndRacks(t=t + 10, racks=("AEINRST", "AEILNOU")))
    assert st.result is not None
    assert st.result.penalties == (10, 0)
    assert any("1:00 overtime: -10" in r.text for r in st.rulings)
