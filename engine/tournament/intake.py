"""Results from the tables: a finished, signed game becomes the event's result.

A game's players are found in its division by name, its round and division
from the game's own ``game_started`` (set from the table's assignment) or from
the director, and the pairing must exist; the scores are turned to the
pairing's order (who started). The result names the game's log and the digest
of the game's events (SHA-256 of their JSON Lines, the same from the table's
SQLite log or the hub's JSON Lines copy), so it can be traced to the game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.events import Event, GameStarted, encode_event
from engine.exports.results import GameResult, game_result
from engine.rules.replay import replay, split_games
from engine.tournament.errors import ResultError, TournamentError
from engine.tournament.records import Result
from engine.tournament.state import DivisionState, EventState

__all__ = ["Intake", "game_digest", "result_of_game", "results_from_log"]

_FORFEITS = ("forfeit", "lateness", "resigned", "absent")


def game_digest(events: Iterable[Event]) -> str:
    """``sha256:<hex>`` of the game's events as JSON Lines."""
    h = hashlib.sha256()
    for ev in events:
        h.update(encode_event(ev))
        h.update(b"\n")
    return "sha256:" + h.hexdigest()


def result_of_game(div: DivisionState, game: GameResult, ref: str) -> Result:
    """The event's result for one finished game.

    Raises:
        ResultError: A player not in the division, or a pairing that was not made.
    """
    a, b = (div.seed_of(name) for name in game.players)
    paired = div.pairings.get(game.round)
    if paired is None:
        raise ResultError(f"round {game.round} of {div.spec.name!r} is not paired")
    if (a, b) in paired.pairs:
        first, second, scores = a, b, game.scores
    elif (b, a) in paired.pairs:
        first, second, scores = b, a, (game.scores[1], game.scores[0])
    else:
        raise ResultError(
            f"round {game.round}: {game.players[0]} v {game.players[1]} was not paired "
            f"in {div.spec.name!r}"
        )
    kind = "forfeit" if game.reason in _FORFEITS else "game"
    return Result(div.spec.name, game.round, first, second, scores, kind, game=ref, by="table")


@dataclass
class Intake:
    """What a log gave: new results to append, and what was passed over and why."""

    results: list[Result]
    notes: list[str]


def results_from_log(
    state: EventState,
    name: str,
    events: Sequence[tuple[int, Event]],
    *,
    division: str | None = None,
    round_: int | None = None,
    unsigned: bool = False,
) -> Intake:
    """The results of a table log's finished games that the event does not have yet.

    A game counts once both players have signed (``unsigned`` takes finished
    games without signatures too). A game already in the event with the same
    digest is passed over silently; one whose result differs from the event's is
    reported, not applied (a director corrects results, with a reason).
    """
    out = Intake([], [])
    for n, game in enumerate(split_games(events), start=1):
        where = f"{name} game {n}"
        evs = [ev for _, ev in game]
        start = evs[0]
        assert isinstance(start, GameStarted)
        gstate, _ = replay(game)
        if gstate.result is None:
            out.notes.append(f"{where}: not finished yet")
            continue
        if not unsigned and gstate.signed != (True, True):
            out.notes.append(f"{where}: finished, waiting for both signatures")
            continue
        try:
            div = state.division(start.division or division or _only(state))
            res = result_of_game(div, game_result(gstate, start.round or round_), "")
        except TournamentError as exc:
            out.notes.append(f"{where}: {exc}")
            continue
        except ValueError as exc:  # ResultsError: no round known
            out.notes.append(f"{where}: {exc} (give --round)")
            continue
        ref = f"{name} {game_digest(evs)}"
        have = div.results.get(res.round, {}).get((res.first, res.second))
        pending = [
            r
            for r in out.results
            if (r.round, r.first, r.second) == (res.round, res.first, res.second)
        ]
        if have is not None or pending:
            old = have or pending[0]
            if old.game.split(" ")[-1] != ref.split(" ")[-1] and old.scores != res.scores:
                out.notes.append(
                    f"{where}: the event has {old.scores[0]}-{old.scores[1]} for this game, "
                    f"the log says {res.scores[0]}-{res.scores[1]}: a director corrects it"
                )
            continue
        out.results.append(
            Result(
                res.division,
                res.round,
                res.first,
                res.second,
                res.scores,
                res.kind,
                game=ref,
                by="table",
            )
        )
    return out


def _only(state: EventState) -> str:
    if len(state.divisions) != 1:
        raise ResultError("the game names no division and the event has several")
    return next(iter(state.divisions))
