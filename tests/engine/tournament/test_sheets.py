"""The sheets a venue posts and a director checks (engine.tournament.sheets) against
hand-checked golden files: the Harbour Cup, 7 players and 3 rounds of division A
with a bye every round, a forfeit (round 2), a tie, a withdrawal (Fay Ford, from
round 3) and a late entry (Hal Hunt, from round 3), written as the folder
``event sheets -o DIR`` writes (tests/data/sheets/: each sheet as .txt and .html,
and index.html).

To rewrite the golden files after a deliberate change, run with ``UPDATE_GOLDEN=1``
(``UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/tournament/test_sheets.py``), then
read every changed file and check its numbers by hand against the games below
before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.exports.sheets_folder import prize_lists, sheets_files
from engine.tournament.errors import TournamentError
from engine.tournament.records import Created, Entered, Paired, Record, Result, Withdrew
from engine.tournament.sheets.pairings import pairings, pairings_round
from engine.tournament.sheets.scorecard import scorecards
from engine.tournament.sheets.standings import standings, standings_sheet
from engine.tournament.sheets.text import sheet_text
from engine.tournament.sheets.wallchart import wallchart
from engine.tournament.spec import Player
from engine.tournament.state import EventState, replay
from tests.helpers import UPDATE_GOLDEN

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "sheets"

EVENT = """
name = "Harbour Cup"
[[division]]
name = "A"
rounds = 3
classes = [{ name = "A", min = 1600 }, { name = "B", min = 1400 }, { name = "C" }]
plan = [{ rounds = "1-3", system = "swiss" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
  { name = "Eve Egan", rating = 1400 },
  { name = "Fay Ford", rating = 1300 },
  { name = "Gus Gray", rating = 1200 },
]
"""

RECORDS: tuple[Record, ...] = (
    # round 1: Gus the bye (+50); Cid and Fay tie
    Paired("A", 1, ((1, 4), (5, 2), (3, 6), (7, 0))),
    Result("A", 1, 1, 4, (420, 380)),
    Result("A", 1, 5, 2, (350, 410)),
    Result("A", 1, 3, 6, (400, 400)),
    # round 2: Eve the bye; Dee forfeits to Cid (NASPA: +/-50 whatever the scores)
    Paired("A", 2, ((2, 1), (4, 3), (6, 7), (5, 0))),
    Result("A", 2, 2, 1, (380, 395)),
    Result("A", 2, 4, 3, (0, 0), "forfeit", winner=3, spread=50, cause="director"),
    Result("A", 2, 6, 7, (300, 450)),
    # round 3: Fay gone, Hal in (seed 8) and has the bye
    Withdrew("A", 6, 3, "went home"),
    Entered("A", Player("Hal Hunt", 1000), 3),
    Paired("A", 3, ((1, 3), (7, 2), (4, 5), (8, 0))),
    Result("A", 3, 1, 3, (360, 410)),
    Result("A", 3, 7, 2, (405, 371)),
    Result("A", 3, 4, 5, (430, 377)),
)


def harbour_cup(upto: int = len(RECORDS)) -> EventState:
    """The event after its first ``upto`` records."""
    return replay([Created(EVENT), *RECORDS[:upto]])


def test_the_folder_matches_the_hand_checked_golden_files() -> None:
    state = harbour_cup()
    divisions = list(state.divisions.values())
    files = sheets_files(state, divisions, None, prize_lists(state, divisions, None, None)[0])
    kinds = ("pairings", "standings", "scorecards", "wallchart", "prizes")
    names = [f"A-{kind}.{ext}" for kind in kinds for ext in ("txt", "html")]
    assert sorted(files) == sorted([*names, "index.html"])
    if UPDATE_GOLDEN:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in files.items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(files)
    for name in (n for n in files if n.endswith(".html")):  # printable pages, self-contained
        assert "<script" not in files[name]
        assert "<link" not in files[name]


def test_the_models_hold_the_numbers_the_sheets_print() -> None:
    state = harbour_cup()
    div = state.division("A")
    # the records at the round-3 tables are the standings after round 2
    p = pairings(state, div, 3)
    ann, cid = p.rows[0].first, p.rows[0].second
    assert (ann.name, ann.record) == ("Ann Able", "2-0 +55")
    assert cid is not None
    assert (cid.name, cid.record) == ("Cid Cole", "1.5-0.5 +50")
    assert [(r.name, r.table, r.first) for r in p.door][-1] == ("Hal Hunt", 0, None)
    top = standings(state, div, 3).rows[0]
    assert (top.place, top.name, top.wins, top.spread, top.rating_class) == (
        "1",
        "Gus Gray",
        3.0,
        234,
        "C",
    )
    fay = next(r for r in standings(state, div, 3).rows if r.name == "Fay Ford")
    assert fay.withdrew == 3
    dee = scorecards(state, div, 3, [4]).cards[0].rows[1]
    assert (dee.result, dee.score, dee.spread, dee.total) == ("forfeit loss", None, -50, -90)
    hal = next(r for r in wallchart(state, div, 3).rows if r.name == "Hal Hunt")
    assert hal.cells == ("", "", "bye+50")


def test_the_sheets_at_an_earlier_round() -> None:
    state = harbour_cup()
    div = state.division("A")
    # after round 1 the round to post is round 2, with its bye
    assert pairings_round(div, 1) == 2
    rows = pairings(state, div, 2).rows
    assert rows[-1].second is None
    assert rows[-1].first.name == "Eve Egan"
    card = scorecards(state, div, 1, [7]).cards[0]
    assert [(r.round, r.result, r.spread) for r in card.rows] == [(1, "bye", 50)]
    # before any result: round 1's pairings, everyone 0-0
    fresh = harbour_cup(1)
    first = fresh.division("A")
    assert pairings_round(first, 0) == 1
    assert {s.record for r in pairings(fresh, first, 1).rows for s in (r.first, r.second) if s} == {
        "0-0 +0"
    }
    assert "before round 1" in sheet_text(standings_sheet(standings(fresh, first, 0)))


def test_a_round_without_results_is_refused() -> None:
    state = harbour_cup(9)  # through round 2 and the withdrawal
    with pytest.raises(TournamentError, match="--round 3: division A: rounds 1-2 have results"):
        sheets_files(state, list(state.divisions.values()), 3, {})


def test_shared_places_and_no_classes() -> None:
    # TOR-11 shares a place among players level on match points, and records no spread
    text = EVENT.replace('name = "A"\n', 'name = "A"\nvariant = "toronto-speed"\n')
    text = text.replace(
        'classes = [{ name = "A", min = 1600 }, { name = "B", min = 1400 }, { name = "C" }]\n', ""
    )
    state = replay([Created(text), Paired("A", 1, ((1, 2), (3, 4), (5, 6), (7, 0)))])
    state.apply(Result("A", 1, 1, 2, (400, 300)))
    state.apply(Result("A", 1, 3, 4, (400, 300)))
    state.apply(Result("A", 1, 5, 6, (400, 300)))
    sheet = sheet_text(standings_sheet(standings(state, state.division("A"), 1)))
    assert "1=" in sheet
    assert "class" not in sheet
    assert "spread" not in sheet


def test_cell_width_counts_terminal_cells() -> None:
    from engine.tournament.sheets.sheet import cell_width

    assert cell_width("Ann Able") == 8
    assert cell_width("王小明") == 6  # wide (East Asian W): two cells each
    assert cell_width("\uff37") == 2  # fullwidth
    assert cell_width("José") == 4
    assert cell_width("Jose\u0301") == 4  # a combining accent takes no cell


def test_text_sheets_pad_by_display_width() -> None:
    from engine.tournament.sheets.sheet import Section, Sheet

    section = Section("", ("name", "wins"), (("王小明", "2"), ("Ann Able", "1")), (False, True))
    lines = sheet_text(Sheet("T", (section,))).splitlines()
    assert lines[3:] == ["name      wins", "--------  ----", "王小明       2", "Ann Able     1"]


def test_the_printed_pages_fit_long_names_and_wide_wallcharts() -> None:
    from engine.tournament.sheets.html import sheet_html
    from engine.tournament.sheets.wallchart import wallchart_sheet

    state = harbour_cup()
    div = state.division("A")
    wall = sheet_html(wallchart_sheet(wallchart(state, div, 3)))
    table = sheet_html(standings_sheet(standings(state, div, 3)))
    for page in (wall, table):
        assert "td { overflow-wrap: anywhere; }" in page  # a long name wraps on the page
    assert "@page { size: landscape; }" in wall
    assert "@page" not in table
    assert '<td class="k">W+40 #4</td>' in wall  # a round's cell is never split
    assert "td.n, td.k { white-space: nowrap; }" in wall


def test_a_players_pair_and_status_in_a_round() -> None:
    div = harbour_cup().division("A")
    assert div.pair_of(3, 2) == (4, 3)  # as paired: Dee went first
    assert div.pair_of(5, 2) == (5, 0)  # the bye
    assert div.pair_of(6, 3) is None
    assert div.pair_of(1, 4) is None  # not paired yet
    assert [div.status(s, 3) for s in (1, 6, 8)] == ["paired", "withdrawn", "paired"]
    assert div.status(8, 2) == "not entered"
    assert div.status(1, 4) == "not paired"
    # Fay withdrew from round 3: shown once the standings reach round 3
    assert [div.withdrawn_from(6, t) for t in (1, 2, 3, None)] == [0, 3, 3, 3]
    assert div.withdrawn_from(1) == 0


def test_event_and_division_names_are_one_printable_line() -> None:
    # a name is printed in every sheet's title and on the terminal: no newline, no ESC
    from engine.tournament.errors import EventFileError
    from engine.tournament.spec import parse_event

    for old, new, said in (
        ('name = "Harbour Cup"', 'name = "Harbour\\nCup"', "event name 'Harbour\\nCup'"),
        ('name = "A"', 'name = "A\\u001b[2J"', "division name 'A\\x1b[2J'"),
    ):
        with pytest.raises(EventFileError, match=r"has .*, a control character") as err:
            parse_event(EVENT.replace(old, new, 1), "cup.toml")
        assert said in str(err.value)
        assert "\n" not in str(err.value)
