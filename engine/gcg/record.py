"""The in-memory form of a GCG game record.

The model keeps everything a record says, in order, so that writing and then
reading a record gives the same game: header pragmas (known and unknown) in
file order, and each event with the notes and other pragmas that follow it.
Line numbers are kept for messages but take no part in equality. Every record
here is a frozen msgspec record, as the engine's values are (one ``replace``:
``msgspec.structs.replace``).
"""

from __future__ import annotations

import enum

import msgspec

from engine.play.notation import Move

__all__ = ["Event", "EventKind", "GameRecord", "Player", "Pragma"]


class EventKind(enum.Enum):
    """The kinds of GCG event line."""

    PLACEMENT = "placement"
    """``>nick: RACK 8D WORD +32 32``"""
    WITHDRAWN = "withdrawn"
    """``>nick: RACK -- -32 0``: a phony withdrawn after a challenge."""
    PASS = "pass"
    """``>nick: RACK - +0 32``"""
    EXCHANGE = "exchange"
    """``>nick: RACK -TILES +0 32`` or ``-N`` when the tiles are unknown."""
    CHALLENGE_BONUS = "challenge_bonus"
    """``>nick: RACK (challenge) +5 37``"""
    END_POINTS = "end_points"
    """``>nick: (RACK) +14 400``: points for the opponent's tiles after going out."""
    END_DEDUCTION = "end_deduction"
    """``>nick: RACK (RACK) -7 380``: own tiles deducted at the end."""
    TIME_PENALTY = "time_penalty"
    """``>nick: RACK (time) -10 370``"""


class Pragma(msgspec.Struct, frozen=True):
    """A ``#name value`` line. Notes, unknown pragmas from other programs, and the
    known header pragmas all use this form."""

    name: str
    """The pragma name without ``#``, e.g. ``note``, ``title``, ``rack1``."""
    value: str
    """Everything after the name; a multi-line note holds newlines."""
    line: int = 0
    """1-based line in the source file (0 when built in memory); no part of the
    pragma's equality or hash."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pragma):
            return NotImplemented
        return (self.name, self.value) == (other.name, other.value)

    def __hash__(self) -> int:
        return hash((self.name, self.value))


class Player(msgspec.Struct, frozen=True):
    """A ``#playerN nick Full Name`` pragma."""

    nick: str
    """The nickname used on event lines."""
    name: str
    """The full name (may be empty)."""


class Event(msgspec.Struct, frozen=True):
    """One event line."""

    # A msgspec record, not a frozen dataclass: one is built for every line of every
    # file read, and a frozen dataclass's constructor of twelve fields costs ten times
    # as much.

    kind: EventKind
    """What the line records."""
    nick: str
    """Nickname of the player the line belongs to."""
    rack: str
    """The rack field as written (``""`` when absent)."""
    score: int
    """The signed score of the line (``+32``, ``-24``, ``+0``)."""
    cumulative: int
    """The player's cumulative score after the line."""
    move: Move | None = None
    """For a placement: position and tiles."""
    exchanged: str = ""
    """For an exchange with known tiles: the tiles exchanged."""
    exchange_count: int | None = None
    """For an exchange written ``-N``: how many tiles."""
    end_rack: str = ""
    """For end-of-game lines: the tiles in parentheses."""
    annotation: str = ""
    """Anything after the cumulative score, normalised to single spaces."""
    pragmas: tuple[Pragma, ...] = ()
    """Notes and other pragmas that follow this line, in order."""
    line: int = 0
    """1-based line in the source file; no part of the event's equality or hash."""

    def _identity(self) -> tuple[object, ...]:
        return msgspec.structs.astuple(self)[:-1]  # every field but ``line``, the last

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    @property
    def notes(self) -> tuple[str, ...]:
        """The ``#note`` texts attached to this event."""
        return tuple(p.value for p in self.pragmas if p.name == "note")


class GameRecord(msgspec.Struct, frozen=True):
    """A whole GCG file."""

    players: tuple[Player, ...]
    """Player 1 (who moves first) and player 2."""
    header: tuple[Pragma, ...] = ()
    """Pragmas before the first event, except players and the encoding, in order."""
    events: tuple[Event, ...] = ()
    """Event lines in order."""
    encoding: str = "ISO-8859-1"
    """``UTF-8`` when the file declares it on line 1, else the GCG default."""

    def pragma(self, name: str) -> str | None:
        """The value of the first pragma ``name`` anywhere in the record."""
        for p in self.all_pragmas():
            if p.name == name:
                return p.value
        return None

    def all_pragmas(self) -> list[Pragma]:
        """Header pragmas then those attached to events, in file order."""
        out = list(self.header)
        for ev in self.events:
            out.extend(ev.pragmas)
        return out

    @property
    def incomplete(self) -> bool:
        """True when the record carries ``#incomplete``."""
        return any(p.name == "incomplete" for p in self.all_pragmas())

    def nick_index(self, nick: str) -> int | None:
        """0 or 1 for a known nickname, else None."""
        for i, pl in enumerate(self.players):
            if pl.nick == nick:
                return i
        return None
