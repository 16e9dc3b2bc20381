"""Table-driven scoring tests on the standard 15x15 board with the English tile set.

Every expected value below is worked out by hand from
``engine/data/layouts/standard.txt`` and ``engine/data/tiles/english.toml``;
none is taken from the code under test.

Premium squares used below (row 1 is the top row, column A the left column):

* row 4:  H4 double letter
* row 5:  E5 double word
* row 6:  F6 triple letter
* row 7:  G7 double letter
* row 8:  D8 double letter, H8 centre (double word), L8 double letter, O8 triple word
* row 9:  G9, I9 double letter
* row 11: E11 double word
* row 15: A15 triple word, D15 double letter, H15 triple word

Tile values: A E I L N O R S T U 1, D G 2, B C M P 3, F H V W Y 4, K 5, J X 8, Q Z 10,
blank 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from engine.equipment.board import Board
from engine.equipment.tiles import TileSet, load_tile_set
from engine.play.notation import parse_move
from engine.play.placement import Placement, place

ENGLISH = load_tile_set("english")


def rack_tiles(rack: Counter[str] | str) -> Iterable[str]:
    """A rack's tiles, as the end of a game values them (``TileSet.rack_value``)."""
    return rack.elements() if isinstance(rack, Counter) else rack


WINDY = "8D WINDY"  # W on D8 (DL), I E8, N F8, D G8, Y H8 (centre)


def board_after(setup: Sequence[str]) -> Board:
    """An empty standard board with each setup play placed in turn."""
    board = Board.empty("standard")
    for text in setup:
        board = board.with_tiles(place(board, parse_move(text), ENGLISH).new)
    return board


def play(setup: Sequence[str], move: str) -> Placement:
    return place(board_after(setup), parse_move(move), ENGLISH)


