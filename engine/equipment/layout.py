"""Board layouts: the size of the board and where its premium squares are.

Layouts are data files (``engine/data/layouts/*.txt``): one character per
square, loaded by name, so another board needs no code. A user's file is read
by the caller and parsed with :func:`parse_layout`; registered
(:func:`register_layout`), it loads by the name a variant gives it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine._data import Registry, bundled
from engine.errors import DataFileError

__all__ = ["Layout", "load_layout", "parse_layout", "register_layout"]

# square symbol -> (letter multiplier, word multiplier)
_SYMBOLS: dict[str, tuple[int, int]] = {
    ".": (1, 1),
    "d": (2, 1),
    "t": (3, 1),
    "q": (4, 1),
    "D": (1, 2),
    "T": (1, 3),
    "Q": (1, 4),
    "*": (1, 2),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Premium squares of a board. Squares are indexed ``row * cols + col``, from 0."""

    name: str
    """The name the layout was loaded by."""
    rows: int
    """Number of rows."""
    cols: int
    """Number of columns."""
    letter_mult: tuple[int, ...]
    """Letter multiplier of each square."""
    word_mult: tuple[int, ...]
    """Word multiplier of each square."""
    centre: int
    """Index of the square the first play must cover."""
    symbols: str
    """The layout's symbols, one per square, for rendering."""

    def index(self, row: int, col: int) -> int:
        """Square index of a 0-based row and column."""
        return row * self.cols + col


def parse_layout(name: str, text: str, source: str) -> Layout:
    """A layout from the text of its file: one symbol per square, row by row.

    Args:
        name: The name it is loaded by.
        text: The file's text (``#`` starts a comment line).
        source: Where the text came from, quoted in errors.

    Raises:
        DataFileError: The text is not a layout.
    """
    grid = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if not grid:
        raise DataFileError(f"layout {source!r}: no rows")
    cols = len(grid[0])
    if cols > 26:
        raise DataFileError(f"layout {source!r}: at most 26 columns (A-Z), got {cols}")
    centres: list[int] = []
    letter: list[int] = []
    word: list[int] = []
    for r, row in enumerate(grid):
        if len(row) != cols:
            raise DataFileError(
                f"layout {source!r}: row {r + 1} has {len(row)} squares, not {cols}"
            )
        for c, sym in enumerate(row):
            if sym not in _SYMBOLS:
                raise DataFileError(f"layout {source!r}: unknown square {sym!r} at row {r + 1}")
            lm, wm = _SYMBOLS[sym]
            letter.append(lm)
            word.append(wm)
            if sym == "*":
                centres.append(r * cols + c)
    if len(centres) != 1:
        raise DataFileError(
            f"layout {source!r}: needs exactly one centre '*', found {len(centres)}"
        )
    return Layout(
        name=name,
        rows=len(grid),
        cols=cols,
        letter_mult=tuple(letter),
        word_mult=tuple(word),
        centre=centres[0],
        symbols="".join(grid),
    )


def _bundled(name: str) -> Layout:
    return parse_layout(name, *bundled("layouts", name, ".txt"))


_LAYOUTS: Registry[Layout] = Registry(_bundled)


def register_layout(name: str, layout: Layout) -> None:
    """Make ``name`` load as ``layout`` (one the caller read from a user's file)."""
    _LAYOUTS.register(name, layout)


def load_layout(name: str = "standard") -> Layout:
    """Load a layout by name: one registered under it, else a bundled one.

    >>> lay = load_layout("standard")
    >>> (lay.rows, lay.cols, lay.centre)
    (15, 15, 112)

    Raises:
        DataFileError: No layout has that name.
    """
    return _LAYOUTS.load(name)
