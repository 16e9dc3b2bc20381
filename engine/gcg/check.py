"""Checking a GCG record by replaying it through the engine.

Every placement is validated on the board and rescored; racks are checked
against the tile set and from turn to turn; cumulative scores, the turn order,
the end of the game and the end-of-game adjustments are verified. Each problem
is reported with its line number; after a wrong score the check resynchronises
to the declared total so that one slip is reported once, not on every later line.

End-of-game conventions accepted (be liberal in layout, strict in arithmetic):

* the player who goes out gets twice the value of the opponent's tiles on one
  line ``>a: (TILES) +2v`` (NASPA, WESPA, NZASP 8.1);
* older WESPA/ABSP records give the player who went out the value once and
  deduct it from the opponent on a separate line ``>b: TILES (TILES) -v``.

The rules checked come from a :class:`~engine.rules.variant.Variant`: its tile
set and board, the scoreless turns that end the game and the fewest tiles in
the bag that allow an exchange.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.equipment.board import EMPTY, Board
from engine.equipment.rack import is_subrack, leave, parse_rack, rack_string, take_tiles
from engine.equipment.tiles import load_tile_set
from engine.errors import EngineError, GcgError
from engine.gcg.reader import _INT, parse_gcg
from engine.gcg.record import Event, EventKind, GameRecord
from engine.gcg.result import check_stated, read_stated
from engine.play.placement import Placement, place
from engine.rules.variant import Variant

__all__ = [
    "EXCHANGE_PRAGMA",
    "SETTLED_PRAGMA",
    "UNKNOWN_RACK_PRAGMA",
    "CheckResult",
    "Problem",
    "check_bytes",
    "check_record",
]


@dataclass(frozen=True, slots=True)
class Problem:
    """One inconsistency, at a 1-based line (0 = the whole file)."""

    line: int
    """Line number."""
    message: str
    """What is wrong, quoting the input."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict on one record."""

    file: str
    """The file checked (or a label)."""
    ok: bool
    """True when no problem was found."""
    complete: bool
    """True when the game reached its end with every end-of-game line."""
    errors: tuple[Problem, ...]
    """Every problem, in line order."""
    final_scores: dict[str, int] = field(default_factory=dict)
    """Each player's score by nickname: the stated result's (#rackclock-result) when
    there is one, else the last cumulative score."""
    warnings: tuple[Problem, ...] = ()
    """What a reader should know but is not an error (a score settled at the table)."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form of the result."""
        return {
            "file": self.file,
            "ok": self.ok,
            "complete": self.complete,
            "errors": [{"line": p.line, "message": p.message} for p in self.errors],
            "final_scores": self.final_scores,
            "warnings": [{"line": p.line, "message": p.message} for p in self.warnings],
        }


