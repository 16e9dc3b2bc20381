"""The fast forms of scoring, notation and rack parsing (issue 24) give the same
answers and the same errors as the straightforward ones they replaced
(tests/support/reference_paths.py), on the boards of a corpus of real games and on
random plays, good and bad, laid on them."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.equipment.board import Board
from engine.equipment.rack import leave, parse_rack, take_tiles
from engine.equipment.tiles import TileSet, load_tile_set, parse_tile_set
from engine.errors import EngineError
from engine.gcg import EventKind, write_gcg
from engine.gcg.reader import event_line
from engine.gcg.record import Player
from engine.play.notation import Move, Position, check_tiles, parse_position
from engine.play.placement import place
from engine.rules.procedures.ending import racks_fit
from tests.support.corpus import corpus
from tests.support.reference_paths import (
    reference_check_tiles,
    reference_event,
    reference_parse_position,
    reference_parse_rack,
    reference_place,
    reference_racks_fit,
    reference_take_tiles,
)

_TILES = "ABEQZXSW.?..aez!"


def _outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str]:
    """What a call gives: its value's repr, or its error's class and message."""
    try:
        return ("ok", repr(fn(*args, **kwargs)))
    except EngineError as exc:
        return (type(exc).__name__, str(exc))


def _plays(games: int, seed: int) -> list[tuple[Board, Move]]:
    """Every play of a corpus of games with the board it was played on (a play
    withdrawn after a challenge comes off the board again)."""
    ts = load_tile_set("english")
    out: list[tuple[Board, Move]] = []
    for game in corpus(games, seed):
        board = Board.empty()
        last: tuple[int, ...] = ()
        for ev in game.events:
            if ev.kind is EventKind.PLACEMENT:
                assert ev.move is not None
                out.append((board, ev.move))
                new = reference_place(board, ev.move, ts).new
                board = board.with_tiles(new)
                last = tuple(i for i, _ in new)
            elif ev.kind is EventKind.WITHDRAWN:
                board = board.without(last)
    return out


def _random_move(rng: random.Random) -> Move:
    tiles = "".join(rng.choice(_TILES) for _ in range(rng.randint(1, 9)))
    named: tuple[tuple[int, str], ...] = ()
    dots = [k for k, ch in enumerate(tiles) if ch == "."]
    if dots and rng.random() < 0.3:
        named = ((dots[0], rng.choice("AEQ")),)
    pos = Position(rng.randint(0, 15), rng.randint(0, 15), rng.random() < 0.5)
    return Move(pos, tiles, named)


def _near_move(rng: random.Random, board: Board) -> Move:
    """A play through or beside the tiles on the board: where scoring has work to do."""
    cells = board.cells
    taken = [i for i, ch in enumerate(cells) if ch != " "] or [112]
    r, c = divmod(rng.choice(taken), 15)
    across = rng.random() < 0.5
    back = rng.randint(0, 3)
    pos = Position(r, max(0, c - back), True) if across else Position(max(0, r - back), c, False)
    step = 1 if across else 15
    start = pos.row * 15 + pos.col
    out = []
    for k in range(rng.randint(2, 8)):
        idx = start + k * step
        on = idx < 225 and cells[idx] != " "
        if on and rng.random() < 0.8:
            out.append("." if rng.random() < 0.7 else cells[idx].upper())
        else:
            out.append(rng.choice("AEIRSTQZXa"))
    return Move(pos, "".join(out))


@pytest.mark.parametrize("unnamed", [False, True])
def test_place_agrees_with_the_straightforward_scoring(unnamed: bool) -> None:
    ts = load_tile_set("english")
    rng = random.Random(24)
    seen: set[str] = set()
    compared = 0
    for board, _ in _plays(40, 100):
        for move in [_random_move(rng), _near_move(rng, board), _near_move(rng, board)]:
            fast = _outcome(place, board, move, ts, unnamed_blanks=unnamed)
            assert fast == _outcome(reference_place, board, move, ts, unnamed_blanks=unnamed), (
                board.cells,
                move,
            )
            compared += 1
            seen.add(fast[0])
    # The comparison covers legal plays and the refusals scoring can meet.
    assert compared > 2000
    assert seen >= {
        "ok",
        "OffBoardError",
        "OccupiedSquareError",
        "ThroughSquareEmptyError",
        "ThroughLetterError",
        "UnknownTileError",
        "WordNotWholeError",
        "NotConnectedError",
    }, seen


def test_place_agrees_on_the_corpus_plays() -> None:
    ts = load_tile_set("english")
    plays = _plays(60, 500)
    assert len(plays) > 1000
    for board, move in plays:
        assert _outcome(place, board, move, ts) == _outcome(reference_place, board, move, ts)


def _odd_tile_set() -> TileSet:
    """Blanks written ``*``, no Q: the fast rack path must not assume English."""
    text = 'name = "odd"\nblank = "*"\n[tiles]\nA = [9, 1]\nB = [2, 3]\nZ = [1, 10]\n"*" = [2, 0]\n'
    return parse_tile_set("odd", text, "test")


@pytest.mark.parametrize("tile_set", [load_tile_set("english"), _odd_tile_set()])
def test_parse_rack_agrees(tile_set: TileSet) -> None:
    rng = random.Random(7)
    alphabet = "AEIQZBabz?*é1 ß"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        assert _outcome(parse_rack, text, tile_set) == _outcome(
            reference_parse_rack, text, tile_set
        ), text


def test_notation_agrees() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        pos = "".join(rng.choice("0189Hh15Zé") for _ in range(rng.randint(0, 4)))
        assert _outcome(parse_position, pos) == _outcome(reference_parse_position, pos), pos
        tiles = "".join(rng.choice("AZaz.?1-éß ") for _ in range(rng.randint(0, 6)))
        for unnamed in (False, True):
            assert _outcome(check_tiles, tiles, unnamed_blanks=unnamed) == _outcome(
                reference_check_tiles, tiles, unnamed_blanks=unnamed
            ), tiles


def _reference_with_tiles(board: Board, squares: list[tuple[int, str]]) -> str:
    cells = list(board.cells)
    for index, tile in squares:
        cells[index] = tile
    return "".join(cells)


def _cells(fn: Callable[[Board, list[tuple[int, str]]], str], *args: Any) -> str:
    try:
        return fn(*args)
    except IndexError:
        return "IndexError"


def _fast_with_tiles(board: Board, squares: list[tuple[int, str]]) -> str:
    return board.with_tiles(iter(squares)).cells


def test_with_tiles_agrees() -> None:
    rng = random.Random(9)
    for board, _ in _plays(5, 700)[:60]:
        for _ in range(20):
            squares = [(rng.randint(-3, 227), rng.choice("AbZ")) for _ in range(rng.randint(0, 7))]
            if rng.random() < 0.6:
                squares.sort()
            ours = _cells(_fast_with_tiles, board, squares)
            assert ours == _cells(_reference_with_tiles, board, squares), squares


def test_leave_and_board_tiles_agree() -> None:
    rng = random.Random(10)
    for _ in range(2000):
        rack = Counter({t: rng.randint(-1, 3) for t in rng.sample("AEQZ?", rng.randint(0, 5))})
        used = Counter({t: rng.randint(-1, 3) for t in rng.sample("AEQZ?", rng.randint(0, 5))})
        expected = rack.copy()
        expected.subtract(used)
        got = leave(rack, used)
        assert list((+expected).items()) == list(got.items()), (rack, used)
    rng = random.Random(12)
    for board, _ in _plays(5, 900):
        # The corpus's boards, and each again with some tiles turned into blanks
        # (named, and unnamed as '?'), so that blanks are counted wherever they lie.
        blanked = "".join(
            ch if ch == " " or rng.random() < 0.8 else rng.choice((ch.lower(), "?"))
            for ch in board.cells
        )
        for cells in (board.cells, blanked):
            counts: Counter[str] = Counter()
            for ch in cells:
                if ch != " ":
                    counts["?" if ch.islower() else ch] += 1
            assert list(Board(board.layout, cells).tiles().items()) == list(counts.items())


def test_racks_fit_agrees() -> None:
    """The end racks checked tile by tile give what the whole pool less the board gave,
    on a corpus's boards with racks that fit, nearly fit and do not, and on the same
    boards with some tiles turned into blanks (named, and unnamed as '?')."""
    rng = random.Random(13)
    ts = load_tile_set("english")
    for board, _ in _plays(5, 400):
        blanked = "".join(
            ch if ch == " " or rng.random() < 0.9 else rng.choice((ch.lower(), "?"))
            for ch in board.cells
        )
        for on in (board, Board(board.layout, blanked)):
            for _ in range(5):
                racks = Counter(rng.choice("AEIQZXS?E") for _ in range(rng.randint(0, 14)))
                assert racks_fit(racks, on, ts) == reference_racks_fit(racks, on, ts), racks


def test_take_tiles_agrees() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        rack = Counter({t: rng.randint(-1, 3) for t in rng.sample("AEQZ?", rng.randint(0, 5))})
        tiles = "".join(rng.choice("AEQZ?X") for _ in range(rng.randint(0, 7)))
        expected = reference_take_tiles(rack, tiles)
        got = take_tiles(rack, tiles)
        if expected is None:
            assert got is None, (rack, tiles)
        else:
            assert got is not None, (rack, tiles)
            assert list(got.items()) == list(expected.items()), (rack, tiles)


def _event_outcome(ev: object) -> tuple[str, str]:
    if isinstance(ev, Exception):
        return (type(ev).__name__, str(ev))
    return ("ok", repr(ev))


def test_event_lines_agree() -> None:
    """The one-match reading of a play line gives what the general reading gives, on
    every line of a corpus and on lines bent out of the usual form."""
    ann = (Player("ann", "Ann"), Player("bob", "Bob"))
    cases = [
        (game.players, line)
        for game in corpus(40, 700)
        for line in write_gcg(game).splitlines()
        if line.startswith(">")
    ]
    assert len(cases) > 800
    rng = random.Random(12)
    for _ in range(3000):
        players, line = rng.choice(cases)
        tokens = line.split()
        tokens[rng.randrange(len(tokens))] = rng.choice(
            ["12", "8H", "(X)", "", "?", "+3", "-", "h8", ">zed:", "W!RD", "AB CD"]
        )
        cases.append((players, rng.choice([" ", "  ", "\t"]).join(t for t in tokens if t)))
    for text in (
        ">ann: AEI 8H 12 +5 5",
        ">ann: AEI 8H +5 5",
        ">ann: AEI 8H (A)B +5 5",
        ">ann: AEI 8h ab +05 -5",
        ">ann:\tAEI\t\t8H  WORD\t+5 5 ",
        ">cat: AEI 8H WORD +5 5",
        ">ann: AEI 88 WORD +5 5",
        ">ann: AEI H8 W!RD +5 5",
        ">ann: 8H AEI WORD +5 5",
        ">a:nn: AEI 8H WORD +5 5",
        ">ann: AEI 8H WORD +5 5 a note",
        ">ann: AEI 8H WORD 5",
    ):
        cases.append((ann, text))
    for players, text in cases:
        for both in (players, ()):
            nicks = frozenset(p.nick for p in both)
            got = _event_outcome(event_line(7, text, both, nicks))
            assert got == _event_outcome(reference_event(7, text, both)), text
