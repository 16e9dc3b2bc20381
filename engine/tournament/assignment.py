"""A table's assignment for a round: who plays whom there, who starts, the rules.

Published retained on each table's ``assignment`` topic (docs/mqtt.md) when the
director publishes a round, or read from the event's ledger by a table without a
broker. Tables are numbered through the round, division after division (in the
event file's order), in the order the pairings list them; a bye has no table.
:func:`round_assignments` is the one place the numbers come from: ``event pair``,
``show`` and ``publish``, the broker, ``LEDGER@tN``, the results' check of a
game's table, the sheets, the prizes and tsh's feed all use it (the last three
through :func:`table_numbers`), so a game has one number everywhere.
"""

from __future__ import annotations

import msgspec

from engine.tournament.errors import EventFileError
from engine.tournament.state import DivisionState, EventState

__all__ = [
    "Assignment",
    "decode_assignment",
    "encode_assignment",
    "latest_paired_round",
    "other_rounds_tables",
    "round_assignments",
    "table_numbers",
]


class Assignment(msgspec.Struct, frozen=True, forbid_unknown_fields=False):
    """One table's game in one round."""

    table: int
    division: str
    round: int
    players: tuple[str, str]
    """Left, right: the first named starts (``first`` = 0)."""
    variant: str
    event: str = ""
    seeds: tuple[int, int] = (0, 0)
    """The players' numbers in the division."""
    v: int = 1
    event_id: str = ""
    """The event's identity (:func:`engine.tournament.state.event_id`): the table's
    game carries it, so its result is taken by this event only."""
    anchor: str = ""
    """The event's ledger's head when the round was published (``COUNT:HASH``): kept
    outside the log, so a log cut or rewritten afterwards is found (``event verify``)."""

    @property
    def table_name(self) -> str:
        """The table's name on the broker and in log files: ``t3``."""
        return f"t{self.table}"


def round_assignments(state: EventState, round_: int, *, anchor: str = "") -> list[Assignment]:
    """Every table's assignment in ``round_`` (divisions that have paired it), with
    the log's ``anchor`` when it is published.

    Raises:
        EventFileError: No division has paired the round.
    """
    out: list[Assignment] = []
    for div in state.divisions.values():
        paired = div.pairings.get(round_)
        if paired is None:
            continue
        for first, second in paired.pairs:
            if not second:
                continue
            out.append(
                Assignment(
                    len(out) + 1,
                    div.spec.name,
                    round_,
                    (div.name(first), div.name(second)),
                    div.spec.variant,
                    state.spec.name,
                    (first, second),
                    event_id=state.id,
                    anchor=anchor,
                )
            )
    if not out:
        raise EventFileError(f"round {round_} is not paired in any division")
    return out


def table_numbers(state: EventState, div: DivisionState, round_: int) -> dict[tuple[int, int], int]:
    """The division's pairs of ``round_`` (paired) and their tables: each pair as
    paired (the first named starts), byes left out.

    Raises:
        EventFileError: No division has paired the round.
    """
    return {
        a.seeds: a.table for a in round_assignments(state, round_) if a.division == div.spec.name
    }


def latest_paired_round(state: EventState) -> int:
    """The latest round any division has paired (0 when none has): the round ``event
    publish`` sends by default and a ledger's ``LEDGER@tN`` reads."""
    return max((max(d.pairings) for d in state.divisions.values() if d.pairings), default=0)


def other_rounds_tables(state: EventState, round_: int) -> set[str]:
    """The names of the tables every other paired round used (``t3``): publishing
    ``round_`` clears their assignments, so a table it leaves empty is not shown a
    game of another round."""
    rounds = {r for d in state.divisions.values() for r in d.pairings if r != round_}
    return {a.table_name for r in rounds for a in round_assignments(state, r)}


_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Assignment] = msgspec.json.Decoder(Assignment)


def encode_assignment(a: Assignment) -> bytes:
    """The JSON payload."""
    return _encoder.encode(a)


def decode_assignment(payload: bytes, source: str) -> Assignment:
    """Read a payload.

    Raises:
        EventFileError: Not an assignment (quoted, with msgspec's path to the field).
    """
    try:
        return _decoder.decode(payload)
    except msgspec.DecodeError as exc:
        raise EventFileError(f"{source}: not a table assignment: {exc}: {payload[:80]!r}") from exc
