"""Benchmark: how fast game logs are replayed into game state.

``python -m bench.replay [--events N] [--variant V] [--repeat R] [--profile]``

Builds a log of N events (default 1,000,000): many complete games back to back
from :mod:`tests.support.gamelog` (a pool of generated games repeated with time
offsets; every event is one the engine accepts). Then, in one process and
thread, it times:

(a) :func:`engine.rules.replay.replay` over the ``(line, event)`` pairs in memory;
(b) the same from JSON Lines text: :func:`engine.rules.replay.parse_jsonl`, then replay;
(c) the raw baseline of (b): msgspec decoding the same lines to typed events and
    nothing else (the transport's own cost);
(d) rebuilding one 40-turn game (replay of its events, best of many runs);
(e) reading the log back from a SQLite file (written once, untimed) and replaying it.

The floor is 200,000 events/s for (a) on one core, the goal 500,000 (issue 24);
each is also given as a share of (c), the raw decode of the same log in the same
run. The line ``bench.replay: ...`` gives the figure against the floor; the last
line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from bench.stats import best_time, floor_line
from clock.log.eventlog import EventLog, import_jsonl
from engine.events import Event, GameStarted, encode_event
from engine.rules.replay import parse_jsonl, replay
from engine.rules.state import GameState
from tests.support.gamelog import game_turns, log_of_size, numbered

__all__ = ["main", "run"]

FLOOR_EVENTS_PER_S = 200_000
"""Events per second an in-memory replay must sustain on one core (issue 24)."""

GOAL_EVENTS_PER_S = 500_000
"""What the replay aims at (issue 24)."""

_REBUILD_TURNS = 40
_REBUILD_RUNS = 50


def _replay_clean(pairs: Iterable[tuple[int, Event]]) -> GameState:
    state, rejected = replay(pairs)
    if rejected:
        raise AssertionError(f"{len(rejected)} events refused; first: {rejected[0]}")
    return state


def _jsonl_replay(text: str) -> GameState:
    pairs, bad = parse_jsonl(text)
    if bad:
        raise AssertionError(f"{len(bad)} lines unreadable; first: {bad[0]}")
    return _replay_clean(pairs)


def _raw_decode(text: str) -> int:
    """Decode every line to a typed event, as parse_jsonl does, without the engine."""
    decode = msgspec.json.Decoder(Event).decode
    n = 0
    for line in text.splitlines():
        decode(line)
        n += 1
    return n


def _sqlite_rate(events: Sequence[Event], text: str, repeat: int) -> float:
    """Events/s reading the log back from a SQLite file (written once, untimed, in one
    transaction: appending one by one would fsync each row) and replaying it."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        t0 = time.perf_counter()
        import_jsonl(text.splitlines(), path)
        write_s = time.perf_counter() - t0

        def read_and_replay() -> None:
            with EventLog.open_readonly(path) as log:
                pairs = list(log.events())
            if len(pairs) != len(events):
                raise AssertionError(f"read {len(pairs)} events, wrote {len(events)}")
            _replay_clean(pairs)

        secs = best_time(read_and_replay, repeat)
        size = path.stat().st_size
    rate = len(events) / secs
    print(f"sqlite write:      {write_s:.2f} s (import_jsonl, one commit; {size / 1e6:.0f} MB)")
    print(f"(e) sqlite+replay: {secs:.2f} s -> {rate:,.0f} events/s")
    return rate


