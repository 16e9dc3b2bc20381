"""How many of each tile the set holds: the racks at the end may not hold more of a
letter than the set has left off the board.

A blank lies on the board as ``?`` until it is named, then as its letter in lower
case; on a rack, and in a play's rack tiles, it is ``?``. So a letter beyond its
count can only be a blank, written in lower case, and the blanks are counted as
blanks.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.equipment.board import EMPTY, Board
from engine.equipment.tiles import TileSet

__all__ = ["count_words", "on_board", "short_tile"]


def on_board(board: Board, tile: str) -> int:
    """How many of ``tile`` (``?``: the blanks, named or not) lie on ``board``, counted
    in C (a Counter of the whole board cost eight times as much)."""
    cells = board.cells
    if tile == "?":
        return cells.count("?") + sum(map(cells.count, board.blank_letters()))
    if tile == EMPTY or tile.islower():
        return 0
    return cells.count(tile)


def short_tile(tiles: Mapping[str, int], board: Board, tile_set: TileSet) -> str | None:
    """The first tile of ``tiles`` (tile to how many) of which fewer are left off
    ``board`` than asked; None if all fit.

    Only the asked tiles are counted on the board, each in C (``str.count``)."""
    counts = tile_set.counts
    for t, n in tiles.items():
        if counts.get(t, 0) - on_board(board, t) < n:
            return t
    return None


def count_words(tile: str, n: int, board: Board, tile_set: TileSet) -> str:
    """``2 S, but the set holds 4 S, 3 of them on the board already``: what a refusal
    for a short tile says."""
    name = "blank" if tile == "?" else tile
    held = tile_set.counts.get(tile, 0)
    there = on_board(board, tile)
    return f"{n} {name}, but the set holds {held} {name}, {there} of them on the board already"
