"""Results from the tables: a finished, signed game becomes the event's result.

A game its table's assignment started names its event (its name and identity,
the digest of the event's ledger's first record): a game of another event is refused,
whoever plays it. A game's players are found in its division by name, its round and division
from the game's own ``game_started`` (set from the table's assignment) or from
the director, and the pairing must exist; the scores are turned to the
pairing's order (who started). A game that names its table must be the game the
round assigned to that table (division, round and both players), and a log that
came from a table (its topic on the broker) delivers only games naming that
table: a table cannot deliver another table's game. The result names the game's
log and the digest of the game's events (SHA-256 of their JSON Lines, the same
from the table's SQLite log or the hub's JSON Lines copy), so it can be traced
to the game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import msgspec

from engine.events import Event, GameStarted, encode_event
from engine.exports.results import GameResult, game_result
from engine.rules.replay import replay, split_games
from engine.tournament.assignment import round_assignments
from engine.tournament.errors import ResultError, TournamentError
from engine.tournament.records import Result
from engine.tournament.scores import score_text
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
    if game.reason not in _FORFEITS:
        return Result(div.spec.name, game.round, first, second, scores, game=ref, by="table")
    if game.reason == "absent" or game.winner is None:  # neither came: both lose
        return Result(
            div.spec.name, game.round, first, second, (0, 0), "absent", ref, "table", cause="absent"
        )
    # Who won is the table's ruling (the player who resigned or forfeited loses, even
    # ahead or at 0-0), with the variant's spread; the scores as they stood decide nothing.
    return Result(
        div.spec.name,
        game.round,
        first,
        second,
        scores,
        "forfeit",
        ref,
        "table",
        winner=(a, b)[game.winner],
        spread=game.spread,
        cause=game.reason,
    )


@dataclass
class Intake:
    """What a log gave: new results to append, and what was passed over and why."""

    results: list[Result]
    """New results, to append."""
    notes: list[str]
    """Games passed over for now: not finished, or waiting for signatures."""
    refused: list[str] = field(default_factory=list)
    """Games that cannot be taken, each with why on one line."""
    known: int = 0
    """Games the event already has from this very game (the same digest), or as a
    director corrected it: a no-op."""


def results_from_log(
    state: EventState,
    name: str,
    events: Sequence[tuple[int, Event]],
    *,
    division: str | None = None,
    round_: int | None = None,
    unsigned: bool = False,
    table: str | None = None,
    no_round: str = "give --round N",
) -> Intake:
    """The results of a table log's finished games that the event does not have yet.

    A game counts once both players have signed (``unsigned`` takes finished
    games without signatures too). ``table`` is the table the log came from (its
    topic on the broker): then only games naming that table are taken. A game
    that names no round (and ``round_`` gives none) is refused with ``no_round``:
    what the director does about it where the log came in. A game
    already in the event with the same digest is counted in ``known``; one whose
    result differs from the event's is refused, not applied (a director corrects
    results, with a reason), unless a director has corrected it already: their
    correction stands (counted in ``known``, with a note), so taking the table's log
    again (its next game, a folder scanned again) is not refused for it.
    """
    out = Intake([], [])
    for n, game in enumerate(split_games(events), start=1):
        where = f"{name} game {n}"
        evs = [ev for _, ev in game]
        start = evs[0]
        assert isinstance(start, GameStarted)
        gstate, refused = replay(game)
        if refused:  # a table's own log holds only what the rules accepted: this was edited
            bad = refused[0]
            out.refused.append(f"{where}: line {bad.line}: the rules refuse it: {bad.reason}")
            continue
        if gstate.result is None:
            out.notes.append(f"{where}: not finished yet")
            continue
        if not unsigned and gstate.signed != (True, True):
            out.notes.append(f"{where}: finished, waiting for both signatures")
            continue
        other = _other_event(state, start)
        if other is not None:
            out.refused.append(f"{where}: {other}")
            continue
        rnd = start.round or round_
        if rnd is None:
            out.refused.append(f"{where}: the game names no round: {no_round}")
            continue
        try:
            div_name = _table_check(state, start, rnd, table) or start.division or division
            div = state.division(div_name or _only(state))
            res = result_of_game(div, game_result(gstate, rnd), "")
        except TournamentError as exc:
            out.refused.append(f"{where}: {exc}")
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
            if old.game.split(" ")[-1] == ref.split(" ")[-1] or old.scores == res.scores:
                out.known += 1
            elif old.reason:  # a director's correction: it stands over the table's log
                out.known += 1
                out.notes.append(
                    f"{where}: the log says {score_text(*res.scores)}, the event keeps the "
                    f"director's correction {score_text(*old.scores)} ({old.reason})"
                )
            else:
                out.refused.append(
                    f"{where}: the event has {score_text(*old.scores)} for this game, "
                    f"the log says {score_text(*res.scores)}: a director corrects it "
                    "(event result ... --reason)"
                )
            continue
        out.results.append(msgspec.structs.replace(res, game=ref))
    return out


def _other_event(state: EventState, start: GameStarted) -> str | None:
    """Why the game is another event's (its assignment named that event), or None:
    a game naming no event (started by hand) is matched by its pairing alone."""
    if start.event_id and state.id and start.event_id != state.id:
        named = start.event or start.event_id
        if named.casefold() == state.spec.name.casefold():  # two events of one name
            return (
                f"a game of another event named {named!r} (id {start.event_id}; "
                f"this event's is {state.id})"
            )
        return f"a game of event {named!r}, not of {state.spec.name!r}"
    if start.event is not None and start.event.casefold() != state.spec.name.casefold():
        return f"a game of event {start.event!r}, not of {state.spec.name!r}"
    return None


def _table_check(
    state: EventState, start: GameStarted, round_: int | None, source: str | None
) -> str | None:
    """The division of the round's assignment for the game's table (None when the
    game names no table and came from no table).

    Raises:
        ResultError: The game came from a table it does not name, or is not the
            game the round assigned to the table it names.
    """
    if source is not None and start.table != source:
        named = f"table {start.table!r}" if start.table else "no table"
        raise ResultError(
            f"the game names {named} but came from table {source!r}: "
            "a table delivers only the game assigned to it"
        )
    if start.table is None:
        return None
    if round_ is None:
        raise ResultError(f"the game names table {start.table!r} but no round")
    games = {a.table_name: a for a in round_assignments(state, round_)}
    got = games.get(start.table)
    if got is None:
        raise ResultError(f"round {round_} has no table {start.table!r}")
    if start.division is not None and start.division.casefold() != got.division.casefold():
        raise ResultError(
            f"the game names division {start.division!r}, round {round_}'s table "
            f"{start.table} is in division {got.division!r}"
        )
    if {p.casefold() for p in start.players} != {p.casefold() for p in got.players}:
        raise ResultError(
            f"round {round_} table {start.table} is {got.players[0]} v {got.players[1]}, "
            f"the game is {start.players[0]} v {start.players[1]}"
        )
    return got.division


def _only(state: EventState) -> str:
    if len(state.divisions) != 1:
        raise ResultError("the game names no division and the event has several")
    return next(iter(state.divisions))
