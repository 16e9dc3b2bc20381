"""GCG move notation.

A position is written ``8D`` for a play *across* starting on row 8, column D,
and ``D8`` for a play *down* starting on the same square. In the tiles of a
play, ``.`` is a tile already on the board and a lower-case letter is a blank
named as that letter.
"""

from __future__ import annotations

import re
from functools import lru_cache

import msgspec

from engine.errors import NotationError

__all__ = ["Move", "Position", "parse_move", "parse_position"]

_POSITION = re.compile(r"([0-9]{1,2})([A-Za-z])|([A-Za-z])([0-9]{1,2})")
"""Across (row then column: groups 1, 2) or down (column then row: groups 3, 4)."""


class Position(msgspec.Struct, frozen=True):
    """Where a play starts and which way it runs. Rows and columns count from 0."""

    row: int
    """Row, 0 for row 1."""
    col: int
    """Column, 0 for column A."""
    across: bool
    """True for a play along the row, False for one down the column."""

    def gcg(self) -> str:
        """The GCG form: ``8D`` across, ``D8`` down.

        >>> Position(7, 3, True).gcg(), Position(7, 3, False).gcg()
        ('8D', 'D8')
        """
        letter = chr(ord("A") + self.col)
        return f"{self.row + 1}{letter}" if self.across else f"{letter}{self.row + 1}"

    def __str__(self) -> str:
        return self.gcg()


# A board has a few hundred positions and a Position is immutable: every play of every
# check and replay parses one, and a cached answer costs a tenth of parsing it again.
@lru_cache(maxsize=2048)
def parse_position(text: str) -> Position:
    """Parse a GCG position, upper or lower case.

    >>> parse_position("8D")
    Position(row=7, col=3, across=True)
    >>> parse_position("d8")
    Position(row=7, col=3, across=False)

    Raises:
        NotationError: ``text`` is not a position.
    """
    m = _POSITION.fullmatch(text)
    if not m:
        raise NotationError(f"not a board position: {text!r} (expected e.g. '8D' or 'D8')")
    digits, col, across = m.group(1), m.group(2), True
    if digits is None:
        col, digits, across = m.group(3), m.group(4), False
    row = int(digits)
    if row < 1:
        raise NotationError(f"row must be 1 or more in {text!r}")
    return Position(row - 1, ord(col.upper()) - ord("A"), across)


class Move(msgspec.Struct, frozen=True):
    """A tile placement as GCG writes it: a position and the tiles of the main word."""

    # A msgspec record, not a frozen dataclass: one is built for every play read, checked
    # or replayed, and a frozen dataclass's constructor costs five times as much.

    position: Position
    """Start square and direction."""
    tiles: str
    """Letters of the main word: ``.`` for a tile on the board, lower case for a blank."""
    named: tuple[tuple[int, str], ...] = ()
    """The letters written in parentheses for tiles on the board, as ``(offset in
    tiles, letter)``: the board must hold that letter there (``JOE(Y)``). Not part of
    the move's identity (equality and hash): ``JOE(Y)`` and ``JOE.`` are the same play."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.position == other.position and self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash((self.position, self.tiles))

    def gcg(self) -> str:
        """The GCG form, e.g. ``8D WINDY``."""
        return f"{self.position.gcg()} {self.tiles}"

    def written(self) -> str:
        """The move as it was written, the named tiles on the board in parentheses.

        >>> parse_move("H4 JOE(Y)").written(), parse_move("H4 JOE.").written()
        ('H4 JOE(Y)', 'H4 JOE.')
        """
        named = dict(self.named)
        tiles = "".join(f"({named[k]})" if k in named else ch for k, ch in enumerate(self.tiles))
        return f"{self.position.gcg()} {tiles.replace(')(', '')}"

    def __str__(self) -> str:
        return self.gcg()


def check_tiles(tiles: str, *, unnamed_blanks: bool = False) -> str:
    """Check the tiles field of a play: letters, ``.`` for played-through squares,
    and ``?`` for a blank not yet named when ``unnamed_blanks`` is set.

    Raises:
        NotationError: Empty, or holds a character that is neither a letter nor ``.``.
    """
    if not tiles:
        raise NotationError("a play needs at least one tile")
    letters = tiles.replace(".", "")
    if unnamed_blanks:
        letters = letters.replace("?", "")
    if letters.isascii() and letters.isalpha():
        # The usual play, checked in one pass in C: ASCII letters (every one upper or
        # lower case) and dots, at least one letter. The loop below says what is wrong.
        return tiles
    for ch in tiles:
        if ch == "?" and unnamed_blanks:
            continue
        if ch != "." and not (ch.isalpha() and (ch.isupper() or ch.islower())):
            raise NotationError(f"bad tile {ch!r} in play {tiles!r}")
    if all(ch == "." for ch in tiles):
        raise NotationError(f"play {tiles!r} places no new tile")
    return tiles


def parse_move(text: str, tiles: str | None = None, *, unnamed_blanks: bool = False) -> Move:
    """Parse a placement: ``parse_move("8D WINDY")`` or ``parse_move("8D", "WINDY")``.

    >>> parse_move("h8 .aFS").gcg()
    'H8 .aFS'

    Raises:
        NotationError: The position or the tiles are malformed.

    With ``unnamed_blanks``, ``?`` stands for a blank whose letter is not named yet
    (table play, where the opponent may demand the letter).
    """
    if tiles is None:
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(f"expected a position and tiles, got {text!r}")
        text, tiles = parts
    # Most plays name no tile on the board: tested here, not in a call to _through.
    plain, named = _through(tiles) if "(" in tiles or ")" in tiles else (tiles, ())
    return Move(parse_position(text), check_tiles(plain, unnamed_blanks=unnamed_blanks), named)


def _through(tiles: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """``JOE(Y)`` as ``JOE.``: letters in parentheses are tiles already on the board,
    the way players and some annotators write them; each is kept with its offset, for
    the board to be checked against (a wrong letter would go unnoticed as a plain
    ``.``: ``H7 A(J)`` accepted where H8 holds O).

    >>> _through("JOE(Y)"), _through("(QU)IT"), _through("WINDY")
    (('JOE.', ((3, 'Y'),)), ('..IT', ((0, 'Q'), (1, 'U'))), ('WINDY', ()))

    Raises:
        NotationError: Parentheses that do not pair, or hold nothing.
    """
    if "(" not in tiles and ")" not in tiles:
        return tiles, ()
    out: list[str] = []
    named: list[tuple[int, str]] = []
    inside = False
    count = 0
    for ch in tiles:
        if ch == "(":
            if inside:
                raise NotationError(f"parentheses nest in {tiles!r}")
            inside, count = True, 0
        elif ch == ")":
            if not inside or count == 0:
                raise NotationError(f"unpaired or empty parentheses in {tiles!r}")
            inside = False
        elif inside:
            if not ch.isalpha():
                raise NotationError(f"{ch!r} in parentheses in {tiles!r}: a tile on the board")
            named.append((len(out), ch))
            out.append(".")
            count += 1
        else:
            out.append(ch)
    if inside:
        raise NotationError(f"unclosed parenthesis in {tiles!r}")
    return "".join(out), tuple(named)
