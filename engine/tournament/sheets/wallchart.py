"""The wallchart: every player (by number) by every round, a compact cell a round,
and the record and spread after the last.

A cell is the result letter (W, L, T) and the player's spread in the game, then the
opponent's number: ``W+35 #4``; a forfeit adds ``f`` (``W+50f #4``: decided by
rule), a game neither player came to ``a`` (``L+0a #4``), a bye is ``bye+50``, a
game without its result yet ``? #4``, a round after a withdrawal ``wd``, a late
entry's rounds before it empty, any other round not paired ``-``.
"""

from __future__ import annotations

import msgspec

from engine.tournament.sheets.sheet import Section, Sheet, signed
from engine.tournament.standings import Outcome
from engine.tournament.state import DivisionState, EventState

__all__ = ["LEGEND", "Wallchart", "WallchartRow", "wallchart", "wallchart_sheet"]

LEGEND = (
    "W/L/T: won, lost, tied, with the spread, then the opponent's number; "
    "f: a forfeit (by rule); a: neither player came; ?: no result yet; "
    "wd: withdrawn; -: not paired; empty: not yet entered"
)


class WallchartRow(msgspec.Struct, frozen=True):
    """One player's line."""

    seed: int
    name: str
    cells: tuple[str, ...]
    """Rounds 1..through, as the module says."""
    wins: float
    """After round ``through`` (the standings through it)."""
    losses: float
    spread: int


class Wallchart(msgspec.Struct, frozen=True):
    """A division's wallchart through a round."""

    event: str
    division: str
    through: int
    rows: tuple[WallchartRow, ...]


def _cell(o: Outcome) -> str:
    if o.kind == "bye":
        return f"bye{signed(o.spread)}"
    letter = {1.0: "W", 0.5: "T"}.get(o.win, "L")
    mark = {"forfeit": "f", "absent": "a"}.get(o.kind, "")
    return f"{letter}{signed(o.spread)}{mark} #{o.opponent}"


_MARKS = {"not entered": "", "withdrawn": "wd", "not paired": "-"}


def _unplayed(div: DivisionState, seed: int, rnd: int) -> str:
    pair = div.pair_of(seed, rnd)
    if pair is not None:
        return f"? #{pair[1] if pair[0] == seed else pair[0]}"
    return _MARKS[div.status(seed, rnd)]


def wallchart(state: EventState, div: DivisionState, through: int) -> Wallchart:
    """The division's wallchart through round ``through``."""
    outcomes = div.outcomes()
    totals = {row.seed: row for row in div.standings(through)}
    rows = []
    for seed in range(1, len(div.players) + 1):
        games = {o.round: o for o in outcomes.get(seed, [])}
        cells = tuple(
            _cell(games[rnd]) if rnd in games else _unplayed(div, seed, rnd)
            for rnd in range(1, through + 1)
        )
        t = totals[seed]
        rows.append(WallchartRow(seed, div.name(seed), cells, t.wins, t.losses, t.spread))
    return Wallchart(state.spec.name, div.spec.name, through, tuple(rows))


def wallchart_sheet(w: Wallchart) -> Sheet:
    """The wallchart as a sheet."""
    rounds = range(1, w.through + 1)
    head = ("#", "player", *(f"r{r}" for r in rounds), "W-L", "spread")
    right = (True, False, *(False for _ in rounds), True, True)
    rows = tuple(
        (str(r.seed), r.name, *r.cells, f"{r.wins:g}-{r.losses:g}", signed(r.spread))
        for r in w.rows
    )
    title = f"{w.event or 'the event'}, division {w.division}: wallchart through round {w.through}"
    keep = (False, False, *(True for _ in rounds), True, True)  # W+35 #4 stays one cell
    return Sheet(title, (Section("", head, rows, right, (LEGEND,), keep=keep),), landscape=True)