def run(n_events: int, variant: str, repeat: int, profile: bool) -> dict[str, Any]:
    """Run the benchmark, print the report, and return the JSON summary."""
    t0 = time.perf_counter()
    events = log_of_size(n_events, variant=variant)
    gen_s = time.perf_counter() - t0
    pairs = numbered(events)
    t0 = time.perf_counter()
    text = b"\n".join(encode_event(ev) for ev in events).decode()
    enc_s = time.perf_counter() - t0
    final = _replay_clean(pairs[:5000])  # warm the caches (variant, tile set, layout)
    del final

    mem_s = best_time(lambda: _replay_clean(pairs), repeat)
    jsonl_s = best_time(lambda: _jsonl_replay(text), repeat)
    raw_s = best_time(lambda: _raw_decode(text), repeat)
    lines_decoder = msgspec.json.Decoder(Event)
    data = text.encode()
    bulk_s = best_time(lambda: lines_decoder.decode_lines(data), repeat)

    seed, game = game_turns(_REBUILD_TURNS, variant)
    game_pairs = numbered(game)
    rebuild_s = best_time(lambda: _replay_clean(game_pairs), _REBUILD_RUNS)

    rate = n_events / mem_s
    jsonl_rate = n_events / jsonl_s
    raw_rate = n_events / raw_s
    ratio_raw = jsonl_rate / raw_rate
    ratio_floor = rate / FLOOR_EVENTS_PER_S
    games = sum(1 for ev in events if isinstance(ev, GameStarted))
    print(
        f"log:               {n_events:,} events, {games:,} games ({variant}), "
        f"built in {gen_s:.2f} s"
    )
    print(f"jsonl:             {len(data) / 1e6:.1f} MB, encoded in {enc_s:.2f} s")
    print(f"(a) replay:        {mem_s:.2f} s -> {rate:,.0f} events/s (best of {repeat}, one core)")
    print(f"(b) jsonl+replay:  {jsonl_s:.2f} s -> {jsonl_rate:,.0f} events/s")
    print(f"(c) raw decode:    {raw_s:.2f} s -> {raw_rate:,.0f} events/s (msgspec, line by line)")
    print(f"    decode_lines:  {bulk_s:.2f} s -> {n_events / bulk_s:,.0f} events/s (one call)")
    print(f"    jsonl+replay runs at {ratio_raw:.3f} of raw decode ({1 / ratio_raw:.1f}x slower)")
    print(
        f"(d) rebuild:       {rebuild_s * 1000:.2f} ms for one {_REBUILD_TURNS}-turn game "
        f"(seed {seed}, {len(game)} events, best of {_REBUILD_RUNS})"
    )
    sqlite_rate = _sqlite_rate(events, text, repeat)
    print(f"floor:             {FLOOR_EVENTS_PER_S:,} events/s (goal {GOAL_EVENTS_PER_S:,})")
    print(
        floor_line(
            "bench.replay",
            f"{rate:,.0f} events/s",
            f"{FLOOR_EVENTS_PER_S:,}",
            ratio_floor,
            f"(goal {GOAL_EVENTS_PER_S:,}: {rate / GOAL_EVENTS_PER_S:.2f}x; jsonl+replay "
            f"{jsonl_rate / FLOOR_EVENTS_PER_S:.2f}x the floor; raw decode "
            f"{raw_rate / rate:.0f}x faster)",
        )
    )
    if profile:
        prof = cProfile.Profile()
        part = pairs[: min(len(pairs), 200_000)]
        prof.enable()
        _replay_clean(part)
        prof.disable()
        stats = pstats.Stats(prof, stream=sys.stdout)
        stats.sort_stats("tottime").print_stats(25)
    summary: dict[str, Any] = {
        "events": n_events,
        "events_per_s": round(rate),
        "jsonl_events_per_s": round(jsonl_rate),
        "raw_decode_events_per_s": round(raw_rate),
        "ratio_to_raw": round(ratio_raw, 4),
        "rebuild_40_turn_ms": round(rebuild_s * 1000, 3),
        "floor_events_per_s": FLOOR_EVENTS_PER_S,
        "goal_events_per_s": GOAL_EVENTS_PER_S,
        "ratio_to_floor": round(ratio_floor, 3),
        "ratio_replay_to_raw": round(rate / raw_rate, 4),
    }
    summary["sqlite_events_per_s"] = round(sqlite_rate)
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; the last line printed is the JSON summary."""
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the log")
    parser.add_argument("--variant", default="nzasp", help="variant of the games")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs; the best counts")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of a run")
    args = parser.parse_args(argv)
    if args.events < 1 or args.repeat < 1:
        parser.error("--events and --repeat must be at least 1")
    summary = run(args.events, args.variant, args.repeat, args.profile)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