# (setup plays, play, expected words, expected score of each word, expected total)
SCORING_TABLE = [
    # --- the centre square doubles the first word -------------------------------------
    pytest.param(
        [],
        "8G ZA",
        # Z10 (G8 plain) + A1 (H8 centre) = 11 x2 (centre) = 22
        ("ZA",),
        (22,),
        22,
        id="centre-across",
    ),
    pytest.param(
        [],
        "H8 OX",
        # O1 (H8 centre) + X8 (H9 plain) = 9 x2 (centre) = 18
        ("OX",),
        (18,),
        18,
        id="centre-down",
    ),
    # --- letter premium applied before the word multiplier ----------------------------
    pytest.param(
        [],
        WINDY,
        # W4 (D8 DL = 8) + I1 + N1 + D2 + Y4 (H8 centre) = 16 x2 (centre) = 32
        # (doubling the word first and adding the letter bonus after would give 28)
        ("WINDY",),
        (32,),
        32,
        id="dl-plus-centre",
    ),
    # --- double letter -----------------------------------------------------------------
    pytest.param(
        [WINDY],
        "G7 O.E",
        # O1 (G7 DL = 2) + D2 (G8, on board) + E1 (G9 DL = 2) = 6
        ("ODE",),
        (6,),
        6,
        id="double-letter",
    ),
    # --- triple letter -----------------------------------------------------------------
    pytest.param(
        [WINDY],
        "F6 ZO.E",
        # Z10 (F6 TL = 30) + O1 (F7) + N1 (F8, on board) + E1 (F9) = 33
        ("ZONE",),
        (33,),
        33,
        id="triple-letter",
    ),
    # --- double word -------------------------------------------------------------------
    pytest.param(
        [WINDY],
        "E5 TAX.",
        # T1 (E5 DW) + A1 (E6) + X8 (E7) + I1 (E8, on board) = 11 x2 = 22
        ("TAXI",),
        (22,),
        22,
        id="double-word",
    ),
    # --- triple word (and the covered centre / DL of the setup do not count again) -----
    pytest.param(
        ["8H PARTNER"],
        "8H .......S",
        # P3 (H8, covered centre) + A1 + R1 + T1 + N1 (L8, covered DL) + E1 + R1
        # + S1 (O8 TW) = 10 x3 = 30
        ("PARTNERS",),
        (30,),
        30,
        id="triple-word-hook",
    ),
    # --- two word multipliers in one word ------------------------------------------------
    pytest.param(
        [WINDY],
        "E5 RAP.DLY",
        # R1 (E5 DW) + A1 + P3 + I1 (E8, on board) + D2 + L1 + Y4 (E11 DW) = 13
        # x2 x2 = x4 -> 52; six tiles only, so no bingo bonus
        ("RAPIDLY",),
        (52,),
        52,
        id="dw-times-dw",
    ),
    pytest.param(
        [WINDY, "E8 .MPROVED"],
        "15A BLIN.ING",
        # B3 (A15 TW) + L1 + I1 + N1 (D15 DL = 2) + D2 (E15, on board) + I1 + N1
        # + G2 (H15 TW) = 13 x3 x3 = x9 -> 117; seven tiles: + 50 = 167
        ("BLINDING",),
        (117,),
        167,
        id="tw-times-tw-bingo",
    ),
    # --- premiums under tiles already on the board do not count -----------------------
    pytest.param(
        [WINDY],
        "H4 HEAV.",
        # H4 (H4 DL = 8) + E1 + A1 + V4 + Y4 (H8 centre, already covered: no x2) = 18
        ("HEAVY",),
        (18,),
        18,
        id="through-covered-centre",
    ),
    pytest.param(
        [WINDY],
        "D5 SKE.",
        # S1 + K5 + E1 + W4 (D8 DL, already covered: face value only) = 11
        ("SKEW",),
        (11,),
        11,
        id="through-covered-double-letter",
    ),
    # --- cross-words -------------------------------------------------------------------
    pytest.param(
        [WINDY],
        "9E FOE",
        # FOE: F4 (E9) + O1 (F9) + E1 (G9 DL = 2) = 7
        # IF:  I1 (E8) + F4 (E9) = 5
        # NO:  N1 (F8) + O1 (F9) = 2
        # DE:  D2 (G8) + E1 (G9 DL = 2) = 4   (the DL counts in FOE and in DE)
        # total 7 + 5 + 2 + 4 = 18
        ("FOE", "IF", "NO", "DE"),
        (7, 5, 2, 4),
        18,
        id="parallel-play",
    ),
    pytest.param(
        [WINDY],
        "9H AX",
        # AX: A1 (H9) + X8 (I9 DL = 16) = 17
        # YA: Y4 (H8, on board) + A1 (H9) = 5
        # total 17 + 5 = 22
        ("AX", "YA"),
        (17, 5),
        22,
        id="hook-one-cross-word",
    ),
    pytest.param(
        [WINDY, "E8 .ON"],
        "11E SPA",
        # SPA:  S1 (E11 DW) + P3 + A1 = 5 x2 = 10
        # IONS: I1 + O1 + N1 + S1 (E11 DW) = 4 x2 = 8   (the DW counts in both words)
        # total 10 + 8 = 18
        ("SPA", "IONS"),
        (10, 8),
        18,
        id="cross-word-on-double-word",
    ),
    # --- single-tile plays score both directions ---------------------------------------
    pytest.param(
        [WINDY, "E8 .T"],
        "9E .O",
        # TO: T1 (E9, on board) + O1 (F9) = 2;  NO: N1 (F8) + O1 (F9) = 2;  total 4
        ("TO", "NO"),
        (2, 2),
        4,
        id="single-tile-across",
    ),
    pytest.param(
        [WINDY, "E8 .T"],
        "F8 .O",
        # the same tile written down: NO = 2 main word, TO = 2 cross-word; total 4
        ("NO", "TO"),
        (2, 2),
        4,
        id="single-tile-down",
    ),
    pytest.param(
        [WINDY, "E8 .T", "9E .O"],
        "9E ..E",
        # TOE: T1 + O1 + E1 (G9 DL = 2) = 4;  DE: D2 (G8) + E1 (G9 DL = 2) = 4;  total 8
        ("TOE", "DE"),
        (4, 4),
        8,
        id="single-tile-on-double-letter",
    ),
    # --- blanks score 0 ----------------------------------------------------------------
    pytest.param(
        [],
        "8D WINdY",
        # W4 (D8 DL = 8) + I1 + N1 + blank d 0 (G8) + Y4 (centre) = 14 x2 = 28
        ("WINDY",),
        (28,),
        28,
        id="blank-plain-square",
    ),
    pytest.param(
        [],
        "8D wINDY",
        # blank w 0 (D8 DL: 0 x2 = 0) + I1 + N1 + D2 + Y4 (centre) = 8 x2 = 16
        ("WINDY",),
        (16,),
        16,
        id="blank-on-double-letter",
    ),
    pytest.param(
        [],
        "8D WINDy",
        # W4 (D8 DL = 8) + I1 + N1 + D2 + blank y 0 (H8 centre) = 12 x2 = 24
        # (the blank scores nothing but the centre still doubles the word)
        ("WINDY",),
        (24,),
        24,
        id="blank-on-centre",
    ),
    pytest.param(
        [WINDY, "E8 .ON"],
        "11E sPA",
        # sPA:  blank s 0 (E11 DW) + P3 + A1 = 4 x2 = 8
        # IONs: I1 + O1 + N1 + blank s 0 = 3 x2 = 6
        # total 8 + 6 = 14
        ("SPA", "IONS"),
        (8, 6),
        14,
        id="blank-on-double-word-cross",
    ),
    # --- 50-point bonus for playing all seven tiles ------------------------------------
    pytest.param(
        [],
        "8B JOURNEY",
        # J8 (B8) + O1 (C8) + U1 (D8 DL = 2) + R1 + N1 + E1 + Y4 (H8 centre) = 18
        # x2 = 36; seven tiles: + 50 = 86
        ("JOURNEY",),
        (36,),
        86,
        id="bingo-first-play",
    ),
    pytest.param(
        [],
        "8B JOURNEy",
        # J8 + O1 + U1 (D8 DL = 2) + R1 + N1 + E1 + blank y 0 = 14 x2 = 28; + 50 = 78
        ("JOURNEY",),
        (28,),
        78,
        id="bingo-with-blank",
    ),
]


