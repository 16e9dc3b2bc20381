"""Each division's standings follow its federation's event rules (the variant's
``[event]`` table): NZASP byes and forfeits (9.2, 10.2-10.4), placings (11.1) and
the results report (11.4); Toronto's match points and shared places (TOR-11); the
Indonesian event's VP, lateness wins and double absences; NASPA as before."""

from __future__ import annotations

import pytest

from engine.errors import DataFileError
from engine.rules.variant import VariantFile, load_variant, parse_variant
from engine.tournament.records import Created, Paired, Result
from engine.tournament.report import results_report, standings_lines
from engine.tournament.standings import Outcome, Standing, standings
from engine.tournament.state import DivisionState, EventState, replay

RATINGS = {1: 1800, 2: 1700, 3: 1600, 4: 1500}


def event(variant: str, players: int, rounds: int, system: str = "round-robin") -> EventState:
    names = ["Ann Able", "Ben Baker", "Cid Cole", "Dee Dunn"][:players]
    text = "\n".join(
        [
            'name = "Nationals"',
            "[[division]]",
            'name = "A"',
            f'variant = "{variant}"',
            f"rounds = {rounds}",
            f'plan = [{{ rounds = "1-{rounds}", system = "{system}" }}]',
            "players = [",
            *(
                f'  {{ name = "{n}", rating = {RATINGS[i]}, club = "Club {i}" }},'
                for i, n in enumerate(names, start=1)
            ),
            "]",
        ]
    )
    return replay([Created(text)])


def three_rounds_with_a_bye_each(variant: str) -> DivisionState:
    """Three players, each with one bye: Ann beats Ben 400-350, Ann beats Cid 420-380,
    Ben and Cid tie 300-300."""
    ev = event(variant, 3, 3)
    for rnd, pairs in enumerate((((1, 2), (3, 0)), ((3, 1), (2, 0)), ((2, 3), (1, 0))), 1):
        ev.apply(Paired("A", rnd, pairs, "round-robin"))
    ev.apply(Result("A", 1, 1, 2, (400, 350)))
    ev.apply(Result("A", 2, 3, 1, (380, 420)))
    ev.apply(Result("A", 3, 2, 3, (300, 300)))
    return ev.division("A")


def line(row: Standing) -> tuple[int, float, float, int, int, int, int]:
    return row.seed, row.wins, row.losses, row.spread, row.score, row.games, row.unrated


def test_nzasp_a_bye_counts_only_while_byes_are_unequal_and_adds_the_average() -> None:
    div = three_rounds_with_a_bye_each("nzasp")
    # After round 1 only Cid has had a bye: a win, +50, and his average (no game yet: 0).
    assert [line(r) for r in div.standings(1)] == [
        (1, 1, 0, 50, 400, 1, 0),
        (3, 1, 0, 50, 0, 1, 1),
        (2, 0, 1, -50, 350, 1, 0),
    ]
    # After round 2 Ben and Cid have had one, Ann none: each bye adds the player's
    # average game score to the aggregate (NZASP 9.2).
    assert [line(r) for r in div.standings(2)] == [
        (1, 2, 0, 90, 820, 2, 0),
        (3, 1, 1, 10, 760, 2, 1),
        (2, 1, 1, 0, 700, 2, 1),
    ]
    # After round 3 every player has had one: byes are equal and are not counted.
    assert [line(r) for r in div.standings(3)] == [
        (1, 2, 0, 90, 820, 2, 0),
        (3, 0.5, 1.5, -40, 680, 2, 0),
        (2, 0.5, 1.5, -50, 650, 2, 0),
    ]
    assert [r.byes for r in div.standings(3)] == [1, 1, 1]


def test_naspa_keeps_a_bye_a_win_by_fifty_with_no_points() -> None:
    div = three_rounds_with_a_bye_each("naspa")
    assert [line(r) for r in div.standings(3)] == [
        (1, 3, 0, 140, 820, 3, 1),
        (3, 1.5, 1.5, 10, 680, 3, 1),
        (2, 1.5, 1.5, 0, 650, 3, 1),
    ]


def forfeit_round() -> dict[int, list[Outcome]]:
    """Round 1 played; in round 2 Cid forfeits to Ann (the record says who won)."""
    return {
        1: [Outcome(1, 2, 400, 300), Outcome(2, 3, 0, 0, "forfeit", won=1, margin=50)],
        2: [Outcome(1, 1, 300, 400), Outcome(2, 4, 410, 390)],
        3: [Outcome(1, 4, 350, 360), Outcome(2, 1, 0, 0, "forfeit", won=0, margin=-50)],
        4: [Outcome(1, 3, 360, 350), Outcome(2, 2, 390, 410)],
    }


