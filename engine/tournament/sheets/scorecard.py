"""A player's scorecard: round by round the table, the opponent (number and name),
first or second, both scores, the spread, and the record and spread so far; a bye,
a forfeit and a game neither player came to written as such (their scores decide
nothing), and a round the player was not paired in (before a late entry, after a
withdrawal) said so."""

from __future__ import annotations

import msgspec

from engine.tournament.assignment import table_numbers
from engine.tournament.scores import score_text
from engine.tournament.sheets.sheet import Section, Sheet, signed
from engine.tournament.standings import Outcome, Standing
from engine.tournament.state import DivisionState, EventState

__all__ = ["Scorecard", "ScorecardRow", "Scorecards", "scorecard_sheet", "scorecards"]


class ScorecardRow(msgspec.Struct, frozen=True):
    """One round of a player's card."""

    round: int
    result: str
    """``win``, ``loss``, ``tie``, ``bye``, ``forfeit win``, ``forfeit loss``,
    ``both absent`` (a loss, no spread), ``no result yet``, ``not paired``,
    ``withdrawn`` or ``not entered`` (a late entry's rounds before it)."""
    table: int = 0
    opponent: int = 0
    opponent_name: str = ""
    first: bool | None = None
    """True: went first; None: no game (a bye, not paired)."""
    score: int | None = None
    """The player's score in a game played (None for a bye or a forfeit: no game)."""
    against: int | None = None
    spread: int | None = None
    """The game's spread for the player (a bye's and a forfeit's by rule)."""
    wins: float = 0.0
    """The record after this round (the standings through it)."""
    losses: float = 0.0
    total: int = 0
    """The spread after this round."""


class Scorecard(msgspec.Struct, frozen=True):
    """One player's card through a round."""

    event: str
    division: str
    seed: int
    name: str
    rating: int
    through: int
    rows: tuple[ScorecardRow, ...]


class Scorecards(msgspec.Struct, frozen=True):
    """A division's cards (all, or the ones asked for) through a round."""

    event: str
    division: str
    through: int
    cards: tuple[Scorecard, ...]


_KINDS = {"bye": "bye", "absent": "both absent"}


def _word(kind: str, win: float) -> str:
    if kind in _KINDS:
        return _KINDS[kind]
    word = {1.0: "win", 0.5: "tie"}.get(win, "loss")
    return f"forfeit {word}" if kind == "forfeit" else word


def _row(
    div: DivisionState,
    seed: int,
    rnd: int,
    rec: Standing,
    tables: dict[tuple[int, int], int],
    o: Outcome | None,
) -> ScorecardRow:
    """``seed``'s round ``rnd``, with ``rec`` the record after it and ``o`` its result."""
    pair = div.pair_of(seed, rnd)
    if pair is None:  # not entered, withdrawn, not paired: the status says which
        status = div.status(seed, rnd)
        return ScorecardRow(rnd, status, wins=rec.wins, losses=rec.losses, total=rec.spread)
    opponent = pair[1] if pair[0] == seed else pair[0]
    played = o is not None and o.kind == "game"
    return ScorecardRow(
        rnd,
        "no result yet" if o is None else _word(o.kind, o.win),
        table=tables.get(pair, 0),
        opponent=opponent,
        opponent_name=div.name(opponent) if opponent else "",
        first=(pair[0] == seed) if opponent else None,
        score=o.score if o is not None and played else None,
        against=o.against if o is not None and played else None,
        spread=o.spread if o is not None else None,
        wins=rec.wins,
        losses=rec.losses,
        total=rec.spread,
    )


def scorecards(
    state: EventState, div: DivisionState, through: int, seeds: list[int] | None = None
) -> Scorecards:
    """The cards through round ``through`` of ``seeds`` (default: everyone, by number)."""
    chosen = list(range(1, len(div.players) + 1)) if seeds is None else seeds
    outcomes = div.outcomes()
    # the record after each round is the standings through it: one way to count
    after: dict[int, dict[int, Standing]] = {
        rnd: {row.seed: row for row in div.standings(rnd)} for rnd in range(1, through + 1)
    }
    tables = {rnd: table_numbers(state, div, rnd) for rnd in div.pairings if rnd <= through}
    cards = []
    for seed in chosen:
        games = {o.round: o for o in outcomes.get(seed, [])}
        rows = tuple(
            _row(div, seed, rnd, after[rnd][seed], tables.get(rnd, {}), games.get(rnd))
            for rnd in range(1, through + 1)
        )
        p = div.players[seed - 1]
        cards.append(
            Scorecard(state.spec.name, div.spec.name, seed, p.name, p.rating, through, rows)
        )
    return Scorecards(state.spec.name, div.spec.name, through, tuple(cards))


def _cells(r: ScorecardRow) -> tuple[str, ...]:
    goes = {True: "first", False: "second", None: ""}[r.first]
    opponent = f"{r.opponent_name} (#{r.opponent})" if r.opponent else ""
    scores = score_text(r.score, r.against) if r.score is not None and r.against is not None else ""
    spread = signed(r.spread) if r.spread is not None else ""
    table = str(r.table) if r.table else ""
    record = f"{r.wins:g}-{r.losses:g}"
    return (str(r.round), table, opponent, goes, r.result, scores, spread, record, signed(r.total))


def scorecard_sheet(s: Scorecards) -> Sheet:
    """The cards as one sheet, a section each (printed whole, never split across pages)."""
    head = ("round", "table", "opponent", "goes", "result", "score", "spread", "W-L", "total")
    right = (True, True, False, False, False, True, True, True, True)
    sections = tuple(
        Section(f"#{c.seed} {c.name} ({c.rating})", head, tuple(_cells(r) for r in c.rows), right)
        for c in s.cards
    )
    what = "scorecard" if len(s.cards) == 1 else "scorecards"
    title = f"{s.event or 'the event'}, division {s.division}: {what} through round {s.through}"
    return Sheet(title, sections)
