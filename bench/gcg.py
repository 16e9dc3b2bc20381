"""Benchmark: how fast GCG records are re-checked.

``python -m bench.gcg [--games N] [--seed S] [--repeat R] [--profile]``

Builds a corpus of random legal complete games (:mod:`tests.support.corpus`) in
memory, writes each to GCG bytes, then times what ``rackclock gcg check`` does
per file minus the file I/O: :func:`engine.gcg.parse_gcg` on the bytes and
:func:`engine.gcg.check_record` on the record. Everything runs in this one
process and thread, so the figure is per core. Scoring alone
(:func:`engine.play.placement.place` on every placement, on the board it was played
on) is timed separately, to show how much of the check is the engine's scoring.

The raw baseline, in the same run on the same bytes: decoding each file as
:func:`engine.gcg.parse_gcg` does (UTF-8 when the first line declares it, else
ISO-8859-1) and splitting it into lines and each line into its fields with
``str.split``: what any reader of the text must do before it knows anything.

The floor is 2,000 complete games per second on one core (the goal 5,000); the
line ``bench.gcg: ...`` gives the figure against the floor, and the last line of
output is JSON for scripts and tests.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.stats import best_time, floor_line
from engine import (
    Board,
    GameRecord,
    Move,
    check_record,
    load_tile_set,
    load_variant,
    parse_gcg,
    place,
    write_gcg,
)
from engine.gcg import EventKind
from tests.support.corpus import corpus

__all__ = ["main"]

FLOOR_GAMES_PER_S = 2000
"""Complete games per second the check must sustain on one core (issue 24)."""

GOAL_GAMES_PER_S = 5000
"""What the check aims at (issue 24)."""


def _encoded(games: Sequence[GameRecord]) -> list[bytes]:
    """Each game as the bytes a file would hold."""
    return [write_gcg(g).encode(g.encoding) for g in games]


def _raw_all(blobs: Sequence[bytes]) -> int:
    """The raw baseline: every file decoded, split into lines, each line into fields."""
    fields = 0
    for data in blobs:
        utf8 = data.startswith(b"#character-encoding UTF-8")
        for line in data.decode("utf-8" if utf8 else "latin-1").splitlines():
            fields += len(line.split())
    return fields


def _check_all(blobs: Sequence[bytes]) -> None:
    """Parse and check every record, as the CLI does (under its default variant,
    nzasp); a failure is a generator bug."""
    variant = load_variant("nzasp")
    for i, data in enumerate(blobs):
        parsed = parse_gcg(data)
        result = check_record(parsed.record, variant)
        if parsed.errors or not result.ok or not result.complete:
            raise AssertionError(f"game {i} does not check: {parsed.errors or result.errors}")


def _scoring_inputs(games: Sequence[GameRecord]) -> list[tuple[Board, Move]]:
    """Every placement with the board it was played on, replayed once up front so
    that the timed loop does nothing but score."""
    ts = load_tile_set("english")
    out: list[tuple[Board, Move]] = []
    for g in games:
        board = Board.empty()
        last_new: tuple[int, ...] = ()
        for ev in g.events:
            if ev.kind is EventKind.PLACEMENT:
                assert ev.move is not None
                out.append((board, ev.move))
                pl = place(board, ev.move, ts)
                board = board.with_tiles(pl.new)
                last_new = tuple(i for i, _ in pl.new)
            elif ev.kind is EventKind.WITHDRAWN:
                board = board.without(last_new)
    return out


def _score_all(inputs: Sequence[tuple[Board, Move]]) -> None:
    ts = load_tile_set("english")
    for board, move in inputs:
        place(board, move, ts)


def run(games: int, seed: int, repeat: int, profile: bool) -> dict[str, Any]:
    """Run the benchmark, print the report, and return the JSON summary."""
    t0 = time.perf_counter()
    records = corpus(games, seed)
    gen_s = time.perf_counter() - t0
    blobs = _encoded(records)
    placements = sum(1 for g in records for ev in g.events if ev.kind is EventKind.PLACEMENT)
    inputs = _scoring_inputs(records)

    _check_all(blobs[:50])  # warm caches (tile set, layout) before timing
    check_s = best_time(lambda: _check_all(blobs), repeat)
    score_s = best_time(lambda: _score_all(inputs), repeat)
    raw_s = best_time(lambda: _raw_all(blobs), repeat)

    games_per_s = games / check_s
    us_per_placement = check_s / placements * 1e6
    score_us = score_s / len(inputs) * 1e6
    ratio = games_per_s / FLOOR_GAMES_PER_S
    raw_ratio = check_s / raw_s
    print(f"corpus:            {games} games (seed {seed}), generated in {gen_s:.2f} s")
    print(f"placements:        {placements} ({placements / games:.1f} per game)")
    print(f"parse + check:     {check_s:.3f} s (best of {repeat}, one core)")
    print(f"games/s:           {games_per_s:,.0f}")
    print(f"us per placement:  {us_per_placement:.1f} (whole check / placements)")
    print(f"scoring alone:     {score_us:.1f} us per placement (engine.play.placement.place)")
    print(
        f"raw decode:        {raw_s * 1000:.1f} ms ({games / raw_s:,.0f} games/s: decode, lines, "
        f"fields); the check takes {raw_ratio:.0f}x that"
    )
    print(f"floor:             {FLOOR_GAMES_PER_S:,} complete games/s (goal {GOAL_GAMES_PER_S:,})")
    print(
        floor_line(
            "bench.gcg",
            f"{games_per_s:,.0f} games/s",
            f"{FLOOR_GAMES_PER_S:,}",
            ratio,
            f"(goal {GOAL_GAMES_PER_S:,}: {games_per_s / GOAL_GAMES_PER_S:.2f}x; "
            f"{raw_ratio:.0f}x the raw decode)",
        )
    )
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        _check_all(blobs)
        prof.disable()
        stats = pstats.Stats(prof, stream=sys.stdout)
        stats.sort_stats("tottime").print_stats(20)
    summary: dict[str, Any] = {
        "games": games,
        "placements": placements,
        "games_per_s": round(games_per_s, 1),
        "us_per_placement": round(us_per_placement, 2),
        "us_per_placement_scoring_only": round(score_us, 2),
        "floor_games_per_s": FLOOR_GAMES_PER_S,
        "goal_games_per_s": GOAL_GAMES_PER_S,
        "ratio_to_floor": round(ratio, 3),
        "raw_decode_games_per_s": round(games / raw_s, 1),
        "ratio_to_raw_decode": round(raw_ratio, 1),
    }
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; the last line printed is the JSON summary."""
    parser = argparse.ArgumentParser(prog="python -m bench.gcg", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games in the corpus")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of a run")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    summary = run(args.games, args.seed, args.repeat, args.profile)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
