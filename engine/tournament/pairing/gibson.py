"""The Gibson rule (NASPA Director's Manual, "The Gibson Rule").

A player has clinched first "when [they] can lose ALL of their remaining games
and still retain 1st place by at least one win no matter which other players
win all of their remaining games". Where the event says so, spread counts too:
with ``spread_limits`` (the NSC's 500, 800, 900 for 1, 2, 3 rounds left) a
rival who can only draw level on wins cannot catch a spread lead larger than
the limit. The Gibsonized player is "paired against the player who is
currently in the highest position that cannot win a top prize": one whose
wins plus the rounds left stay below the wins of the last prize place
("Disregard spread in your calculation").
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.tournament.standings import Standing

__all__ = ["clinched", "gibson_opponent", "out_of_the_prizes"]


def clinched(
    table: Sequence[Standing], rounds_left: int, spread_limits: Sequence[int] = ()
) -> int | None:
    """The seed of the player who has clinched first, or None."""
    if len(table) < 2 or rounds_left < 1:
        return None
    leader, rest = table[0], table[1:]
    limit = spread_limits[rounds_left - 1] if rounds_left <= len(spread_limits) else None
    for rival in rest:
        best = rival.wins + rounds_left
        if best < leader.wins:
            continue
        if best == leader.wins and limit is not None and leader.spread - rival.spread > limit:
            continue
        return None
    return leader.seed


def out_of_the_prizes(table: Sequence[Standing], rounds_left: int, prizes: int) -> list[int]:
    """The players who cannot finish in the prizes, highest placed first."""
    if prizes >= len(table):
        return []
    bar = table[max(prizes, 1) - 1].wins
    return [row.seed for row in table[1:] if row.wins + rounds_left < bar]


def gibson_opponent(table: Sequence[Standing], rounds_left: int, prizes: int) -> int | None:
    """The highest-placed player who cannot finish in the prizes, or None."""
    return next(iter(out_of_the_prizes(table, rounds_left, prizes)), None)
