"""The director's event screen (``terminal_ui.director.event``, pure of Textual): a
forfeit in the event shows its ruling as ``event show`` does, a game over but not
signed shows and counts as its table ruled it, a game in play shows its scores the
one way, and a game naming no round says what to do at the console."""

from __future__ import annotations

from pathlib import Path

from clock.tournament.ledger import EventLedger
from engine.events import ClockPressed, Event, GameStarted, Resigned, Signed, TilesPlaced
from engine.rules.replay import replay, report
from engine.tournament.records import Result
from terminal_ui.director.event import EventDesk
from terminal_ui.director.overview import row_cells
from terminal_ui.director.rows import Row, summarize
from tests.terminal_ui.test_event import new_event, rackclock, table_log

OPENING: list[Event] = [
    TilesPlaced(t=1_000, player=0, move="8D WINDY"),
    ClockPressed(t=1_500, player=0),
]


def row_of(label: str, events: list[Event]) -> Row:
    """The overview row of a table whose log holds ``events``."""
    state, refused = replay(list(enumerate(events, start=1)))
    assert not refused, refused
    return summarize(label, label, report(state, live=True))


def test_a_forfeit_shows_its_ruling_and_an_unsigned_resignation_counts_as_ruled(
    tmp_path: Path,
) -> None:
    log = new_event(tmp_path)  # round 1: t1 Ann Able v Ben Baker, t2 Cid Cole v Dee Dunn
    with EventLedger.open(log) as ledger:
        assert ledger.state.division("A").pairings[1].pairs == ((1, 2), (3, 4))
        # Dee Dunn forfeits by hand, whatever the scores typed
        ledger.append(
            Result("A", 1, 3, 4, (0, 32), "forfeit", winner=3, spread=50, cause="director")
        )
    # t1: Ben Baker, ahead 32-0, resigns; nobody has signed yet
    t1 = row_of(
        "t1",
        [
            GameStarted(t=0, variant="naspa", players=("Ben Baker", "Ann Able"), round=1),
            *OPENING,
            Resigned(t=3_000, player=0),
        ],
    )
    desk = EventDesk(log)
    try:
        shown = desk.text([t1]).splitlines()
    finally:
        desk.close()
    assert (
        "    t2  Cid Cole (first) v Dee Dunn: 0 to 32  result in "
        "(Dee Dunn forfeits: Cid Cole wins, spread 50)"
    ) in shown
    assert (
        "    t1  Ann Able (first) v Ben Baker: Ann Able wins: Ben Baker resigned (scores "
        "Ann Able 0, Ben Baker 32; spread 50 by rule); not signed yet by Ben Baker and Ann Able"
    ) in shown
    # the standings count the resignation as ruled (Ann +50), not at 32-0 for Ben
    assert "Standings before round 1" in shown  # no round complete: the round in play apart
    title = "Standings with round 1 as it stands (1 of 2 results in, the games in play at the "
    title += "tables' scores now)"
    table = shown[shown.index(title) + 1 :]
    ann = next(line for line in table if "Ann Able" in line)
    ben = next(line for line in table if "Ben Baker" in line)
    assert ann.split()[1:3] == ["1-0", "+50"]
    assert ben.split()[1:3] == ["0-1", "-50"]


def test_scores_in_play_read_one_way_on_the_overview_and_the_event_screen(
    tmp_path: Path,
) -> None:
    log = new_event(tmp_path)
    playing = row_of(
        "t2",
        [GameStarted(t=0, variant="naspa", players=("Dee Dunn", "Cid Cole"), round=1), *OPENING],
    )
    assert row_cells(playing)[3] == "32 to 0"
    negative = Row("t9", "t9", ("A", "B"), (25, -12), (0, 0), None, "playing", "", None, ())
    assert row_cells(negative)[3] == "25 to -12"  # not "25--12"
    desk = EventDesk(log)
    try:
        shown = desk.text([playing])
    finally:
        desk.close()
    # the pairing's order (Cid Cole first), the scores the one way
    assert "    t2  Cid Cole (first) v Dee Dunn: 0 to 32  Cid Cole to play" in shown


def test_a_game_naming_no_round_says_what_to_do_at_the_console(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    events: list[Event] = [
        GameStarted(t=0, variant="naspa", players=("Ann Able", "Ben Baker"), division="A"),
        *OPENING,
        Resigned(t=3_000, player=1),
        Signed(t=4_000, player=0),
        Signed(t=4_100, player=1),
    ]
    desk = EventDesk(log)
    try:
        desk.take("t1.sqlite", list(enumerate(events, start=1)), key=1)
        assert desk.news == [
            "not taken: t1.sqlite game 1: the game names no round: take it from the CLI "
            "with event results --round N"
        ]
        assert desk.state.division("A").results == {}
    finally:
        desk.close()
    # the command line has --round: it says to give it
    taken = rackclock("event", "results", log, table_log(tmp_path / "t1.sqlite", events))
    assert taken.returncode == 1
    assert "the game names no round: give --round N" in taken.stderr
