"""Racks as multisets of tiles.

Rack tiles are upper-case letters and ``?`` for a blank. What tiles are worth
at the end of a game is :meth:`engine.equipment.tiles.TileSet.rack_value`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from engine.equipment.tiles import TileSet
from engine.errors import NotationError

__all__ = ["is_subrack", "leave", "parse_rack", "rack_string", "take_tiles"]


def parse_rack(text: str, tile_set: TileSet) -> Counter[str]:
    """Parse a rack string such as ``"AEI?RST"``.

    Raises:
        NotationError: A character is neither a letter of the set nor its blank.
    """
    known = tile_set.counts
    if text.isascii() and tile_set.blank.upper() == tile_set.blank:
        # The usual rack, counted in C; upper-casing the whole ASCII string is the
        # same as upper-casing each tile but the blank.
        counts: Counter[str] = Counter(text.upper())
        if counts.keys() <= known.keys():
            return counts
    counts = Counter()
    for ch in text:
        up = ch if ch == tile_set.blank else ch.upper()
        if up not in tile_set.counts:
            raise NotationError(f"rack {text!r}: tile set {tile_set.name!r} has no {ch!r}")
        counts[up] += 1
    return counts


def rack_string(rack: Counter[str], blank: str = "?") -> str:
    """A canonical rack string: letters in order, blanks last."""
    letters = sorted(t for t in rack.elements() if t != blank)
    return "".join(letters) + blank * rack.get(blank, 0)


def is_subrack(part: Mapping[str, int], whole: Mapping[str, int]) -> bool:
    """Whether every tile of ``part`` is in ``whole`` (as a multiset)."""
    get = whole.get
    for t, n in part.items():  # noqa: SIM110 - a loop beats all(genexpr) on the hot path
        if get(t, 0) < n:
            return False
    return True


def leave(rack: Counter[str], used: Counter[str]) -> Counter[str]:
    """What remains of ``rack`` after ``used`` is taken (``used`` must be a subrack)."""
    out = rack.copy()
    # Only the tiles used change; a tile used up goes, as ``+`` would drop it.
    for t, n in used.items():
        left = out.get(t, 0) - n
        if left > 0:
            out[t] = left
        else:
            out.pop(t, None)
    # A rack that held a count of 0 or less (never a parsed one) loses it too.
    return out if min(out.values(), default=1) > 0 else +out


def take_tiles(rack: Mapping[str, int], tiles: str) -> dict[str, int] | None:
    """What remains of ``rack`` once ``tiles`` (one character a tile) are taken from it,
    or None when they are not all on it: ``is_subrack`` and ``leave`` in one pass.

    A plain dict, not a Counter: on every play of a check, copying a Counter and
    deleting from it run in Python, a dict's in C.
    """
    out = dict(rack)
    for t in tiles:
        left = out.get(t, 0) - 1
        if left > 0:
            out[t] = left
        elif left == 0:
            del out[t]
        else:
            return None
    # A rack that held a count of 0 or less (never a parsed one) loses it, as leave does.
    return out if min(out.values(), default=1) > 0 else {t: n for t, n in out.items() if n > 0}
