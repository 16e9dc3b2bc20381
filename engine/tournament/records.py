"""What an event's log holds: frozen records, one per director's or table's act.

The log is append-only and hash-chained like a game's (:mod:`clock.event.ledger`),
so every pairing and every result, and every correction with its reason, can be
explained and replayed.
"""

from __future__ import annotations

import msgspec

from engine.tournament.spec import Player

__all__ = [
    "Created",
    "Entered",
    "Paired",
    "Record",
    "Result",
    "Unpaired",
    "Withdrew",
    "decode_record",
    "encode_record",
]


class Created(msgspec.Struct, frozen=True, tag="created"):
    """The event, as its file said when the log was made (the log is self-contained)."""

    event: str
    """The event file's text (TOML)."""
    source: str = ""


class Entered(msgspec.Struct, frozen=True, tag="entered"):
    """A late entry: the next seed number in the division, paired from ``round``."""

    division: str
    player: Player
    round: int


class Withdrew(msgspec.Struct, frozen=True, tag="withdrew"):
    """A player leaves: not paired from ``round`` on."""

    division: str
    seed: int
    round: int
    reason: str = ""


class Paired(msgspec.Struct, frozen=True, tag="paired"):
    """A round's pairings: ``(first, second)`` by seed, the first starts; 0 is the bye."""

    division: str
    round: int
    pairs: tuple[tuple[int, int], ...]
    system: str = ""
    notes: tuple[str, ...] = ()


class Unpaired(msgspec.Struct, frozen=True, tag="unpaired"):
    """A round's pairings withdrawn (before any of its results), to pair it again."""

    division: str
    round: int
    reason: str


class Result(msgspec.Struct, frozen=True, tag="result"):
    """A game's result (or a correction of it, with a reason)."""

    division: str
    round: int
    first: int
    second: int
    """0 for a bye."""
    scores: tuple[int, int]
    kind: str = "game"
    """``game``, ``forfeit`` (the loser forfeits), ``bye``."""
    game: str = ""
    """The game log's file and head hash (``table-3.sqlite#9f2c...``) when it came from a table."""
    by: str = "director"
    reason: str = ""
    """Why a result was replaced (required for a correction)."""


Record = Created | Entered | Withdrew | Paired | Unpaired | Result

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Record] = msgspec.json.Decoder(Record)


def encode_record(record: Record) -> bytes:
    """The record as one JSON object."""
    return _encoder.encode(record)


def decode_record(body: bytes) -> Record:
    """Raises msgspec.DecodeError (a ValueError) when it is not a record."""
    return _decoder.decode(body)
