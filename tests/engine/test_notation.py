"""GCG notation: parsing and formatting positions and moves."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError, NotationError
from engine.gcg.record import Event, EventKind
from engine.play.notation import Move, Position, parse_move, parse_position


@pytest.mark.parametrize(
    ("text", "position"),
    [
        pytest.param("8D", Position(7, 3, True), id="across"),
        pytest.param("D8", Position(7, 3, False), id="down"),
        pytest.param("8d", Position(7, 3, True), id="across-lower"),
        pytest.param("d8", Position(7, 3, False), id="down-lower"),
        pytest.param("1A", Position(0, 0, True), id="top-left-across"),
        pytest.param("A1", Position(0, 0, False), id="top-left-down"),
        pytest.param("15O", Position(14, 14, True), id="bottom-right-across"),
        pytest.param("o15", Position(14, 14, False), id="bottom-right-down"),
        pytest.param("08H", Position(7, 7, True), id="leading-zero"),
    ],
)
def test_parse_position(text: str, position: Position) -> None:
    assert parse_position(text) == position


@pytest.mark.parametrize(
    ("position", "text"),
    [
        pytest.param(Position(7, 3, True), "8D", id="across"),
        pytest.param(Position(7, 3, False), "D8", id="down"),
        pytest.param(Position(0, 0, True), "1A", id="corner"),
        pytest.param(Position(14, 14, False), "O15", id="far-corner"),
    ],
)
def test_format_position(position: Position, text: str) -> None:
    assert position.gcg() == text
    assert str(position) == text


@pytest.mark.parametrize(
    "text",
    ["8", "Z", "0A", "A0", "8D8", "", "D", "88", "DD", "123A", " 8D", "8D ", "8-D", "8 D"],
)
def test_bad_position(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_position(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EngineError)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        pytest.param("8D WINDY", Move(Position(7, 3, True), "WINDY"), id="across"),
        pytest.param("H4 HEAV.", Move(Position(3, 7, False), "HEAV."), id="through"),
        pytest.param("h8 .aFS", Move(Position(7, 7, False), ".aFS"), id="lower-coordinate"),
        pytest.param("8d wINDY", Move(Position(7, 3, True), "wINDY"), id="blank"),
        pytest.param("  8D   WINDY  ", Move(Position(7, 3, True), "WINDY"), id="extra-spaces"),
    ],
)
def test_parse_move(text: str, move: Move) -> None:
    assert parse_move(text) == move


def test_parse_move_two_arguments() -> None:
    assert parse_move("8D", "WINDY") == Move(Position(7, 3, True), "WINDY")
    assert parse_move("d8", "wINDY") == Move(Position(7, 3, False), "wINDY")


def test_a_tile_named_in_parentheses_is_not_part_of_the_move() -> None:
    """``JOE(Y)`` and ``JOE.`` are one play: equal and hashed alike (a set of moves, a
    dict keyed by move), though each keeps how it was written."""
    named, dotted = parse_move("H4 JOE(Y)"), parse_move("H4 JOE.")
    assert named.named == ((3, "Y"),)
    assert named == dotted
    assert hash(named) == hash(dotted)
    assert len({named, dotted}) == 1
    assert named.written() == "H4 JOE(Y)"
    assert named != parse_move("H4 JOEY")
    assert named != parse_move("4H JOE.")


def test_move_format() -> None:
    move = Move(Position(7, 3, True), "WINdY")
    assert move.gcg() == "8D WINdY"
    assert str(move) == "8D WINdY"
    assert Move(Position(3, 7, False), "HEAV.").gcg() == "H4 HEAV."


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        pytest.param("", "''", id="empty"),
        pytest.param("8D", "'8D'", id="no-tiles"),
        pytest.param("8D WINDY EXTRA", "'8D WINDY EXTRA'", id="three-parts"),
        pytest.param("8 WINDY", "'8'", id="bad-position"),
        pytest.param("8D8 WINDY", "'8D8'", id="bad-position-both-ways"),
        pytest.param("0A WINDY", "'0A'", id="row-zero"),
        pytest.param("8D WIN3Y", "'WIN3Y'", id="digit-in-tiles"),
        pytest.param("8D W?NDY", "'W?NDY'", id="blank-mark-in-tiles"),
        pytest.param("8D WIN-Y", "'WIN-Y'", id="dash-in-tiles"),
        pytest.param("8D .....", "'.....'", id="no-new-tile"),
    ],
)
def test_bad_move(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert isinstance(info.value, ValueError)
    assert quoted in str(info.value)


def test_bad_tiles_two_arguments() -> None:
    with pytest.raises(NotationError, match="at least one tile"):
        parse_move("8D", "")
    with pytest.raises(NotationError, match="'7'"):
        parse_move("8D", "A7")


# --- round trips ------------------------------------------------------------------------

TILE_CHARS = string.ascii_uppercase + string.ascii_lowercase + "."

tiles_strategy = st.text(alphabet=TILE_CHARS, min_size=1, max_size=15).filter(
    lambda s: any(ch != "." for ch in s)
)
position_strategy = st.builds(
    Position,
    row=st.integers(min_value=0, max_value=14),
    col=st.integers(min_value=0, max_value=14),
    across=st.booleans(),
)


@given(position=position_strategy, tiles=tiles_strategy)
def test_move_round_trip(position: Position, tiles: str) -> None:
    move = Move(position, tiles)
    assert parse_move(move.gcg()) == move
    assert parse_move(position.gcg(), tiles) == move
    assert parse_move(move.gcg().lower()) == Move(position, tiles.lower())


@given(position=position_strategy)
def test_position_round_trip(position: Position) -> None:
    assert parse_position(position.gcg()) == position
    assert parse_position(position.gcg().lower()) == position


def test_every_square_round_trips() -> None:
    for row in range(15):
        for col in range(15):
            for across in (True, False):
                p = Position(row, col, across)
                assert parse_position(p.gcg()) == p


def test_a_gcg_events_line_number_is_not_part_of_the_event() -> None:
    """The same line read at another place in a file is the same event (a record read
    back equals the record written), hashed alike; any other field tells two apart."""
    move = parse_move("8D WINDY")
    here = Event(EventKind.PLACEMENT, "ann", "DINWY", 30, 30, move=move, line=3)
    there = Event(EventKind.PLACEMENT, "ann", "DINWY", 30, 30, move=move, line=9)
    assert here == there
    assert hash(here) == hash(there)
    assert here != Event(EventKind.PLACEMENT, "ann", "DINWY", 30, 31, move=move, line=3)
    assert here != Event(EventKind.PLACEMENT, "ann", "DINWY", 30, 30, line=3)
