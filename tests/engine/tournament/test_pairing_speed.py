"""Speed Pairings as the NASPA Director's Manual writes them (2011 "Speed Pairings",
2013 A.1.D): foursomes by rating for rounds 1-3, from the standings' halves for
rounds 4-6, from dozens for rounds 7-8 (the best two, then the winners)."""

from __future__ import annotations

import random

import pytest

from engine.tournament.errors import EventFileError, PairingError
from engine.tournament.pairing.pair_round import draw
from engine.tournament.pairing.speed import dozens, foursomes, halves
from engine.tournament.records import Created, Result, Withdrew
from engine.tournament.spec import parse_event
from engine.tournament.state import DivisionState, EventState, replay
from tests.engine.tournament.test_pairing_systems import event_text, play

MANUAL_PLAN = (
    '{ rounds = "1-3", system = "speed" }, { rounds = "4-6", system = "speed" }, '
    '{ rounds = "7-8", system = "speed" }, { rounds = "9", system = "fp", factor = 4 }, '
    '{ rounds = "10", system = "koth" }'
)


def met_in(div: DivisionState, rounds: range) -> set[frozenset[int]]:
    return {frozenset(p) for r in rounds for p in div.pairings[r].pairs}


def round_robins(groups: list[list[int]]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for g in groups for a in g for b in g if a < b}


