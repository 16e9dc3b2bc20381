"""Standings while a round is being played: the results so far, and what they
would be if the games at the tables ended now: a game over counts as its table
ruled it (its winner and spread, signed or not: a resignation is the resigner's
loss even ahead), a game in play at the scores it has now."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.exports.results import GameResult
from engine.tournament.intake import result_of_game
from engine.tournament.records import Result
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState

__all__ = ["TableGame", "live_result", "live_standings", "standings_label", "standings_now"]


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game as its table reports it now (``engine.rules.replay.report``)."""

    players: tuple[str, str]
    """Both names, in the table's seats."""
    scores: tuple[int, int]
    """The scores now, in the table's seats."""
    result: Mapping[str, Any] | None = None
    """The report's ``result`` (``scores``, ``winner``, ``reason``, ``spread``) once
    the game is over, else None."""
    signed: tuple[bool, bool] = (False, False)
    """Who has signed the result."""

    @classmethod
    def of(cls, rep: Mapping[str, Any]) -> TableGame | None:
        """The game in a table's report, or None when the report names no two players."""
        players, scores = rep.get("players"), rep.get("scores")
        if not isinstance(players, list) or not isinstance(scores, list) or len(players) != 2:
            return None
        signed = rep.get("signed") or [False, False]
        return cls(
            (str(players[0]), str(players[1])),
            (int(scores[0]), int(scores[1])),
            rep.get("result"),
            (bool(signed[0]), bool(signed[1])),
        )

    @property
    def over(self) -> bool:
        """Whether the table has ruled a result."""
        return self.result is not None


def live_result(div: DivisionState, round_: int, game: TableGame) -> Result:
    """The result ``game`` would give the event now, in the pairing's order: a game
    over as its table ruled it (a resignation or forfeit by its winner and the
    variant's spread, NZASP 10.2-10.3, as ``event results`` will take it), a game
    in play at its current scores.

    Raises:
        ResultError: The game's players were not paired in ``round_``.
    """
    res = game.result
    if res is not None:
        scores = (int(res["scores"][0]), int(res["scores"][1]))
        winner, reason, spread = res["winner"], str(res["reason"]), int(res["spread"])
    else:
        scores, winner, reason, spread = game.scores, None, "", 0
    ruled = GameResult(round_, game.players, scores, winner, reason, spread, div.spec.name)
    # the same conversion a signed game goes through when it is taken (one way)
    return result_of_game(div, ruled, "")


def live_standings(
    div: DivisionState, round_: int, games: Mapping[tuple[int, int], Result]
) -> list[Standing]:
    """The standings after ``round_`` counting the games of ``round_`` without a
    result as ``games`` has them (by pairing ``(first, second)``; :func:`live_result`)."""
    have = div.results.get(round_, {})
    extra = {pair: res for pair, res in games.items() if pair not in have}
    if not extra:
        return div.standings(round_)
    results = dict(div.results)
    results[round_] = {**have, **extra}
    trial = DivisionState(div.spec, div.players, div.joined, div.left, div.pairings, results)
    return trial.standings(round_)


def standings_now(
    div: DivisionState, game_of: Callable[[str, str], TableGame | None]
) -> tuple[int, list[Standing], bool]:
    """The latest round paired, its standings, and whether they are provisional:
    once every result of the round is in they are final; until then the games at
    the tables ``game_of(first's name, second's name)`` finds count as
    :func:`live_result` has them (over: as ruled, signed or not; in play: at their
    scores now)."""
    rnd = max(div.pairings, default=0)
    if rnd == 0:
        return 0, div.standings(0), False
    if not div.missing(rnd):
        return rnd, div.standings(rnd), False
    games: dict[tuple[int, int], Result] = {}
    for a, b in div.missing(rnd):
        got = game_of(div.name(a), div.name(b))
        if got is not None:
            games[(a, b)] = live_result(div, rnd, got)
    return rnd, live_standings(div, rnd, games), True


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
