"""Standings while a round is being played: the results so far, and what they
would be if the games in progress ended with the scores they have now."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.tournament.records import Result
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState

__all__ = ["live_standings", "standings_label", "standings_now"]


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


def standings_now(
    div: DivisionState, scores_of: Callable[[str, str], tuple[int, int] | None]
) -> tuple[int, list[Standing], bool]:
    """The latest round paired, its standings, and whether they are provisional:
    once every result of the round is in they are final; until then the games in
    play count at the scores ``scores_of(first's name, second's name)`` gives."""
    rnd = max(div.pairings, default=0)
    if rnd == 0:
        return 0, div.standings(0), False
    if not div.missing(rnd):
        return rnd, div.standings(rnd), False
    scores: dict[tuple[int, int], tuple[int, int]] = {}
    for a, b in div.missing(rnd):
        got = scores_of(div.name(a), div.name(b))
        if got is not None:
            scores[(a, b)] = got
    return rnd, live_standings(div, rnd, scores), True


def standings_label(div: DivisionState, through: int, *, live: bool = False) -> str:
    """What standings through round ``through`` are, in one phrase the CLI, the
    director's console and the venue page share: ``after round 3`` once every game
    of rounds 1-3 has its result; while a round still lacks some, ``after round 2,
    round 3 in play`` and how it is counted (``live``: its games at the scores they
    have now; else the results in so far)."""
    complete = 0
    for rnd in range(1, through + 1):
        if rnd in div.pairings and div.missing(rnd):
            break
        complete = rnd
    if complete == through:
        return f"after round {through}"
    before = f"after round {complete}," if complete else "with"
    rounds = f"round {through}" if complete == through - 1 else f"rounds {complete + 1}-{through}"
    label = f"{before} {rounds} in play"
    if live:
        return f"{label} (the games in play as they stand)"
    games = len(div.pairings[through].pairs) if through in div.pairings else 0
    have = len(div.round_results(through))
    return f"{label} ({have} of {games} results in)"
