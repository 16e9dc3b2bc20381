"""Pairing a ranked list: King of the Hill, Factored Pairings, Swiss, Portland
Swiss and Australian Draw, with repeat control.

Each system names an ideal opponent for every player from the standings
(:func:`ideal`); the pairer then walks down the list and gives each unpaired
player the unpaired player nearest to its ideal who is allowed (Portland Swiss:
"#1 of the first group is matched with the player closest to #6 who has not
played #1"), backtracking when a later player would be left without one. The
Modified Swiss pairs each win group on its own first (:func:`pair_swiss`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from engine.tournament.errors import PairingError

__all__ = [
    "Allowed",
    "fp_ideal",
    "ideal",
    "koth_ideal",
    "pair_ranked",
    "pair_swiss",
    "swiss_ideal",
    "win_groups",
]

Allowed = Callable[[int, int], bool]

_BUDGET = 50_000
"""Search steps before the pairer gives up on the constraints it was given."""


def koth_ideal(ranked: Sequence[int]) -> dict[int, int]:
    """#1 v #2, #3 v #4, ... (King of the Hill)."""
    return fp_ideal(ranked, 2)


def fp_ideal(ranked: Sequence[int], factor: int) -> dict[int, int]:
    """Factored pairings FP n: blocks of n, each player meeting the one n/2 places
    below (FP4: 1-3, 2-4, 5-7, 6-8; FP6: 1-4, 2-5, 3-6); a short last block is
    factored by its own size."""
    out: dict[int, int] = {}
    for start in range(0, len(ranked), factor):
        block = ranked[start : start + factor]
        half = len(block) // 2
        for i in range(half):
            out[block[i]] = block[i + half]
            out[block[i + half]] = block[i]
    return out


def win_groups(ranked: Sequence[int], wins: dict[int, float]) -> list[list[int]]:
    """The Modified Swiss's groups, best first: players with the same wins, an odd
    group taking the next highest player from below ("If there are five players
    with four wins, in order to pair evenly, the next highest player is added to
    the top group", the 2011 manual, "Modified-Swiss Pairings" step 3)."""
    out: list[list[int]] = []
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and wins[ranked[j]] == wins[ranked[i]]:
            j += 1
        if (j - i) % 2 and j < len(ranked):
            j += 1
        out.append(list(ranked[i:j]))
        i = j
    return out


def swiss_ideal(ranked: Sequence[int], wins: dict[int, float]) -> dict[int, int]:
    """Modified Swiss: in each win group (:func:`win_groups`) top half v bottom
    half (1 v 9, 2 v 10 ... in a group of 16; the manual, "Modified-Swiss
    Pairings" step 2)."""
    out: dict[int, int] = {}
    for group in win_groups(ranked, wins):
        half = len(group) // 2
        for k in range(half):
            out[group[k]] = group[k + half]
            out[group[k + half]] = group[k]
    return out


def ideal(
    system: str, ranked: Sequence[int], wins: dict[int, float], factor: int
) -> dict[int, int]:
    """The ideal opponents of ``system`` (``koth``, ``fp``, ``swiss``, ``portland``,
    ``australian-draw``) for players ranked best first."""
    if system in ("koth", "australian-draw"):
        return koth_ideal(ranked)
    if system in ("fp", "portland"):
        return fp_ideal(ranked, factor)
    if system == "swiss":
        return swiss_ideal(ranked, wins)
    raise PairingError(f"{system!r} is not a ranked pairing system")


def pair_ranked(
    ranked: Sequence[int], target: dict[int, int], allowed: Allowed
) -> list[tuple[int, int]] | None:
    """Pairs for an even ``ranked`` list: each player, best first, with the allowed
    unpaired player nearest (in rank) to its ideal opponent ``target``; None when
    no pairing satisfies ``allowed`` (or the search ran out of steps)."""
    n = len(ranked)
    if n % 2:
        raise PairingError(f"{n} players to pair: one needs the bye first")
    pos = {seed: i for i, seed in enumerate(ranked)}
    free = [True] * n
    pairs: list[tuple[int, int]] = []
    steps = 0

    def candidates(i: int) -> list[int]:
        want = pos.get(target.get(ranked[i], -1), i + 1)
        out = []
        for d in range(n):
            for j in (want + d, want - d) if d else (want,):
                if 0 <= j < n and j != i and free[j]:
                    out.append(j)
        return out

    def solve(i: int) -> bool:
        nonlocal steps
        while i < n and not free[i]:
            i += 1
        if i == n:
            return True
        free[i] = False
        for j in candidates(i):
            steps += 1
            if steps > _BUDGET:
                break
            if not allowed(ranked[i], ranked[j]):
                continue
            free[j] = False
            pairs.append((ranked[i], ranked[j]))
            if solve(i + 1):
                return True
            pairs.pop()
            free[j] = True
        free[i] = True
        return False

    return pairs if solve(0) else None


