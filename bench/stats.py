"""Statistics the benchmarks share."""

from __future__ import annotations

import math

__all__ = ["percentile_ms"]


def percentile_ms(sorted_ns: list[int], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..1) of sorted nanoseconds, in ms.

    >>> percentile_ms([1_000_000, 2_000_000, 3_000_000, 4_000_000], 0.5)
    2.0
    >>> percentile_ms([1_000_000, 2_000_000, 3_000_000, 4_000_000], 0.99)
    4.0
    """
    rank = max(1, math.ceil(q * len(sorted_ns)))
    return sorted_ns[rank - 1] / 1e6
