"""The standings as posted: place (``2=`` for a shared place, as ``event standings``
writes it), player number, name, rating, wins, losses, spread and, where the
division has rating classes, each player's class; and the marks ``event standings``
shows: the byes, the games decided by rule, a withdrawal."""

from __future__ import annotations

import msgspec

from engine.tournament.live import standings_label
from engine.tournament.report import by_rule_marks, place_text
from engine.tournament.sheets.sheet import Section, Sheet, signed
from engine.tournament.state import DivisionState, EventState

__all__ = ["StandingRow", "Standings", "standings", "standings_sheet"]


class StandingRow(msgspec.Struct, frozen=True):
    """One player's line."""

    place: str
    """``1``, ``2=`` (shared: TOR-11)."""
    seed: int
    name: str
    rating: int
    wins: float
    losses: float
    spread: int
    rating_class: str
    """Empty when the division has no classes."""
    withdrew: int = 0
    """The first round the player was not paired in after withdrawing; 0: still in."""
    marks: tuple[str, ...] = ()
    """What was not played over the board, as ``event standings`` marks it:
    ``round 2: bye``, ``round 3: lost by forfeit``, ``withdrew from round 4``."""


class Standings(msgspec.Struct, frozen=True):
    """A division's standings after a round."""

    event: str
    division: str
    through: int
    label: str
    """``after round 3``; ``through round 3, the results in so far (...)`` for a round
    not complete; ``before round 1``."""
    classes: bool
    """The division has rating classes (the class column is shown)."""
    spread: bool
    """The variant records the spread (TOR-11 does not)."""
    rows: tuple[StandingRow, ...]


def standings(state: EventState, div: DivisionState, through: int) -> Standings:
    """The division's standings after round ``through`` (the division's own:
    :meth:`DivisionState.standings`)."""
    rows = div.standings(through)
    out = []
    for row in rows:
        player = div.players[row.seed - 1]
        out.append(
            StandingRow(
                place_text(row, rows),
                row.seed,
                player.name,
                player.rating,
                row.wins,
                row.losses,
                row.spread,
                div.spec.rating_class(player.rating),
                div.withdrawn_from(row.seed, through),
                tuple(by_rule_marks(div, row.seed, through)),
            )
        )
    label = standings_label(div, through) if through else "before round 1"
    return Standings(
        state.spec.name,
        div.spec.name,
        through,
        label,
        bool(div.spec.classes),
        div.variant.spread_recorded,
        tuple(out),
    )


def standings_sheet(s: Standings) -> Sheet:
    """The standings as a sheet."""
    head = ["place", "#", "player", "rating", "won", "lost"]
    right = [True, True, False, True, True, True]
    if s.spread:
        head.append("spread")
        right.append(True)
    if s.classes:
        head.append("class")
        right.append(False)
    head.append("note")
    right.append(False)
    rows = []
    for r in s.rows:
        cells = [r.place, str(r.seed), r.name, str(r.rating), f"{r.wins:g}", f"{r.losses:g}"]
        cells += [signed(r.spread)] if s.spread else []
        cells += [r.rating_class] if s.classes else []
        cells.append("; ".join(r.marks))
        rows.append(tuple(cells))
    if not any(r.marks for r in s.rows):  # no empty last column
        head.pop()
        right.pop()
        rows = [row[:-1] for row in rows]
    title = f"{s.event or 'the event'}, division {s.division}: standings {s.label}"
    return Sheet(title, (Section("", tuple(head), tuple(rows), tuple(right)),))
