"""Who gets the bye when a round has an odd number of players.

NASPA Director's Manual, "Odd Number of Players": "Always choose the lowest
rated player to have the first bye, but you should refrain from giving an
unrated player the first bye. Thereafter, the player in last place gets the
next bye ... A player, if possible, should have, at most, one bye in a
tournament. Therefore, if the player in last place has already had a bye, then
the bye should go to the player in the next-to-last position."
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["bye_for"]


def bye_for(
    ranked: Sequence[int], ratings: dict[int, int], byes: dict[int, int], *, first_bye: bool
) -> int:
    """The player to get the bye: ``ranked`` is best first; ``byes`` counts each
    player's byes so far; ``first_bye`` when nobody in the division has had one."""
    if first_bye:
        rated = [s for s in ranked if ratings.get(s, 0) > 0] or list(ranked)
        # the lowest rated; among equals the lower seed (the later entry)
        return min(rated, key=lambda s: (ratings.get(s, 0), -s))
    fewest = min(byes.get(s, 0) for s in ranked)
    return next(s for s in reversed(ranked) if byes.get(s, 0) == fewest)