def test_the_groups_as_the_manual_deals_them() -> None:
    # "pairing #1, 11, 21, 31 together, #2, 12, 22, 32 together ... #10, 20, 30, 40"
    forty = list(range(1, 41))
    assert foursomes(forty)[0] == [1, 11, 21, 31]
    assert foursomes(forty)[9] == [10, 20, 30, 40]
    # "48 players ... 2 halves of 24 ... #1, #7, #13 and #19; #2, #8, #14, #20"
    assert halves(list(range(1, 49)))[:2] == [[1, 7, 13, 19], [2, 8, 14, 20]]
    assert halves(list(range(1, 49)))[6] == [25, 31, 37, 43]
    # "#1, 4, 7, 10 will be one group, #2, 5, 8, 11 is another ... #3, 6, 9, 12"
    assert dozens(list(range(1, 25)))[:4] == [
        [1, 4, 7, 10],
        [2, 5, 8, 11],
        [3, 6, 9, 12],
        [13, 16, 19, 22],
    ]
    # "the last group formed will be a group of 5, 6 or 7 players"
    for n in range(8, 60):
        for groups in (foursomes(list(range(n))), halves(list(range(n))), dozens(list(range(n)))):
            assert sorted(s for g in groups for s in g) == list(range(n))
            assert all(4 <= len(g) <= 7 for g in groups), (n, groups)
            larger = [i for i, g in enumerate(groups) if len(g) > 4]
            # the leftovers join the last group (of each half in rounds 4-6)
            assert set(larger) <= {len(groups) - 1, len(foursomes(list(range(n // 2)))) - 1}
    # "the top half including those players who are in the top half": 36 players
    # split 18/18, the 17th and 18th in the top half's last group
    thirty_six = halves(list(range(1, 37)))
    assert {s for g in thirty_six[:4] for s in g} == set(range(1, 19))
    assert {17, 18} <= set(thirty_six[3])


def manual_event(players: int) -> EventState:
    return replay([Created(event_text(players, 10, MANUAL_PLAN))])


def play_round(ev: EventState, rnd: int, winner: str = "lower") -> None:
    """Every game of ``rnd`` won by the higher (or the lower) placed player."""
    div = ev.division("A")
    ev.apply(draw(div, rnd))
    place = {row.seed: i for i, row in enumerate(div.standings(rnd - 1))}
    for a, b in div.pairings[rnd].pairs:
        if b:
            a_wins = (place[a] < place[b]) == (winner == "higher")
            ev.apply(Result("A", rnd, a, b, (420, 380) if a_wins else (380, 420)))


def test_forty_players_through_the_manuals_ten_rounds() -> None:
    ev = manual_event(40)
    div = ev.division("A")
    for rnd in range(1, 4):
        play_round(ev, rnd, "higher")
    # rounds 1-3: everyone meets the rest of the rating foursome, #1 11 21 31 ...
    assert met_in(div, range(1, 4)) == round_robins(foursomes(list(range(1, 41))))
    for rnd in range(4, 7):
        play_round(ev, rnd, "lower")
    # rounds 4-6: the foursomes of the halves of the standings after round 3
    after3 = [row.seed for row in div.standings(3)]
    assert met_in(div, range(4, 7)) == round_robins(halves(after3))
    play_round(ev, 7, "lower")
    after6 = [row.seed for row in div.standings(6)]
    # round 7: "the two players in each group with the best ... record playing together"
    groups = dozens(after6)
    assert met_in(div, range(7, 8)) == {frozenset(g[i : i + 2]) for g in groups for i in (0, 2)}
    play_round(ev, 8)
    # round 8: "the two individual winners in each group from the 7th round playing together"
    for g in groups:  # the lower placed won each game of round 7
        assert frozenset((g[1], g[3])) in met_in(div, range(8, 9))
        assert frozenset((g[0], g[2])) in met_in(div, range(8, 9))
    play_round(ev, 9)
    assert draw(div, 10).system == "koth"


def test_the_manuals_round_7_and_8_example() -> None:
    # "Round 7 has #1, #4, #7, and #10 in one group ... #1 plays #4 and #7 vs. #10.
    # #4 wins and #10 wins. So, in Round 8, it's #4 vs. #10 and #1 vs. #7."
    plan = '{ rounds = "1-3", system = "speed" }, { rounds = "4-5", system = "speed" }'
    ev = replay([Created(event_text(12, 5, plan))])
    div = ev.division("A")
    for rnd in range(1, 4):
        play_round(ev, rnd, "higher")
    table = [row.seed for row in div.standings(3)]
    one, four, seven, ten = (table[i] for i in (0, 3, 6, 9))
    play_round(ev, 4, "lower")
    assert met_in(div, range(4, 5)) >= {frozenset((one, four)), frozenset((seven, ten))}
    ev.apply(draw(div, 5))
    assert met_in(div, range(5, 6)) >= {frozenset((four, ten)), frozenset((one, seven))}


def test_an_odd_field_has_one_bye_a_round_and_nobody_two() -> None:
    ev = manual_event(45)
    div = ev.division("A")
    for rnd in range(1, 9):
        play_round(ev, rnd, "higher" if rnd % 2 else "lower")
        assert sum(1 for _, b in div.pairings[rnd].pairs if not b) == 1
    assert max(div.byes().values()) == 1


@pytest.mark.parametrize(("players", "seed"), [(13, 0), (13, 2), (41, 10), (43, 1), (47, 3)])
def test_each_round_robin_bye_goes_to_the_lowest_with_the_fewest_byes(
    players: int, seed: int
) -> None:
    # "Always choose the lowest rated player to have the first bye ... Thereafter,
    # the player in last place gets the next bye ... at most, one bye in a
    # tournament, if possible" (2011 manual, "Odd Number of Players")
    ev = manual_event(players)
    div = ev.division("A")
    rng = random.Random(seed)
    for first in (1, 4):
        # best first: by rating (seed order) for rounds 1-3, else by the standings
        order = list(range(1, players + 1)) if first == 1 else [r.seed for r in div.standings(3)]
        before = div.byes()
        stage = range(first, first + 3)
        for rnd in stage:
            ev.apply(draw(div, rnd))
            play(ev, rnd, rng)
        holders = [a for r in stage for a, b in div.pairings[r].pairs if not b]
        # the odd group: everyone linked to the byes' holders by the stage's games
        group = set(holders)
        for _ in stage:
            group |= {x for r in stage for p in div.pairings[r].pairs if group & set(p) for x in p}
        ranked = [s for s in order if s in group - {0}]
        want: list[int] = []
        for _ in stage:
            left = [s for s in ranked if s not in want]
            fewest = min(before.get(s, 0) for s in left)
            want.append([s for s in left if before.get(s, 0) == fewest][-1])
        assert holders == want, (first, ranked, before)
        if first == 1:
            assert holders[0] == players  # the lowest rated
    assert max(div.byes().values()) == 1


def test_round_8_names_two_who_meet_again_when_a_withdrawal_leaves_no_other_pairing() -> None:
    plan = '{ rounds = "1-3", system = "speed" }, { rounds = "4-5", system = "speed" }'
    ev = replay([Created(event_text(12, 5, plan))])
    div = ev.division("A")
    for rnd in range(1, 5):
        play_round(ev, rnd)
    (group, *_) = dozens([row.seed for row in div.standings(3)])
    one, four, seven, ten = group
    for seed in (seven, ten):
        ev.apply(Withdrew("A", seed, 5, "ill"))
    paired = draw(div, 5)
    assert frozenset((one, four)) in {frozenset(p) for p in paired.pairs}
    assert any(
        div.name(one) in note and div.name(four) in note and "meet again" in note
        for note in paired.notes
    ), paired.notes


def test_round_8_waits_for_round_7() -> None:
    ev = manual_event(16)
    div = ev.division("A")
    for rnd in range(1, 7):
        play_round(ev, rnd)
    ev.apply(draw(div, 7))
    with pytest.raises(PairingError, match="round 7 still has 8 game"):
        draw(div, 8)


@pytest.mark.parametrize(
    ("rounds", "why"),
    [
        ("1-2", "2 rounds after round 1"),
        ("4-7", "a speed stage is 3 rounds"),
        ("7", "speed round 7: a speed stage"),
    ],
)
def test_a_speed_stage_is_the_manuals_three_or_two_rounds(rounds: str, why: str) -> None:
    plan = f'{{ rounds = "{rounds}", system = "speed" }}'
    first, _, last = rounds.partition("-")
    last = last or first
    text = event_text(
        8,
        int(last),
        plan if first == "1" else f'{{ rounds = "1-{int(first) - 1}", system = "koth" }}, ' + plan,
    )
    with pytest.raises(EventFileError, match=why):
        parse_event(text, "e.toml")
