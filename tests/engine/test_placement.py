"""Placement validation: each illegal play raises its own error class, and
:func:`engine.play.placement.move_from_squares` turns laid tiles into notation."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import pytest

from engine.equipment.board import EMPTY, Board
from engine.equipment.tiles import TileSet, load_tile_set
from engine.errors import (
    CentreNotCoveredError,
    EngineError,
    GapError,
    IllegalPlayError,
    NotationError,
    NotConnectedError,
    NoTilesPlacedError,
    NotInLineError,
    NoWordError,
    OccupiedSquareError,
    OffBoardError,
    ThroughLetterError,
    ThroughSquareEmptyError,
    TooManyTilesError,
    UnknownTileError,
    WordNotWholeError,
)
from engine.play.notation import Move, Position, parse_move
from engine.play.placement import move_from_squares, place, square_name

ENGLISH = load_tile_set("english")
WINDY = "8D WINDY"  # D8..H8, Y on the centre H8

# A tile set with only A, B and C, and no blank.
ABC = TileSet(name="abc", counts={"A": 5, "B": 5, "C": 5}, values={"A": 1, "B": 2, "C": 3})


def board_after(setup: Sequence[str]) -> Board:
    board = Board.empty("standard")
    for text in setup:
        board = board.with_tiles(place(board, parse_move(text), ENGLISH).new)
    return board


# (setup plays, move, tile set, expected error class)
ILLEGAL_PLAYS = [
    pytest.param([], "8L WINDY", ENGLISH, OffBoardError, id="runs-off-across"),
    pytest.param([], "L12 WINDY", ENGLISH, OffBoardError, id="runs-off-down"),
    pytest.param([], "16A AX", ENGLISH, OffBoardError, id="starts-below-board"),
    pytest.param([], "8P AX", ENGLISH, OffBoardError, id="starts-right-of-board"),
    pytest.param([WINDY], "1A AX", ENGLISH, NotConnectedError, id="not-connected"),
    pytest.param([], "1A AX", ENGLISH, CentreNotCoveredError, id="centre-not-covered"),
    pytest.param([], "8A WINDY", ENGLISH, CentreNotCoveredError, id="first-play-ends-short"),
    pytest.param([WINDY], "D7 AX", ENGLISH, OccupiedSquareError, id="occupied-down"),
    pytest.param([WINDY], "8D WINDS", ENGLISH, OccupiedSquareError, id="occupied-same-play"),
    pytest.param([WINDY], "9D .A", ENGLISH, ThroughSquareEmptyError, id="through-empty"),
    pytest.param([], "8H ÉA", ENGLISH, UnknownTileError, id="letter-not-in-set"),
    pytest.param([], "8H AD", ABC, UnknownTileError, id="letter-not-in-small-set"),
    pytest.param([], "8H Ab", ABC, UnknownTileError, id="blank-in-set-without-blanks"),
    pytest.param([], "8H A", ENGLISH, NoWordError, id="lone-first-tile"),
    pytest.param([], "H8 A", ENGLISH, NoWordError, id="lone-first-tile-down"),
    pytest.param([WINDY], "8E INDY", ENGLISH, WordNotWholeError, id="starts-beside-tile"),
    pytest.param([WINDY], "8A WIN", ENGLISH, WordNotWholeError, id="ends-beside-tile"),
    pytest.param([WINDY], "8I S", ENGLISH, WordNotWholeError, id="hook-written-alone"),
    pytest.param([WINDY], "H5 EAS", ENGLISH, WordNotWholeError, id="stops-above-tile"),
]


@pytest.mark.parametrize(("setup", "move", "tile_set", "error"), ILLEGAL_PLAYS)
def test_illegal_play_raises_its_own_error(
    setup: list[str], move: str, tile_set: TileSet, error: type[IllegalPlayError]
) -> None:
    board = board_after(setup)
    with pytest.raises(error) as info:
        place(board, parse_move(move), tile_set)
    exc = info.value
    assert type(exc) is error
    assert isinstance(exc, IllegalPlayError)
    assert isinstance(exc, EngineError)
    assert isinstance(exc, ValueError)
    assert move in str(exc)


def test_no_tiles_placed() -> None:
    # parse_move refuses an all-dots play, but a Move built by hand reaches place()
    board = board_after([WINDY])
    move = Move(Position(7, 3, True), ".....")
    with pytest.raises(NoTilesPlacedError, match=re.escape("8D .....")):
        place(board, move, ENGLISH)


def test_failed_play_leaves_board_unchanged() -> None:
    board = board_after([WINDY])
    before = board.cells
    with pytest.raises(NotConnectedError):
        place(board, parse_move("1A AX"), ENGLISH)
    assert board.cells == before


@pytest.mark.parametrize(
    "error",
    [
        OffBoardError,
        NotInLineError,
        GapError,
        NotConnectedError,
        CentreNotCoveredError,
        OccupiedSquareError,
        ThroughSquareEmptyError,
        UnknownTileError,
        NoWordError,
        WordNotWholeError,
        NoTilesPlacedError,
    ],
)
def test_error_classes_are_value_errors(error: type[IllegalPlayError]) -> None:
    assert issubclass(error, IllegalPlayError)
    assert issubclass(error, EngineError)
    assert issubclass(error, ValueError)


def test_error_classes_are_distinct() -> None:
    classes = [
        OffBoardError,
        NotInLineError,
        GapError,
        NotConnectedError,
        CentreNotCoveredError,
        OccupiedSquareError,
        ThroughSquareEmptyError,
        UnknownTileError,
        NoWordError,
        WordNotWholeError,
    ]
    for a in classes:
        for b in classes:
            if a is not b:
                assert not issubclass(a, b), (a, b)


def test_legal_plays_through_and_to_the_edge() -> None:
    board = board_after([WINDY])
    assert place(board, parse_move("H4 HEAV."), ENGLISH).words == ("HEAVY",)
    # a hook on the last column (O8)
    board = board_after(["8H PARTNER"])
    assert place(board, parse_move("8H .......S"), ENGLISH).words == ("PARTNERS",)


def test_square_name() -> None:
    board = Board.empty("standard")
    assert square_name(board, 0) == "1A"
    assert square_name(board, 112) == "8H"
    assert square_name(board, 224) == "15O"


# --- move_from_squares ---------------------------------------------------------------


def test_move_from_squares_across() -> None:
    board = Board.empty("standard")
    laid = [(7, 5, "N"), (7, 3, "W"), (7, 7, "Y"), (7, 4, "I"), (7, 6, "D")]  # any order
    assert move_from_squares(board, laid) == Move(Position(7, 3, True), "WINDY")


def test_move_from_squares_down() -> None:
    board = Board.empty("standard")
    laid = [(7, 7, "O"), (8, 7, "X")]
    move = move_from_squares(board, laid)
    assert move == Move(Position(7, 7, False), "OX")
    assert move.gcg() == "H8 OX"


def test_move_from_squares_keeps_blanks() -> None:
    board = Board.empty("standard")
    laid = [(7, 7, "z"), (7, 8, "A")]
    assert move_from_squares(board, laid) == Move(Position(7, 7, True), "zA")


def test_move_from_squares_through_existing_tiles() -> None:
    board = board_after([WINDY])
    laid = [(3, 7, "H"), (4, 7, "E"), (5, 7, "A"), (6, 7, "V")]
    move = move_from_squares(board, laid)
    assert move.gcg() == "H4 HEAV."
    assert place(board, move, ENGLISH).words == ("HEAVY",)


def test_move_from_squares_fills_a_hole_in_a_word() -> None:
    board = board_after([WINDY])
    # tiles laid on both sides of the board tile G8 (the D of WINDY)
    laid = [(6, 6, "O"), (8, 6, "E")]
    assert move_from_squares(board, laid).gcg() == "G7 O.E"


def test_move_from_squares_extends_over_tiles_at_both_ends() -> None:
    board = board_after(["8E WIND"])  # E8..H8
    # a tile before and a tile after the word: both ends join it
    laid = [(7, 3, "E"), (7, 8, "S")]
    assert move_from_squares(board, laid).gcg() == "8D E....S"


def test_single_tile_with_only_a_horizontal_word_goes_across() -> None:
    board = board_after([WINDY])
    move = move_from_squares(board, [(7, 8, "S")])  # I8, after WINDY
    assert move == Move(Position(7, 3, True), ".....S")


def test_single_tile_with_only_a_vertical_word_goes_down() -> None:
    board = board_after([WINDY])
    move = move_from_squares(board, [(8, 7, "A")])  # H9, under the Y
    assert move == Move(Position(7, 7, False), ".A")
    assert place(board, move, ENGLISH).words == ("YA",)


def test_single_tile_chooses_the_longer_word() -> None:
    # G9 makes TOE across (3 letters) and DE down (2 letters): the main word is TOE
    board = board_after([WINDY, "E8 .T", "9E .O"])
    move = move_from_squares(board, [(8, 6, "E")])
    assert move.gcg() == "9E ..E"
    assert place(board, move, ENGLISH).words == ("TOE", "DE")


def test_single_tile_on_empty_board_is_across() -> None:
    move = move_from_squares(Board.empty("standard"), [(7, 7, "A")])
    assert move == Move(Position(7, 7, True), "A")


def test_move_from_squares_gap() -> None:
    board = Board.empty("standard")
    with pytest.raises(GapError) as info:
        move_from_squares(board, [(7, 7, "A"), (7, 9, "B")])
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EngineError)
    assert "8I" in str(info.value)


def test_move_from_squares_gap_down() -> None:
    board = board_after([WINDY])
    with pytest.raises(GapError, match="10H"):
        move_from_squares(board, [(8, 7, "A"), (10, 7, "E")])


def test_move_from_squares_not_in_line() -> None:
    board = Board.empty("standard")
    with pytest.raises(NotInLineError) as info:
        move_from_squares(board, [(7, 7, "A"), (8, 8, "B")])
    text = str(info.value)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EngineError)
    assert "A@8H" in text
    assert "B@9I" in text


def test_move_from_squares_off_board() -> None:
    with pytest.raises(OffBoardError, match="'Q'"):
        move_from_squares(Board.empty("standard"), [(15, 0, "Q")])


def test_move_from_squares_occupied() -> None:
    board = board_after([WINDY])
    with pytest.raises(OccupiedSquareError, match="8H"):
        move_from_squares(board, [(7, 7, "S")])


def test_move_from_squares_nothing_laid() -> None:
    with pytest.raises(NoTilesPlacedError):
        move_from_squares(Board.empty("standard"), [])


# --- the board value --------------------------------------------------------------------


def test_with_tiles_returns_a_new_board() -> None:
    empty = Board.empty("standard")
    board = empty.with_tiles([(112, "A"), (113, "x")])
    assert board is not empty
    assert empty.is_empty
    assert empty.tile_count() == 0
    assert board.at(7, 7) == "A"
    assert board.at(7, 8) == "x"
    assert board.tile_count() == 2
    assert board.tiles() == Counter({"A": 1, "?": 1})
    assert not board.is_empty


def test_without_returns_a_new_board() -> None:
    empty = Board.empty("standard")
    board = empty.with_tiles([(112, "A"), (113, "B")])
    withdrawn = board.without([113])
    assert withdrawn is not board
    assert board.at(7, 8) == "B"
    assert withdrawn.at(7, 8) == EMPTY
    assert withdrawn.at(7, 7) == "A"
    assert board.without([112, 113]) == empty


def test_place_does_not_change_the_board() -> None:
    board = Board.empty("standard")
    placement = place(board, parse_move(WINDY), ENGLISH)
    assert board.is_empty
    after = board.with_tiles(placement.new)
    assert "".join(after.at(7, c) for c in range(3, 8)) == "WINDY"


def test_board_is_frozen() -> None:
    board = Board.empty("standard")
    with pytest.raises(AttributeError):
        board.cells = "x"  # type: ignore[misc]
    assert board.is_empty


def test_boards_compare_by_value() -> None:
    a = Board.empty("standard").with_tiles([(0, "Q")])
    b = Board.empty("standard").with_tiles([(0, "Q")])
    assert a == b
    assert hash(a) == hash(b)


def test_single_tile_main_word_is_the_longer_direction() -> None:
    # IONS runs down column E; AS runs across row 11: the main word is IONS.
    ts = load_tile_set()
    b = Board.empty()
    for t in ["8D WINDY", "E8 .ON", "D8 .HOA"]:
        b = b.with_tiles(place(b, parse_move(t), ts).new)
    move = move_from_squares(b, [(10, 4, "S")])
    assert move.gcg() == "E8 ...S"
    assert place(b, move, ts).words == ("IONS", "AS")


def test_more_tiles_than_a_rack_holds_is_refused() -> None:
    with pytest.raises(TooManyTilesError, match="DOMINEER"):
        place(Board.empty(), parse_move("8A DOMINEER"), load_tile_set())


@pytest.mark.parametrize(
    ("text", "written"),
    [("D7 AW", "D7 A."), ("D7 A.", "D7 A."), ("D7 A(W)", "D7 A."), ("d7 a(w)", "D7 a.")],
)
def test_a_tile_on_the_board_may_be_written_as_its_letter_or_in_parentheses(
    text: str, written: str
) -> None:
    # Older Quackle files write played-through tiles as letters ('h2 rEDYEING'); players
    # write JOE(Y). Both read as '.', and the play keeps the usual notation.
    pl = place(board_after([WINDY]), parse_move(text), ENGLISH)
    assert pl.move.gcg() == written
    assert pl.words == ("AW",)


@pytest.mark.parametrize("bad", ["JOE(Y", "JOE)Y(", "JO()E", "JO((E))", "JO(E1)"])
def test_unpaired_parentheses_are_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_move(f"8D {bad}")


@pytest.mark.parametrize(
    ("text", "square", "found"),
    [
        ("H7 A(J)", "8H", "O"),
        ("h7 a(j)", "8H", "O"),
        ("8G (X)(O)S", "8G", "N"),
        ("8G N(Y)S", "8H", "O"),
    ],
)
def test_a_letter_in_parentheses_must_be_the_tile_on_the_board(
    text: str, square: str, found: str
) -> None:
    # 8G NO puts N on 8G and O on 8H. A(J) there was accepted and scored as AO: the
    # letter named is the player's reading of the board, so a wrong one is refused.
    board = board_after(["8G NO"])
    written = parse_move(text).written()
    with pytest.raises(ThroughLetterError) as err:
        place(board, parse_move(text), ENGLISH)
    assert str(err.value).startswith(f"play {written!r} names ")
    assert f"on {square}, which holds {found!r}" in str(err.value)
    assert isinstance(err.value, IllegalPlayError)


def test_a_letter_in_parentheses_that_matches_is_played_through() -> None:
    board = board_after(["8G NO"])
    pl = place(board, parse_move("H7 A(O)"), ENGLISH)
    assert (pl.move.gcg(), pl.words, pl.score) == ("H7 A.", ("AO",), 2)
    # a blank on the board is named by its letter, in either case
    blank = board_after(["8G No"])
    assert place(blank, parse_move("H7 A(O)"), ENGLISH).words == ("AO",)
    assert parse_move("H7 A(O)") == parse_move("H7 A.")  # the same play


def test_a_dot_on_an_empty_square_names_the_square() -> None:
    with pytest.raises(ThroughSquareEmptyError, match=r"'G6 A\.N' marks 7G as played through"):
        place(board_after(["8G NO"]), parse_move("G6 A.N"), ENGLISH)
