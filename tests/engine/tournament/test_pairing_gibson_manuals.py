"""The Gibson rule where the 2011 and 2013 NASPA Director's Manuals differ, chosen by
the event file's ``manual`` (default 2013): the clinch (2011 "The Gibson Rule": "by at
least one win"; 2013 A.2.B: "by at least one-half of a win") and whom the clinched
leader plays (2013 A.2.C adds "(b) would not be paired against a player in contention
for a place prize")."""

from __future__ import annotations

import random

import pytest

from engine.tournament.errors import EventFileError
from engine.tournament.pairing.gibson import clinched, gibson_opponents
from engine.tournament.pairing.pair_round import draw
from engine.tournament.pairing.ranked import koth_ideal
from engine.tournament.records import Created, Paired, Record, Result
from engine.tournament.spec import parse_event
from engine.tournament.state import replay
from tests.engine.tournament.test_pairing_systems import event_text, row


def test_the_clinch_is_a_whole_win_in_2011_and_half_a_win_in_2013() -> None:
    # 2011: "Player A has 14 wins and 2 losses, and ... Player B, has 11 wins ...
    # with only two remaining rounds": 14-4 against 13-5 at best, clinched by both
    table = [row(1, 14), row(2, 11)]
    assert clinched(table, 2, manual=2011) == 1
    assert clinched(table, 2, manual=2013) == 1
    # 2013: "Player A has 13 wins, 2 losses and 1 tie ... Player B, has 11 wins":
    # 13.5-4.5 against 13-5, clinched by half a win, which 2011 does not count
    table = [row(1, 13.5), row(2, 11)]
    assert clinched(table, 2, manual=2013) == 1
    assert clinched(table, 2, manual=2011) is None
    assert clinched(table, 2) == 1  # the default follows 2013
    # level on wins at best: never clinched without spread limits
    assert clinched([row(1, 13), row(2, 11)], 2, manual=2013) is None


@pytest.mark.parametrize("manual", [2011, 2013])
def test_spread_limits_count_where_a_rival_can_draw_level(manual: int) -> None:
    nsc = (500, 800, 900)  # both editions: "500, 800 and 900" after 1, 2 or 3 rounds
    # (level on wins at worst: test_pairing_systems.py's test_gibson_as_in_the_manual)
    # half a win ahead at worst: ahead whatever the spread, in either edition (a
    # reading: 2011's "by at least one win" is met by "when the number of wins may
    # be equal", the spread deciding a tie, and half a win more decides it outright)
    assert clinched([row(1, 10.5, 0), row(2, 7, 900)], 3, nsc, manual) == 1


def test_whom_the_leader_plays_as_each_manual_writes_it() -> None:
    # 2013 A.2.C: "Paying Three Places - One Round Left to Play - Pairing King of the Hill"
    a, b, c, d, e, f, g = range(1, 8)
    table = [
        row(a, 14, 670),
        row(b, 12, 465),
        row(c, 12, 378),
        row(d, 11, 660),
        row(e, 10, 126),
        row(f, 10, 80),
        row(g, 10, -12),
    ]
    partner = koth_ideal([b, c, d, e, f, g])
    # "Player A ... is paired against Player F ... player E must be included in the
    # pairings with them, to correctly pair the King of the Hill"
    assert gibson_opponents(table, 1, 3, 2013, partner)[0] == f
    # 2011: "the highest placed player who CANNOT finish as high as" the last prize
    assert gibson_opponents(table, 1, 3, 2011, partner)[0] == e


def played(seed: int, manual: int) -> Paired:
    """Five KOTH rounds of eight (P001 wins each game, the rest win, lose or tie at
    random), then round 6 paired under ``manual`` with the Gibson rule, 3 prizes."""
    plan = '{ rounds = "1-6", system = "koth" }'
    records: list[Record] = [Created(event_text(8, 6, plan))]
    ev = replay(records)
    div = ev.division("A")
    rng = random.Random(seed)
    for rnd in range(1, 6):
        paired = draw(div, rnd)
        ev.apply(paired)
        records.append(paired)
        for x, y in paired.pairs:
            if 1 in (x, y):
                scores = (450, 350) if x == 1 else (350, 450)
            else:
                scores = rng.choice([(400, 400), (450, 350), (350, 450)])
            res = Result("A", rnd, x, y, scores)
            ev.apply(res)
            records.append(res)
    text = event_text(8, 6, plan, gibson=True, prizes=3, manual=manual)
    return draw(replay([Created(text), *records[1:]]).division("A"), 6)


def opponent_of_1(paired: Paired) -> int | None:
    notes = [n for n in paired.notes if "Gibson" in n]
    if not notes:
        return None
    return next(y if x == 1 else x for x, y in paired.pairs if 1 in (x, y))


def test_an_event_half_a_win_ahead_is_gibsonized_only_under_2013() -> None:
    # after round 5: P001 5 wins, P008 3.5: one round left, 5 against 4.5 at best
    assert opponent_of_1(played(0, 2011)) is None
    assert opponent_of_1(played(0, 2013)) == 2


def test_an_event_pairs_the_leader_by_its_manual() -> None:
    # after round 5: P001 5; P008 3; P003-P006 2.5; P002 and P007 1 (out of the three
    # prizes). Without P001, KOTH pairs P002 with P006, a contender: 2013 passes P002 over
    assert opponent_of_1(played(2, 2011)) == 2
    assert opponent_of_1(played(2, 2013)) == 7
    assert "2013 manual" in " ".join(played(2, 2013).notes)


def test_the_manual_is_2011_or_2013() -> None:
    plan = '{ rounds = "1-6", system = "koth" }'
    assert parse_event(event_text(8, 6, plan), "e.toml").divisions[0].manual == 2013
    with pytest.raises(EventFileError, match="manual = 2012: expected 2011 or 2013"):
        parse_event(event_text(8, 6, plan, manual=2012), "e.toml")
    # a quoted year is refused with the value quoted, not msgspec's type message
    with pytest.raises(EventFileError, match="manual = '2013': expected 2011 or 2013"):
        parse_event(event_text(8, 6, plan, manual="2013"), "e.toml")
