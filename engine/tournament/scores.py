"""A game's score as the event takes it: the range a score can have, the one way
a result's two scores are written, and the one way a game's result is worded.

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

__all__ = ["MAX_SCORE", "MIN_SCORE", "check_score", "result_text", "score_text"]

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


_LOST = {
    "resigned": "resigned",
    "forfeit": "forfeited",
    "lateness": "forfeited for lateness",
    "director": "forfeited",  # an event result by hand (event result --forfeit)
}
"""How the loser lost a game decided by rule (the game's end reason, or an event
result's cause)."""
_ENDED = {
    "scoreless": "the scoreless turns",
    "cutoff": "the overtime cutoff",
    "declared": "declared by the director",
}
"""Endings worth saying after a game decided by its scores (going out is the usual one)."""


def result_text(
    names: tuple[str, str],
    scores: tuple[int, int],
    winner: int | None,
    reason: str,
    spread: int,
    *,
    short: bool = False,
    spread_recorded: bool = True,
) -> str:
    """A game's result in words, the one way every screen, file and the clock's own
    display word it: who won first, then why, then each player's score by name.

    ``winner`` is 0 or 1 (the seat in ``names`` and ``scores``) or None; ``reason``
    the game's end (``out``, ``resigned``, ``forfeit``, ``lateness``, ``bye``,
    ``absent``, ...; ``""`` for a game with no ending known). Scores are named
    winner first. ``short`` leaves out the parenthesis (the clock's narrow line).
    Where the variant records no spread (Toronto, TOR-11: match points only) no
    spread is said (``spread_recorded`` False).

    A game decided by its scores: ``Ann Able wins 420 to 388, spread 32``, the
    winner's score first. A game decided by rule (a resignation, a forfeit: the
    loser loses by the variant's spread, NZASP 10.2-10.3, whatever the scores
    stood at): ``Ann Able wins: Ben Baker resigned (scores Ann Able 0, Ben Baker
    32; spread 50 by rule)``, so nobody reads the resigner's lead as a win.
    """
    order = (0, 1) if winner != 1 else (1, 0)  # the winner's first, as in "wins 420 to 388"
    each = "scores " + ", ".join(f"{names[s]} {scores[s]}" for s in order)
    by_rule = f"spread {spread} by rule" if spread_recorded else ""
    if reason == "bye" and winner is not None:
        head, tail = f"{names[winner]} wins: a bye", by_rule
    elif reason == "absent":
        head, tail = "nobody wins: neither player came", f"{each}; no spread"
    elif reason in _LOST and winner is not None:
        head = f"{names[winner]} wins: {names[1 - winner]} {_LOST[reason]}"
        tail = f"{each}; {by_rule}" if by_rule else each
    else:
        ended = _ENDED.get(reason, "a forfeit" if reason in _LOST else "")
        if winner is None:
            head, tail = f"a tie {score_text(*scores)}", ended
        else:
            head = f"{names[winner]} wins {score_text(scores[winner], scores[1 - winner])}"
            if short:
                return head
            head = f"{head}, spread {spread}" if spread_recorded else head
            tail = ended
    if short or not tail:
        return head
    return f"{head} ({tail})"
