"""Tile sets: which letters exist, how many of each, and what each is worth.

Tile sets are data files (``engine/data/tiles/*.toml``) loaded by name, so a
new language needs no code. A user's file is read by the caller and parsed with
:func:`parse_tile_set`; registered (:func:`register_tile_set`), it loads by the
name a variant gives it.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine._data import Registry, bundled
from engine.errors import DataFileError

__all__ = ["TileSet", "load_tile_set", "parse_tile_set", "register_tile_set"]


@dataclass(frozen=True, slots=True)
class TileSet:
    """A tile distribution.

    Letters are upper-case single characters; the blank is ``blank`` (``"?"``).
    On the board a blank stands as the lower-case letter it was named as.
    """

    name: str
    """The name the set was loaded by."""
    counts: Mapping[str, int]
    """How many tiles of each letter, blank included."""
    values: Mapping[str, int]
    """Face value of each letter; the blank is 0."""
    rack_size: int = 7
    """Tiles on a full rack."""
    bingo_bonus: int = 50
    """Bonus for playing ``rack_size`` tiles in one turn."""
    blank: str = "?"
    """The character that denotes an undesignated blank."""

    @property
    def total(self) -> int:
        """Number of tiles in the set."""
        return sum(self.counts.values())

    @property
    def face_points(self) -> int:
        """Sum of the face values of every tile in the set."""
        return sum(self.counts[t] * self.values[t] for t in self.counts)

    @property
    def blanks(self) -> int:
        """Number of blanks in the set."""
        return self.counts.get(self.blank, 0)

    def has_letter(self, letter: str) -> bool:
        """Whether ``letter`` (upper-case, not the blank) is a letter of this set."""
        return letter != self.blank and letter in self.counts

    def value(self, tile: str) -> int:
        """Face value of a rack tile (``"?"`` for a blank) or a board tile (lower case = blank)."""
        if tile.islower():
            return 0
        return self.values[tile]

    def rack_value(self, rack: Iterable[str]) -> int:
        """Sum of the face values of the tiles in ``rack``."""
        values = self.values
        return sum(0 if t.islower() else values[t] for t in rack)

    def distribution(self) -> Counter[str]:
        """A fresh multiset of every tile in the set."""
        return Counter(self.counts)


def parse_tile_set(name: str, text: str, source: str) -> TileSet:
    """A tile set from the text of its TOML file.

    Args:
        name: The name it is loaded by (its name when the file gives none).
        text: The file's text.
        source: Where the text came from, quoted in errors.

    Raises:
        DataFileError: The text is not a tile set.
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"tile set {source!r}: {exc}") from None
    blank = doc.get("blank", "?")
    tiles = doc.get("tiles")
    if not isinstance(tiles, dict) or not tiles:
        raise DataFileError(f"tile set {source!r}: missing [tiles] table")
    counts: dict[str, int] = {}
    values: dict[str, int] = {}
    for letter, spec in tiles.items():
        ok_letter = letter == blank or (len(letter) == 1 and letter.isalpha() and letter.isupper())
        if not ok_letter:
            raise DataFileError(f"tile set {source!r}: bad letter {letter!r}")
        if (
            not isinstance(spec, list)
            or len(spec) != 2
            or not all(isinstance(x, int) and x >= 0 for x in spec)
        ):
            raise DataFileError(
                f"tile set {source!r}: {letter!r} needs [count, value], got {spec!r}"
            )
        counts[letter], values[letter] = spec[0], spec[1]
    if blank in values and values[blank] != 0:
        raise DataFileError(f"tile set {source!r}: the blank must be worth 0")
    return TileSet(
        name=str(doc.get("name", name)),
        counts=counts,
        values=values,
        rack_size=int(doc.get("rack_size", 7)),
        bingo_bonus=int(doc.get("bingo_bonus", 50)),
        blank=blank,
    )


def _bundled(name: str) -> TileSet:
    return parse_tile_set(name, *bundled("tiles", name, ".toml"))


_TILE_SETS: Registry[TileSet] = Registry(_bundled)


def register_tile_set(name: str, tile_set: TileSet) -> None:
    """Make ``name`` load as ``tile_set`` (one the caller read from a user's file)."""
    _TILE_SETS.register(name, tile_set)


def load_tile_set(name: str = "english") -> TileSet:
    """Load a tile set by name: one registered under it, else a bundled one.

    >>> ts = load_tile_set("english")
    >>> ts.total, ts.face_points, ts.blanks
    (100, 187, 2)

    Raises:
        DataFileError: No tile set has that name.
    """
    return _TILE_SETS.load(name)
