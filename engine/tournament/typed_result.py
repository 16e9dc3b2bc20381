"""A result the director types (``rackclock event result``): the record it makes.

The names and scores come as typed, in either order; the record is written in the
pairing's order when the round pairs the two (first player first). A forfeit
(NZASP 10.2-10.3) gives the opponent the win by the variant's forfeit spread,
whatever the scores typed (they are kept, as typed, and decide nothing). Pure.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.tournament.errors import ResultError
from engine.tournament.records import Result
from engine.tournament.state import DivisionState

__all__ = ["typed_result"]


def typed_result(
    div: DivisionState,
    round_: int,
    a: tuple[str, int],
    b: tuple[str, int],
    *,
    forfeit: str | None = None,
    reason: str = "",
) -> Result:
    """The result record of ``a`` (name, score) against ``b`` in ``round_``;
    ``forfeit``: the name of the player who forfeits.

    Raises:
        TournamentError: A name not in the division.
        ResultError: ``forfeit`` names neither player (or both are one).
    """
    (name_a, score_a), (name_b, score_b) = a, b
    seed_a, seed_b = div.seed_of(name_a), div.seed_of(name_b)
    pairs = div.pairings.get(round_, None)
    a_first = pairs is not None and (seed_a, seed_b) in pairs.pairs
    if a_first:
        first, second, scores = seed_a, seed_b, (score_a, score_b)
    else:
        first, second, scores = seed_b, seed_a, (score_b, score_a)
    res = Result(div.spec.name, round_, first, second, scores, reason=reason)
    if forfeit is None:
        return res
    loser = div.seed_of(forfeit)
    if loser not in (seed_a, seed_b) or seed_a == seed_b:
        raise ResultError(
            f"--forfeit {forfeit!r}: name the player who forfeits, {name_a!r} or {name_b!r}"
        )
    return replace(
        res,
        kind="forfeit",
        winner=first if loser == second else second,
        spread=div.variant.forfeit_spread,
        cause="director",
    )
