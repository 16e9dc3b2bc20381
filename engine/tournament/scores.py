"""A game's score as the event takes it: the range a score can have, and the one way
a result's two scores are written.

A final score is the plays' points (never negative) less what the rules take
away at the end: the unplayed tiles (NZASP 8.3: each deducts their own rack when
both have tiles left; at most the seven highest tiles of a set, under 70 in every
bundled set), overtime (NZASP 8.4: 10 points a minute or part, with no cutoff;
NASPA and WESPA stop the game at -10:00, so at most 100; Toronto TOR-7 and TOR-8: a
point a second to -1:01) and, in some variants, a few points per lost challenge.
So a negative score is legal but small: below :data:`MIN_SCORE` it would take
more than 40 minutes of overtime with no score at all, which no game is. Above
:data:`MAX_SCORE` no game can reach: the record scores in tournament play are
well under 1,100 and the highest score a single game can theoretically reach
with the 100-tile English set is computed at under 1,800 (a bound chosen here,
not a rule: a score past it is a typing slip).
"""

from __future__ import annotations

from engine.tournament.errors import ResultError

__all__ = ["MAX_SCORE", "MIN_SCORE", "check_score", "score_text"]

MAX_SCORE = 1800
"""No single game reaches it (see the module's note)."""
MIN_SCORE = -400
"""No game falls below it: rack deductions and overtime penalties are small (NZASP 8.3-8.4)."""


def check_score(score: int, who: str) -> int:
    """``score`` if a game can end with it.

    Raises:
        ResultError: Outside ``MIN_SCORE..MAX_SCORE``, quoting it.
    """
    if not MIN_SCORE <= score <= MAX_SCORE:
        raise ResultError(
            f"{who}'s score {score} is not one a game can end with: scores run from "
            f"{MIN_SCORE} (rack and overtime penalties, NZASP 8.3-8.4) to {MAX_SCORE}"
        )
    return score


def score_text(a: int, b: int) -> str:
    """A result's two scores, unambiguous with a negative one: ``420 to 388``, ``25 to -7``."""
    return f"{a} to {b}"
