"""Tile sets and board layouts are data files: bundled ones load by name, user
files load by path, and malformed files raise DataFileError."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import engine
from clock import user_files as files
from engine.equipment.board import Board
from engine.equipment.layout import load_layout
from engine.equipment.tiles import load_tile_set
from engine.errors import DataFileError, EngineError, OffBoardError
from engine.play.notation import parse_move
from engine.play.placement import place

DATA = Path(engine.__file__).resolve().parent / "data"

# --- the bundled English tile set --------------------------------------------------------


def test_english_totals() -> None:
    ts = load_tile_set("english")
    assert ts.total == 100
    assert ts.face_points == 187
    assert ts.blanks == 2
    assert ts.rack_size == 7
    assert ts.bingo_bonus == 50
    assert ts.blank == "?"


def test_english_letters() -> None:
    ts = load_tile_set("english")
    assert set(ts.counts) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ?")
    assert ts.counts["E"] == 12
    assert ts.counts["Q"] == 1
    assert ts.values["Q"] == 10
    assert ts.values["Z"] == 10
    assert ts.values["?"] == 0
    assert ts.has_letter("A")
    assert not ts.has_letter("?")
    assert not ts.has_letter("a")


def test_english_distribution_is_a_fresh_copy() -> None:
    ts = load_tile_set("english")
    bag = ts.distribution()
    assert sum(bag.values()) == 100
    bag["E"] -= 12
    assert ts.distribution()["E"] == 12


def test_default_names() -> None:
    assert load_tile_set() == load_tile_set("english")
    assert load_layout() == load_layout("standard")


def test_tile_set_by_path() -> None:
    by_path = files.load_tile_set(str(DATA / "tiles" / "english.toml"))
    by_name = load_tile_set("english")
    assert by_path.counts == by_name.counts
    assert by_path.values == by_name.values
    assert by_path.total == 100


# --- the bundled standard layout --------------------------------------------------------


def test_standard_layout_size_and_centre() -> None:
    lay = load_layout("standard")
    assert (lay.rows, lay.cols) == (15, 15)
    assert lay.centre == lay.index(7, 7) == 112
    assert len(lay.symbols) == 225
    assert len(lay.letter_mult) == len(lay.word_mult) == 225
    assert lay.symbols[lay.centre] == "*"
    assert lay.word_mult[lay.centre] == 2


def test_standard_layout_premium_counts() -> None:
    lay = load_layout("standard")
    words = Counter(lay.word_mult)
    letters = Counter(lay.letter_mult)
    assert words[3] == 8  # triple word
    assert words[2] == 17  # 16 double word + the centre
    assert letters[3] == 12  # triple letter
    assert letters[2] == 24  # double letter
    # no square is both a letter and a word premium
    assert all(lm == 1 or wm == 1 for lm, wm in zip(lay.letter_mult, lay.word_mult, strict=True))
    symbols = Counter(lay.symbols)
    assert (symbols["T"], symbols["D"], symbols["*"], symbols["t"], symbols["d"]) == (
        8,
        16,
        1,
        12,
        24,
    )


def test_standard_layout_is_symmetric() -> None:
    lay = load_layout("standard")
    for r in range(15):
        for c in range(15):
            s = lay.symbols[lay.index(r, c)]
            assert s == lay.symbols[lay.index(c, r)]
            assert s == lay.symbols[lay.index(14 - r, c)]
            assert s == lay.symbols[lay.index(r, 14 - c)]


def test_layout_by_path() -> None:
    by_path = files.load_layout(str(DATA / "layouts" / "standard.txt"))
    by_name = load_layout("standard")
    assert by_path.symbols == by_name.symbols
    assert by_path.letter_mult == by_name.letter_mult
    assert by_path.word_mult == by_name.word_mult
    assert by_path.centre == by_name.centre


# --- user data files: a new language or board needs no code ----------------------------

USER_TILES = """\
# A made-up set with an accented letter
name = "tiny"
rack_size = 3
bingo_bonus = 15
blank = "?"