def pair_swiss(
    groups: Sequence[Sequence[int]],
    target: dict[int, int],
    allowed: Allowed,
    fresh: Allowed | None = None,
) -> list[tuple[int, int]] | None:
    """Modified Swiss pairs for even win ``groups`` (:func:`win_groups`), best first.

    "If the players have already played each other (and it's still prior to the
    last 2 rounds), switch players within the win group if you can until there
    are no repeat pairings" (2011 manual, "Modified-Swiss Pairings" step 3): each
    group is paired on its own with no two who have met (``fresh``, given only
    before the last two rounds) if it can be; else, since switching within the
    group failed, it is paired together with the next group (the bottom group
    with the one above) with no two who have met; only when that fails too does
    it keep a repeat the limits allow (``allowed``) inside the group. A group
    that cannot be paired on its own within the limits takes the group below
    (the bottom group the one above), the two then pairing as one; None when
    even the whole list cannot be paired.
    """
    segments = [list(g) for g in groups]
    done: list[tuple[list[int], list[tuple[int, int]]]] = []
    while segments:
        seg = segments.pop(0)
        if fresh is not None:
            strict = _both(allowed, fresh)
            pairs = _switched(seg, target, strict)
            if pairs is None and segments:
                merged = seg + segments[0]
                crossed = _switched(merged, target, strict)
                if crossed is not None:
                    segments.pop(0)
                    done.append((merged, crossed))
                    continue
            elif pairs is None and done:
                merged = done[-1][0] + seg
                crossed = _switched(merged, target, strict)
                if crossed is not None:
                    done[-1] = (merged, crossed)
                    continue
            if pairs is not None:
                done.append((seg, pairs))
                continue
        pairs = _switched(seg, target, allowed)
        if pairs is not None:
            done.append((seg, pairs))
        elif segments:
            segments[0] = seg + segments[0]
        elif done:
            above, _ = done.pop()
            segments.append(above + seg)
        else:
            return None
    return [p for _, pairs in done for p in pairs]


def _both(allowed: Allowed, fresh: Allowed) -> Allowed:
    return lambda a, b: allowed(a, b) and fresh(a, b)


_SWITCHED = 3
"""Games of the ideal pairing a switch may change besides the ones it must."""

_SWITCH_TRIES = 300
"""Sets of reopened games tried before the whole group is paired at once."""


def _switched(
    seg: Sequence[int], target: dict[int, int], allowed: Allowed
) -> list[tuple[int, int]] | None:
    """``seg`` paired with as few games changed from ``target``'s as a switch can:
    the ideal games ``allowed`` refuses are re-paired with the fewest other ideal
    games reopened (the highest placed first), each reopened set paired by
    :func:`pair_ranked`; beyond :data:`_SWITCHED` reopened games, the whole of
    ``seg`` by :func:`pair_ranked` (a group of six where 1-4 met: 1-5, 2-4, 3-6,
    one game kept, not 1-5, 2-6, 3-4)."""
    order = {s: i for i, s in enumerate(seg)}
    keep: list[tuple[int, int]] = []
    broken: list[int] = []
    for s in seg:
        o = target.get(s, -1)
        if o not in order:
            broken.append(s)
        elif order[s] < order[o]:
            if allowed(s, o):
                keep.append((s, o))
            else:
                broken += [s, o]
    if not broken:
        return keep
    tries = 0
    for k in range(min(_SWITCHED, len(keep)) + 1):
        for reopened in combinations(keep, k):
            tries += 1
            if tries > _SWITCH_TRIES:
                return pair_ranked(seg, target, allowed)
            players = sorted([*broken, *(s for p in reopened for s in p)], key=order.__getitem__)
            pairs = pair_ranked(players, target, allowed)
            if pairs is not None:
                kept = [p for p in keep if p not in reopened]
                return sorted(kept + pairs, key=lambda p: order[p[0]])
    return pair_ranked(seg, target, allowed)
