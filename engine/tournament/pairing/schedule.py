"""Fixed schedules: round robins and the group systems built on them.

Players are seeds numbered from 1 (the highest rated is 1); a schedule is a list
of rounds, each a list of pairs ``(a, b)`` with ``b`` None for the bye. Who
starts is decided later (:mod:`engine.tournament.pairing.starts`), so the order
within a pair means nothing here.

Sources (NASPA Director's Manual, seed 000): the Clark system (the circle
method) and the manual's round robin tables up to 16 players; the 7-player
Berger table; the John Green system for 7 players in 6 games; snake groups;
split round robin; the grouped round robin of Speed and Portland pairings.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.tournament.errors import PairingError

__all__ = [
    "Pair",
    "Round",
    "berger",
    "circle",
    "grouped",
    "john_green",
    "round_robin",
    "snake_groups",
    "split_round_robin",
    "within_groups",
]

Pair = tuple[int, int | None]
Round = list[Pair]


def circle(n: int) -> list[Round]:
    """The Clark system: seeds in two lines, #1 fixed, the rest moving round the circle.

    Round 1 pairs 1-N, 2-(N-1), ...; each next round keeps #1 where it is and
    moves everyone else one place clockwise. An odd field adds a bye as seed
    N+1. This reproduces the manual's tables for 4 to 16 players.
    """
    if n < 2:
        raise PairingError(f"a round robin needs at least 2 players, got {n}")
    size = n + n % 2
    others = list(range(2, size + 1))
    rounds: list[Round] = []
    for _ in range(size - 1):
        row = [1, *others]
        top, bottom = row[: size // 2], row[size // 2 :][::-1]
        rounds.append([_bye(a, b, n) for a, b in zip(top, bottom, strict=True)])
        others = [others[-1], *others[:-1]]
    return rounds


def berger(n: int) -> list[Round]:
    """The Berger table: the circle's rounds ordered so that #1 meets the bye (or
    the last seed) first and then seeds 2, 3, ... in turn (the manual's 7-player
    table in "John Green System")."""
    rounds = circle(n)
    size = n + n % 2

    def opponent_of_1(rnd: Round) -> int:
        for a, b in rnd:
            if 1 in (a, b):
                other = b if a == 1 else a
                return size if other is None else other
        raise AssertionError("seed 1 is in every round")

    order = {size: 0, **{seed: seed - 1 for seed in range(2, size)}}
    return sorted(rounds, key=lambda rnd: order[opponent_of_1(rnd)])


def round_robin(n: int, rounds: int, *, method: str = "circle") -> list[Round]:
    """``rounds`` rounds of a round robin, repeated (a double round robin and more)
    when there are more rounds than one cycle has.

    Raises:
        PairingError: An unknown method or too few players.
    """
    if method not in ("circle", "berger"):
        raise PairingError(f"round robin method {method!r}: expected 'circle' or 'berger'")
    cycle = circle(n) if method == "circle" else berger(n)
    return [list(cycle[i % len(cycle)]) for i in range(rounds)]


def john_green(n: int = 7) -> list[Round]:
    """The John Green system: 7 players, five round robin rounds then KOTH.

    From the 7-player Berger table, drop the rounds that give the bye to the
    sixth seed (round 7) and the seventh seed (round 4), so the top five seeds
    have the first five byes; the sixth bye, in the KOTH round, goes to whichever
    of seeds 6 and 7 has the poorer record (:func:`engine.tournament.pairing.byes`).
    """
    if n != 7:
        raise PairingError(f"the John Green system is for 7 players, got {n}")
    table = berger(7)
    return [table[i] for i in (0, 1, 2, 4, 5)]


def snake_groups(seeds: Sequence[int], groups: int) -> list[list[int]]:
    """Seeds dealt into ``groups`` groups snake-wise (1 2 3 / 6 5 4 / 7 8 9 ...), so
    each group's average rating is about the same (the manual's "Snake Pairings")."""
    if groups < 1:
        raise PairingError(f"snake groups: {groups} groups")
    out: list[list[int]] = [[] for _ in range(groups)]
    for i, seed in enumerate(seeds):
        lap, at = divmod(i, groups)
        out[at if lap % 2 == 0 else groups - 1 - at].append(seed)
    return out


def grouped(seeds: Sequence[int], groups: int) -> list[list[int]]:
    """Seeds dealt in turn: #1 #2 #3 #4, #5 in group 1 again ... (Speed Pairings and
    Portland's grouped round robin: "all #1's would be in one group")."""
    if groups < 1:
        raise PairingError(f"grouped round robin: {groups} groups")
    return [list(seeds[g::groups]) for g in range(groups)]


def within_groups(groups: Sequence[Sequence[int]], rounds: int) -> list[Round]:
    """A round robin inside each group, round by round (groups of odd size give a
    bye inside the group)."""
    out: list[Round] = [[] for _ in range(rounds)]
    for group in groups:
        if len(group) < 2:
            for rnd in out:
                rnd.extend((seed, None) for seed in group)
            continue
        for r, rnd in enumerate(round_robin(len(group), rounds)):
            for a, b in rnd:
                out[r].append((group[a - 1], None if b is None else group[b - 1]))
    return out


def split_round_robin(seeds: Sequence[int], rounds: int) -> list[Round]:
    """Two snake groups, each player meeting every player of the other group
    (as in a team match): round r pairs A[i] with B[(i + r) mod m]. An odd field's
    last seed of the larger group takes the bye in turn.

    Raises:
        PairingError: More rounds than players in a group.
    """
    a, b = snake_groups(seeds, 2)
    if len(a) < len(b):
        a, b = b, a
    if len(b) < len(a):
        b = [*b, 0]  # 0 stands for the bye
    m = len(a)
    if rounds > m:
        raise PairingError(f"split round robin: {rounds} rounds but only {m} players in each group")
    return [[(a[i], b[(i + r) % m] or None) for i in range(m)] for r in range(rounds)]


def _bye(a: int, b: int, n: int) -> Pair:
    if a > n:
        return (b, None)
    if b > n:
        return (a, None)
    return (a, b)
