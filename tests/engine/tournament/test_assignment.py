"""Which round a table is sent by default and which tables a round's publish clears:
the latest paired round, and the tables every other paired round used (later ones
too, when an earlier round is published again), numbered as the round numbers them;
and the rounds already paired that a withdrawing player is in."""

from __future__ import annotations

from engine.tournament.assignment import (
    latest_paired_round,
    other_rounds_tables,
    round_assignments,
)
from engine.tournament.records import Created, Paired, Record
from engine.tournament.state import EventState, replay

EVENT = """
name = "Walk Open"
[[division]]
name = "A"
rounds = 3
variant = "nzasp"
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Ann Ames", rating = 1800 },
  { name = "Gus Gray", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
]
[[division]]
name = "B"
rounds = 3
variant = "nzasp"
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Eve Egan", rating = 1400 },
  { name = "Fay Fox", rating = 1300 },
]
"""


def event(*records: Record) -> EventState:
    return replay([Created(EVENT), *records])


def test_nothing_paired_is_round_0() -> None:
    assert latest_paired_round(event()) == 0


def test_the_latest_round_is_the_latest_any_division_paired() -> None:
    ev = event(
        Paired("A", 1, ((1, 2), (3, 4))),
        Paired("A", 2, ((1, 3), (2, 4))),
        Paired("B", 1, ((1, 2),)),
    )
    assert latest_paired_round(ev) == 2


def test_a_round_clears_the_tables_of_the_others_and_not_its_own() -> None:
    ev = event(
        Paired("A", 1, ((1, 2), (3, 4))),
        Paired("B", 1, ((1, 2),)),
        Paired("A", 2, ((1, 3), (2, 4))),
    )
    assert [a.table_name for a in round_assignments(ev, 1)] == ["t1", "t2", "t3"]
    assert [a.table_name for a in round_assignments(ev, 2)] == ["t1", "t2"]
    assert other_rounds_tables(ev, 2) == {"t1", "t2", "t3"}
    assert other_rounds_tables(ev, 1) == {"t1", "t2"}  # a later round's: round 1 again


def test_a_single_round_clears_nothing() -> None:
    ev = event(Paired("A", 1, ((1, 2), (3, 4))))
    assert other_rounds_tables(ev, 1) == set()


def test_the_rounds_a_player_is_paired_in_from_a_round_on() -> None:
    ev = event(
        Paired("A", 1, ((1, 2), (3, 4))),
        Paired("A", 2, ((1, 3), (2, 4))),
        Paired("B", 1, ((1, 2),)),
    )
    a = ev.division("A")
    assert a.rounds_paired(3) == [1, 2]
    assert a.rounds_paired(3, 2) == [2]
    assert a.rounds_paired(3, 3) == []
    assert ev.division("B").rounds_paired(1, 2) == []
