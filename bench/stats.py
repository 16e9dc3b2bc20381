"""Statistics the benchmarks share."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

__all__ = ["best_time", "floor_line", "percentile_ms"]


def percentile_ms(sorted_ns: list[int], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..1) of sorted nanoseconds, in ms.

    >>> percentile_ms([1_000_000, 2_000_000, 3_000_000, 4_000_000], 0.5)
    2.0
    >>> percentile_ms([1_000_000, 2_000_000, 3_000_000, 4_000_000], 0.99)
    4.0
    """
    rank = max(1, math.ceil(q * len(sorted_ns)))
    return sorted_ns[rank - 1] / 1e6


def best_time(fn: Callable[[], object], repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` runs: the least disturbed by other work."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def floor_line(name: str, figure: str, floor: str, ratio: float, extra: str = "") -> str:
    """The one line ``make bench`` gathers for a benchmark: its figure, its floor and how
    many times the floor it does (above 1 is better, whichever way the figure runs).
    A floor not met is said, not failed: on a shared machine a slow run is not a bug.

    >>> floor_line("bench.gcg", "2,450 games/s", "2,000", 1.225)
    'bench.gcg: 2,450 games/s, floor 2,000: 1.22x met'
    >>> floor_line("bench.press", "p99 6.0 ms", "p99 5 ms", 5 / 6, "(goal 1 ms)")
    'bench.press: p99 6.0 ms, floor p99 5 ms: 0.83x NOT MET (goal 1 ms)'
    """
    verdict = "met" if ratio >= 1 else "NOT MET"
    # Rounded down, so that a floor just missed never reads "1.00x".
    line = f"{name}: {figure}, floor {floor}: {math.floor(ratio * 100) / 100:.2f}x {verdict}"
    return f"{line} {extra}" if extra else line
