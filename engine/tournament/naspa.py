"""An event's results as NASPA's results file (seed 000, "Tournament Data Submission
Formats"), written by :func:`engine.exports.results.naspa_lines`, the writer of
``rackclock export naspa``.

Each result of the event's ledger becomes one game: who won is the record's (a
resignation or forfeit names its loser, whatever the scores), a forfeit's spread
is the record's (the variant's), and a bye is ``B``. A withdrawn player's line
ends with the games played, as do the rounds before a late entry joined: the
format lists a player's games, and a game not played is not one.
"""

from __future__ import annotations

from engine.exports.names import writable
from engine.exports.results import GameResult, naspa_lines
from engine.tournament.records import Result
from engine.tournament.state import DivisionState, EventState

__all__ = ["event_naspa_lines", "game_of"]


def game_of(div: DivisionState, res: Result) -> GameResult:
    """One result of the event as the results files take a game."""
    names = (_naspa(div, res.first), _naspa(div, res.second) if res.second else "")
    if res.kind == "bye":
        return GameResult(
            res.round, names, res.scores, 0, "bye", res.margin(res.first), div.spec.name
        )
    if res.kind == "absent":
        return GameResult(res.round, names, (0, 0), None, "absent", 0, div.spec.name)
    won = res.won(res.first)
    winner = None if won == 0.5 else (0 if won else 1)
    spread = abs(res.margin(res.first))
    # a forfeit keeps the table's cause (resigned, lateness): all are written alike
    reason = "out"
    if res.kind == "forfeit":
        reason = res.cause if res.cause in ("resigned", "lateness") else "forfeit"
    return GameResult(res.round, names, res.scores, winner, reason, spread, div.spec.name)


def _naspa(div: DivisionState, seed: int) -> str:
    """The player's name as NASPA's file takes it (an older ledger's that breaks the
    name rule: by its documented rule, :func:`engine.exports.names.writable`)."""
    return writable(div.name(seed), "naspa")


def event_naspa_lines(state: EventState, notes: list[str] | None = None) -> list[str]:
    """Every division's results so far, numbered straight through the file.

    Raises:
        ResultsError: A player paired in a round without a result yet; a name
            with no ASCII spelling.
    """
    games: list[GameResult] = []
    away: set[tuple[str, str, int]] = set()
    for div in state.divisions.values():
        for rnd in sorted(div.pairings):
            games.extend(game_of(div, res) for res in div.round_results(rnd))
            paired = {s for pair in div.pairings[rnd].pairs for s in pair}
            away.update(
                (div.spec.name, writable(p.name, "naspa"), rnd)
                for seed, p in enumerate(div.players, start=1)
                if seed not in paired
            )
    return naspa_lines(games, None, notes, away=away)
