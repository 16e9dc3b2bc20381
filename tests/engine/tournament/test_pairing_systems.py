"""Ranked systems (KOTH, FP, Swiss, Portland, Australian Draw), byes, the Gibson rule,
who starts, and a property test of every system on random events."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.tournament.errors import PairingError
from engine.tournament.pairing.byes import bye_for
from engine.tournament.pairing.gibson import clinched, gibson_opponents
from engine.tournament.pairing.pair_round import draw
from engine.tournament.pairing.ranked import fp_ideal, koth_ideal, pair_ranked, swiss_ideal
from engine.tournament.pairing.starts import order_pair
from engine.tournament.records import Created, Result, Withdrew
from engine.tournament.spec import SYSTEMS
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState, EventState, replay


def event_text(players: int, rounds: int, plan: str, **extra: object) -> str:
    lines = ['name = "Test"', "[[division]]", 'name = "A"', f"rounds = {rounds}"]
    lines += [
        f"{k} = {v!r}".replace("'", '"')
        if isinstance(v, str)
        else f"{k} = {str(v).lower() if isinstance(v, bool) else v}"
        for k, v in extra.items()
    ]
    lines.append(f"plan = [{plan}]")
    lines.append("players = [")
    lines += [f'  {{ name = "P{i:03}", rating = {2000 - 7 * i} }},' for i in range(1, players + 1)]
    lines.append("]")
    return "\n".join(lines)


def event(players: int, rounds: int, plan: str, **extra: object) -> EventState:
    return replay([Created(event_text(players, rounds, plan, **extra))])


def play(ev: EventState, rnd: int, rng: random.Random) -> None:
    div = ev.division("A")
    for a, b in div.pairings[rnd].pairs:
        if b:  # a bye needs no result: it is a win by the bye spread
            scores = (rng.randrange(250, 550), rng.randrange(250, 550))
            ev.apply(Result("A", rnd, a, b, scores))


def row(seed: int, wins: float, spread: int = 0) -> Standing:
    return Standing(seed, 0, wins, 0, spread, 0, 0, 0)


def test_koth_and_factored_pairings_as_the_manual_writes_them() -> None:
    ranked = list(range(1, 11))
    assert koth_ideal(ranked)[1] == 2
    assert koth_ideal(ranked)[3] == 4
    fp4 = fp_ideal(ranked, 4)
    assert (fp4[1], fp4[2], fp4[5], fp4[6]) == (3, 4, 7, 8)  # "FP4 (1-3, 2-4...)"
    fp6 = fp_ideal(ranked, 6)
    assert (fp6[1], fp6[2], fp6[3]) == (4, 5, 6)  # "FP6 (1-4, 2-5, 3-6)"
    fp10 = fp_ideal(ranked, 10)
    assert [fp10[i] for i in range(1, 6)] == [6, 7, 8, 9, 10]  # "FP10 (1-6, 2-7 ...)"


def test_swiss_pairs_top_half_against_bottom_half_of_each_win_group() -> None:
    # The manual: two with 5 wins, four with 4, six with 3.
    wins = {1: 5.0, 2: 5.0, 3: 4.0, 4: 4.0, 5: 4.0, 6: 4.0}
    wins |= {s: 3.0 for s in range(7, 13)}
    ideal = swiss_ideal(list(range(1, 13)), wins)
    assert ideal[1] == 2
    assert (ideal[3], ideal[4]) == (5, 6)  # "#1 vs. #3, #2 vs. #4"
    assert (ideal[7], ideal[8], ideal[9]) == (10, 11, 12)  # "#1 vs. #4, #2 vs. #5, #3 vs. #6"
    # "If there are five players with four wins ... the next highest player is added"
    odd = {1: 4.0, 2: 4.0, 3: 4.0, 4: 4.0, 5: 4.0, 6: 3.0, 7: 3.0, 8: 3.0}
    assert swiss_ideal(list(range(1, 9)), odd)[1] == 4


def test_the_nearest_unplayed_substitute() -> None:
    # Portland: "#1 ... is matched with the player closest to #6 who has not played #1"
    ranked = list(range(1, 11))
    played = {frozenset((1, 6))}
    pairs = pair_ranked(ranked, fp_ideal(ranked, 10), lambda a, b: frozenset((a, b)) not in played)
    assert pairs is not None
    assert dict(pairs)[1] in (5, 7)


def test_byes_lowest_rated_first_then_last_place_without_one() -> None:
    ratings = {1: 1800, 2: 1700, 3: 0}
    # "refrain from giving an unrated player the first bye"
    assert bye_for([1, 2, 3], ratings, {}, by_standings=False) == 2
    # "if the player in last place has already had a bye ... the next-to-last"
    assert bye_for([1, 2, 3], ratings, {3: 1}, by_standings=True) == 2
    assert bye_for([1, 2, 3], ratings, {2: 1}, by_standings=True) == 3
    # by standings, last place has it even when nobody has had a bye yet and the
    # leader is the lowest rated
    assert bye_for([3, 1, 2], {1: 1800, 2: 1700, 3: 1200}, {}, by_standings=True) == 2


def test_gibson_as_in_the_manual() -> None:
    # "Player A has 14 wins and 2 losses, and ... Player B, has 11 wins ... two remaining rounds"
    table = [row(1, 14), row(2, 11), row(3, 10)]
    assert clinched(table, 2) == 1
    assert clinched([row(1, 14), row(2, 12)], 2) is None
    # with spread: level on wins at best, 900 ahead with 3 to go (the NSC's limits)
    assert clinched([row(1, 10, 1200), row(2, 7, 200)], 3, (500, 800, 900)) == 1
    assert clinched([row(1, 10, 1000), row(2, 7, 200)], 3, (500, 800, 900)) is None
    # prizes to 4th; 2nd-4th on 13, 13, 12, one round left: the best placed with 10 wins
    rows = [row(1, 15), row(2, 13), row(3, 13), row(4, 12), row(5, 11), row(6, 10), row(7, 10)]
    assert gibson_opponents(rows, 1, 4)[0] == 6


def test_who_starts_is_balanced() -> None:
    assert order_pair(1, 2, {1: [True], 2: [False]}) == (2, 1)
    assert order_pair(1, 2, {1: [True, False], 2: [False, True]}) == (1, 2)
    assert order_pair(4, 2, {}) == (2, 4)


def test_a_gibsonized_player_meets_one_out_of_the_prizes() -> None:
    ev = event(8, 8, '{ rounds = "1-8", system = "koth" }', gibson=True, prizes=2)
    div = ev.division("A")
    for rnd in range(1, 8):  # P001 wins every game; P008 loses every game; the rest tie
        ev.apply(draw(div, rnd))
        for a, b in div.pairings[rnd].pairs:
            if 1 in (a, b) or 8 in (a, b):
                scores = (500, 300) if a == 1 or b == 8 else (300, 500)
            else:
                scores = (400, 400)
            ev.apply(Result("A", rnd, a, b, scores))
    table = div.standings(7)
    assert clinched(table, 1) == 1
    paired = draw(div, 8)
    assert any("Gibson rule" in n for n in paired.notes), paired
    opp = next(b if a == 1 else a for a, b in paired.pairs if 1 in (a, b))
    assert opp == gibson_opponents(table, 1, 2)[0]
    assert opp != table[1].seed
    assert next(r.wins for r in table if r.seed == opp) + 1 < table[1].wins


def test_a_round_is_not_paired_on_missing_results() -> None:
    ev = event(6, 3, '{ rounds = "1-3", system = "swiss" }')
    div = ev.division("A")
    ev.apply(draw(div, 1))
    with pytest.raises(PairingError, match="without a result"):
        draw(div, 2)


def test_portland_pairs_on_the_standings_two_rounds_back() -> None:
    ev = event(
        10, 6, '{ rounds = "1-2", system = "koth" }, { rounds = "3-6", system = "portland" }'
    )
    div = ev.division("A")
    rng = random.Random(1)
    ev.apply(draw(div, 1))
    play(ev, 1, rng)
    ev.apply(draw(div, 2))
    paired = draw(div, 3)  # round 2 still playing: standings after round 1
    assert paired.system == "portland"


PLANS = {
    "round-robin": '{{ rounds = "1-{r}", system = "round-robin" }}',
    "john-green": "",
    "snake": '{{ rounds = "1-{r}", system = "snake", groups = 2 }}',
    "split-round-robin": '{{ rounds = "1-{r}", system = "split-round-robin" }}',
    "grouped-round-robin": '{{ rounds = "1-{r}", system = "grouped-round-robin", groups = 3 }}',
    "koth": '{{ rounds = "1-{r}", system = "koth" }}',
    "fp": '{{ rounds = "1-{r}", system = "fp", factor = 4 }}',
    "swiss": '{{ rounds = "1-{r}", system = "swiss" }}',
    "portland": '{{ rounds = "1-{r}", system = "portland" }}',
    "australian-draw": '{{ rounds = "1-{r}", system = "australian-draw" }}',
    "speed": '{{ rounds = "1-3", system = "speed" }}, {{ rounds = "4-6", system = "speed" }}, '
    '{{ rounds = "7-8", system = "speed" }}, {{ rounds = "9-{r}", system = "koth" }}',
}


def test_every_system_has_a_property_test() -> None:
    assert set(PLANS) == set(SYSTEMS)


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s != "john-green"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(4, 200),
    rounds=st.integers(5, 30),
    seed=st.integers(0, 10_000),
    gibson=st.booleans(),
)
def test_every_active_player_is_paired_exactly_once_per_round(
    system: str, players: int, rounds: int, seed: int, gibson: bool
) -> None:
    rng = random.Random(seed)
    if system == "split-round-robin":
        rounds = max(1, min(rounds, (players + 1) // 2))
    if system == "round-robin":
        players = min(players, 40)
    if system == "speed":  # the manual's ten rounds: 1-3, 4-6, 7-8, then KOTH
        rounds = max(rounds, 9)
    ev = event(
        players, rounds, PLANS[system].format(r=rounds), gibson=gibson, days=[1, rounds // 2 + 1]
    )
    div = ev.division("A")
    for rnd in range(1, rounds + 1):
        if rnd == rounds // 2 and players > 5:  # a withdrawal mid-event
            ev.apply(Withdrew("A", rng.randrange(1, players + 1), rnd + 1, "ill"))
        paired = draw(div, rnd)
        ev.apply(paired)  # the state refuses pairings that miss or repeat anyone
        check_constraints(div, paired.round, system)
        play(ev, rnd, rng)


def check_constraints(div: DivisionState, rnd: int, system: str) -> None:
    paired = div.pairings[rnd]
    seen = [s for p in paired.pairs for s in p if s]
    assert sorted(seen) == sorted(div.active(rnd))
    assert sum(1 for _, b in paired.pairs if not b) == len(seen) % 2 or system in (
        "snake",
        "grouped-round-robin",
        "split-round-robin",
        "round-robin",
        "speed",
    )
    relaxed = any("repeat limits" in n for n in paired.notes)
    meetings = div.meetings()
    for a, b in paired.pairs:
        if not b:
            continue
        met = meetings[frozenset((a, b))]
        if system == "portland" and not relaxed:
            assert met == [rnd], (a, b, met)
        if system == "australian-draw" and not relaxed:
            assert [r for r in met if div.spec.day(r) == div.spec.day(rnd)] == [rnd]
        if system in ("swiss", "fp", "australian-draw") and not relaxed:
            assert len(met) <= div.spec.max_meetings
            assert rnd - 1 not in met
        if system == "round-robin":  # once per cycle of the schedule
            n = len(div.active(1))
            assert len(met) <= (rnd - 1) // (n - 1 + n % 2) + 1, (a, b, met)
        stage = div.spec.stage(rnd)
        # nobody twice in a speed stage (unless a withdrawal in it left a group short)
        whole = set(div.active(stage.first)) <= set(div.active(rnd))
        if system == "speed" and stage.system == "speed" and whole:
            assert [r for r in met if stage.first <= r <= stage.last] == [rnd], (a, b, met)
        if system == "split-round-robin":  # every player of the other group, once
            assert len(met) == 1, (a, b, met)
        if system in ("snake", "grouped-round-robin"):  # once per cycle of the smallest group
            n = len(div.active(1))
            g = n // (2 if system == "snake" else 3)
            assert len(met) <= (rnd - 1) // max(1, g - 1 + g % 2) + 1, (a, b, met)


def test_john_green_end_to_end() -> None:
    ev = event(7, 6, '{ rounds = "1-5", system = "john-green" }, { rounds = "6", system = "koth" }')
    div = ev.division("A")
    rng = random.Random(3)
    for rnd in range(1, 6):
        ev.apply(draw(div, rnd))
        play(ev, rnd, rng)
    ev.apply(draw(div, 6))
    byes = [a for rnd in range(1, 7) for a, b in div.pairings[rnd].pairs if not b]
    assert byes[:5] == [1, 3, 5, 2, 4]
    table = [r.seed for r in div.standings(5)]
    assert byes[5] == (6 if table.index(6) > table.index(7) else 7)


def test_a_bye_is_a_win_by_fifty_without_being_recorded() -> None:
    ev = event(5, 3, '{ rounds = "1-3", system = "swiss" }')
    div = ev.division("A")
    ev.apply(draw(div, 1))
    bye = next(a for a, b in div.pairings[1].pairs if not b)
    assert bye == 5  # the lowest rated (the manual: "the lowest rated player ... the first bye")
    assert div.missing(1) == [p for p in div.pairings[1].pairs if p[1]]
    play(ev, 1, random.Random(2))
    assert div.missing(1) == []
    row = next(r for r in div.standings(1) if r.seed == bye)
    assert (row.wins, row.spread, row.byes) == (1.0, 50, 1)
    ev.apply(draw(div, 2))  # round 2 pairs: nothing is left waiting for the bye
    assert next(a for a, b in div.pairings[2].pairs if not b) != bye
