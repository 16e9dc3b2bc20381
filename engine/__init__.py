"""Pure rules of tournament crossword games: tiles, board, scoring, notation,
the word judge and GCG game records.

Nothing in this package performs I/O beyond reading its own data files and the
files it is asked to read, reads a clock, or imports asyncio, textual, serial or
aiomqtt (``tests/test_engine_purity.py`` enforces it).
"""

from engine.equipment.board import Board
from engine.equipment.layout import Layout, load_layout
from engine.equipment.tiles import TileSet, load_tile_set
from engine.errors import EngineError, IllegalPlayError, NotationError
from engine.play.lexicon import Adjudicator, Verdict, WordList, load_word_list
from engine.play.notation import Move, Position, parse_move, parse_position
from engine.play.placement import Placement, move_from_squares, place

__all__ = [
    "Adjudicator",
    "Board",
    "EngineError",
    "IllegalPlayError",
    "Layout",
    "Move",
    "NotationError",
    "Placement",
    "Position",
    "TileSet",
    "Verdict",
    "WordList",
    "load_layout",
    "load_tile_set",
    "load_word_list",
    "move_from_squares",
    "parse_move",
    "parse_position",
    "place",
]
