"""Validating and scoring a tile placement against a board.

:func:`place` is the one checked path from notation to a scored placement: it
enforces that the play is on the board, in one line, contiguous, connected (or
on the centre square for the first play), never on an occupied square, and made
of letters the tile set has. :func:`move_from_squares` turns loose tiles laid
on squares (as a player lays them) into notation first.

Scoring follows the common rules of every federation: premium squares count
only when a tile is newly placed on them; letter premiums apply before word
multipliers; every cross-word formed scores; blanks score 0; playing a full
rack earns the tile set's bingo bonus (50 for English).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

from engine.equipment.board import EMPTY, Board
from engine.equipment.tiles import TileSet
from engine.errors import (
    CentreNotCoveredError,
    GapError,
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
from engine.play.notation import Move, Position

__all__ = ["Placement", "move_from_squares", "place", "square_name"]


class Placement(msgspec.Struct, frozen=True):
    """A legal play on a given board, with its words and score."""

    # A msgspec record, not a frozen dataclass: one is built for every play checked or
    # replayed, and a frozen dataclass's constructor costs ten times as much.

    move: Move
    """The play in GCG notation, ``.`` for every tile played through."""
    new: tuple[tuple[int, str], ...]
    """Newly placed tiles as ``(square index, tile)``; a lower-case tile is a blank."""
    words: tuple[str, ...]
    """Every word formed, main word first, upper case."""
    word_scores: tuple[int, ...]
    """Score of each word in ``words``."""
    bingo: bool
    """True when the play used a full rack."""
    score: int
    """Total score of the play, bingo bonus included."""
    rack_tiles: str
    """The tiles this play takes from the rack, blanks as ``?``."""


def square_name(board: Board, index: int) -> str:
    """Human name of a square, e.g. ``8H``."""
    row, col = divmod(index, board.layout.cols)
    return f"{row + 1}{chr(ord('A') + col)}"


def place(
    board: Board, move: Move, tile_set: TileSet, *, unnamed_blanks: bool = False
) -> Placement:
    """Validate ``move`` on ``board`` and score it.

    With ``unnamed_blanks``, a ``?`` in the move is a blank not named yet; it
    lies on the board as ``?`` and scores 0, and its words hold ``?``.

    Raises:
        OffBoardError, OccupiedSquareError, ThroughSquareEmptyError, ThroughLetterError,
        UnknownTileError,
        WordNotWholeError, NotConnectedError, CentreNotCoveredError, NoWordError:
            each quoting the move.
    """
    lay = board.layout
    cells = board.cells
    rows, cols = lay.rows, lay.cols
    pos = move.position
    tiles = move.tiles
    n = len(tiles)
    # The move's text is built only for an error message: on the replay path (every
    # placement of every log) formatting it each time cost a tenth of this function.
    if pos.row >= rows or pos.col >= cols:
        raise OffBoardError(f"play {move.gcg()!r} starts off the {rows}x{cols} board")
    across = pos.across
    if across:
        step, cross = 1, cols
        if pos.col + n > cols:
            raise OffBoardError(f"play {move.gcg()!r} runs off the board")
    else:
        step, cross = cols, 1
        if pos.row + n > rows:
            raise OffBoardError(f"play {move.gcg()!r} runs off the board")
    start = pos.row * cols + pos.col
    end = start + (n - 1) * step

    # The notation must give the whole main word, else its score is ambiguous.
    first_in_line = pos.col == 0 if across else pos.row == 0
    last_in_line = (pos.col + n == cols) if across else (pos.row + n == rows)
    if not first_in_line and cells[start - step] != EMPTY:
        raise WordNotWholeError(
            f"play {move.gcg()!r} starts beside {cells[start - step]!r} at "
            f"{square_name(board, start - step)}; write the whole word"
        )
    if not last_in_line and cells[end + step] != EMPTY:
        raise WordNotWholeError(
            f"play {move.gcg()!r} ends beside {cells[end + step]!r} at "
            f"{square_name(board, end + step)}; write the whole word"
        )

    values = tile_set.values
    face, plain = _faces(tile_set)
    letter_mult = lay.letter_mult
    word_mult = lay.word_mult
    blank = tile_set.blank
    new: list[tuple[int, str]] = []
    main_sum = 0
    main_mult = 1
    touches = False
    cross_words: list[str] = []
    cross_scores: list[int] = []
    main_letters: list[str] = []
    size = rows * cols
    # Played-through squares as '.', whichever way the notation gave them; made only
    # when a tile on the board is written as its letter.
    through: list[str] | None = None
    named = dict(move.named) if move.named else None

    idx = start - step
    for k, ch in enumerate(tiles):
        idx += step
        cell = cells[idx]
        if cell != EMPTY:
            if ch == ".":
                if named is not None and k in named and named[k].upper() != cell.upper():
                    # The letter in parentheses is the player's reading of the board: a
                    # wrong one means the play is not where the player thinks it is.
                    raise ThroughLetterError(
                        f"play {move.written()!r} names {named[k]!r} on "
                        f"{square_name(board, idx)}, which holds {cell.upper()!r}"
                    )
            elif ch != "?" and ch.upper() == cell.upper():
                # The tile on the board written as its letter, as older Quackle files and
                # annotators do ('h2 rEDYEING' through an N on 8H): played through.
                if through is None:
                    through = list(tiles)
                through[k] = "."
            else:
                # GCG notation: a tile on the board is written in parentheses or as a
                # dot; saying so turns "why?" into the fix.
                head, tail = "".join(tiles[:k]), "".join(tiles[k + 1 :])
                raise OccupiedSquareError(
                    f"play {move.gcg()!r} puts {ch!r} on {square_name(board, idx)}, "
                    f"which already holds {cell!r}: write it as {head}({cell.upper()}){tail} "
                    f"or {head}.{tail}"
                )
            touches = True
            if cell.islower():
                main_letters.append(cell.upper())
            else:
                main_sum += values[cell]
                main_letters.append(cell)
            continue
        if ch == ".":
            raise ThroughSquareEmptyError(
                f"play {move.written()!r} marks {square_name(board, idx)} as played "
                "through, but it is empty"
            )
        if ch in plain:
            # The usual tile: a letter of the set, as itself.
            upper, tile_value = ch, values[ch]
        else:
            upper = ch.upper()
            has_blanks = tile_set.blanks > 0
            if ch == "?" and unnamed_blanks and has_blanks:
                tile_value = 0
            elif upper not in values or upper == blank:
                raise UnknownTileError(
                    f"play {move.gcg()!r}: tile set {tile_set.name!r} has no {upper!r}"
                )
            elif ch.islower():
                if not has_blanks:
                    raise UnknownTileError(
                        f"play {move.gcg()!r}: tile set {tile_set.name!r} has no blanks"
                    )
                tile_value = 0
            else:
                tile_value = values[ch]
        new.append((idx, ch))
        lm, wm = letter_mult[idx], word_mult[idx]
        main_sum += tile_value * lm
        main_mult *= wm
        main_letters.append(upper)

        # Cross-word through this new tile, perpendicular to the play, within the
        # column (a play across) or the row (a play down) of the new tile. Most new
        # tiles have neither neighbour: that is tested first, in one step each side.
        if across:
            lo = idx
            while lo >= cols and cells[lo - cols] != EMPTY:
                lo -= cols
            hi = idx
            while hi + cols < size and cells[hi + cols] != EMPTY:
                hi += cols
        else:
            line_lo = idx - pos.col
            lo = idx
            while lo > line_lo and cells[lo - 1] != EMPTY:
                lo -= 1
            hi = idx
            line_hi = line_lo + cols - 1
            while hi < line_hi and cells[hi + 1] != EMPTY:
                hi += 1
        if lo != hi:
            touches = True
            # The tiles on the board each side of the new one, sliced in C.
            before = cells[lo:idx:cross]
            after = cells[idx + cross : hi + 1 : cross]
            cross_words.append(before.upper() + upper + after.upper())
            csum = _face_sum(before + after, face, values) + tile_value * lm
            cross_scores.append(csum * wm)

    if not new:
        raise NoTilesPlacedError(f"play {move.gcg()!r} places no new tile")
    if len(new) > tile_set.rack_size:
        raise TooManyTilesError(
            f"play {move.gcg()!r} puts down {len(new)} tiles; a rack holds {tile_set.rack_size}"
        )
    # A play that touches a tile is not on an empty board: only one that touches none
    # needs the board's squares read.
    if not touches:
        if not board.is_empty:
            raise NotConnectedError(f"play {move.gcg()!r} touches no tile on the board")
        if not any(idx == lay.centre for idx, _ in new):
            raise CentreNotCoveredError(
                f"first play {move.gcg()!r} must cover the centre square "
                f"{square_name(board, lay.centre)}"
            )

    if n >= 2:
        words = ("".join(main_letters), *cross_words)
        scores = (main_sum * main_mult, *cross_scores)
    else:
        words, scores = tuple(cross_words), tuple(cross_scores)
    if not words:
        raise NoWordError(f"play {move.gcg()!r} forms no word of two or more letters")
    bingo = len(new) == tile_set.rack_size
    total = sum(scores) + (tile_set.bingo_bonus if bingo else 0)
    written = move if through is None else Move(pos, "".join(through))
    # The tiles laid are the written ones less the squares played through (a list of
    # them built tile by tile cost a step per tile). A blank leaves the rack as '?':
    # with no lower-case tile laid, the tiles as laid.
    rack_tiles = written.tiles.replace(".", "")
    if not rack_tiles.isupper():
        rack_tiles = "".join("?" if ch.islower() else ch for ch in rack_tiles)
    return Placement(written, tuple(new), words, scores, bingo, total, rack_tiles)


_FACES: dict[int, tuple[TileSet, dict[str, int], frozenset[str]]] = {}
"""Per tile set (by identity): the face value of every character a board cell may
hold (a blank's lower-case letter 0), and the letters a play may write as themselves."""


def _faces(tile_set: TileSet) -> tuple[dict[str, int], frozenset[str]]:
    hit = _FACES.get(id(tile_set))
    if hit is None or hit[0] is not tile_set:
        faces = dict(tile_set.values)
        faces.update((t.lower(), 0) for t in tile_set.values if t.lower() != t)
        # Upper case (so written as itself), not lower case, not the blank: the
        # checks a tile of the play goes through let exactly these by at their value.
        plain = frozenset(
            t
            for t in tile_set.values
            if t != tile_set.blank and t.upper() == t and not t.islower() and t != "?"
        )
        hit = _FACES[id(tile_set)] = (tile_set, faces, plain)
    return hit[1], hit[2]


def _face_sum(cells: str, faces: dict[str, int], values: Mapping[str, int]) -> int:
    """The face values of tiles on the board (a blank 0), summed in C."""
    try:
        return sum(map(faces.__getitem__, cells))
    except KeyError:
        # A character the table lacks: the rule spelled out (a blank 0, a letter its value).
        return sum(0 if t.islower() else values[t] for t in cells)


def move_from_squares(board: Board, tiles: Iterable[tuple[int, int, str]]) -> Move:
    """Notation for tiles laid on squares, given as ``(row, col, tile)`` from 0.

    The result still needs :func:`place` to check connection and score it.

    Raises:
        NoTilesPlacedError, OffBoardError, OccupiedSquareError, NotInLineError, GapError.
    """
    laid = sorted(tiles)
    if not laid:
        raise NoTilesPlacedError("no tiles laid")
    lay = board.layout
    for r, c, t in laid:
        if not (0 <= r < lay.rows and 0 <= c < lay.cols):
            raise OffBoardError(f"tile {t!r} at row {r + 1}, column {c + 1} is off the board")
        if board.at(r, c) != EMPTY:
            raise OccupiedSquareError(f"tile {t!r} laid on {r + 1}{chr(65 + c)}, which is occupied")
    rows_used = {r for r, _, _ in laid}
    cols_used = {c for _, c, _ in laid}
    if len(rows_used) == 1 and len(cols_used) == 1:
        # One tile: the direction whose word is longer is the main word (across on a tie).
        r, c, _ = laid[0]
        across = _run(board, r, c, 0, 1) >= _run(board, r, c, 1, 0)
    elif len(rows_used) == 1:
        across = True
    elif len(cols_used) == 1:
        across = False
    else:
        raise NotInLineError(
            "tiles are not in one row or column: "
            + ", ".join(f"{t}@{r + 1}{chr(65 + c)}" for r, c, t in laid)
        )
    laid_at = {(r, c): t for r, c, t in laid}
    dr, dc = (0, 1) if across else (1, 0)
    r0, c0, _ = laid[0]
    r1, c1, _ = laid[-1]
    # Extend back and forward over tiles already on the board.
    while r0 - dr >= 0 and c0 - dc >= 0 and board.at(r0 - dr, c0 - dc) != EMPTY:
        r0, c0 = r0 - dr, c0 - dc
    while r1 + dr < lay.rows and c1 + dc < lay.cols and board.at(r1 + dr, c1 + dc) != EMPTY:
        r1, c1 = r1 + dr, c1 + dc
    out = []
    r, c = r0, c0
    while (r, c) != (r1 + dr, c1 + dc):
        if (r, c) in laid_at:
            out.append(laid_at[(r, c)])
        elif board.at(r, c) != EMPTY:
            out.append(".")
        else:
            raise GapError(f"empty square {r + 1}{chr(65 + c)} between the tiles laid")
        r, c = r + dr, c + dc
    return Move(Position(r0, c0, across), "".join(out))


def _run(board: Board, row: int, col: int, dr: int, dc: int) -> int:
    """Length of the word a tile at (row, col) would form along (dr, dc)."""
    lay = board.layout
    length = 1
    for sign in (-1, 1):
        r, c = row + sign * dr, col + sign * dc
        while 0 <= r < lay.rows and 0 <= c < lay.cols and board.at(r, c) != EMPTY:
            length += 1
            r, c = r + sign * dr, c + sign * dc
    return length
