"""The pairings of a round as posted: by table (table, both players' numbers,
names and records before the round, the first named starts) and the list at the
door, every player once by name with the table, the opponent and whether they go
first or second. Byes are shown: a bye has no table."""

from __future__ import annotations

import msgspec

from engine.tournament.assignment import table_numbers
from engine.tournament.sheets.sheet import Section, Sheet, signed
from engine.tournament.state import DivisionState, EventState

__all__ = [
    "DoorRow",
    "PairingRow",
    "Pairings",
    "Seat",
    "pairings",
    "pairings_round",
    "pairings_sheet",
]


class Seat(msgspec.Struct, frozen=True):
    """A player at a table, with the record they bring to the round."""

    seed: int
    name: str
    wins: float
    losses: float
    spread: int

    @property
    def record(self) -> str:
        """``2-1 +35`` (a tie is half a win: ``1.5-1.5``)."""
        return f"{self.wins:g}-{self.losses:g} {signed(self.spread)}"


class PairingRow(msgspec.Struct, frozen=True):
    """One game of the round, or a bye (``table`` 0, ``second`` None)."""

    table: int
    first: Seat
    """Starts the game (the pairing's first: docs/tournament.md "Who starts")."""
    second: Seat | None


class DoorRow(msgspec.Struct, frozen=True):
    """One player's line of the list by name."""

    seed: int
    name: str
    table: int
    """0: a bye."""
    opponent: int
    """0: a bye."""
    opponent_name: str
    first: bool | None
    """True: goes first; False: second; None: a bye."""


class Pairings(msgspec.Struct, frozen=True):
    """A division's pairings of one round."""

    event: str
    division: str
    round: int
    rows: tuple[PairingRow, ...]
    """By table, the byes last."""
    door: tuple[DoorRow, ...]
    """By name."""
    notes: tuple[str, ...] = ()


def pairings_round(div: DivisionState, after: int) -> int:
    """The round whose pairings go with the sheets after round ``after``: the next
    round when it is paired (the one to post), else ``after`` itself (the last
    round); 0 when neither is paired."""
    if after + 1 in div.pairings:
        return after + 1
    return after if after in div.pairings else 0


def pairings(state: EventState, div: DivisionState, rnd: int) -> Pairings:
    """The division's pairings of ``rnd`` (paired), each player with the record after
    the round before (the standings through it: one way to count)."""
    tables = table_numbers(state, div, rnd)
    before = {row.seed: row for row in div.standings(rnd - 1)}

    def seat(seed: int) -> Seat:
        row = before[seed]
        return Seat(seed, div.name(seed), row.wins, row.losses, row.spread)

    paired = div.pairings[rnd]
    rows = []
    door = []
    for a, b in paired.pairs:
        table = tables.get((a, b), 0)
        rows.append(PairingRow(table, seat(a), seat(b) if b else None))
        door.append(DoorRow(a, div.name(a), table, b, div.name(b), True if b else None))
        if b:
            door.append(DoorRow(b, div.name(b), table, a, div.name(a), False))
    rows.sort(key=lambda r: (r.second is None, r.table, r.first.seed))
    door.sort(key=lambda r: (r.name.casefold(), r.seed))
    return Pairings(
        state.spec.name, div.spec.name, rnd, tuple(rows), tuple(door), tuple(paired.notes)
    )


def _bye_or(table: int) -> str:
    return str(table) if table else "bye"


def _seat_cells(seat: Seat) -> tuple[str, str, str]:
    return str(seat.seed), seat.name, seat.record


def pairings_sheet(p: Pairings) -> Sheet:
    """Both lists as a sheet: by table, then (a page of its own) by name."""
    by_table = []
    for row in p.rows:
        cells = [_bye_or(row.table), *_seat_cells(row.first)]
        by_table.append((*cells, *(_seat_cells(row.second) if row.second else ("", "", ""))))
    door = [
        (
            r.name,
            str(r.seed),
            _bye_or(r.table),
            {True: "first", False: "second", None: ""}[r.first],
            f"{r.opponent_name} (#{r.opponent})" if r.opponent else "bye",
        )
        for r in p.door
    ]
    title = f"{p.event or 'the event'}, division {p.division}: pairings, round {p.round}"
    return Sheet(
        title,
        (
            Section(
                "By table (the first named starts; records before the round)",
                ("table", "#", "first", "record", "#", "second", "record"),
                tuple(by_table),
                (True, True, False, True, True, False, True),
                tuple(f"note: {n}" for n in p.notes),
            ),
            Section(
                "By name",
                ("player", "#", "table", "goes", "opponent"),
                tuple(door),
                (False, True, True, False, False),
                new_page=True,
            ),
        ),
    )
