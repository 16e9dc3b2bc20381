"""Pure rules of tournament crossword games: tiles, board, scoring, notation, the
word judge, the rules state machine with its variants, and GCG game records.

The engine does no I/O: it reads only its own bundled data (``engine/data``,
through :mod:`importlib.resources`) and opens no file a user names. Those are
read by the caller (:mod:`clock.user_files`) and handed over as text or bytes, and a
variant, tile set or layout read that way is registered under the name a game
uses. It reads no clock (time is each event's ``t``) and imports no event loop,
UI, serial port, MQTT, database, socket or process module
(``tests/engine/test_engine_purity.py`` enforces it).

This module is the front door: what callers use, importable from ``engine``.
"""

from engine import events
from engine.clocktext import clock_text
from engine.equipment.board import Board
from engine.equipment.layout import Layout, load_layout
from engine.equipment.tiles import TileSet, load_tile_set
from engine.errors import DataFileError, EngineError, IllegalPlayError, NotationError, Refusal
from engine.gcg import (
    CheckResult,
    GameRecord,
    check_bytes,
    check_record,
    parse_gcg,
    read_gcg,
    write_gcg,
)
from engine.play.lexicon import Adjudicator, Verdict, WordList
from engine.play.notation import Move, Position, parse_move, parse_position
from engine.play.placement import Placement, move_from_squares, place
from engine.rules.machine import advance, apply, next_deadline
from engine.rules.replay import Rejected, replay, report
from engine.rules.state import GameState, Phase
from engine.rules.variant import Variant, list_variants, load_variant

__all__ = [
    "Adjudicator",
    "Board",
    "CheckResult",
    "DataFileError",
    "EngineError",
    "GameRecord",
    "GameState",
    "IllegalPlayError",
    "Layout",
    "Move",
    "NotationError",
    "Phase",
    "Placement",
    "Position",
    "Refusal",
    "Rejected",
    "TileSet",
    "Variant",
    "Verdict",
    "WordList",
    "advance",
    "apply",
    "check_bytes",
    "check_record",
    "clock_text",
    "events",
    "list_variants",
    "load_layout",
    "load_tile_set",
    "load_variant",
    "move_from_squares",
    "next_deadline",
    "parse_gcg",
    "parse_move",
    "parse_position",
    "place",
    "read_gcg",
    "replay",
    "report",
    "write_gcg",
]
