"""``make bench``'s summary: one line per benchmark with its figure, its floor and the
ratio against it, "NOT MET" said rather than failed (bench/suite.py, bench/stats.py)."""

from __future__ import annotations

import doctest

import pytest

import bench.stats
from bench.stats import floor_line
from bench.suite import BENCHMARKS, main


def test_the_floor_line_examples_hold() -> None:
    assert doctest.testmod(bench.stats).failed == 0


@pytest.mark.parametrize(
    ("ratio", "verdict"), [(1.0, "1.00x met"), (0.999, "0.99x NOT MET"), (0.5, "0.50x NOT MET")]
)
def test_a_floor_not_met_is_said(ratio: float, verdict: str) -> None:
    line = floor_line("bench.replay", "100,000 events/s", "200,000", ratio)
    assert line == f"bench.replay: 100,000 events/s, floor 200,000: {verdict}"


def test_the_suite_runs_what_make_bench_ran_and_refuses_an_unknown_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert BENCHMARKS == ("gcg", "lexicon", "replay", "press", "pairing", "event")
    assert main(["nope"]) == 2
    assert "no benchmark 'nope'" in capsys.readouterr().out
