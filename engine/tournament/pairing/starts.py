"""Who starts: firsts and seconds balanced over the event.

The player who has started fewer games starts; at equal counts the one who
went second in the latest round where they differ; then the higher seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["order_pair"]


def order_pair(a: int, b: int, history: Mapping[int, Sequence[bool]]) -> tuple[int, int]:
    """``(first, second)``; ``history`` lists each seed's starts (True = went first),
    in round order, byes left out."""
    ha, hb = history.get(a, ()), history.get(b, ())
    fa, fb = sum(ha), sum(hb)
    if fa != fb:
        return (a, b) if fa < fb else (b, a)
    for sa, sb in zip(reversed(ha), reversed(hb), strict=False):
        if sa != sb:
            return (a, b) if not sa else (b, a)
    return (a, b) if a < b else (b, a)
