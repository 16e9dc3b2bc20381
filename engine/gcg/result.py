"""A result the moves' arithmetic cannot show, as rackclock's GCG export states it
(docs/gcg.md, "What the writer does"): a resignation, forfeit, declared result or an
overtime cutoff. Read here, for the writer and the checker alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.equipment.rack import is_subrack, parse_rack
from engine.equipment.tiles import TileSet
from engine.errors import EngineError, GcgError
from engine.gcg.reader import _INT
from engine.gcg.record import GameRecord

__all__ = [
    "ADJUSTED_PRAGMA",
    "DEDUCTED_PRAGMA",
    "RESULT_PRAGMA",
    "StatedResult",
    "check_stated",
    "read_stated",
    "stated_result",
]

RESULT_PRAGMA = "rackclock-result"
"""``REASON S1 S2 WINNER SPREAD``: the result, scores in the record's player order,
WINNER a nickname or ``tie``."""

DEDUCTED_PRAGMA = "rackclock-deducted"
"""``NICK RACK -N ...``: the racks deducted at an overtime cutoff, not written as end-rack
lines (MAGPIE takes those only after a game it sees end)."""

ADJUSTED_PRAGMA = "rackclock-adjusted"
"""``NICK +N ...``: a cutoff game's director's adjustments, in the result but not in the
totals (each is a ``#note director:`` where it was made)."""


@dataclass(frozen=True, slots=True)
class StatedResult:
    """The result pragma and the deducted racks after it."""

    line: int
    """The result pragma's line (0 when built in memory)."""
    reason: str
    scores: tuple[int, int]
    winner: str
    spread: int
    deducted: tuple[tuple[str, str, int], ...] = ()
    """``(nickname, rack, score)`` for each rack deducted at a cutoff."""
    adjusted: tuple[tuple[str, int], ...] = ()
    """``(nickname, points)``: a cutoff game's director's adjustments."""


def read_stated(record: GameRecord) -> StatedResult | None:
    """The record's stated result; None when the totals are the result.

    Raises:
        EngineError: A result or deduction pragma not in its form (quoted).
    """
    found: StatedResult | None = None
    deducted: list[tuple[str, str, int]] = []
    adjusted: list[tuple[str, int]] = []
    for pragma in record.all_pragmas():
        if pragma.name == RESULT_PRAGMA:
            parts = pragma.value.split()
            if found is not None:
                raise GcgError(pragma.line, f"#{RESULT_PRAGMA} {pragma.value!r}: a second result")
            if len(parts) != 5 or not all(_is_int(p) for p in (parts[1], parts[2], parts[4])):
                raise GcgError(
                    pragma.line,
                    f"#{RESULT_PRAGMA} {pragma.value!r} is not REASON S1 S2 WINNER SPREAD",
                )
            reason, a, b, winner, spread = parts
            found = StatedResult(pragma.line, reason, (int(a), int(b)), winner, int(spread))
        elif pragma.name == DEDUCTED_PRAGMA:
            parts = pragma.value.split()
            if len(parts) % 3 or not parts or not all(_is_int(p) for p in parts[2::3]):
                raise GcgError(
                    pragma.line, f"#{DEDUCTED_PRAGMA} {pragma.value!r} is not NICK RACK -N ..."
                )
            deducted.extend(
                (parts[i], parts[i + 1], int(parts[i + 2])) for i in range(0, len(parts), 3)
            )
        elif pragma.name == ADJUSTED_PRAGMA:
            parts = pragma.value.split()
            if len(parts) % 2 or not parts or not all(_is_int(p) for p in parts[1::2]):
                raise GcgError(
                    pragma.line, f"#{ADJUSTED_PRAGMA} {pragma.value!r} is not NICK +N ..."
                )
            adjusted.extend((parts[i], int(parts[i + 1])) for i in range(0, len(parts), 2))
    if found is None:
        if deducted or adjusted:
            raise EngineError(f"#{DEDUCTED_PRAGMA} or #{ADJUSTED_PRAGMA} without #{RESULT_PRAGMA}")
        return None
    return replace(found, deducted=tuple(deducted), adjusted=tuple(adjusted))


def stated_result(record: GameRecord) -> tuple[str, tuple[int, int], str, int] | None:
    """``(reason, scores, winner nick or "tie", spread)`` from the record's result pragma,
    scores in the record's player order; None when the totals are the result."""
    stated = read_stated(record)
    if stated is None:
        return None
    return stated.reason, stated.scores, stated.winner, stated.spread


def check_stated(
    stated: StatedResult,
    nicks: Sequence[str],
    totals: Sequence[int],
    unplayed: Mapping[str, int],
    tile_set: TileSet,
) -> list[str]:
    """What is wrong with ``stated`` after the moves' ``totals``, ``unplayed`` the tiles
    not on the board: the winner is a player or ``tie``; at a cutoff each player's score
    is the total less the racks deducted, each worth its tiles, the racks among the
    tiles left, plus the director's adjustments, and the winner and spread follow from
    the scores."""
    problems: list[str] = []
    if stated.winner != "tie" and stated.winner not in nicks:
        problems.append(f"the stated winner {stated.winner!r} is not a player")
    if stated.reason != "cutoff":
        return problems
    left = list(totals)
    racks: dict[str, int] = {}
    for nick, rack, score in stated.deducted:
        if nick not in nicks:
            problems.append(f"tiles deducted from {nick!r}, not a player")
            continue
        try:
            tiles = parse_rack(rack, tile_set)
        except EngineError as exc:
            problems.append(str(exc))
            continue
        value = tile_set.rack_value(tiles.elements())
        if score != -value:
            problems.append(f"{nick}'s tiles ({rack}) are worth {value}: deducted {score:+d}")
        left[nicks.index(nick)] += score
        for tile, n in tiles.items():
            racks[tile] = racks.get(tile, 0) + n
    for nick, points in stated.adjusted:
        if nick not in nicks:
            problems.append(f"{nick!r} adjusted, not a player")
        else:
            left[nicks.index(nick)] += points
    if not is_subrack(racks, unplayed):
        problems.append("the racks deducted are not among the tiles left unplayed")
    if tuple(left) != stated.scores:
        problems.append(
            f"the stated scores {stated.scores[0]} {stated.scores[1]} are not the totals "
            f"less the racks deducted and adjusted ({left[0]} {left[1]})"
        )
    a, b = stated.scores
    winner = "tie" if a == b else nicks[0] if a > b else nicks[1]
    if (stated.winner, stated.spread) != (winner, abs(a - b)):
        problems.append(
            f"the stated winner and spread ({stated.winner} {stated.spread}) "
            f"do not follow from the scores ({winner} {abs(a - b)})"
        )
    return problems


def _is_int(text: str) -> bool:
    """A whole number int() reads (not '²' or '-+5', which str.isdigit() would pass)."""
    return _INT.fullmatch(text) is not None
