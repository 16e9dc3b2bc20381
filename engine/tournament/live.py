"""Standings while a round is being played. "Standings after round N" means one
thing everywhere (the CLI, the director's console, the venue page): the standings
through round N, every round up to it complete (:func:`round_standings` decides).
The round in play is shown apart, labelled as such, with how many of its results
are in and, on the console and the page, the standings as it stands: a game over
counts as its table ruled it (its winner and spread, signed or not: a resignation
is the resigner's loss even ahead), a game in play at the scores it has now."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.exports.results import GameResult
from engine.rules.game_report import GameReport, LiveReport, ReportedResult, as_report
from engine.rules.state import game_over_words
from engine.tournament.assignment import Assignment
from engine.tournament.intake import result_of_game
from engine.tournament.records import Result
from engine.tournament.scores import result_text
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState

__all__ = [
    "RoundInPlay",
    "RoundStandings",
    "TableGame",
    "assigned_game",
    "complete_rounds",
    "live_result",
    "live_standings",
    "phase_words",
    "result_words",
    "round_standings",
    "standings_label",
]


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game as its table reports it now (``engine.rules.replay.live_report``)."""

    players: tuple[str, str]
    """Both names, in the table's seats."""
    scores: tuple[int, int]
    """The scores now, in the table's seats."""
    result: ReportedResult | None = None
    """The report's ``result`` (scores, winner, reason, spread) once the game is
    over, else None."""
    signed: tuple[bool, bool] = (False, False)
    """Who has signed the result."""

    @classmethod
    def of(cls, rep: LiveReport | GameReport | Mapping[str, Any]) -> TableGame | None:
        """The game in a table's report (typed, or as JSON gives it: read once,
        :func:`engine.rules.game_report.as_report`), or None when a report as JSON
        gives it names no two players."""
        if not isinstance(rep, LiveReport | GameReport):
            players = rep.get("players")
            if not isinstance(players, list) or len(players) != 2:
                return None
        typed = as_report(rep)
        return cls(typed.players, typed.scores, typed.result, typed.signed)

    @property
    def over(self) -> bool:
        """Whether the table has ruled a result."""
        return self.result is not None


def assigned_game(rep: LiveReport | GameReport, assignment: Assignment) -> TableGame | None:
    """The game a table's report shows, if it is the one ``assignment`` put at that
    table (the table is the assignment's; the caller looked it up by table): its
    players are the pairing's, and a round or division it names is the assignment's.
    Else None: a table naming another game's players moves nothing of that game."""
    if set(rep.players) != set(assignment.players) or rep.players[0] == rep.players[1]:
        return None
    if rep.round is not None and rep.round != assignment.round:
        return None
    if rep.division is not None and rep.division != assignment.division:
        return None
    return TableGame(rep.players, rep.scores, rep.result, rep.signed)


def phase_words(rep: LiveReport | GameReport | Mapping[str, Any]) -> str:
    """A table's phase as its report (``engine.rules.replay.live_report``; one as
    JSON gives it is read once, :func:`engine.rules.game_report.as_report`) has it, a
    game over worded by its result (``engine.rules.state.game_over_words``, the one
    wording of a result; ``GameState.describe_phase`` says only ``game over``). The console's
    overview and the venue page's table cards show it."""
    typed = as_report(rep)
    res = typed.result
    if res is None:
        return typed.phase_text
    return game_over_words(
        typed.players,
        res.scores,
        res.winner,
        res.reason,
        res.spread,
        spread_recorded=res.spread_recorded,
    )


def result_words(players: tuple[str, str], result: ReportedResult) -> str:
    """A table's ruled result (its report's ``result``) in the one wording of a result
    (``result_text``: what :func:`phase_words` says after "game over: "): the
    director's event screen shows a game over but not yet signed so."""
    return result_text(
        players,
        result.scores,
        result.winner,
        result.reason,
        result.spread,
        spread_recorded=result.spread_recorded,
    )


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
        scores, winner, reason, spread = res.scores, res.winner, res.reason, res.spread
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


@dataclass(frozen=True, slots=True)
class RoundInPlay:
    """The round after the complete ones, while its results come in."""

    round: int
    results: int
    """Its games with a result in the event (a bye is no game: not counted)."""
    games: int
    """Its games (byes not counted: nobody waits for a bye's result)."""
    standings: list[Standing] | None = None
    """The standings with this round as it stands (its results in, the games at
    the tables as :func:`live_result` has them); None when nobody asked (the CLI)."""

    @property
    def text(self) -> str:
        """``round 3 in play: 2 of 4 results in``."""
        return f"round {self.round} in play: {self.results} of {self.games} results in"

    @property
    def label(self) -> str:
        """The live block's title: ``with round 3 as it stands (2 of 4 results in,
        the games in play at the tables' scores now)``."""
        return (
            f"with round {self.round} as it stands ({self.results} of {self.games} results "
            "in, the games in play at the tables' scores now)"
        )


@dataclass(frozen=True, slots=True)
class RoundStandings:
    """A division's standings after its complete rounds, and the round in play."""

    complete: int
    """The last round whose every game has its result (0: none yet)."""
    standings: list[Standing]
    """The standings through round ``complete``: the complete rounds only."""
    in_play: RoundInPlay | None
    """The next round, when it is paired and its results are not all in."""

    @property
    def label(self) -> str:
        """``after round 2`` (``before round 1`` until a round is complete)."""
        return f"after round {self.complete}" if self.complete else "before round 1"


def complete_rounds(div: DivisionState) -> int:
    """The last round such that it and every round before it is paired and has every
    result (a bye needs none)."""
    complete = 0
    while complete + 1 in div.pairings and not div.missing(complete + 1):
        complete += 1
    return complete


def round_standings(
    div: DivisionState, game_of: Callable[[int, tuple[int, int]], TableGame | None] | None = None
) -> RoundStandings:
    """What "standings after round N" means, the one way the CLI (``event
    standings``), the director's console and the venue page show it: the standings
    through the complete rounds only, and separately the round in play with how
    many of its results are in. Given ``game_of`` (the console, the page), the round
    in play also gets its standings as it stands: the games at the tables that
    ``game_of(round, (first's seed, second's seed))`` finds count as
    :func:`live_result` has them (over: as ruled, signed or not; in play: at their
    scores now). The caller finds a pairing's game at the table the round assigned
    it (:func:`assigned_game`), never by the names a table reports."""
    complete = complete_rounds(div)
    rnd = complete + 1
    paired = div.pairings.get(rnd)
    if paired is None:
        return RoundStandings(complete, div.standings(complete), None)
    pairs = [p for p in paired.pairs if p[1]]
    missing = div.missing(rnd)
    table: list[Standing] | None = None
    if game_of is not None:
        games: dict[tuple[int, int], Result] = {}
        for a, b in missing:
            got = game_of(rnd, (a, b))
            if got is not None:
                games[(a, b)] = live_result(div, rnd, got)
        table = live_standings(div, rnd, games)
    in_play = RoundInPlay(rnd, len(pairs) - len(missing), len(pairs), table)
    return RoundStandings(complete, div.standings(complete), in_play)


def standings_label(div: DivisionState, through: int) -> str:
    """The label of the standings through round ``through`` as asked for by number
    (``event standings --round N``): ``after round N`` when rounds 1-N are complete,
    else what they count: ``through round 3, the results in so far (round 3 in
    play: 2 of 4 results in)``."""
    done = round_standings(div)
    if through <= done.complete:
        return f"after round {through}"
    where = f" ({done.in_play.text})" if done.in_play is not None else ""
    return f"through round {through}, the results in so far{where}"
