"""What the standings and the results report say about games not decided over the
board: the draw says who won a forfeit or resignation (the scores decide nothing),
a variant that records no spread (TOR-11) shows none in a ruling, and the standings
mark byes (unrated, NZASP 9.3) and withdrawals as they mark forfeits."""

from __future__ import annotations

from engine.tournament.records import Created, Paired, Record, Result, Withdrew
from engine.tournament.report import results_report, standings_lines
from engine.tournament.scores import result_text
from engine.tournament.state import EventState, replay

EVENT = """
name = "Walk Open"
[[division]]
name = "A"
rounds = 3
variant = "{variant}"
plan = [{{ rounds = "1-3", system = "koth" }}]
players = [
  {{ name = "Ann Ames", rating = 1800 }},
  {{ name = "Gus Gray", rating = 1700 }},
  {{ name = "Cid Cole", rating = 1600 }},
]
"""


def event(variant: str, *records: Record) -> EventState:
    return replay([Created(EVENT.format(variant=variant)), *records])


def ann_forfeits(rnd: int, first: int, second: int) -> Result:
    """Ann Ames (seed 1) forfeits though ahead 20-10: Gus Gray (2) wins by the rule."""
    scores = (10, 20) if first == 2 else (20, 10)
    return Result("A", rnd, first, second, scores, "forfeit", winner=2, spread=50, cause="director")


def test_the_draw_says_who_won_a_forfeit() -> None:
    ev = event("nzasp", Paired("A", 1, ((2, 1), (3, 0))), ann_forfeits(1, 2, 1))
    report = results_report(ev, [ev.division("A")])
    draw = next(line for line in report if line.startswith("  round 1:"))
    assert draw == (
        "  round 1: Gus Gray 10 to 20 Ann Ames (Ann Ames forfeits: Gus Gray wins, spread 50); "
        "Cid Cole bye"
    )


def test_toronto_records_no_spread_so_its_ruling_shows_none() -> None:
    ev = event("toronto-speed", Paired("A", 1, ((2, 1), (3, 0))), ann_forfeits(1, 2, 1))
    div = ev.division("A")
    assert div.ruling(div.results[1][(2, 1)]) == "Ann Ames forfeits: Gus Gray wins"
    nz = event("nzasp", Paired("A", 1, ((2, 1), (3, 0))), ann_forfeits(1, 2, 1)).division("A")
    assert nz.ruling(nz.results[1][(2, 1)]) == "Ann Ames forfeits: Gus Gray wins, spread 50"


def test_the_standings_mark_byes_and_withdrawals() -> None:
    ev = event(
        "nzasp",
        Paired("A", 1, ((1, 2), (3, 0))),
        Result("A", 1, 1, 2, (400, 300)),
        Withdrew("A", 2, 2),
        Paired("A", 2, ((1, 3),)),
    )
    div = ev.division("A")
    lines = standings_lines(div, div.standings(1), 1)[1:]
    marks = {name: next(line for line in lines if name in line) for name in ("Ann", "Gus", "Cid")}
    assert marks["Cid"].endswith("Cid Cole  (round 1: bye)")
    assert marks["Gus"].endswith("Gus Gray  (withdrew from round 2)")
    assert marks["Ann"].endswith("Ann Ames")  # a game over the board is not marked


def test_a_result_where_no_spread_is_recorded_says_none() -> None:
    names = ("Gus Gray", "Ann Ames")
    assert result_text(names, (10, 20), 0, "forfeit", 50, spread_recorded=False) == (
        "Gus Gray wins: Ann Ames forfeited (scores Gus Gray 10, Ann Ames 20)"
    )
    assert result_text(names, (300, 250), 0, "out", 50, spread_recorded=False) == (
        "Gus Gray wins 300 to 250"
    )
    assert result_text(names, (10, 20), 0, "forfeit", 50) == (
        "Gus Gray wins: Ann Ames forfeited (scores Gus Gray 10, Ann Ames 20; spread 50 by rule)"
    )
