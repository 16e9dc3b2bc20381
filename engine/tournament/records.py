"""What an event's ledger holds: frozen records, one per director's or table's act.

The log is append-only and hash-chained like a game's (:mod:`clock.tournament.ledger`),
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
    "Retracted",
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
    made: str = ""
    """A unique id the log was made with (random), so two logs made from one event
    file (a rehearsal and the day) are two events: the event's id hashes it."""


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
    """In the pairing's order: as played, typed or stood when the game stopped. A forfeit's
    scores decide nothing (``winner`` and ``spread`` do)."""
    kind: str = "game"
    """``game``; ``forfeit``: one player forfeited or resigned (a resignation counts as
    a forfeit: docs/variants.md), ``winner`` says who won; ``absent``: neither player
    came, both lose; ``bye``."""
    game: str = ""
    """The game log's file and head hash (``table-3.sqlite#9f2c...``) when it came from a table."""
    by: str = "director"
    reason: str = ""
    """Why a result was replaced (required for a correction)."""
    winner: int | None = None
    """A forfeit's winner (``first`` or ``second``): the other player resigned or
    forfeited, whatever the scores say (a resignation at 0-0 is a loss, not a tie).
    None: the scores decide (a game; a forfeit logged before this field)."""
    spread: int | None = None
    """A forfeit's spread by rule: the winner's +spread, the loser's -spread (the
    variant's forfeit or lateness spread; NZASP 10.2-10.3: 50). None: the scores'
    difference."""
    cause: str = ""
    """How a forfeit came: the table's ending (``resigned``, ``forfeit``, ``lateness``,
    ``absent``) or ``director`` (recorded by hand)."""

    @property
    def loser(self) -> int | None:
        """A forfeit's loser: who resigned or forfeited (None when the scores decide)."""
        if self.winner is None:
            return None
        return self.second if self.winner == self.first else self.first

    def won(self, seed: int) -> float:
        """What the game gives ``seed`` (``first`` or ``second``): 1 a win, a half a
        tie, 0 a loss."""
        if self.kind == "absent":
            return 0.0
        if self.winner is not None:
            return 1.0 if seed == self.winner else 0.0
        mine, theirs = self.scores if seed == self.first else self.scores[::-1]
        return 0.5 if mine == theirs else float(mine > theirs)

    def margin(self, seed: int) -> int:
        """``seed``'s spread in the game: a forfeit's by rule, else the scores'."""
        if self.kind == "absent":
            return 0
        mine, theirs = self.scores if seed == self.first else self.scores[::-1]
        if self.spread is None:
            return mine - theirs
        return self.spread if self.won(seed) else -self.spread


class Retracted(msgspec.Struct, frozen=True, tag="retracted"):
    """A result taken back (an entry undone at the desk): the pairing is without a
    result again, as before it was entered. Who and why are kept, as for a correction."""

    division: str
    round: int
    first: int
    second: int
    """The pairing, in its order, as its :class:`Result` names it."""
    by: str
    reason: str
    """Why (required): ``undo`` for an entry undone at the desk."""
    scores: tuple[int, int] | None = None
    winner: int | None = None
    """The result taken back (its scores and winner by rule): the ledger refuses the
    retraction if the game's result is no longer that one (changed at another desk
    meanwhile). None in a record written before they were kept: not checked."""


Record = Created | Entered | Withdrew | Paired | Unpaired | Result | Retracted

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Record] = msgspec.json.Decoder(Record)


def encode_record(record: Record) -> bytes:
    """The record as one JSON object."""
    return _encoder.encode(record)


def decode_record(body: bytes) -> Record:
    """Raises msgspec.DecodeError (a ValueError) when it is not a record."""
    return _decoder.decode(body)
