"""A game's result is worded one way (``engine.tournament.scores.result_text``): who
won first, then why, then each player's score by name, so a resignation by the
player who was ahead never reads as his win."""

from __future__ import annotations

import pytest

from engine.tournament.scores import result_text

NAMES = ("Ben Baker", "Ann Able")


@pytest.mark.parametrize(
    ("scores", "winner", "reason", "spread", "words"),
    [
        # Ben, ahead 32-0, resigned: the winner, the cause, each score, the spread by rule
        (
            (32, 0),
            1,
            "resigned",
            50,
            "Ann Able wins: Ben Baker resigned (scores Ann Able 0, Ben Baker 32; "
            "spread 50 by rule)",
        ),
        (
            (0, 0),
            0,
            "forfeit",
            50,
            "Ben Baker wins: Ann Able forfeited (scores Ben Baker 0, Ann Able 0; "
            "spread 50 by rule)",
        ),
        (
            (0, 0),
            1,
            "lateness",
            150,
            "Ann Able wins: Ben Baker forfeited for lateness (scores Ann Able 0, "
            "Ben Baker 0; spread 150 by rule)",
        ),
        (
            (0, 0),
            None,
            "absent",
            0,
            "nobody wins: neither player came (scores Ben Baker 0, Ann Able 0; no spread)",
        ),
        ((0, 0), 0, "bye", 50, "Ben Baker wins: a bye (spread 50 by rule)"),
        # a game decided by its scores: the winner's score first, whichever seat
        ((388, 420), 1, "out", 32, "Ann Able wins 420 to 388, spread 32"),
        (
            (-7, -43),
            0,
            "scoreless",
            36,
            "Ben Baker wins -7 to -43, spread 36 (the scoreless turns)",
        ),
        (
            (25, -12),
            0,
            "declared",
            37,
            "Ben Baker wins 25 to -12, spread 37 (declared by the director)",
        ),
        ((400, 400), None, "out", 0, "a tie 400 to 400"),
    ],
)
def test_a_result_is_worded_winner_first_and_why(
    scores: tuple[int, int], winner: int | None, reason: str, spread: int, words: str
) -> None:
    assert result_text(NAMES, scores, winner, reason, spread) == words


def test_the_clock_line_is_the_headline() -> None:
    assert result_text(NAMES, (32, 0), 1, "resigned", 50, short=True) == (
        "Ann Able wins: Ben Baker resigned"
    )
    assert result_text(NAMES, (25, -12), 0, "out", 37, short=True) == "Ben Baker wins 25 to -12"
