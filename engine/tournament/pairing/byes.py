"""Who gets the bye when a round has an odd number of players.

NASPA Director's Manual, "Odd Number of Players": "Always choose the lowest
rated player to have the first bye, but you should refrain from giving an
unrated player the first bye. Thereafter, the player in last place gets the
next bye ... A player, if possible, should have, at most, one bye in a
tournament. Therefore, if the player in last place has already had a bye, then
the bye should go to the player in the next-to-last position."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["bye_for"]


def bye_for(
    ranked: Sequence[int],
    ratings: Mapping[int, int],
    byes: Mapping[int, int],
    *,
    by_standings: bool,
) -> int:
    """The player to get the bye, among those who have had the fewest byes (at most
    one each, where the field allows).

    ``ranked`` is best first; ``byes`` counts each player's byes so far.
    ``by_standings`` when the round is paired on standings that hold results (KOTH,
    FP, Swiss after round 1): the bye goes to the lowest ranked, whatever the
    ratings (the manual's "the player in last place", then "next-to-last"), never
    to a leader who happens to be the lowest rated. Before any result there is no
    last place: the lowest rated has it, an unrated player only if all are.
    """
    fewest = min(byes.get(s, 0) for s in ranked)
    eligible = [s for s in ranked if byes.get(s, 0) == fewest]
    if by_standings:
        return eligible[-1]
    rated = [s for s in eligible if ratings.get(s, 0) > 0] or eligible
    # the lowest rated; among equals the lower seed (the later entry)
    return min(rated, key=lambda s: (ratings.get(s, 0), -s))
