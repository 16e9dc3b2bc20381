"""Speed Pairings (NASPA Director's Manual, 2011 "Speed Pairings", 2013 A.1.D): groups
of four drawn from the standings, a short round robin or two KOTH rounds in each.

The manual's scheme for a 10-round event, by the stage's length and place:

- Rounds 1-3 (a 3-round stage that starts the event), by rating: "divide the
  players into 4 groups ... pair the first three rounds by pairing #1, 11, 21, 31
  together ... Each player now plays every other player in his/her group of four."
- Rounds 4-6 (a 3-round stage later on), by the standings: "first divide them into
  2 halves ... Taking the top 24 1st: the players who are in 1st through 6th place
  are in the top group, 7th through 12th are in the second group, etc. The
  pairings would then be #1, #7, #13 and #19", a round robin in each foursome.
- Rounds 7-8 (a 2-round stage), by the standings: "groups of 12 players each ...
  Then #1, 4, 7, 10 will be one group, #2, 5, 8, 11 is another group and #3, 6, 9,
  12 will be a third group ... the 7th round has the two players in each group with
  the best tournament win/loss record playing together. The 8th round has the two
  individual winners in each group from the 7th round playing together."
- Rounds 9 and 10 "may be paired either KOTH, or FP4 in round 9 and KOTH in the
  final round": the plan's ``koth`` and ``fp`` entries.

Where the manual leaves it to the director ("the last group formed will be a
group of 5, 6 or 7 players. You will have to define for that group who has the
bye and who plays who"): the players left over after the foursomes join the
last, lowest placed foursome; rounds 4-6 split the standings at n // 2 (the
middle player of an odd field goes to the bottom half), each half dealt on its
own, so each half's last group takes its leftovers; a half or a last dozen too
small to deal (fewer than four) joins the one above; a group of 5, 6 or 7 plays
a round robin in rounds 1-3 and 4-6 and KOTH in rounds 7-8. An odd group's byes
follow the manual's "Odd Number of Players" (:func:`engine.tournament.pairing.byes.bye_for`):
a round robin stage seats the group so that each round's bye goes to the one
with the fewest byes, the lowest rated in rounds 1-3 ("Always choose the lowest
rated player to have the first bye") and the lowest placed later; round 8
pairs no two who met in round 7 where the group allows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.tournament.errors import PairingError
from engine.tournament.pairing.ranked import koth_ideal, pair_ranked
from engine.tournament.pairing.schedule import Round, grouped, round_robin, within_groups

__all__ = [
    "Bye",
    "ByeAfter",
    "dozens",
    "foursomes",
    "halves",
    "koth_in_groups",
    "round_robin_stage",
]

Bye = Callable[[Sequence[int]], int]
"""Who of a group (best first) has the bye."""

ByeAfter = Callable[[Sequence[int], Mapping[int, int]], int]
"""Who of a group (best first) has the bye, given the byes each has had."""


def foursomes(block: Sequence[int]) -> list[list[int]]:
    """``block`` (best first) dealt into foursomes: with k = len // 4, the first 4k
    dealt into k groups in turn (:func:`engine.tournament.pairing.schedule.grouped`:
    the j-th takes places j, j+k, j+2k and j+3k: #1, 11, 21, 31 of 40; #1, 7, 13,
    19 of 24; #1, 4, 7, 10 of 12); the len % 4 lowest placed join the last
    foursome (where ``grouped`` alone would give them to the first groups)."""
    k = len(block) // 4
    if k == 0:
        return [list(block)] if block else []
    groups = grouped(block[: 4 * k], k)
    groups[-1].extend(block[4 * k :])
    return groups


def halves(ranked: Sequence[int]) -> list[list[int]]:
    """Rounds 4-6: the top and bottom halves of the standings ("the top half
    including those players who are in the top half"; the middle player of an odd
    field in the bottom half), each dealt into foursomes, so that each half's last
    group takes that half's leftovers (the whole field when a half would hold
    fewer than four)."""
    top = len(ranked) // 2
    if top < 4:
        return foursomes(ranked)
    return foursomes(ranked[:top]) + foursomes(ranked[top:])


def dozens(ranked: Sequence[int]) -> list[list[int]]:
    """Rounds 7-8: groups of 12 by the standings, each dealt into foursomes; a last
    group of fewer than four joins the dozen above."""
    blocks = [list(ranked[i : i + 12]) for i in range(0, len(ranked), 12)]
    if len(blocks) > 1 and len(blocks[-1]) < 4:
        last = blocks.pop()
        blocks[-1] += last
    return [g for block in blocks for g in foursomes(block)]


def round_robin_stage(
    groups: Sequence[Sequence[int]], rounds: int, byes: Mapping[int, int], bye: ByeAfter
) -> list[Round]:
    """A round robin in each group (rounds 1-3 and 4-6), an odd group seated so that
    each round's bye goes to ``bye``'s pick among those still without one in the
    stage, counting the ``byes`` before it and the stage's own (the circle table
    alone would give the first bye to the group's best)."""
    if rounds > 3:
        raise PairingError(f"speed pairings: a round robin stage is 3 rounds, not {rounds}")
    return within_groups([_seated(g, rounds, byes, bye) for g in groups], rounds)


def _seated(group: Sequence[int], rounds: int, byes: Mapping[int, int], bye: ByeAfter) -> list[int]:
    """``group`` in the seats of its round robin table, the byes' seats first."""
    if len(group) % 2 == 0:
        return list(group)
    table = round_robin(len(group), rounds)
    # the seat meeting the bye in each round: distinct while rounds < len(group)
    bye_seats = [a for rnd in table for a, b in rnd if b is None]
    counts = dict(byes)
    seats: dict[int, int] = {}
    left = list(group)
    for seat in bye_seats:
        who = bye(left, counts)
        seats[seat] = who
        counts[who] = counts.get(who, 0) + 1
        left.remove(who)
    rest = iter(left)
    return [seats[i] if i in seats else next(rest) for i in range(1, len(group) + 1)]


def koth_in_groups(
    groups: Sequence[Sequence[int]], bye: Bye, met: Callable[[int, int], bool]
) -> Round:
    """One KOTH round inside each group, each group listed best first (round 7 by the
    standings; round 8 winners first): 1-2, 3-4 ..., an odd group's bye first
    (``bye``), and no two who ``met`` in the stage's first round where the group
    allows it (round 8: "the two individual winners ... playing together")."""
    out: Round = []
    for group in groups:
        rest = list(group)
        if len(rest) % 2:
            seat = bye(rest)
            out.append((seat, None))
            rest.remove(seat)
        pairs = pair_ranked(rest, koth_ideal(rest), lambda a, b: not met(a, b))
        if pairs is None:  # a group a withdrawal left with two who just met: they meet again
            pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
        out.extend(pairs)
    return out