[tiles]
A = [4, 1]
"É" = [2, 2]
K = [1, 5]
"?" = [1, 0]
"""

USER_LAYOUT = """\
# 5x5: corners triple word, centre doubles, a triple letter and a double letter
T...T
.t...
..*..
...d.
T...T
"""


def test_user_tile_set(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(USER_TILES, encoding="utf-8")
    ts = files.load_tile_set(str(path))
    assert ts.name == "tiny"
    assert ts.total == 4 + 2 + 1 + 1
    assert ts.face_points == 4 * 1 + 2 * 2 + 1 * 5
    assert ts.blanks == 1
    assert ts.rack_size == 3
    assert ts.bingo_bonus == 15
    assert ts.has_letter("É")


def test_user_tile_set_defaults(tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text("[tiles]\nA = [2, 1]\nB = [1, 3]\n", encoding="utf-8")
    ts = files.load_tile_set(str(path))
    assert ts.name == str(path)
    assert ts.rack_size == 7
    assert ts.bingo_bonus == 50
    assert ts.blanks == 0


def test_user_layout(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text(USER_LAYOUT, encoding="utf-8")
    lay = files.load_layout(str(path))
    assert (lay.rows, lay.cols) == (5, 5)
    assert lay.centre == lay.index(2, 2) == 12
    assert lay.word_mult[lay.index(0, 0)] == 3
    assert lay.letter_mult[lay.index(1, 1)] == 3
    assert lay.letter_mult[lay.index(3, 3)] == 2


def test_user_files_play_a_game(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(USER_TILES, encoding="utf-8")
    (tmp_path / "small.txt").write_text(USER_LAYOUT, encoding="utf-8")
    ts = files.load_tile_set(str(tmp_path / "tiny.toml"))
    board = Board.empty(files.load_layout(str(tmp_path / "small.txt")))
    first = place(board, parse_move("3B KÉA"), ts)
    # K5 (3B) + É2 (3C centre) + A1 (3D) = 8 x2 = 16; three tiles = full rack: + 15 = 31
    assert first.words == ("KÉA",)
    assert first.bingo
    assert first.score == 31
    board = board.with_tiles(first.new)
    second = place(board, parse_move("D3 .A"), ts)
    # A1 (3D, on board) + A1 (4D double letter = 2) = 3
    assert second.words == ("AA",)
    assert second.score == 3
    with pytest.raises(DataFileError):
        Board.empty("no-such-layout")


def test_user_layout_off_board(tmp_path: Path) -> None:
    (tmp_path / "small.txt").write_text(USER_LAYOUT, encoding="utf-8")
    board = Board.empty(files.load_layout(str(tmp_path / "small.txt")))
    ts = load_tile_set("english")
    with pytest.raises(OffBoardError, match="5x5"):
        place(board, parse_move("6A AX"), ts)


# --- malformed files --------------------------------------------------------------------

BAD_TILE_SETS = [
    pytest.param("[tiles]\nab = [1, 1]\n", "bad letter 'ab'", id="two-letter-key"),
    pytest.param("[tiles]\na = [1, 1]\n", "bad letter 'a'", id="lower-case-letter"),
    pytest.param('[tiles]\n"1" = [1, 1]\n', "bad letter '1'", id="digit-letter"),
    pytest.param('name = "x"\n', "missing [tiles]", id="missing-tiles"),
    pytest.param("[tiles]\n", "missing [tiles]", id="empty-tiles"),
    pytest.param("[tiles]\nA = 3\n", "needs [count, value]", id="not-a-list"),
    pytest.param("[tiles]\nA = [1, 2, 3]\n", "needs [count, value]", id="three-numbers"),
    pytest.param("[tiles]\nA = [-1, 2]\n", "needs [count, value]", id="negative"),
    pytest.param('[tiles]\nA = [1, "x"]\n', "needs [count, value]", id="string-value"),
    pytest.param('[tiles]\nA = [1, 1]\n"?" = [2, 3]\n', "blank must be worth 0", id="blank-value"),
    pytest.param("[tiles\nA = [1, 1]\n", "tile set", id="bad-toml"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TILE_SETS)
def test_bad_tile_set(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        files.load_tile_set(str(path))
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EngineError)
    assert message in str(info.value)
    assert str(path) in str(info.value)


BAD_LAYOUTS = [
    pytest.param("T.T\n.*.\nT*T\n", "exactly one centre", id="two-centres"),
    pytest.param("T.T\n...\nT.T\n", "exactly one centre", id="no-centre"),
    pytest.param("T.T\n.*..\nT.T\n", "row 2 has 4 squares, not 3", id="ragged-row"),
    pytest.param("T.T\n.*.\nT.X\n", "unknown square 'X' at row 3", id="unknown-symbol"),
    pytest.param("# only a comment\n\n", "no rows", id="no-rows"),
    pytest.param("." * 27 + "\n" + "." * 13 + "*" + "." * 13 + "\n", "at most 26", id="too-wide"),
]


@pytest.mark.parametrize(("text", "message"), BAD_LAYOUTS)
def test_bad_layout(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        files.load_layout(str(path))
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)
    assert str(path) in str(info.value)


def test_unknown_tile_set_name_lists_bundled() -> None:
    with pytest.raises(DataFileError) as info:
        load_tile_set("klingon")
    text = str(info.value)
    assert "'klingon'" in text
    assert "english" in text


def test_unknown_layout_name_lists_bundled() -> None:
    with pytest.raises(DataFileError) as info:
        load_layout("hexagonal")
    text = str(info.value)
    assert "'hexagonal'" in text
    assert "standard" in text


def test_missing_user_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(DataFileError, match="nowhere"):
        files.load_tile_set(str(missing))