@pytest.mark.parametrize(
    ("setup", "move", "words", "word_scores", "total"),
    SCORING_TABLE,
)
def test_score(
    setup: list[str],
    move: str,
    words: tuple[str, ...],
    word_scores: tuple[int, ...],
    total: int,
) -> None:
    placement = play(setup, move)
    assert placement.words == words
    assert placement.word_scores == word_scores
    assert placement.score == total


@pytest.mark.parametrize(
    ("setup", "move", "bingo"),
    [
        pytest.param([], "8B JOURNEY", True, id="seven-tiles"),
        pytest.param([], "8B JOURNEy", True, id="seven-tiles-with-blank"),
        pytest.param([WINDY], "E5 RAP.DLY", False, id="six-tiles"),
        pytest.param([WINDY, "E8 .MPROVED"], "15A BLIN.ING", True, id="seven-through-one"),
        pytest.param([], WINDY, False, id="five-tiles"),
    ],
)
def test_bingo_flag(setup: list[str], move: str, bingo: bool) -> None:
    assert play(setup, move).bingo is bingo


def test_placement_reports_new_tiles_and_rack_tiles() -> None:
    placement = play([], "8D WINdY")
    # row 8 starts at index 7 * 15 = 105; D8 = 108 ... H8 = 112 (the centre)
    assert placement.new == ((108, "W"), (109, "I"), (110, "N"), (111, "d"), (112, "Y"))
    assert placement.rack_tiles == "WIN?Y"


def test_played_through_tiles_are_not_new() -> None:
    placement = play([WINDY], "H4 HEAV.")
    # H4 = 3 * 15 + 7 = 52, H5 = 67, H6 = 82, H7 = 97; the Y on H8 (112) was already there
    assert placement.new == ((52, "H"), (67, "E"), (82, "A"), (97, "V"))
    assert placement.rack_tiles == "HEAV"


