"""Statistics the benchmarks share."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

__all__ = ["best_time", "percentile_ms"]


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
