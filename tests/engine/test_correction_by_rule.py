"""A correction or a director's adjustment after a game decided by rule (a
resignation, a forfeit, lateness, a bye) moves the scores but never the winner or the
declared spread: the player who resigned lost (NZASP 10.2-10.3), whatever the
corrected scores say. Found by review: a fix after a resignation gave the win to the
player who resigned."""

from __future__ import annotations

import pytest

from engine.rules.procedures.correction import shifted
from engine.rules.state import Result


@pytest.mark.parametrize("reason", ["resigned", "forfeit", "lateness", "bye"])
def test_a_result_decided_by_rule_keeps_its_winner_and_spread(reason: str) -> None:
    # Ann (seat 0) ahead 40-10 resigned: Ben wins by the forfeit spread
    result = Result(scores=(40, 10), winner=1, reason=reason, spread=50)  # type: ignore[arg-type]
    fixed = shifted(result, 1, 1)  # Ben's turn corrected from 10 to 11
    assert fixed.scores == (40, 11)
    assert (fixed.winner, fixed.spread) == (1, 50)
    assert shifted(result, 0, -40).winner == 1  # even at a tie on the scores


def test_a_played_game_follows_its_scores() -> None:
    result = Result(scores=(40, 10), winner=0, reason="out", spread=30)
    fixed = shifted(result, 1, 35)
    assert (fixed.scores, fixed.winner, fixed.spread) == ((40, 45), 1, 5)
    tied = shifted(result, 1, 30)
    assert (tied.winner, tied.spread) == (None, 0)