def test_nzasp_forfeit_gives_the_winner_its_average_and_the_forfeiter_nothing() -> None:
    rows = standings(
        [1, 2, 3, 4],
        forfeit_round(),
        through=2,
        ratings=RATINGS,
        rules=load_variant("nzasp").event,
    )
    by_seed = {r.seed: r for r in rows}
    # NZASP 10.2: a win, the winner's average game score, +50; 10.4: unrated.
    assert line(by_seed[1]) == (1, 2, 0, 150, 800, 2, 1)
    assert by_seed[1].average == 400.0
    # NZASP 10.3: a loss, no points for the round, -50.
    assert line(by_seed[3]) == (3, 0, 2, -60, 350, 2, 1)
    assert by_seed[3].average == 350.0
    naspa = standings(
        [1, 2, 3, 4],
        forfeit_round(),
        through=2,
        ratings=RATINGS,
        rules=load_variant("naspa").event,
    )
    assert line(next(r for r in naspa if r.seed == 1)) == (1, 2, 0, 150, 400, 2, 1)


def test_indonesia_a_lateness_win_is_one_vp_and_150_both_absent_nothing() -> None:
    outcomes = {
        1: [Outcome(1, 2, 0, 0, "forfeit", won=1, margin=150)],
        2: [Outcome(1, 1, 0, 0, "forfeit", won=0, margin=-150)],
        3: [Outcome(1, 4, 0, 0, "absent")],
        4: [Outcome(1, 3, 0, 0, "absent")],
    }
    rows = standings(
        [1, 2, 3, 4],
        outcomes,
        through=1,
        ratings=RATINGS,
        rules=load_variant("indonesia-open").event,
    )
    assert [(r.seed, r.wins, r.spread) for r in rows] == [
        (1, 1, 150),
        (3, 0, 0),
        (4, 0, 0),
        (2, 0, -150),
    ]
    assert [r.losses for r in rows] == [0, 1, 1, 1]


def played_round(variant: str) -> DivisionState:
    """Ann beats Ben by 100, Cid beats Dee by 1."""
    return played_event(variant).division("A")


def played_event(variant: str) -> EventState:
    ev = event(variant, 4, 3, "koth")
    ev.apply(Paired("A", 1, ((1, 2), (3, 4)), "koth"))
    ev.apply(Result("A", 1, 1, 2, (400, 300)))
    ev.apply(Result("A", 1, 3, 4, (301, 300)))
    return ev


def test_toronto_ranks_by_match_points_alone_and_level_players_share_the_place() -> None:
    div = played_round("toronto-speed")
    rows = div.standings(1)
    # TOR-11: spread is not recorded; a tie on match points is shared (the order
    # inside it, by rating, is only for pairing).
    assert [(r.seed, r.rank) for r in rows] == [(1, 1), (3, 1), (2, 3), (4, 3)]
    text = standings_lines(div, rows)
    assert text[0].split() == ["rank", "MP", "player"]
    assert text[1].split() == ["1=", "1", "Ann", "Able"]
    assert text[3].split() == ["3=", "0", "Ben", "Baker"]
    naspa = played_round("naspa")
    assert [(r.seed, r.rank) for r in naspa.standings(1)] == [(1, 1), (3, 2), (4, 3), (2, 4)]
    assert standings_lines(naspa, naspa.standings(1))[1].split() == [
        "1",
        "1-0",
        "+100",
        "Ann",
        "Able",
    ]


def test_indonesia_shows_vp_and_margin() -> None:
    div = played_round("indonesia-open")
    text = standings_lines(div, div.standings(1))
    assert text[0].split() == ["rank", "VP", "margin", "player"]
    assert text[4].split() == ["4", "0", "-100", "Ben", "Baker"]


def test_the_results_report_has_what_nzasp_11_4_asks_for() -> None:
    ev = played_event("nzasp")
    report = results_report(ev, [ev.division("A")])
    assert report[0] == "Nationals: results (NZASP 11.4)"
    assert "grade A after round 1" in report
    header = next(r for r in report if "place" in r)
    assert header.split() == ["place", "name", "club", "wins", "spread", "average"]
    ann = next(r for r in report if "Ann Able" in r)
    assert ann.split() == ["1", "Ann", "Able", "Club", "1", "1", "+100", "400.0"]
    # KOTH is not a round robin: the draw goes with the report (NZASP 11.4).
    assert "  round 1: Ann Able 400 to 300 Ben Baker; Cid Cole 301 to 300 Dee Dunn" in report


def test_every_event_rule_has_its_source_and_a_directors_file_may_change_one() -> None:
    for name in ("naspa", "nzasp", "toronto-speed", "indonesia-open", "wespa", "naspa-csw"):
        v = load_variant(name)
        keys = [k for k in v.params if k.startswith("event.")]
        assert len(keys) == 5
        assert all(v.params[k].source for k in keys)
    club = VariantFile('extends = "nzasp"\n[event]\nbye_counts = "always"\n', "club.toml", "club")
    v = parse_variant("club", {"club": club})
    assert v.event.bye_counts == "always"
    assert v.event.bye_score == "average"  # the rest as NZASP
    assert v.params["event.bye_counts"].assumed
    bad = VariantFile('extends = "nzasp"\n[event]\nbyes = "never"\n', "bad.toml", "bad")
    with pytest.raises(DataFileError, match=r"unknown parameter 'event\.byes'"):
        parse_variant("bad", {"bad": bad})
    wrong = VariantFile('extends = "nzasp"\n[event]\npoints = "goals"\n', "w.toml", "w")
    with pytest.raises(DataFileError, match=r"event\.points = 'goals'; expected one of wins"):
        parse_variant("w", {"w": wrong})
