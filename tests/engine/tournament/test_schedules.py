"""Round robins and their group forms, against the NASPA Director's Manual's own tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tournament.errors import PairingError
from engine.tournament.pairing import schedule

DATA = Path(__file__).parents[2] / "data" / "pairings" / "naspa-round-robin.txt"


def manual_tables() -> dict[str, dict[int, list[int]]]:
    """``{"8 players": {seed: [opponent in round 1, 2, ...]}}`` (8 = the bye for 7)."""
    tables: dict[str, dict[int, list[int]]] = {}
    current: dict[int, list[int]] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and ":" in line and line[1].isdigit():
            seed, _, opps = line[1:].partition(":")
            current[int(seed)] = [int(x) for x in opps.split(",")]
        elif line and line[0].isdigit():
            current = tables.setdefault(line, {})
    return tables


def as_table(rounds: list[schedule.Round], n: int) -> dict[int, list[int]]:
    bye = n + 1
    out: dict[int, list[int]] = {s: [] for s in range(1, n + 1)}
    for rnd in rounds:
        for a, b in rnd:
            out[a].append(bye if b is None else b)
            if b is not None:
                out[b].append(a)
    return out


def test_the_file_holds_every_table_of_the_manual() -> None:
    assert sorted(manual_tables()) == sorted(
        [f"{n} players" for n in (4, 6, 8, 10, 12, 14, 16)] + ["7 players berger"]
    )


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14, 16])
def test_the_circle_method_reproduces_the_manuals_round_robin_table(n: int) -> None:
    assert as_table(schedule.circle(n), n) == manual_tables()[f"{n} players"]


def test_the_berger_table_for_seven_reproduces_the_manual() -> None:
    assert as_table(schedule.berger(7), 7) == manual_tables()["7 players berger"]


def test_john_green_drops_the_rounds_giving_byes_to_seeds_six_and_seven() -> None:
    rounds = schedule.john_green(7)
    byes = [next(a for a, b in rnd if b is None) for rnd in rounds]
    # the manual: "Rd 1 1-BYE ... Rd 2 3-BYE, Rd 3 5-BYE, Rd 4 2-BYE, Rd 5 4-BYE"
    assert byes == [1, 3, 5, 2, 4]
    assert {frozenset(p) for p in rounds[3]} == {
        frozenset((1, 5)),
        frozenset((2, None)),
        frozenset((3, 7)),
        frozenset((4, 6)),
    }


def test_snake_groups_as_in_the_manual() -> None:
    groups = schedule.snake_groups(list(range(1, 37)), 3)
    assert groups[0] == [1, 6, 7, 12, 13, 18, 19, 24, 25, 30, 31, 36]
    assert groups[1] == [2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35]
    assert groups[2][:4] == [3, 4, 9, 10]


def test_grouped_round_robin_deals_in_turn_as_portland_does() -> None:
    groups = schedule.grouped(list(range(1, 33)), 4)
    assert groups[0] == [1, 5, 9, 13, 17, 21, 25, 29]


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11, 13, 15, 17, 20, 21, 30])
def test_every_round_robin_meets_each_pair_exactly_once(n: int) -> None:
    rounds = schedule.circle(n)
    met = [frozenset(p) for rnd in rounds for p in rnd if p[1] is not None]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    for rnd in rounds:
        seen = [s for p in rnd for s in p if s is not None]
        assert sorted(seen) == list(range(1, n + 1))


def test_a_double_round_robin_repeats_the_cycle() -> None:
    rounds = schedule.round_robin(4, 6)
    assert rounds[3:] == rounds[:3]


def test_split_round_robin_meets_every_player_of_the_other_group() -> None:
    seeds = list(range(1, 17))
    a, b = schedule.snake_groups(seeds, 2)
    met = {frozenset(p) for rnd in schedule.split_round_robin(seeds, 8) for p in rnd}
    assert met == {frozenset((x, y)) for x in a for y in b}


def test_refusals_say_why() -> None:
    with pytest.raises(PairingError, match="7 players"):
        schedule.john_green(8)
    with pytest.raises(PairingError, match="only 4 players in each group"):
        schedule.split_round_robin(list(range(1, 9)), 5)
    with pytest.raises(PairingError, match="'spiral'"):
        schedule.round_robin(4, 3, method="spiral")
