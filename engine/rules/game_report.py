"""The state of a game as a report: the ``rackclock replay --json`` object, and the
``state`` of a table's live document and snapshot (docs/mqtt.md, "Table state").

Two forms, one per use: :class:`GameReport` is the whole (board, history, every
ruling, the refused lines), :class:`LiveReport` the small form a venue's screens
refresh from. :func:`engine.rules.replay.report` builds them; the table's
publisher encodes them and the director's link and the venue page decode them,
so both ends of the wire read one declaration. Field order is the JSON's key order.

Every field has a default, the report of a table that has not started: a key a
document lacks (a table of another version) reads as that, and only a document
whose keys hold the wrong kind of value fails to decode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from engine.rules.state import Ruling

__all__ = [
    "ClockReading",
    "GameReport",
    "HistoryLine",
    "LiveReport",
    "Rejected",
    "ReportedResult",
    "as_report",
]


class Rejected(msgspec.Struct, frozen=True):
    """A log line the rules refused, or that could not be read."""

    line: int
    """1-based line (JSON Lines) or sequence number (SQLite)."""
    reason: str
    """Why, quoting the input."""
    rule: str
    """The rule that refused it."""


class ClockReading(msgspec.Struct, frozen=True):
    """One player's clock, read at the report's ``at_ms``."""

    remaining_ms: int = 0
    """Time left; negative in overtime."""
    overtime_ms: int = 0
    """Time past zero (0 until then)."""
    penalty: int = 0
    """The overtime penalty so far, in points."""
    running: bool = False
    """Whether this clock runs."""


class HistoryLine(msgspec.Struct, frozen=True):
    """One line of the game's history (the full form only)."""

    t: int
    player: int
    kind: str
    text: str
    score: int
    total: int
    remaining_ms: int


class ReportedResult(msgspec.Struct, frozen=True):
    """The game's result once it is over."""

    scores: tuple[int, int]
    """The final scores, in the table's seats."""
    winner: int | None
    """The winning seat; None: a tie (or nobody won)."""
    reason: str
    """Why the game ended (``engine.rules.state.EndReason``; a string, so a reason a
    newer table adds still reads)."""
    spread: int
    """The spread the result counts."""
    penalties: tuple[int, int] = (0, 0)
    """Time penalties, in points."""
    spread_recorded: bool = True
    """Whether the variant records a spread (Toronto: match points only)."""


class LiveReport(msgspec.Struct, frozen=True):
    """The live form: no board, history or refused lines; only the latest rulings
    and those on a clock's drift (which stay flagged for the director)."""

    variant: str | None = None
    players: tuple[str, str] = ("", "")
    games: int = 0
    """The log's game count (a rematch at the same table is another game)."""
    round: int | None = None
    division: str | None = None
    table: str | None = None
    mode: str = "board"
    phase: str = "not_started"
    """``engine.rules.state.Phase`` value."""
    phase_text: str = "not_started"
    """The phase in words (``GameState.describe_phase``)."""
    turn: int | None = None
    """The seat on turn; None before the start and after the end."""
    at_ms: int = 0
    """The table time the clocks were read at."""
    scores: tuple[int, int] = (0, 0)
    clocks: tuple[ClockReading, ...] = (ClockReading(), ClockReading())
    neutralized: str | None = None
    """Why the clock is neutralized, if it is."""
    bag: int | None = 0
    """Tiles in the bag (board mode; None otherwise)."""
    rulings: tuple[Ruling, ...] = ()
    signed: tuple[bool, bool] = (False, False)
    result: ReportedResult | None = None


class GameReport(msgspec.Struct, frozen=True):
    """The full form (``replay --json``, the snapshot): the live form's fields, and
    the board, the history, every ruling and the refused lines, in the JSON's order."""

    variant: str | None = None
    players: tuple[str, str] = ("", "")
    games: int = 0
    round: int | None = None
    division: str | None = None
    table: str | None = None
    mode: str = "board"
    phase: str = "not_started"
    phase_text: str = "not_started"
    turn: int | None = None
    at_ms: int = 0
    scores: tuple[int, int] = (0, 0)
    clocks: tuple[ClockReading, ...] = (ClockReading(), ClockReading())
    neutralized: str | None = None
    bag: int | None = 0
    board: tuple[str, ...] | None = None
    """The board's rows as text (board mode)."""
    history: tuple[HistoryLine, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    signed: tuple[bool, bool] = (False, False)
    rejected: tuple[Rejected, ...] = ()
    result: ReportedResult | None = None


def as_report(rep: LiveReport | GameReport | Mapping[str, Any]) -> LiveReport | GameReport:
    """``rep`` as a struct: a report as JSON gives it (``report()``'s dict, a log's
    ``replay --json``) is read once into a :class:`LiveReport` (the keys the live form
    lacks are ignored), so its readers read one declaration.

    Raises:
        msgspec.ValidationError: A key holds the wrong kind of value (quoted).
    """
    if isinstance(rep, LiveReport | GameReport):
        return rep
    return msgspec.convert(rep, LiveReport)