class _Replay:
    """Mutable bookkeeping for one check; lives only inside :func:`check_record`."""

    def __init__(self, record: GameRecord, variant: Variant) -> None:
        tile_set = load_tile_set(variant.tile_set)
        self.rec = record
        self.variant = variant
        self.ts = tile_set
        self.tiles = tile_set.total  # a sum over the set: counted once, not on every line
        self.board = Board.empty(variant.layout)
        self.problems: list[Problem] = []
        self.nicks = [p.nick for p in record.players]
        self.total = [0, 0]  # last declared cumulative per player
        self.held = [tile_set.rack_size, tile_set.rack_size]
        self.kept: list[Mapping[str, int] | None] = [None, None]  # known leave per player
        self.turn: int | None = None
        self.scoreless = 0
        self.over: str | None = None  # why the game ended
        self.out_player: int | None = None
        self.last: tuple[int, Event, Placement | None, int, int] | None = None
        self.paid_out: set[int] = set()
        self.deducted: set[int] = set()
        self.timed: set[int] = set()
        self.pending_deduction: tuple[int, int] | None = None  # (player, value) old convention
        # Tiles not on the board, kept up to date play by play: rebuilding it from the
        # board on every line was 40% of the check's time.
        self.pool: Counter[str] = tile_set.distribution()
        # After a wrong total, the recomputed one: a later line that agrees with it was
        # right, and the slip is reported once.
        self.alt_total: list[int | None] = [None, None]
        self.warnings: list[Problem] = []

    # --- helpers -------------------------------------------------------------
    def err(self, ev: Event | int, message: str) -> None:
        line = ev if isinstance(ev, int) else ev.line
        self.problems.append(Problem(line, message))

    def warn(self, ev: Event | int, message: str) -> None:
        line = ev if isinstance(ev, int) else ev.line
        self.warnings.append(Problem(line, message))

    def bag(self) -> int:
        return self.tiles - self.board.tile_count() - self.held[0] - self.held[1]

    def unplayed(self) -> Counter[str]:
        """Tiles not on the board: in the bag or on either rack. Do not mutate."""
        return self.pool

    def _take(self, pl: Placement, sign: int) -> None:
        pool = self.pool
        for tile in pl.rack_tiles:
            left = pool[tile] - sign
            if left:
                pool[tile] = left
            else:
                pool.pop(tile)  # dict's own, in C: Counter's ``del`` runs in Python

    def check_total(self, p: int, ev: Event) -> None:
        expected = self.total[p] + ev.score
        alt = self.alt_total[p]
        self.alt_total[p] = None
        if alt is not None and ev.cumulative == alt + ev.score:
            self.total[p] = ev.cumulative
            return
        if ev.cumulative != expected:
            self.alt_total[p] = expected
            self.err(
                ev,
                f"{self.nicks[p]}'s total {ev.cumulative} should be "
                f"{self.total[p]} {ev.score:+d} = {expected}",
            )
        self.total[p] = ev.cumulative

    def check_rack(self, p: int, ev: Event) -> Counter[str] | None:
        """Parse and check the rack field; None when it is absent or unusable."""
        if not ev.rack:
            return None
        try:
            rack = parse_rack(ev.rack, self.ts)
        except EngineError as exc:
            self.err(ev, str(exc))
            return None
        size = len(ev.rack)  # parse_rack counts every character once: the rack's size
        if size > self.held[p]:
            self.err(
                ev,
                f"rack {ev.rack!r} has {size} tiles; {self.nicks[p]} can hold only {self.held[p]}",
            )
        if not is_subrack(rack, self.unplayed()):
            self.err(
                ev,
                f"rack {ev.rack!r} cannot be: the tile set {self.ts.name!r} has no more of "
                + repr(rack_string(+(rack - self.unplayed()))),
            )
            return None
        kept = self.kept[p]
        if kept is not None and size == self.held[p] and not is_subrack(kept, rack):
            # A warning, not an error: real records hold annotators' partial racks and
            # real overdraws; the tiles and arithmetic are still checked.
            self.warn(
                ev,
                f"rack {ev.rack!r} lacks {rack_string(+(Counter(kept) - rack))!r} "
                f"kept from {self.nicks[p]}'s previous rack",
            )
        return rack

    def take_turn(self, p: int, ev: Event) -> bool:
        """Check that ``p`` may take a turn now; returns False if the line is out of place."""
        if self.over is not None:
            self.err(ev, f"{ev.kind.value} by {self.nicks[p]} after the game ended ({self.over})")
            self.total[p] = ev.cumulative
            return False
        if self.turn is None and p != 0:
            # GCG: #player1 is the player who moves first.
            self.err(ev, f"{self.nicks[p]} (#player2) moves first; #player1 must move first")
        elif self.turn is not None and self.turn != p:
            self.err(ev, f"{self.nicks[p]} moves out of turn; it is {self.nicks[self.turn]}'s turn")
        return True

    def end_turn(self, p: int, scored: bool) -> None:
        self.turn = 1 - p
        self.scoreless = 0 if scored else self.scoreless + 1
        if self.scoreless >= self.variant.scoreless_turns and self.over is None:
            self.over = f"{self.variant.scoreless_turns} scoreless turns"

    # --- events ----------------------------------------------------------------
    def placement(self, p: int, ev: Event) -> None:
        if not self.take_turn(p, ev):
            return
        rack = self.check_rack(p, ev)
        assert ev.move is not None
        try:
            pl = place(self.board, ev.move, self.ts)
        except EngineError as exc:
            self.err(ev, str(exc))
            self.check_total(p, ev)
            self.end_turn(p, ev.score != 0)
            self.last = None
            # The tiles are on the board all the same: later plays through them are
            # checked against them, and this one slip is reported once.
            self._lay_anyway(p, ev)
            return
        kept = take_tiles(rack, pl.rack_tiles) if rack is not None else None
        if rack is not None and kept is None:
            used = Counter(pl.rack_tiles)
            self.err(
                ev,
                f"play {ev.move.gcg()!r} uses {rack_string(+(used - rack))!r}, "
                f"not on the rack {ev.rack!r}",
            )
        n = len(pl.new)
        if n > self.held[p]:
            self.err(
                ev, f"play {ev.move.gcg()!r} uses {n} tiles; {self.nicks[p]} holds {self.held[p]}"
            )
        if pl.score != ev.score:
            words = ", ".join(f"{w} {s}" for w, s in zip(pl.words, pl.word_scores, strict=True))
            bonus = f" + {self.ts.bingo_bonus} bonus" if pl.bingo else ""
            text = f"play {ev.move.gcg()!r} scores {pl.score} ({words}{bonus}), not {ev.score:+d}"
            if _settled(ev) == ev.score:
                # The players settled this score at the table (a #rackclock-settled line):
                # it stands, as a recorded score does, and is reported, not refused.
                self.warn(ev, f"{text}: settled at the table")
            else:
                self.err(ev, text)
        self.check_total(p, ev)
        self.last = (p, ev, pl, self.held[p], self.scoreless)
        self.board = self.board.with_tiles(pl.new)
        self._take(pl, 1)
        self.held[p] = max(0, self.held[p] - n)
        self.held[p] += min(n, max(0, self.bag()))
        self.kept[p] = kept
        # A play that stands resets the scoreless count even if it scored 0 (a word of
        # blanks): the reading macondo also takes; see docs/gcg.md.
        self.end_turn(p, scored=True)
        if self.held[p] == 0 and self.bag() <= 0 and self.over is None:
            self.over = f"{self.nicks[p]} went out"
            self.out_player = p

    def _lay_anyway(self, p: int, ev: Event) -> None:
        assert ev.move is not None
        pos, lay = ev.move.position, self.board.layout
        step = 1 if pos.across else lay.cols
        start = pos.row * lay.cols + pos.col
        laid: list[tuple[int, str]] = []
        for k, ch in enumerate(ev.move.tiles):
            row, col = (pos.row, pos.col + k) if pos.across else (pos.row + k, pos.col)
            idx = start + k * step
            if ch == "." or row >= lay.rows or col >= lay.cols or self.board.cells[idx] != EMPTY:
                continue
            if ch.islower() or ch.upper() in self.ts.values:
                laid.append((idx, ch))
        self.board = self.board.with_tiles(laid)
        for _, ch in laid:
            tile = self.ts.blank if ch.islower() else ch
            if self.pool[tile] > 1:
                self.pool[tile] -= 1
            else:
                self.pool.pop(tile, None)
        self.held[p] = max(0, self.held[p] - len(laid))
        self.held[p] += min(len(laid), max(0, self.bag()))
        self.kept[p] = None

    def withdrawn(self, p: int, ev: Event) -> None:
        last = self.last
        if (
            last is None
            or last[0] != p
            or last[1].kind is not EventKind.PLACEMENT
            or last[2] is None
        ):
            self.err(
                ev,
                f"{self.nicks[p]} withdraws a play, but the last move was not theirs to withdraw",
            )
            self.check_total(p, ev)
            return
        _, played, pl, held_before, scoreless_before = last
        assert pl is not None  # narrowed above; tuple unpacking loses it
        if ev.rack and played.rack and sorted(ev.rack.upper()) != sorted(played.rack.upper()):
            self.err(
                ev,
                f"withdrawing {played.move}: the rack {ev.rack!r} is not the rack it was "
                f"played from ({played.rack!r})",
            )
        if ev.score != -played.score:
            self.err(
                ev, f"withdrawing {played.move}: expected {-played.score:+d}, got {ev.score:+d}"
            )
        self.check_total(p, ev)
        self.board = self.board.without(i for i, _ in pl.new)
        self._take(pl, -1)
        self.held[p] = held_before
        if self.out_player == p:
            self.over, self.out_player = None, None
        self.kept[p] = None
        self.scoreless = scoreless_before
        self.end_turn(p, scored=False)
        self.last = (p, ev, None, held_before, scoreless_before)

    def exchange(self, p: int, ev: Event) -> None:
        if not self.take_turn(p, ev):
            return
        rack = self.check_rack(p, ev)
        bag = self.bag()
        least = self.variant.exchange_min_bag
        if bag < least:
            self.err(ev, f"exchange with {bag} tiles in the bag; at least {least} needed")
        if ev.score != 0:
            self.err(ev, f"an exchange scores 0, not {ev.score:+d}")
        count = ev.exchange_count if ev.exchange_count is not None else len(ev.exchanged)
        if count < 1 or count > self.held[p]:
            self.err(ev, f"cannot exchange {count} tiles from a rack of {self.held[p]}")
        self.kept[p] = None
        if ev.exchanged:
            try:
                swapped = parse_rack(ev.exchanged, self.ts)
            except EngineError as exc:
                self.err(ev, str(exc))
            else:
                if rack is not None:
                    if is_subrack(swapped, rack):
                        self.kept[p] = leave(rack, swapped)
                    else:
                        self.err(ev, f"exchanges {ev.exchanged!r}, not all on the rack {ev.rack!r}")
        self.check_total(p, ev)
        self.last = (p, ev, None, self.held[p], self.scoreless)
        self.end_turn(p, scored=False)

    def pass_(self, p: int, ev: Event) -> None:
        if (
            self.out_player is not None
            and p != self.out_player
            and ev.score == 0
            and self.out_player not in self.paid_out
        ):
            # The opponent accepts the out-play with a pass before the end-of-game
            # line, as Woogles records it: nothing happens.
            self.check_total(p, ev)
            return
        if not self.take_turn(p, ev):
            return
        rack = self.check_rack(p, ev)
        if ev.score != 0:
            self.err(ev, f"a pass scores 0, not {ev.score:+d}")
        self.check_total(p, ev)
        self.kept[p] = rack
        self.last = (p, ev, None, self.held[p], self.scoreless)
        self.end_turn(p, scored=False)

    def challenge_bonus(self, p: int, ev: Event) -> None:
        last = self.last
        if last is None or last[0] != p or last[2] is None:
            self.err(
                ev, f"challenge bonus for {self.nicks[p]}, but the last move is not their play"
            )
        if ev.score < 0:
            self.err(ev, f"a challenge bonus cannot be negative: {ev.score:+d}")
        self.check_total(p, ev)

    def end_points(self, p: int, ev: Event) -> None:
        if self.out_player != p:
            self.err(ev, f"points for the opponent's tiles, but {self.nicks[p]} has not gone out")
            self.check_total(p, ev)
            return
        if p in self.paid_out:
            self.err(ev, "points for the opponent's tiles given twice")
        self.paid_out.add(p)
        try:
            shown = parse_rack(ev.end_rack, self.ts)
        except EngineError as exc:
            self.err(ev, str(exc))
            self.check_total(p, ev)
            return
        left = self.unplayed()
        if shown != left:
            self.err(
                ev,
                f"opponent's tiles ({ev.end_rack}) are not the tiles left unplayed "
                f"({rack_string(left)})",
            )
        value = self.ts.rack_value(shown.elements())
        if ev.score == 2 * value:
            pass
        elif ev.score == value:
            # Older WESPA/ABSP convention: the opponent loses the same on a line of their own.
            self.pending_deduction = (1 - p, value)
        else:
            self.err(
                ev,
                f"going out earns 2 x {value} = {2 * value} for ({ev.end_rack}), not {ev.score:+d}",
            )
        self.check_total(p, ev)

    def end_deduction(self, p: int, ev: Event) -> None:
        if self.over is None:
            timed = any(
                e.kind is EventKind.TIME_PENALTY and e.line > ev.line for e in self.rec.events
            )
            if not timed:
                self.err(ev, f"tiles deducted from {self.nicks[p]} before the game ended")
                self.check_total(p, ev)
                return
            # Racks counted with no one out and no six scoreless turns, and (time) lines
            # after them: the game stopped at an overtime cutoff. Only end-of-game lines
            # may follow.
            self.over = "stopped"
        if p in self.deducted:
            self.err(ev, f"{self.nicks[p]}'s tiles deducted twice")
        self.deducted.add(p)
        try:
            shown = parse_rack(ev.end_rack, self.ts)
        except EngineError as exc:
            self.err(ev, str(exc))
            self.check_total(p, ev)
            return
        value = self.ts.rack_value(shown.elements())
        if ev.rack and parse_rack(ev.rack, self.ts) != shown:
            self.err(ev, f"rack {ev.rack!r} and deducted tiles ({ev.end_rack}) differ")
        if self.out_player is not None:
            if self.pending_deduction is None or self.pending_deduction[0] != p:
                self.err(
                    ev, f"{self.nicks[p]} loses tiles after the opponent went out with 2x points"
                )
            elif shown != self.unplayed():
                self.err(ev, f"deducted tiles ({ev.end_rack}) are not the tiles left unplayed")
            self.pending_deduction = None
        elif not is_subrack(shown, self.unplayed()):
            self.err(ev, f"deducted tiles ({ev.end_rack}) cannot be on the rack")
        if ev.score != -value:
            self.err(
                ev,
                f"tiles ({ev.end_rack}) are worth {value}: expected {-value:+d}, got {ev.score:+d}",
            )
        self.check_total(p, ev)

    def time_penalty(self, p: int, ev: Event) -> None:
        if self.over is None:
            # GCG writes (time) only at the end: one here means the game ended on time
            # (an overtime cutoff), and only end-of-game lines may follow.
            self.over = "time"
        if p in self.timed:
            self.err(ev, f"{self.nicks[p]} has a time penalty twice")
        self.timed.add(p)
        if ev.score > 0:
            self.err(ev, f"a time penalty cannot add points: {ev.score:+d}")
        self.check_total(p, ev)

    def complete(self) -> bool:
        if self.over is None or self.rec.incomplete:
            return False
        if self.over in ("time", "stopped"):
            return True
        if self.out_player is not None:
            return self.out_player in self.paid_out and self.pending_deduction is None
        return self.deducted == {0, 1}


