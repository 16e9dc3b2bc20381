"""Benchmark: loading a 280,000-word list. ``python -m bench.lexicon [--words N]``

Writes a synthetic list (random letter strings with a definition after each,
as exported lexicon lists have) to a temporary file, then times
:func:`clock.user_files.load_word_list` against the raw cost of reading and
splitting the same file into lines, and prints the ratio. Last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import tempfile
import time
from pathlib import Path

from bench.stats import floor_line
from clock.user_files import load_word_list


def _write(path: Path, n: int, seed: int) -> None:
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choices(string.ascii_uppercase, k=rng.randint(2, 15))))
    with path.open("w", encoding="utf-8") as f:
        for w in sorted(words):
            f.write(f"{w.lower()} a definition of the word [n]\n")


FLOOR_LOAD_S = 1.0
"""A word list loads in under a second (the floor the figures in docs/benchmarks.md meet)."""


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.lexicon")
    parser.add_argument("--words", type=int, default=280_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "words.txt"
        _write(path, args.words, 1)
        raw = load = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            lines = path.read_text(encoding="utf-8").splitlines()
            raw = min(raw, time.perf_counter() - t0)
            t0 = time.perf_counter()
            wl = load_word_list(path)
            load = min(load, time.perf_counter() - t0)
        assert len(wl) == args.words == len(lines)
    print(f"words:               {args.words:,}")
    print(f"load_word_list:      {load * 1000:.0f} ms (best of {args.repeat})")
    print(f"raw read+splitlines: {raw * 1000:.0f} ms")
    print(f"ratio:               {load / raw:.1f}x the raw read")
    print(
        floor_line(
            "bench.lexicon",
            f"{load * 1000:.0f} ms for {args.words:,} words",
            f"{FLOOR_LOAD_S * 1000:,.0f} ms",
            FLOOR_LOAD_S / load,
            f"({load / raw:.1f}x the raw read)",
        )
    )
    result = {
        "words": args.words,
        "load_ms": round(load * 1000, 1),
        "raw_ms": round(raw * 1000, 1),
        "ratio": round(load / raw, 2),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
