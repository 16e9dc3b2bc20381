"""The straightforward forms of the engine's hot paths, kept as they were before
issue 24 sped them up (engine/play/placement.py, engine/play/notation.py,
engine/equipment/rack.py, engine/gcg/reader.py), so tests can hold the fast forms to
the same answers and the same errors on the same inputs. Not used by the engine.
"""

from __future__ import annotations

import re
from collections import Counter

from engine.equipment.board import EMPTY, Board
from engine.equipment.rack import is_subrack, leave
from engine.equipment.tiles import TileSet
from engine.errors import (
    CentreNotCoveredError,
    GcgError,
    NotationError,
    NotConnectedError,
    NoTilesPlacedError,
    NoWordError,
    OccupiedSquareError,
    OffBoardError,
    ThroughLetterError,
    ThroughSquareEmptyError,
    TooManyTilesError,
    UnknownTileError,
    WordNotWholeError,
)
from engine.gcg.reader import classify_tokens
from engine.gcg.record import Event, Player
from engine.play.notation import Move, Position
from engine.play.placement import Placement, square_name

__all__ = [
    "reference_check_tiles",
    "reference_event",
    "reference_parse_position",
    "reference_parse_rack",
    "reference_place",
    "reference_racks_fit",
    "reference_take_tiles",
]

_ACROSS = re.compile(r"([0-9]{1,2})([A-Za-z])")
_DOWN = re.compile(r"([A-Za-z])([0-9]{1,2})")