def test_blank_already_on_board_scores_zero_in_later_words() -> None:
    # the blank y on H8 is worth 0 when HEAVY is played through it:
    # H4 (H4 DL = 8) + E1 + A1 + V4 + y0 = 14
    placement = play(["8D WINDy"], "H4 HEAV.")
    assert placement.words == ("HEAVY",)
    assert placement.score == 14


# --- rack values and end-of-game adjustments -------------------------------------------


@pytest.mark.parametrize(
    ("rack", "value"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("?", 0, id="blank"),
        pytest.param("??", 0, id="two-blanks"),
        pytest.param("AEIRST?", 6, id="six-ones-and-a-blank"),  # 1+1+1+1+1+1+0 = 6
        pytest.param("QZJX", 36, id="heavy-tiles"),  # 10+10+8+8 = 36
        pytest.param("DGBCMP", 16, id="twos-and-threes"),  # 2+2+3+3+3+3 = 16
        pytest.param("FHVWYK", 25, id="fours-and-k"),  # 4+4+4+4+4+5 = 25
        pytest.param("WINdY", 10, id="board-blank-lower-case"),  # 4+1+1+0+4 = 10
    ],
)
def test_rack_value(rack: str, value: int) -> None:
    assert ENGLISH.rack_value(rack) == value


def test_tile_value_of_board_tiles() -> None:
    assert ENGLISH.value("Q") == 10
    assert ENGLISH.value("q") == 0  # a blank named Q
    assert ENGLISH.value("?") == 0


@pytest.mark.parametrize(
    ("opponent_rack", "bonus"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("QZ", 40, id="qz"),  # (10 + 10) x2 = 40
        pytest.param("AE?", 4, id="with-blank"),  # (1 + 1 + 0) x2 = 4
        pytest.param(Counter({"E": 2, "Q": 1}), 24, id="counter"),  # (1 + 1 + 10) x2 = 24
    ],
)
def test_going_out_bonus_is_twice_opponent_rack(
    opponent_rack: Counter[str] | str, bonus: int
) -> None:
    # The player who goes out gets twice the opponent's tiles (NASPA, WESPA, NZASP 8.1).
    assert 2 * ENGLISH.rack_value(rack_tiles(opponent_rack)) == bonus


@pytest.mark.parametrize(
    ("opponent_rack", "bonus"),
    [
        pytest.param("QZ", 20, id="qz"),  # (10 + 10) x1 = 20
        pytest.param(Counter("VWY?"), 12, id="counter"),  # (4 + 4 + 4 + 0) x1 = 12
    ],
)
def test_going_out_bonus_factor_one(opponent_rack: Counter[str] | str, bonus: int) -> None:
    # Older ABSP/WESPA records: the value once (and the opponent loses the same).
    assert 1 * ENGLISH.rack_value(rack_tiles(opponent_rack)) == bonus


@pytest.mark.parametrize(
    ("own_rack", "deduction"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("??", 0, id="blanks"),
        pytest.param("JKX", 21, id="jkx"),  # 8 + 5 + 8 = 21
        pytest.param(Counter({"Z": 1, "A": 3}), 13, id="counter"),  # 10 + 1 + 1 + 1 = 13
    ],
)
def test_rack_deduction(own_rack: Counter[str] | str, deduction: int) -> None:
    assert ENGLISH.rack_value(rack_tiles(own_rack)) == deduction


def test_bingo_bonus_follows_the_tile_set() -> None:
    # a tile set with a 5-tile rack and a 20-point bonus: a five-tile first play earns it
    small = TileSet(
        name="small",
        counts=dict(ENGLISH.counts),
        values=dict(ENGLISH.values),
        rack_size=5,
        bingo_bonus=20,
    )
    placement = place(Board.empty("standard"), parse_move(WINDY), small)
    # W4 (D8 DL = 8) + I1 + N1 + D2 + Y4 = 16 x2 = 32; five tiles: + 20 = 52
    assert placement.bingo
    assert placement.score == 52
