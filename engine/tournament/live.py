"""Standings while a round is being played: the results so far, and what they
would be if the games in progress ended with the scores they have now."""

from __future__ import annotations

from collections.abc import Mapping

from engine.tournament.records import Result
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState

__all__ = ["live_standings"]


def live_standings(
    div: DivisionState, round_: int, scores: Mapping[tuple[int, int], tuple[int, int]]
) -> list[Standing]:
    """The standings after ``round_`` counting the games of ``round_`` without a
    result at their current ``scores`` (by pairing ``(first, second)``)."""
    have = div.results.get(round_, {})
    extra = {
        pair: Result(div.spec.name, round_, pair[0], pair[1], sc)
        for pair, sc in scores.items()
        if pair not in have
    }
    if not extra:
        return div.standings(round_)
    results = dict(div.results)
    results[round_] = {**have, **extra}
    trial = DivisionState(div.spec, div.players, div.joined, div.left, div.pairings, results)
    return trial.standings(round_)