def check_record(record: GameRecord, variant: Variant, *, label: str = "<record>") -> CheckResult:
    """Replay ``record`` under ``variant``'s rules and report every inconsistency."""
    rp = _Replay(record, variant)
    ts = rp.ts
    nicks = [pl.nick for pl in record.players]
    if len(record.players) != 2 or len(set(nicks)) != 2:
        # The moves cannot be replayed without two players to give them to: this one
        # problem is reported, not every move after it.
        if len(record.players) != 2:
            rp.err(0, "the record does not name two players")
        else:
            rp.err(0, f"both players have the nickname {nicks[0]!r}")
        errors = tuple(sorted(rp.problems, key=lambda pr: pr.line))
        return CheckResult(label, False, False, errors, {}, ())
    names = [pl.name for pl in record.players]
    if names[0] and names[0].casefold() == names[1].casefold():
        rp.warn(0, f"both players are named {names[0]!r}: results would mix them up")
    dispatch = {
        EventKind.PLACEMENT: rp.placement,
        EventKind.WITHDRAWN: rp.withdrawn,
        EventKind.PASS: rp.pass_,
        EventKind.EXCHANGE: rp.exchange,
        EventKind.CHALLENGE_BONUS: rp.challenge_bonus,
        EventKind.END_POINTS: rp.end_points,
        EventKind.END_DEDUCTION: rp.end_deduction,
        EventKind.TIME_PENALTY: rp.time_penalty,
    }
    # record.nick_index's answer, looked up once per line: the nicknames differ (above).
    seat = {nick: i for i, nick in enumerate(nicks)}
    for ev in record.events:
        if ev.pragmas:  # most lines have none: one test, not three
            if ev.kind is EventKind.PASS:
                ev = _as_exchange(_unknown_rack(ev))
            elif ev.kind is EventKind.PLACEMENT:
                ev = _unknown_rack(ev)
            elif ev.kind is EventKind.EXCHANGE:
                ev = _counted_exchange(ev)
        p = seat.get(ev.nick)
        if p is None:
            rp.err(ev, f"unknown player {ev.nick!r}")
            continue
        if ev.kind is EventKind.PLACEMENT:
            rp.placement(p, ev)  # most lines: no dict lookup, which hashes the enum in Python
        else:
            dispatch[ev.kind](p, ev)
    for pragma in record.all_pragmas():
        if pragma.name in ("rack1", "rack2"):
            try:
                rack = parse_rack(pragma.value.split()[0] if pragma.value else "", ts)
            except EngineError as exc:
                rp.err(pragma.line, str(exc))
                continue
            if not is_subrack(rack, rp.unplayed()):
                rp.err(pragma.line, f"#{pragma.name} {pragma.value!r} cannot be with this board")
        elif pragma.name in (EXCHANGE_PRAGMA, SETTLED_PRAGMA) and _count(pragma.value) is None:
            rp.err(pragma.line, f"#{pragma.name} {pragma.value!r} is not a whole number")
    final = {nick: rp.total[i] for i, nick in enumerate(rp.nicks)}
    try:
        stated = read_stated(record)
    except GcgError as exc:
        rp.err(exc.line, exc.message)
        stated = None
    except EngineError as exc:
        rp.err(0, str(exc))
        stated = None
    if stated is not None:
        # A resignation, forfeit or cutoff: the stated scores are the result, held to
        # the moves where the moves decide them (a cutoff's totals less its racks).
        for message in check_stated(stated, rp.nicks, rp.total, rp.unplayed(), ts):
            rp.err(stated.line, message)
        final = dict(zip(rp.nicks, stated.scores, strict=True))
    errors = tuple(sorted(rp.problems, key=lambda pr: pr.line))
    return CheckResult(label, not errors, rp.complete(), errors, final, tuple(rp.warnings))


