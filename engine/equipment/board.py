"""The board: which tile lies on which square.

A :class:`Board` is an immutable value. Placing tiles returns a new board, so a
game state can keep any earlier board without copying it defensively.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import msgspec

from engine.equipment.layout import Layout, load_layout

__all__ = ["EMPTY", "Board"]

EMPTY = " "
"""The cell value of an empty square."""


class Board(msgspec.Struct, frozen=True):
    """Tiles on a layout. ``cells[i]`` is ``EMPTY``, an upper-case letter, or a
    lower-case letter for a blank named as that letter."""

    # A msgspec record, not a frozen dataclass: a new board is built at every play of
    # every replay, and a frozen dataclass's constructor costs five times as much.

    layout: Layout
    """Premium squares and size."""
    cells: str
    """One character per square, row by row."""

    @classmethod
    def empty(cls, layout: Layout | str = "standard") -> Board:
        """An empty board on ``layout`` (a :class:`Layout` or a layout name)."""
        lay = load_layout(layout) if isinstance(layout, str) else layout
        return cls(lay, EMPTY * (lay.rows * lay.cols))

    def at(self, row: int, col: int) -> str:
        """The tile at a 0-based row and column, or ``EMPTY``."""
        return self.cells[row * self.layout.cols + col]

    @property
    def is_empty(self) -> bool:
        """True before the first tile is placed."""
        return self.cells.isspace()

    def tile_count(self) -> int:
        """Number of tiles on the board."""
        return len(self.cells) - self.cells.count(EMPTY)

    def blank_letters(self) -> set[str]:
        """The letters the named blanks on the board lie as (lower case): with ``?``,
        an unnamed blank, the one reading of where the blanks are, for every count of
        the board's tiles (:meth:`tiles`, :func:`engine.play.tile_counts.on_board`)."""
        return {ch for ch in set(self.cells) if ch.islower()}

    def tiles(self) -> Counter[str]:
        """Tiles on the board as rack tiles (every blank counted as ``"?"``)."""
        # Each blank's letter turned into "?" by a table made of the letters on this
        # board, then counted in C: "?" comes first where the first blank lies, as a
        # square-by-square count would insert it.
        cells = self.cells
        blanks = {ord(ch): "?" for ch in self.blank_letters()}
        counts = Counter(cells.translate(blanks) if blanks else cells)
        counts.pop(EMPTY, None)
        return counts

    def with_tiles(self, squares: Iterable[tuple[int, str]]) -> Board:
        """A new board with ``(square index, tile)`` pairs set. Trusts its input:
        validate with :func:`engine.play.placement.place` first."""
        pairs = squares if type(squares) is tuple else tuple(squares)  # a placement's: as is
        cells = self.cells
        # A play's squares come in order: the board is cut at them and joined again,
        # four times faster than rebuilding every square (every play of every replay).
        parts: list[str] = []
        prev, size = 0, len(cells)
        for index, tile in pairs:
            if index < prev or index >= size:
                break
            parts.append(cells[prev:index])
            parts.append(tile)
            prev = index + 1
        else:
            parts.append(cells[prev:])
            return Board(self.layout, "".join(parts))
        # Out of order, a square twice or off the board: one square at a time, as before.
        out = list(cells)
        for index, tile in pairs:
            out[index] = tile
        return Board(self.layout, "".join(out))

    def without(self, squares: Iterable[int]) -> Board:
        """A new board with the given squares emptied (a withdrawn play)."""
        cells = list(self.cells)
        for index in squares:
            cells[index] = EMPTY
        return Board(self.layout, "".join(cells))

    def render(self) -> str:
        """A plain-text picture: column letters, row numbers, premium symbols on empty squares."""
        lay = self.layout
        header = "    " + " ".join(chr(ord("A") + c) for c in range(lay.cols))
        lines = [header]
        for r in range(lay.rows):
            row = []
            for c in range(lay.cols):
                i = r * lay.cols + c
                ch = self.cells[i]
                row.append(ch if ch != EMPTY else lay.symbols[i])
            lines.append(f"{r + 1:>3} " + " ".join(row))
        return "\n".join(lines)
