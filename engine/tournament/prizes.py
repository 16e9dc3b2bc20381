"""The prizewinners: places per division and per rating class from the standings,
and the special prizes that only the games know (high game, high loss, the
highest-scoring play, most bingos).

The NASPA Director's Manual leaves prizes to the director ("determine the
prizewinners"; special categories such as "high game scores, high plays" are "not
mandatory", collected on sheets on the wall or by a program: 2011 "End of
Tournament", 2013 V.K.5). The event file says how many places (``prizes``), which
rating classes (``classes``, ``class_prizes``) and how ties on a prize place are
settled (``ties``: ``split``, the tied players share the places they cover, as
TOR-11's "combining and splitting prize money"; or ``tiebreak``, the standings'
order decides).

The places come from the standings (:meth:`DivisionState.standings`), never ranked
a second way. A player who wins a division place takes no class prize as well:
neither manual says whether a player may take both, so the choice is ours, one
place prize a player, and said (docs/tournament.md, "Prizes").

The special prizes come from the event's results and, for what only a board knows,
from the games the tables logged. A game's log is matched to its result by the
game's digest (:func:`engine.tournament.intake.game_digest`, which the result names
in ``game``; a game taken before its players signed still matches once the log
holds their signatures): a log of a game the event has not taken, or whose result
a director replaced, gives no plays. High game and high loss count every game
played out over the board (not a resignation or a forfeit: its score stopped short),
from the event's scores (the director's correction stands), a slip's too; plays and
bingos count every game with a log in board mode, a resigned one too (its plays
were made). Pure: the caller reads the logs (:mod:`clock.tournament.special_prizes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import msgspec

from engine.errors import Refusal
from engine.events import Event, Signed
from engine.rules.machine import apply
from engine.rules.replay import split_games
from engine.rules.state import GameState
from engine.tournament.assignment import table_numbers
from engine.tournament.errors import ResultError
from engine.tournament.intake import game_digest
from engine.tournament.records import Result
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState, EventState

__all__ = [
    "GameRef",
    "PlacePrize",
    "PrizeList",
    "SpecialPrize",
    "place_prizes",
    "prize_list",
    "special_prizes",
]


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


class PlacePrize(msgspec.Struct, frozen=True):
    """A player's prize place, in the division or in a rating class."""

    division: str
    klass: str
    """The rating class; empty for a place in the division."""
    places: tuple[int, ...]
    """The prize places won: one, or those the tied players cover and split."""
    shared: int
    """How many players share ``places`` (1: the player's alone)."""
    seed: int
    name: str
    rating: int
    wins: float
    losses: float
    spread: int
    withdrew: int = 0
    """The first round the player was not paired in after withdrawing (0: still in);
    a withdrawn player keeps their place and so can win a prize."""

    @property
    def label(self) -> str:
        """``1st``, ``2=/3= split`` (two or more level on the places they cover),
        ``3= split`` (level players sharing the last prize place); with the class
        before it: ``class B 1st``."""
        if self.shared > 1:
            place = "/".join(f"{p}=" for p in self.places) + " split"
        else:
            place = _ordinal(self.places[0])
        return f"class {self.klass} {place}" if self.klass else place


class GameRef(msgspec.Struct, frozen=True):
    """The game a special prize comes from."""

    round: int
    table: int
    """The table the round put it at (as the other sheets number it); 0 when unknown."""
    players: tuple[str, str]
    """In the pairing's order (the first started)."""
    scores: tuple[int, int]
    logged: bool
    """True: its plays were read from the table's game log."""
    slip: bool = False
    """Its result names no game log (typed from a slip or by the director)."""

    @property
    def text(self) -> str:
        """``round 3 table 2: Ann Able 420 v Ben Baker 388``, then ``(slip)`` for a
        result with no log, ``(no log)`` for a table's game whose log is not at hand."""
        at = f" table {self.table}" if self.table else ""
        a, b = self.players
        why = "" if self.logged else " (slip)" if self.slip else " (no log)"
        return f"round {self.round}{at}: {a} {self.scores[0]} v {b} {self.scores[1]}{why}"


class SpecialPrize(msgspec.Struct, frozen=True):
    """One winner of a special prize (several when level)."""

    kind: str
    """``high game``, ``high loss``, ``high play`` or ``most bingos``."""
    name: str
    value: int
    """The score, the play's score, or the number of bingos."""
    games: tuple[GameRef, ...]
    """Where it came from: the game (a play's, a score's), or each game with a bingo."""
    play: str = ""
    """A play's square and main word: ``8A QUIXOTIC``, ``11A OESIDOPZREAJGLU`` (tiles
    played through included); empty for the others."""


