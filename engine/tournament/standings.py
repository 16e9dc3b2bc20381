"""Standings: wins (ties count half), then spread, then the event's tie-breaks.

A bye is a win with the division's bye spread; a forfeit a win for the player
present with the forfeit spread (NASPA Director's Manual, "Odd Number of
Players"). Standings "as of round R" count the results of rounds 1..R only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Outcome", "Standing", "standings"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's game in one round."""

    round: int
    opponent: int
    """0 for a bye."""
    score: int
    against: int
    kind: str = "game"

    @property
    def win(self) -> float:
        """1, a half for a tie, or 0."""
        if self.score == self.against:
            return 0.5
        return 1.0 if self.score > self.against else 0.0


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the standings."""

    seed: int
    rank: int
    wins: float
    losses: float
    spread: int
    score: int
    games: int
    byes: int


def standings(
    seeds: Sequence[int],
    outcomes: Mapping[int, Iterable[Outcome]],
    *,
    through: int,
    ratings: dict[int, int],
    tiebreaks: Sequence[str] = ("wins", "spread"),
) -> list[Standing]:
    """Every seed's standing after round ``through``, best first.

    Ties left after the tie-breaks are broken by rating, then by entry number,
    so the order is total and the same on every machine.
    """
    rows = []
    for seed in seeds:
        done = [o for o in outcomes.get(seed, ()) if o.round <= through]
        wins = sum(o.win for o in done)
        rows.append(
            (
                seed,
                wins,
                len(done) - wins,
                sum(o.score - o.against for o in done),
                sum(o.score for o in done if o.kind == "game"),
                len(done),
                sum(1 for o in done if o.opponent == 0),
            )
        )

    def key(row: tuple[int, float, float, int, int, int, int]) -> tuple[float, ...]:
        by = {"wins": row[1], "spread": row[3], "score": row[4], "rating": ratings.get(row[0], 0)}
        return (*(-by[t] for t in tiebreaks), -ratings.get(row[0], 0), row[0])

    rows.sort(key=key)
    return [Standing(r[0], i, *r[1:]) for i, r in enumerate(rows, start=1)]
