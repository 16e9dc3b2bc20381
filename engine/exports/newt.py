"""tsh's live feed, ``tourney.js``: the event as the "newt" object tsh publishes,
``newt={...};``, which the tools that follow tsh events read (Woogles' broadcasts:
woogles-io/liwords ``pkg/broadcasts/tsh_parser.go``).

What a reader takes from it, as tsh writes it: ``divisions[]``, each with its
``name``, ``maxr`` (the last round's index: rounds - 1, counted from 0), ``maxrp``
(the last round's index with a game played in it, both scores in, -1 before any:
tsh's ``TSH::Division::Synch``; a bye or a forfeit is no game played, and a round
paired is not played: tsh's own feed of an event paired three rounds ahead with
no scores has -1) and ``players``, indexed by player
number from 1 (``players[0]`` is null). A player has ``id`` (the number), ``name``
as filed (``Last, First``), ``rating``, and per round from the first:
``pairings`` (the opponent's number; 0 for a bye, a forfeit or a round not
played), ``scores`` (the player's score; a bye or forfeit: the spread, +50 or
-50; the list stops at the first round without a result, as tsh's does, so
pairings run ahead of scores in a round in play), ``etc.board`` (the table, 0
without one) and ``etc.p12`` (1 went first, 2 second, 0 no opponent). A withdrawn
player has ``etc.off`` (tsh's inactive player) and opponent 0, score 0 in the
rounds not played. A division with rating classes gives each player ``etc.class``.

The rounds are read in tsh's terms once, by :func:`engine.tournament.tsh.division_t_lines`
(the ``.t`` files' reading: the manual's forfeit as opponent 0 and the spread), so
the feed and the ``.t`` files cannot disagree; the tables are
:func:`engine.tournament.assignment.table_numbers`' numbers, as the tables and
the sheets have them. Pure: an event's state in, bytes out.
"""

from __future__ import annotations

import msgspec

from engine.exports.tfile import TLine
from engine.tournament.assignment import table_numbers
from engine.tournament.state import DivisionState, EventState
from engine.tournament.tsh import division_t_lines

__all__ = ["Newt", "NewtDivision", "NewtPlayer", "newt", "tourney_js"]


class NewtEtc(msgspec.Struct, frozen=True, omit_defaults=True):
    """tsh's extra fields of a player, one entry per round (``off``, ``class``: one)."""

    board: tuple[int, ...]
    p12: tuple[int, ...]
    off: tuple[int, ...] = ()
    """``[0]``: inactive (withdrawn), scoring 0 in the rounds not played."""
    klass: tuple[str, ...] = msgspec.field(default=(), name="class")
    """The player's rating class, when the division has classes."""


class NewtPlayer(msgspec.Struct, frozen=True):
    """One player of a division."""

    id: int
    name: str
    rating: int
    pairings: tuple[int, ...]
    scores: tuple[int, ...]
    etc: NewtEtc


class NewtDivision(msgspec.Struct, frozen=True):
    """One division: ``players[0]`` is null, as in tsh (players are numbered from 1)."""

    name: str
    maxr: int
    maxrp: int
    players: tuple[NewtPlayer | None, ...]


class NewtConfig(msgspec.Struct, frozen=True):
    """The part of tsh's config a reader uses."""

    event_name: str
    max_rounds: int


class Newt(msgspec.Struct, frozen=True):
    """The whole feed."""

    config: NewtConfig
    divisions: tuple[NewtDivision, ...]


def newt(state: EventState) -> Newt:
    """The event as tsh's feed has it."""
    divisions = tuple(_division(state, div) for div in state.divisions.values())
    rounds = max((d.spec.rounds for d in state.divisions.values()), default=0)
    return Newt(NewtConfig(state.spec.name, rounds), divisions)


def _division(state: EventState, div: DivisionState) -> NewtDivision:
    rounds = sorted(div.pairings)  # the rounds division_t_lines reads, in its order
    # each player's table in each round: the pairs' numbers, as the sheets have them;
    # a bye has none (0), a forfeit keeps its table, as tsh's feeds do
    tables = [
        {seed: table for pair, table in table_numbers(state, div, rnd).items() for seed in pair}
        for rnd in rounds
    ]
    lines = division_t_lines(div)
    players: list[NewtPlayer | None] = [None]
    for seed, line in enumerate(lines, start=1):
        board = tuple(t.get(seed, 0) for t in tables)
        klass = div.spec.rating_class(line.rating)
        etc = NewtEtc(
            board, line.p12, off=(0,) if line.off else (), klass=(klass,) if klass else ()
        )
        players.append(NewtPlayer(seed, line.filed, line.rating, line.opponents, line.scores, etc))
    return NewtDivision(div.spec.name, div.spec.rounds - 1, _last_played(lines), tuple(players))


def _last_played(lines: list[TLine]) -> int:
    """tsh's ``maxrp``: the last round (from 0) in which a game was played, both
    players' scores in (TSH::Division::Synch); -1 before any. A bye or a forfeit
    (opponent 0) is no game, nor is a round paired with no score yet."""
    return max(
        (
            rnd
            for line in lines
            for rnd, opp in enumerate(line.opponents[: len(line.scores)])
            if opp and rnd < len(lines[opp - 1].scores)
        ),
        default=-1,
    )


_encoder = msgspec.json.Encoder()


def tourney_js(state: EventState) -> bytes:
    """``tourney.js`` as served: ``newt=`` and the feed's JSON, then ``;`` (UTF-8)."""
    return b"newt=" + _encoder.encode(newt(state)) + b";\n"