class PrizeList(msgspec.Struct, frozen=True):
    """A division's prizewinners after round ``through``."""

    division: str
    through: int
    rounds: int
    """The division's rounds: ``through`` short of it is a provisional list."""
    places: tuple[PlacePrize, ...]
    specials: tuple[SpecialPrize, ...]
    notes: tuple[str, ...] = ()
    """What the special prizes could not count, for the director."""
    spread: bool = True
    """The division's variant records the spread (TOR-11 does not): the sheet's column."""

    @property
    def final(self) -> bool:
        """Whether the list is after the division's last round."""
        return self.through >= self.rounds


def _groups(rows: Sequence[Standing], shared: bool) -> list[list[Standing]]:
    """Rows in order, in runs of players level (same shared rank) when ``shared``."""
    out: list[list[Standing]] = []
    for row in rows:
        if shared and out and out[-1][0].rank == row.rank:
            out[-1].append(row)
        else:
            out.append([row])
    return out


def _placed(
    div: DivisionState,
    rows: Sequence[Standing],
    through: int,
    count: int,
    klass: str,
    split: bool,
) -> list[PlacePrize]:
    """The first ``count`` places of ``rows`` (in the standings' order): a run of
    level players starting on a prize place shares the places it covers (``split``)."""
    out: list[PlacePrize] = []
    place = 1
    for group in _groups(rows, split):
        if place > count:
            break
        covers = tuple(range(place, min(place + len(group) - 1, count) + 1))
        for row in group:
            player = div.players[row.seed - 1]
            # marked as the standings mark it (the same rule: DivisionState.withdrawn_from)
            withdrew = div.withdrawn_from(row.seed, through)
            out.append(
                PlacePrize(
                    div.spec.name, klass, covers, len(group), row.seed, player.name,
                    player.rating, row.wins, row.losses, row.spread, withdrew,
                )
            )  # fmt: skip
        place += len(group)
    return out


def place_prizes(div: DivisionState, through: int) -> list[PlacePrize]:
    """The division's prize places after round ``through``, then each rating class's
    below the top one (the top class is the division: its prizes are the places).
    A player placed in the division takes no class prize (the module's docstring).
    Before a round is complete (``through`` 0) nobody has a place: none."""
    if through < 1:
        return []
    spec = div.spec
    split = spec.ties == "split"
    rows = div.standings(through, shared=split)
    out = _placed(div, rows, through, spec.prizes, "", split)
    won = {p.seed for p in out}
    for klass in spec.classes[1:]:
        eligible = [
            r
            for r in rows
            if r.seed not in won and spec.rating_class(div.players[r.seed - 1].rating) == klass.name
        ]
        out += _placed(div, eligible, through, spec.class_prizes, klass.name, split)
    return out


@dataclass(frozen=True, slots=True)
class _Made:
    """A play that stood, by seat."""

    seat: int
    move: str
    score: int
    bingo: bool


def _plays(game: Sequence[tuple[int, Event]]) -> tuple[GameState, list[_Made]]:
    """The game's final state and the plays that stood, at their final score: a play
    withdrawn after a challenge is dropped, a score settled in a dispute replaces the
    play's (the history's ``withdrawn`` and ``rescored`` lines follow the play they
    change, as in the GCG export)."""
    st = GameState()
    made: list[_Made] = []
    for _, ev in game:
        try:
            new = apply(st, ev, ev.t if ev.t is not None else st.t)
        except Refusal:  # a table's log holds none; a copy's refused line changes nothing
            continue
        for turn in new.history[len(st.history) :]:
            mine = [i for i, m in enumerate(made) if m.seat == turn.player]
            if turn.kind == "play" and new.last is not None and new.last.placement is not None:
                pl = new.last.placement
                # where and what, once: the move's square and its main word whole (the
                # move writes tiles played through as dots: 11A OES...P...AJ..U)
                square = turn.text.split(" ")[0]
                move = f"{square} {pl.words[0]}" if pl.words else turn.text
                made.append(_Made(turn.player, move, turn.score, pl.bingo))
            elif turn.kind == "withdrawn" and mine:
                del made[mine[-1]]
            elif turn.kind == "rescored" and mine:
                old = made[mine[-1]]
                made[mine[-1]] = _Made(old.seat, old.move, old.score + turn.score, old.bingo)
        st = new
    return st, made


def _tables(state: EventState, div: DivisionState, through: int) -> dict[tuple[int, int, int], int]:
    """``(round, first, second)`` -> the table the round put the game at."""
    return {
        (rnd, *pair): table
        for rnd in sorted(div.pairings)
        if rnd <= through
        for pair, table in table_numbers(state, div, rnd).items()
    }


def _digests(events: Sequence[Event]) -> list[str]:
    """The digests a result may name for this game: of the whole game, and of the game
    as it stood before each of its trailing signatures (a game taken unsigned,
    ``event results --unsigned``, then signed at the table: the log grew after the
    result named it)."""
    out = [game_digest(events)]
    end = len(events)
    while end > 1 and isinstance(events[end - 1], Signed):
        end -= 1
        out.append(game_digest(events[:end]))
    return out


