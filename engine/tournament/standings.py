"""Standings by the division's federation's event rules (its variant's ``[event]``).

Every federation counts a win as 1 and a tie as half (NZASP 8.5, 11.1; TOR-11
calls them match points; the Indonesian event 1 VP a win). What differs is
counted here, from :class:`~engine.rules.variant.EventRules`:

- a bye: a win by the bye spread (NASPA Director Manual V.E.4); under NZASP 9.2
  only when the grade's players have had unequal numbers of byes, and then with
  the player's average score added to the aggregate;
- a forfeit: a win for the player present by the forfeit spread (the record's
  spread: +150 for a win by lateness, IDN Gen), the forfeiter losing by it; under
  NZASP 10.2 the winner's average game score is added to the aggregate, and the
  forfeiter gets no points (10.3);
- both absent: a loss for both with no spread (IDN Gen: 0 VP and 0 margin each);
- level on points: ranked by spread (NZASP 11.1), or sharing the place (TOR-11:
  a tiebreaker game or shared prize money decides, not the program).

Byes and forfeits are marked unrated (NZASP 9.3, 10.4; NASPA writes them ``B``).
Standings "as of round R" count the results of rounds 1..R only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.rules.variant import EventRules

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
    """``game``, ``bye``, ``forfeit`` or ``absent`` (neither player came)."""
    won: float | None = None
    """1, a half or 0 when the record says who won (a forfeit); None: by the scores."""
    margin: int | None = None
    """The player's spread when the record gives it (a forfeit); None: score - against."""

    @property
    def win(self) -> float:
        """1, a half for a tie, or 0."""
        if self.won is not None:
            return self.won
        if self.kind == "absent":
            return 0.0
        if self.score == self.against:
            return 0.5
        return 1.0 if self.score > self.against else 0.0

    @property
    def spread(self) -> int:
        """The player's spread in this game."""
        if self.margin is not None:
            return self.margin
        return 0 if self.kind == "absent" else self.score - self.against

    @property
    def played(self) -> bool:
        """A game played over the board: its score counts, and it is rated. Byes
        and forfeits are not rated (NZASP 9.3, 10.4)."""
        return self.kind == "game"


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the standings."""

    seed: int
    rank: int
    """The place: shared by players level where the federation shares places (TOR-11)."""
    wins: float
    """Wins, match points (TOR-11) or VP (IDN): 1 a win, a half a tie."""
    losses: float
    spread: int
    score: int
    """The aggregate: games played, plus the player's average for a counted bye or a
    forfeit win where the federation adds it (NZASP 9.2, 10.2)."""
    games: int
    """Games counted: played, byes that count, forfeits."""
    byes: int
    unrated: int = 0
    """Byes and forfeits among the games counted (NZASP 9.3, 10.4)."""
    average: float = 0.0
    """Average points per game played (NZASP 11.4)."""


def _average(total: int, games: int) -> int:
    """The average game score to whole points, a half rounding up (0 before any game)."""
    return (2 * total + games) // (2 * games) if games else 0


def standings(
    seeds: Sequence[int],
    outcomes: Mapping[int, Iterable[Outcome]],
    *,
    through: int,
    ratings: dict[int, int],
    rules: EventRules,
    tiebreaks: Sequence[str] = ("wins", "spread"),
) -> list[Standing]:
    """Every seed's standing after round ``through``, best first.

    Ties left after the tie-breaks are broken by rating, then by entry number, so
    the order is total and the same on every machine (the pairings need one);
    where the federation shares places, players level on the tie-breaks share
    the rank.
    """
    done = {s: [o for o in outcomes.get(s, ()) if o.round <= through] for s in outcomes}
    for seed in seeds:
        done.setdefault(seed, [])
    # NZASP 9.2: byes count only "when players in a grade receive an unequal number".
    bye_counts = {sum(1 for o in games if o.kind == "bye") for games in done.values()}
    count_byes = rules.bye_counts == "always" or len(bye_counts) > 1
    rows = []
    for seed in seeds:
        counted = [o for o in done[seed] if o.kind != "bye" or count_byes]
        played = [o for o in counted if o.played]
        points = sum(o.score for o in played)
        average = _average(points, len(played))
        credited = sum(
            1
            for o in counted
            if (o.kind == "bye" and rules.bye_score == "average")
            or (o.kind == "forfeit" and o.win == 1 and rules.forfeit_score == "average")
        )
        wins = sum(o.win for o in counted)
        rows.append(
            Standing(
                seed,
                0,
                wins,
                len(counted) - wins,
                sum(o.spread for o in counted),
                points + credited * average,
                len(counted),
                sum(1 for o in done[seed] if o.kind == "bye"),
                len(counted) - len(played),
                points / len(played) if played else 0.0,
            )
        )

    def level(row: Standing) -> tuple[float, ...]:
        by = {"wins": row.wins, "spread": row.spread, "score": row.score}
        by["rating"] = ratings.get(row.seed, 0)
        return tuple(-by[t] for t in tiebreaks)

    rows.sort(key=lambda r: (*level(r), -ratings.get(r.seed, 0), r.seed))
    out: list[Standing] = []
    for i, row in enumerate(rows, start=1):
        shared = rules.tiebreak == "shared" and bool(out) and level(out[-1]) == level(row)
        out.append(replace(row, rank=out[-1].rank if shared else i))
    return out