def check_bytes(data: bytes, label: str, variant: Variant) -> CheckResult:
    """Read and check the bytes of one GCG file; what cannot be read is reported too.

    Args:
        data: The file's bytes (GCG: UTF-8 when declared, else ISO-8859-1).
        label: The file's name, for the result.
        variant: The rules the game was played under.
    """
    parsed = parse_gcg(data)
    result = check_record(parsed.record, variant, label=label)
    syntax = tuple(Problem(e.line, e.message) for e in parsed.errors)
    if not syntax:
        return result
    errors = tuple(sorted(syntax + result.errors, key=lambda pr: pr.line))
    return CheckResult(label, False, False, errors, result.final_scores, result.warnings)


SETTLED_PRAGMA = "rackclock-settled"
"""After a play: the score the players settled at the table (it may differ from the board's)."""

EXCHANGE_PRAGMA = "rackclock-exchange"
"""After a pass line: it was an exchange of this many tiles, which the table did not
see. Strict readers need the tiles of an exchange; written as a pass (the same score,
turn and scoreless count), it loads there, and it reads back here as the exchange."""


def _as_exchange(ev: Event) -> Event:
    """A pass carrying :data:`EXCHANGE_PRAGMA`, read back as the exchange it was."""
    for pragma in ev.pragmas:
        if pragma.name == EXCHANGE_PRAGMA and (count := _count(pragma.value)) is not None:
            return msgspec.structs.replace(ev, kind=EventKind.EXCHANGE, exchange_count=count)
    return ev