def _seats(div: DivisionState, res: Result, names: Sequence[str]) -> tuple[int, int] | None:
    """The seeds of a game log's two seats (names as the division matches them:
    case and spacing aside, :meth:`DivisionState.seed_of`), or None when they are
    not the result's two players."""
    try:
        seeds = tuple(div.seed_of(name) for name in names)
    except ResultError:
        return None
    if sorted(seeds) != sorted((res.first, res.second)):
        return None
    return seeds[0], seeds[1]


def _best(
    kind: str, entries: Iterable[tuple[int, str, tuple[GameRef, ...], str]]
) -> list[SpecialPrize]:
    """The entries with the highest value (all of them when level)."""
    got = list(entries)
    if not got:
        return []
    top = max(value for value, _, _, _ in got)
    return [SpecialPrize(kind, name, v, games, play) for v, name, games, play in got if v == top]


def special_prizes(
    state: EventState,
    div: DivisionState,
    through: int,
    logs: Sequence[Sequence[tuple[int, Event]]],
    advice: str = "give --games",
) -> tuple[list[SpecialPrize], list[str]]:
    """The division's special prizes after round ``through`` and notes on what was
    not counted. ``logs``: the events of each game log at hand (any number of games
    each, any order; logs of other divisions or events are passed over); ``advice``:
    how the caller's user brings a log that is not at hand."""
    logged: dict[str, list[tuple[int, Event]]] = {}
    for log in logs:
        for game in split_games(log):
            for digest in _digests([ev for _, ev in game]):
                logged[digest] = game
    tables = _tables(state, div, through)
    scores: list[tuple[int, str, tuple[GameRef, ...], str]] = []
    losses: list[tuple[int, str, tuple[GameRef, ...], str]] = []
    plays: list[tuple[int, str, tuple[GameRef, ...], str]] = []
    bingos: dict[str, list[GameRef]] = {}
    slips = unlogged = scoresheet = 0
    notes: list[str] = []
    for rnd in sorted(r for r in div.results if r <= through):
        for res in div.results[rnd].values():
            played = res.kind == "game"
            if not res.second or not (played or res.game):
                continue  # byes, forfeits and absences by hand: no game over the board
            found = logged.get(res.game.split(" ")[-1]) if res.game else None
            ref = GameRef(
                rnd,
                tables.get((rnd, res.first, res.second), 0),
                (div.name(res.first), div.name(res.second)),
                res.scores,
                found is not None,
                not res.game,
            )
            if played:  # a resigned or forfeited game's score stopped short: not counted
                for seed, mine, theirs in (
                    (res.first, *res.scores),
                    (res.second, res.scores[1], res.scores[0]),
                ):
                    scores.append((mine, div.name(seed), (ref,), ""))
                    if mine < theirs:
                        losses.append((mine, div.name(seed), (ref,), ""))
            if found is None:
                slips += not res.game
                unlogged += bool(res.game)
                continue
            final, made = _plays(found)
            if final.mode != "board":
                scoresheet += 1
                continue
            seats = _seats(div, res, final.players)
            if seats is None:  # a log edited by hand, or a result corrected to others
                notes.append(
                    f"round {rnd}: the game log's players {final.players[0]!r} and "
                    f"{final.players[1]!r} are not {div.name(res.first)!r} and "
                    f"{div.name(res.second)!r}: its plays are not counted"
                )
                continue
            for m in made:
                name = div.name(seats[m.seat])
                plays.append((m.score, name, (ref,), m.move))
                if m.bingo:
                    bingos.setdefault(name, []).append(ref)
    out = _best("high game", scores) + _best("high loss", losses) + _best("high play", plays)
    out += _best(
        "most bingos", ((len(g), n, tuple(dict.fromkeys(g)), "") for n, g in bingos.items())
    )
    if slips:
        notes.append(
            f"{slips} game(s) from slips count for high game and high loss only (no plays known)"
        )
    if unlogged:
        notes.append(
            f"{unlogged} game(s) from tables have no log at hand ({advice}): "
            "their plays are not counted"
        )
    if scoresheet:
        notes.append(f"{scoresheet} game(s) scored on a scoresheet: no words, so no plays counted")
    return out, notes


def prize_list(
    state: EventState,
    div: DivisionState,
    through: int,
    logs: Sequence[Sequence[tuple[int, Event]]] = (),
    advice: str = "give --games",
) -> PrizeList:
    """The division's prizewinners after round ``through``: places, class places,
    and the special prizes from its results and the game logs given (``advice``:
    :func:`special_prizes`). Before a round is complete (``through`` 0): none."""
    if through < 1:
        return PrizeList(div.spec.name, 0, div.spec.rounds, (), (), (), div.variant.spread_recorded)
    specials, notes = special_prizes(state, div, through, logs, advice)
    return PrizeList(
        div.spec.name,
        through,
        div.spec.rounds,
        tuple(place_prizes(div, through)),
        tuple(specials),
        tuple(notes),
        div.variant.spread_recorded,
    )
