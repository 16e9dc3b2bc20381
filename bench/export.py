"""Benchmark: how fast a director's exports are written from logs.

``python -m bench.export [--games N] [--repeat R]``

Builds N complete games (default 300) over every board variant from
:mod:`tests.support.gamelog`, then in one process and thread times:

(a) the floor: replaying every game's log to its end (work any export must do);
(b) GCG: the same replay, then :func:`engine.exports.gcg.to_gcg` and ``write_gcg``
    (racks worked out backwards, notes, encoding) for every game;
(c) our checker reading each export back (``check_bytes``), for scale;
(d) results: NASPA and one tsh file per division from the games' results.

The ratio is (b) over (a): what writing GCG costs above the replay it needs. The
last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bench.stats import best_time
from clock.exports.results_files import results_files
from engine.events import Event
from engine.exports.gcg import to_gcg
from engine.exports.results import GameResult, game_result
from engine.gcg import check_bytes, write_gcg
from engine.rules.replay import replay
from engine.rules.variant import load_variant
from tests.support.gamelog import BOARD_VARIANTS, numbered, random_log

__all__ = ["main", "run"]


def run(n_games: int, repeat: int) -> dict[str, Any]:
    """Run the benchmark, print the report, and return the JSON summary."""
    games: list[tuple[str, list[tuple[int, Event]]]] = []
    for i in range(n_games):
        variant = BOARD_VARIANTS[i % len(BOARD_VARIANTS)]
        games.append((variant, numbered(random_log(i, variant))))
    events = sum(len(g) for _, g in games)

    def floor() -> None:
        for _, g in games:
            replay(g)

    texts: list[tuple[str, bytes]] = []

    def gcg() -> None:
        texts.clear()
        for variant, g in games:
            state, _ = replay(g)
            record = to_gcg(state, title="bench")
            texts.append((variant, write_gcg(record).encode(record.encoding)))

    def check() -> None:
        for variant, data in texts:
            if not check_bytes(data, "bench", load_variant(variant)).ok:
                raise AssertionError("an export did not check")

    results: list[GameResult] = []
    for i, (_, g) in enumerate(games):
        state, _ = replay(g)
        # Fresh names for each game: one round, every player in one game, four
        # divisions, so the files cover every game.
        res = game_result(state, 1)
        results.append(
            GameResult(1, (f"P{2 * i} X", f"P{2 * i + 1} Y"), res.scores, res.winner,
                       res.reason, res.spread, f"D{i % 4}")
        )  # fmt: skip

    def files() -> None:
        results_files(results, notes=[])

    floor_s = best_time(floor, repeat)
    gcg_s = best_time(gcg, repeat)
    check_s = best_time(check, repeat)
    files_s = best_time(files, repeat)
    ratio = gcg_s / floor_s
    print(f"games: {n_games} ({events:,} events, every board variant)")
    print(f"(a) replay (floor):   {floor_s * 1e3:8.1f} ms  {n_games / floor_s:8,.0f} games/s")
    print(f"(b) replay + GCG:     {gcg_s * 1e3:8.1f} ms  {n_games / gcg_s:8,.0f} games/s")
    print(f"(c) check exports:    {check_s * 1e3:8.1f} ms  {n_games / check_s:8,.0f} games/s")
    print(f"(d) NASPA + tsh:      {files_s * 1e3:8.1f} ms  ({len(results)} results, 4 divisions)")
    print(f"ratio (b)/(a): {ratio:.2f}")
    summary = {
        "games": n_games,
        "events": events,
        "replay_ms": round(floor_s * 1e3, 2),
        "gcg_ms": round(gcg_s * 1e3, 2),
        "check_ms": round(check_s * 1e3, 2),
        "results_ms": round(files_s * 1e3, 2),
        "ratio": round(ratio, 3),
    }
    print(json.dumps(summary))
    return summary


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.export", description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    run(args.games, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