def reference_place(
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
    quoted = move.gcg()
    if pos.row >= rows or pos.col >= cols:
        raise OffBoardError(f"play {quoted!r} starts off the {rows}x{cols} board")
    if pos.across:
        step, cross = 1, cols
        if pos.col + n > cols:
            raise OffBoardError(f"play {quoted!r} runs off the board")
    else:
        step, cross = cols, 1
        if pos.row + n > rows:
            raise OffBoardError(f"play {quoted!r} runs off the board")
    start = pos.row * cols + pos.col
    end = start + (n - 1) * step

    # The notation must give the whole main word, else its score is ambiguous.
    first_in_line = pos.col == 0 if pos.across else pos.row == 0
    last_in_line = (pos.col + n == cols) if pos.across else (pos.row + n == rows)
    if not first_in_line and cells[start - step] != EMPTY:
        raise WordNotWholeError(
            f"play {quoted!r} starts beside {cells[start - step]!r} at "
            f"{square_name(board, start - step)}; write the whole word"
        )
    if not last_in_line and cells[end + step] != EMPTY:
        raise WordNotWholeError(
            f"play {quoted!r} ends beside {cells[end + step]!r} at "
            f"{square_name(board, end + step)}; write the whole word"
        )

    values = tile_set.values
    letter_mult = lay.letter_mult
    word_mult = lay.word_mult
    has_blanks = tile_set.blanks > 0
    new: list[tuple[int, str]] = []
    main_sum = 0
    main_mult = 1
    touches = False
    cross_words: list[str] = []
    cross_scores: list[int] = []
    main_letters: list[str] = []
    total_cells = rows * cols
    # Played-through squares as '.', whichever way the notation gave them.
    through = list(tiles)
    named = dict(move.named)

    for k in range(n):
        ch = tiles[k]
        idx = start + k * step
        cell = cells[idx]
        if ch == ".":
            if cell == EMPTY:
                raise ThroughSquareEmptyError(
                    f"play {move.written()!r} marks {square_name(board, idx)} as played "
                    "through, but it is empty"
                )
            if k in named and named[k].upper() != cell.upper():
                # The letter in parentheses is the player's reading of the board: a
                # wrong one means the play is not where the player thinks it is.
                raise ThroughLetterError(
                    f"play {move.written()!r} names {named[k]!r} on "
                    f"{square_name(board, idx)}, which holds {cell.upper()!r}"
                )
            touches = True
            main_sum += 0 if cell.islower() else values[cell]
            main_letters.append(cell.upper())
            continue
        if cell != EMPTY and ch.upper() == cell.upper() and ch != "?":
            # The tile on the board written as its letter, as older Quackle files and
            # annotators do ('h2 rEDYEING' through an N on 8H): played through.
            through[k] = "."
            touches = True
            main_sum += 0 if cell.islower() else values[cell]
            main_letters.append(cell.upper())
            continue
        if cell != EMPTY:
            # GCG notation: a tile on the board is written in parentheses or as a dot;
            # saying so turns "why?" into the fix.
            head, tail = "".join(tiles[:k]), "".join(tiles[k + 1 :])
            raise OccupiedSquareError(
                f"play {quoted!r} puts {ch!r} on {square_name(board, idx)}, "
                f"which already holds {cell!r}: write it as {head}({cell.upper()}){tail} "
                f"or {head}.{tail}"
            )
        upper = ch.upper()
        if ch == "?" and unnamed_blanks and has_blanks:
            tile_value = 0
        elif upper not in values or upper == tile_set.blank:
            raise UnknownTileError(f"play {quoted!r}: tile set {tile_set.name!r} has no {upper!r}")
        elif ch.islower():
            if not has_blanks:
                raise UnknownTileError(f"play {quoted!r}: tile set {tile_set.name!r} has no blanks")
            tile_value = 0
        else:
            tile_value = values[ch]
        new.append((idx, ch))
        lm, wm = letter_mult[idx], word_mult[idx]
        main_sum += tile_value * lm
        main_mult *= wm
        main_letters.append(upper)

        # Cross-word through this new tile, perpendicular to the play.
        lo = idx
        while True:
            prev = lo - cross
            if prev < 0 or (cross == 1 and prev // cols != idx // cols) or cells[prev] == EMPTY:
                break
            lo = prev
        hi = idx
        while True:
            nxt = hi + cross
            if (
                nxt >= total_cells
                or (cross == 1 and nxt // cols != idx // cols)
                or cells[nxt] == EMPTY
            ):
                break
            hi = nxt
        if lo != hi:
            touches = True
            letters = []
            csum = 0
            j = lo
            while j <= hi:
                if j == idx:
                    letters.append(upper)
                    csum += tile_value * lm
                else:
                    t = cells[j]
                    letters.append(t.upper())
                    csum += 0 if t.islower() else values[t]
                j += cross
            cross_words.append("".join(letters))
            cross_scores.append(csum * wm)

    if not new:
        raise NoTilesPlacedError(f"play {quoted!r} places no new tile")
    if len(new) > tile_set.rack_size:
        raise TooManyTilesError(
            f"play {quoted!r} puts down {len(new)} tiles; a rack holds {tile_set.rack_size}"
        )
    if board.is_empty:
        if not any(idx == lay.centre for idx, _ in new):
            raise CentreNotCoveredError(
                f"first play {quoted!r} must cover the centre square "
                f"{square_name(board, lay.centre)}"
            )
    elif not touches:
        raise NotConnectedError(f"play {quoted!r} touches no tile on the board")

    words: list[str] = []
    scores: list[int] = []
    if n >= 2:
        words.append("".join(main_letters))
        scores.append(main_sum * main_mult)
    words.extend(cross_words)
    scores.extend(cross_scores)
    if not words:
        raise NoWordError(f"play {quoted!r} forms no word of two or more letters")
    bingo = len(new) == tile_set.rack_size
    total = sum(scores) + (tile_set.bingo_bonus if bingo else 0)
    rack_tiles = "".join("?" if t.islower() else t for _, t in new)
    written = Move(pos, "".join(through)) if through != list(tiles) else move
    return Placement(written, tuple(new), tuple(words), tuple(scores), bingo, total, rack_tiles)


def reference_parse_rack(text: str, tile_set: TileSet) -> Counter[str]:
    """Parse a rack string such as ``"AEI?RST"``.

    Raises:
        NotationError: A character is neither a letter of the set nor its blank.
    """
    counts: Counter[str] = Counter()
    for ch in text:
        up = ch if ch == tile_set.blank else ch.upper()
        if up not in tile_set.counts:
            raise NotationError(f"rack {text!r}: tile set {tile_set.name!r} has no {ch!r}")
        counts[up] += 1
    return counts


def reference_parse_position(text: str) -> Position:
    """Parse a GCG position, upper or lower case.

    >>> parse_position("8D")
    Position(row=7, col=3, across=True)
    >>> parse_position("d8")
    Position(row=7, col=3, across=False)

    Raises:
        NotationError: ``text`` is not a position.
    """
    m = _ACROSS.fullmatch(text)
    if m:
        row, col, across = int(m.group(1)), m.group(2), True
    else:
        m = _DOWN.fullmatch(text)
        if not m:
            raise NotationError(f"not a board position: {text!r} (expected e.g. '8D' or 'D8')")
        col, row, across = m.group(1), int(m.group(2)), False
    if row < 1:
        raise NotationError(f"row must be 1 or more in {text!r}")
    return Position(row - 1, ord(col.upper()) - ord("A"), across)


def reference_check_tiles(tiles: str, *, unnamed_blanks: bool = False) -> str:
    """Check the tiles field of a play: letters, ``.`` for played-through squares,
    and ``?`` for a blank not yet named when ``unnamed_blanks`` is set.

    Raises:
        NotationError: Empty, or holds a character that is neither a letter nor ``.``.
    """
    if not tiles:
        raise NotationError("a play needs at least one tile")
    for ch in tiles:
        if ch == "?" and unnamed_blanks:
            continue
        if ch != "." and not (ch.isalpha() and (ch.isupper() or ch.islower())):
            raise NotationError(f"bad tile {ch!r} in play {tiles!r}")
    if all(ch == "." for ch in tiles):
        raise NotationError(f"play {tiles!r} places no new tile")
    return tiles


def reference_take_tiles(rack: Counter[str], tiles: str) -> Counter[str] | None:
    """A play's tiles taken from a rack as the checker did: a counter of the tiles,
    tested as a subrack, then left."""
    used = Counter(tiles)
    return leave(rack, used) if is_subrack(used, rack) else None


def reference_racks_fit(racks: Counter[str], board: Board, tile_set: TileSet) -> bool:
    """The end racks held to the tiles left unplayed as the rules first did: the set's
    whole pool less the board, then the racks a subrack of what stays positive."""
    pool = tile_set.distribution()
    pool.subtract(board.tiles())
    return is_subrack(racks, +pool)


_EVENT = re.compile(r">(\S+?):(?:\s+(.*))?")
_INT = re.compile(r"[+-]?[0-9]+")


def reference_event(line: int, text: str, players: tuple[Player, ...]) -> Event | GcgError:
    """An event line read the general way only: every split of the tokens tried in
    turn (engine/gcg/reader.py reads the usual play line in one match first)."""
    m = _EVENT.fullmatch(text.strip())
    if not m:
        return GcgError(line, f"event line must start '>nick:', got {text!r}")
    nick, rest = m.group(1), (m.group(2) or "")
    if players and nick not in {p.nick for p in players}:
        known = ", ".join(repr(p.nick) for p in players)
        return GcgError(line, f"unknown player {nick!r} (players: {known})")
    tokens = rest.split()
    for i in range(1, min(len(tokens) - 1, 4)):
        if not (_INT.fullmatch(tokens[i]) and _INT.fullmatch(tokens[i + 1])):
            continue
        ev = classify_tokens(
            tokens[:i],
            int(tokens[i]),
            nick,
            line,
            text,
            int(tokens[i + 1]),
            " ".join(tokens[i + 2 :]),
        )
        if ev is not None:
            return ev
    ints = [i for i, t in enumerate(tokens) if _INT.fullmatch(t)]
    if not ints:
        return GcgError(line, f"truncated event line {text.strip()!r}: no score and total")
    if ints[-1] == len(tokens) - 1 and (len(ints) == 1 or ints[-2] != ints[-1] - 1):
        return GcgError(line, f"truncated event line {text.strip()!r}: a score but no total")
    return GcgError(line, f"cannot read event line {text.strip()!r}")
