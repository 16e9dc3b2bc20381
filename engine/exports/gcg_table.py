"""The board and the bag as an export writes the game's plays (docs/gcg.md).

A table enters a one-tile play in whichever direction the player laid it out; a
reader that replays the record scores the word in the written direction even when
it is one letter (MAGPIE: "calculated move score does not match"), so
:meth:`Table.play` writes a one-tile play in the direction in which it forms a word
of two or more letters. It also counts the bag, so that the writer knows which
plays drew nothing: the rack of such a play is the tiles played plus the rack at
the player's next turn (:func:`engine.exports.gcg.known_racks`).
"""

from __future__ import annotations

from engine.equipment.board import EMPTY, Board
from engine.errors import EngineError
from engine.play.notation import Move
from engine.play.placement import move_from_squares

__all__ = ["Table"]


class Table:
    """The board and the bag's count, play by play, as the log gives them."""

    __slots__ = ("bag", "board", "laid")

    def __init__(self, board: Board, bag: int) -> None:
        self.board = board
        """Tiles on the board so far."""
        self.bag = bag
        """Tiles in the bag (after the opening racks)."""
        self.laid: dict[int, tuple[tuple[int, ...], int]] = {}
        """Each player's last play: its squares and the tiles drawn for it."""

    def _new(self, move: Move) -> list[tuple[int, str]] | None:
        """The squares the play covers that were empty, with their tiles; None when
        the notation runs off the board (the table's log never does)."""
        cols, rows = self.board.layout.cols, self.board.layout.rows
        pos = move.position
        n = len(move.tiles)
        if pos.row + (0 if pos.across else n - 1) >= rows:
            return None
        if pos.col + (n - 1 if pos.across else 0) >= cols:
            return None
        step = 1 if pos.across else cols
        start = pos.row * cols + pos.col
        squares = [(start + k * step, ch) for k, ch in enumerate(move.tiles)]
        return [(i, ch) for i, ch in squares if ch != "." and self.board.cells[i] == EMPTY]

    def play(self, player: int, move: Move) -> tuple[Move, bool]:
        """Lay ``move``: the move as it is to be written, and whether the bag was
        empty before it (the player drew nothing)."""
        new = self._new(move)
        empty_before = self.bag == 0
        if new is None:
            return move, empty_before
        written = move
        if len(new) == 1:
            index, tile = new[0]
            row, col = divmod(index, self.board.layout.cols)
            try:
                # The direction whose word is longer (across on a tie), as a player
                # laying one tile means it.
                written = move_from_squares(self.board, [(row, col, tile)])
            except EngineError:
                written = move
            if len(written.tiles) < 2:
                written = move
        drawn = min(len(new), self.bag)
        self.bag -= drawn
        self.board = self.board.with_tiles(new)
        self.laid[player] = (tuple(i for i, _ in new), drawn)
        return written, empty_before

    def withdraw(self, player: int) -> None:
        """Take back the player's last play: its tiles leave the board, the tiles
        drawn for it go back in the bag."""
        squares, drawn = self.laid.pop(player, ((), 0))
        self.board = self.board.without(squares)
        self.bag += drawn