UNKNOWN_RACK_PRAGMA = "rackclock-rack-unknown"
"""After a pass line: its rack was not seen at the table, and the one tile written is
a stand-in so that strict readers (which need a tile on a pass) load the record.
After a play: the one tile named was added to the tiles known, so that strict readers
do not take the play for going out (docs/gcg.md)."""


def _counted_exchange(ev: Event) -> Event:
    """An exchange of stand-in tiles (marked with both :data:`EXCHANGE_PRAGMA` and
    :data:`UNKNOWN_RACK_PRAGMA`), read back as the exchange the table only counted."""
    names = {pragma.name for pragma in ev.pragmas}
    if EXCHANGE_PRAGMA not in names or UNKNOWN_RACK_PRAGMA not in names:
        return ev
    counts = (_count(p.value) for p in ev.pragmas if p.name == EXCHANGE_PRAGMA)
    count = next((n for n in counts if n is not None), None)
    if count is None:  # no count it can read: a pass, as _as_exchange reads one
        return msgspec.structs.replace(ev, kind=EventKind.PASS, rack="", exchanged="")
    return msgspec.structs.replace(ev, exchange_count=count, rack="", exchanged="")


def _unknown_rack(ev: Event) -> Event:
    """A pass or play carrying :data:`UNKNOWN_RACK_PRAGMA`, read back with its rack
    unknown (a pass) or without the stand-in (a play)."""
    for pragma in ev.pragmas:
        if pragma.name != UNKNOWN_RACK_PRAGMA:
            continue
        if ev.kind is EventKind.PASS:
            return msgspec.structs.replace(ev, rack="")
        tile = pragma.value.strip()
        if tile and tile in ev.rack:
            return msgspec.structs.replace(ev, rack=ev.rack.replace(tile, "", 1))
    return ev


def _settled(ev: Event) -> int | None:
    for pragma in ev.pragmas:
        if pragma.name == SETTLED_PRAGMA and (score := _count(pragma.value)) is not None:
            return score
    return None


def _count(value: str) -> int | None:
    """A pragma's whole number (reader's one check: not '²' or '-+5', which
    str.isdigit() would pass and int() cannot read); None when it is not one."""
    text = value.strip()
    return int(text) if _INT.fullmatch(text) else None
