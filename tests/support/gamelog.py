"""A deterministic generator of random, valid table event logs.

Where :mod:`tests.support.corpus` writes finished games as GCG records, this module
writes what a table logs while a game is played: ``game_started``, then per
turn ``tiles_placed`` (a legal board placement with its correct declared
score, in GCG notation), ``clock_pressed`` and ``tiles_drawn`` (the number of
tiles the bag can give), passes, exchanges, holds, challenges with both
verdicts, neutralizations, the director's adjustments, the out-play and its
answer, and ``end_racks`` with the tiles really left on the racks.

The games are nonsense as language (no word list is consulted) but exact as
bookkeeping: a shuffled bag and two real racks are tracked tile by tile, as in
:mod:`tests.support.corpus`. Every event is applied to :func:`engine.rules.machine.apply` as
it is generated and must be accepted (the generator's self-check), so every
log replays with no refusal. The generator reads the engine's state to decide
what the table does next, so deadlines (the overtime cutoff of NASPA, WESPA,
the Indonesian open and Toronto speed play) are logged as ``time_checked`` at
their instant and the game goes on, or ends, as the rules say.

Think times are drawn per player from a log-normal law around a pace that
varies by game, scaled to the variant's clock, so some games go into overtime
(and a few reach the cutoff). Variants in scoresheet mode (Toronto speed play)
are played in board mode (``game_started`` with ``mode: "board"``).

``random_log(seed, variant, games)`` is a pure function of its arguments: game
``i`` of the log is the game of seed ``seed + i``, shifted in time to start
after the previous one is over. :func:`log_of_size` builds a long log for
benchmarks by repeating a pool of games with time offsets.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from functools import cache

from msgspec.structs import replace

from clock.user_files import load_variant
from engine.equipment.board import EMPTY
from engine.equipment.layout import Layout
from engine.equipment.tiles import TileSet, load_tile_set
from engine.errors import Refusal
from engine.events import (
    Accepted,
    Adjudicated,
    Adjusted,
    Challenged,
    ClockPressed,
    ClockRestarted,
    EndRacks,
    Event,
    Exchanged,
    GameStarted,
    HoldCalled,
    HoldReleased,
    Neutralized,
    Passed,
    Resumed,
    ScoreRecorded,
    TilesDrawn,
    TilesPlaced,
    TimeChecked,
)
from engine.play.placement import Placement
from engine.rules.machine import apply, next_deadline
from engine.rules.replay import replay
from engine.rules.state import GameState, Phase
from engine.rules.variant import Variant, list_variants
from tests.support.corpus import rack_string_of, try_play

__all__ = [
    "BOARD_VARIANTS",
    "check_log",
    "game_events",
    "game_turns",
    "log_of_size",
    "numbered",
    "random_log",
    "turns_of",
]

BOARD_VARIANTS: tuple[str, ...] = tuple(list_variants())
"""Every bundled variant; those in scoresheet mode are played in board mode."""

_NAMES = ("Ann", "Ben", "Cyd", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")
_NEUTRAL_REASONS = (
    "tile count",
    "bag check",
    "player left the table",
    "rule question to the director",
    "clock check",
)

# Probabilities per decision. Small, so games are mostly plays, but a few
# hundred games exercise every procedure.
_P_PASS = 0.02
_P_EXCHANGE = 0.03
_P_NEUTRALIZE = 0.012
_P_ADJUST = 0.008
_P_ADJUST_AFTER = 0.03
_P_CHALLENGE = 0.06
_P_HOLD = 0.03
_P_ACCEPT = 0.05
_P_UNACCEPTABLE = 0.45
_P_HOLD_THEN_CHALLENGE = 0.4
_P_OUT_CHALLENGE = 0.08
_P_OUT_HOLD = 0.04
_P_RESTART = 0.25
_P_STALL = 0.08
_P_SLOW_GAME = 0.1

# New tiles a play tries for, by weight: short plays, so that a game runs to
# about 40 turns (100 tiles, 14 on the opening racks).
_SIZES = (1, 2, 3, 4, 5, 6, 7)
_SIZE_WEIGHTS = (8, 12, 8, 4, 1, 1, 1)
_ATTEMPTS = 40
_GAP_MS = 300_000
"""Time between the end of one game and the start of the next in a log."""


@cache
def _neighbours(layout: Layout) -> tuple[tuple[int, ...], ...]:
    rows, cols = layout.rows, layout.cols
    out: list[tuple[int, ...]] = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        out.append(
            tuple(
                (r + dr) * cols + (c + dc)
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            )
        )
    return tuple(out)


class GeneratorError(AssertionError):
    """The engine refused an event the generator made: a generator or engine bug."""


class _Game:
    """One game played out at a simulated table, event by event."""

    def __init__(self, seed: int, variant: str) -> None:
        self.seed = seed
        self.rng = random.Random(f"gamelog:{variant}:{seed}")
        self.variant_name = variant
        self.v: Variant = load_variant(variant)  # a bundled name, or a director's file
        self.ts: TileSet = load_tile_set(self.v.tile_set)
        self.scale = self.v.initial_ms / 1_500_000
        self.letters = sorted(t for t in self.ts.counts if self.ts.has_letter(t))
        bag = list(self.ts.distribution().elements())
        self.rng.shuffle(bag)
        self.bag = bag
        self.racks: list[list[str]] = [self._take(self.ts.rack_size) for _ in range(2)]
        names = self.rng.sample(_NAMES, 2)
        self.players = (names[0], names[1])
        slow = self.rng.random() < _P_SLOW_GAME
        # Mean think time of a play, per player, in ms at 25:00 a side.
        self.pace = [self.rng.uniform(30_000, 75_000) for _ in range(2)]
        if slow:
            self.pace[self.rng.randrange(2)] = self.rng.uniform(100_000, 130_000)
        self.stall = self.rng.random() < _P_STALL
        self.state = GameState()
        self.events: list[Event] = []
        self.t = 0
        # Decisions already taken about the play pressed at a given instant.
        self.answered: int | None = None
        self.recorded: int | None = None
        self.restart_decided: int | None = None
        self.verdict = True
        self.hold_then_challenge = False
        # The last pressed play: (player, rack tiles it took, tiles drawn for it).
        self.pending: tuple[int, list[str], list[str]] | None = None

    # --- bookkeeping -----------------------------------------------------------
    def _take(self, n: int) -> list[str]:
        n = min(n, len(self.bag))
        drawn = self.bag[len(self.bag) - n :]
        del self.bag[len(self.bag) - n :]
        return drawn

    def _ms(self, lo_s: float, hi_s: float) -> int:
        """A random duration between ``lo_s`` and ``hi_s`` seconds (at 25:00 a side)."""
        return max(200, int(self.rng.uniform(lo_s, hi_s) * 1000 * self.scale))

    def _think(self, p: int, factor: float = 1.0) -> int:
        mean = self.pace[p] * factor * self.scale
        sigma = 0.7
        ms = self.rng.lognormvariate(math.log(mean) - sigma * sigma / 2, sigma)
        return int(min(max(ms, 2500 * self.scale), 8 * mean))

    def _check(self) -> None:
        st = self.state
        if st.mode != "board" or st.phase is Phase.OVER:
            return
        racks = (len(self.racks[0]), len(self.racks[1]))
        if st.bag != len(self.bag) or st.held != racks:
            raise GeneratorError(
                f"seed {self.seed} ({self.variant_name}): the engine counts bag {st.bag}, "
                f"racks {st.held}; the table has bag {len(self.bag)}, racks {racks}"
            )

    def _apply(self, ev: Event) -> None:
        try:
            self.state = apply(self.state, ev)
        except Refusal as exc:
            raise GeneratorError(
                f"seed {self.seed} ({self.variant_name}), event {len(self.events) + 1} "
                f"{ev!r} refused: {exc}"
            ) from exc
        self.events.append(ev)
        assert ev.t is not None
        self.t = ev.t

    def emit(self, ev: Event) -> bool:
        """Log ``ev`` unless a deadline falls first; then log the wake-up at the
        deadline instead and return False (the table decides again)."""
        assert ev.t is not None
        assert ev.t > self.t, (ev, self.t)
        deadline = next_deadline(self.state)
        if deadline is not None and deadline <= ev.t:
            self._apply(TimeChecked(t=max(deadline, self.t + 1)))
            return False
        self._apply(ev)
        return True

    # --- finding a play ----------------------------------------------------------
    def _find_play(self, p: int) -> Placement | None:
        board = self.state.board
        assert board is not None
        rack = self.racks[p]
        size = len(rack)
        if not size:
            return None
        going_out = not self.bag
        if board.is_empty:
            candidates = [board.layout.centre]
        else:
            cells = board.cells
            nbs = _neighbours(board.layout)
            candidates = [
                i
                for i, ch in enumerate(cells)
                if ch == EMPTY and any(cells[j] != EMPTY for j in nbs[i])
            ]
            if not candidates:
                return None
        for attempt in range(_ATTEMPTS):
            if going_out:
                k = size if attempt < _ATTEMPTS // 2 else self.rng.randint(1, size)
            else:
                k = min(size, self.rng.choices(_SIZES, _SIZE_WEIGHTS)[0])
            if board.is_empty:
                k = max(k, 2)
                if k > size:
                    return None
            anchor = self.rng.choice(candidates)
            pl = try_play(
                board,
                self.ts,
                self.rng,
                self.letters,
                rack,
                anchor,
                self.rng.random() < 0.5,
                k,
                self.rng.randrange(k),
            )
            if pl is not None:
                return pl
        return None

    # --- the table's steps -------------------------------------------------------
    def play(self) -> list[Event]:
        first = self.rng.randrange(2)
        start = GameStarted(t=0, variant=self.variant_name, players=self.players, first=first)
        if self.v.mode != "board":
            start = replace(start, mode="board")
        self._apply(start)
        steps = 0
        while self.state.phase is not Phase.OVER:
            self.step()
            self._check()
            steps += 1
            if steps > 5000:
                raise GeneratorError(f"seed {self.seed} ({self.variant_name}): no end")
        if self.rng.random() < _P_ADJUST_AFTER:
            self.emit(
                Adjusted(
                    t=self.t + self._ms(60, 600),
                    by="director",
                    player=self.rng.randrange(2),
                    score_delta=self.rng.choice((-10, -5, 5, 10)),
                    reason="addition error found on the score sheet",
                )
            )
        return self.events

    def step(self) -> None:
        st = self.state
        ph = st.phase
        if ph is Phase.END_RACKS:
            self.end_racks()
        elif ph is Phase.CHALLENGE:
            self.adjudicate()
        elif ph is Phase.HOLD:
            self.after_hold()
        elif ph is Phase.OUT_PLAY:
            self.answer_out_play()
        elif ph is Phase.PLAYING:
            last = st.last
            if st.clock.neutral:
                self.emit(Resumed(t=self.t + self._ms(15, 120), by="director"))
            elif (
                last is not None
                and last.pressed_at is not None
                and last.window_open
                and last.player != st.turn
                and self.answered != last.pressed_at
            ):
                self.answer()
            elif last is not None and self.state.owed[last.player] > 0:
                self.draw()
            elif (
                last is not None
                and last.pressed_at is not None
                and last.window_open
                and self.v.challenge_window == "until_scoresheet"
                and self.recorded != last.pressed_at
            ):
                self.recorded = last.pressed_at
                self.emit(ScoreRecorded(t=self.t + self._ms(1, 5), player=last.player))
            elif st.composing is not None:
                self.press()
            else:
                self.act()
        else:
            raise GeneratorError(f"seed {self.seed}: the generator never makes phase {ph}")

    def _words(self, words: Sequence[str]) -> tuple[str, ...]:
        k = self.rng.randint(1, len(words))
        return tuple(self.rng.sample(list(words), k))

    def answer(self) -> None:
        """The opponent answers the play just pressed, before its tiles are drawn."""
        last = self.state.last
        assert last is not None
        assert last.pressed_at is not None
        self.answered = last.pressed_at
        c = 1 - last.player
        t = self.t + self._ms(1, 6)
        r = self.rng.random()
        if r < _P_CHALLENGE and self.v.challenge_rule != "void" and last.words:
            self.verdict = self.rng.random() >= _P_UNACCEPTABLE
            self.emit(Challenged(t=t, player=c, words=self._words(last.words)))
        elif r < _P_CHALLENGE + _P_HOLD and self.v.hold_allowed:
            self.hold_then_challenge = self.rng.random() < _P_HOLD_THEN_CHALLENGE
            self.verdict = self.rng.random() >= _P_UNACCEPTABLE
            self.emit(HoldCalled(t=t, player=c))
        elif r < _P_CHALLENGE + _P_HOLD + _P_ACCEPT:
            self.emit(Accepted(t=t, player=c))

    def answer_out_play(self) -> None:
        """The opponent answers an out-play: accept, hold or challenge."""
        st = self.state
        last = st.last
        assert last is not None
        assert last.pressed_at is not None
        if (
            self.restart_decided != last.pressed_at
            and st.clock.neutral == "out-play"
            and self.v.outplay_restart_ms
        ):
            self.restart_decided = last.pressed_at
            if self.rng.random() < _P_RESTART:
                t = max(self.t, last.pressed_at + self.v.outplay_restart_ms) + self._ms(0.5, 3)
                self.emit(ClockRestarted(t=t, player=last.player))
            return
        self.answered = last.pressed_at
        c = 1 - last.player
        t = self.t + self._ms(2, 15)
        r = self.rng.random()
        self.verdict = self.rng.random() >= _P_UNACCEPTABLE
        if r < _P_OUT_CHALLENGE and self.v.challenge_rule != "void" and last.words:
            self.emit(Challenged(t=t, player=c, words=self._words(last.words)))
        elif r < _P_OUT_CHALLENGE + _P_OUT_HOLD and self.v.hold_allowed:
            self.hold_then_challenge = self.rng.random() < _P_HOLD_THEN_CHALLENGE
            self.emit(HoldCalled(t=t, player=c))
        else:
            self.emit(Accepted(t=t, player=c))

    def after_hold(self) -> None:
        last = self.state.last
        assert last is not None
        c = 1 - last.player
        t = self.t + self._ms(5, 40)
        if self.hold_then_challenge and self.v.challenge_rule != "void" and last.words:
            self.emit(Challenged(t=t, player=c, words=self._words(last.words)))
        else:
            self.emit(HoldReleased(t=t, player=c))

    def adjudicate(self) -> None:
        ok = self.verdict
        if self.emit(Adjudicated(t=self.t + self._ms(10, 60), acceptable=ok)) and not ok:
            # Withdrawn: the tiles go back to the rack, none was drawn for it.
            assert self.pending is not None
            p, took, drawn = self.pending
            rack = self.racks[p]
            for tile in drawn:
                rack.remove(tile)
            self.bag.extend(drawn)
            rack.extend(took)
            self.pending = None

    def draw(self) -> None:
        last = self.state.last
        assert last is not None
        assert last.pressed_at is not None
        self.emit(
            TilesDrawn(
                t=self.t + self._ms(0.8, 4), player=last.player, count=self.state.owed[last.player]
            )
        )

    def press(self) -> None:
        comp = self.state.composing
        assert comp is not None
        assert comp.placement is not None
        p = comp.player
        if self.emit(ClockPressed(t=self.t + self._ms(0.5, 3), player=p)):
            # The tiles leave the rack and the replacements are counted out of
            # the bag at the press (the engine's accounting); the draw is logged after.
            took = list(comp.placement.rack_tiles)
            rack = self.racks[p]
            for tile in took:
                rack.remove(tile)
            drawn = self._take(len(took))
            rack.extend(drawn)
            self.pending = (p, took, drawn)

    def act(self) -> None:
        """The player on turn plays, exchanges or passes (or the director steps in)."""
        st = self.state
        p = st.turn
        since = st.clock.since_ms if st.clock.running == p else self.t
        rng = self.rng
        r = rng.random()
        if r < _P_NEUTRALIZE and self.v.neutralize_allowed:
            by = rng.choice(("director", self.players[p], self.players[1 - p]))
            reason = rng.choice(_NEUTRAL_REASONS)
            self.emit(Neutralized(t=self.t + self._ms(1, 20), by=by, reason=reason))
            return
        if r < _P_NEUTRALIZE + _P_ADJUST:
            who = rng.randrange(2)
            if rng.random() < 0.5:
                self.emit(
                    Adjusted(
                        t=self.t + self._ms(1, 10),
                        by="director",
                        player=who,
                        time_delta_ms=rng.choice((30_000, 60_000)),
                        reason="clock malfunction",
                    )
                )
            else:
                self.emit(
                    Adjusted(
                        t=self.t + self._ms(1, 10),
                        by="director",
                        player=who,
                        score_delta=rng.choice((-10, -5, 5, 10)),
                        reason="score sheet corrected",
                    )
                )
            return
        at = max(self.t + 300, since + self._think(p, 0.4))
        if st.locked[p] or (self.stall and not self.bag):
            self.emit(Passed(t=at, player=p))
            return
        roll = rng.random()
        if roll < _P_PASS:
            self.emit(Passed(t=at, player=p))
            return
        if roll < _P_PASS + _P_EXCHANGE and self._exchange(p, at):
            return
        pl = self._find_play(p)
        if pl is None:
            if not self._exchange(p, at):
                self.emit(Passed(t=at, player=p))
            return
        at = max(self.t + 300, since + self._think(p))
        self.emit(TilesPlaced(t=at, player=p, move=pl.move.gcg(), score=pl.score))

    def _exchange(self, p: int, at: int) -> bool:
        """Exchange some tiles if the rules allow it now; False when they do not."""
        v = self.v
        rack = self.racks[p]
        if len(self.bag) < v.exchange_min_bag or not rack:
            return False
        text = rack_string_of(rack, self.ts.blank)
        most = max(rack.count(tile) for tile in rack)
        if v.exchange_max_same_letter and most > v.exchange_max_same_letter:
            return False
        n = self.rng.randint(1, len(rack))
        swapped = self.rng.sample(rack, n)
        # Some tables name the tiles put back, some only count them.
        named = rack_string_of(swapped, self.ts.blank) if self.rng.random() < 0.5 else None
        ev = Exchanged(
            t=at, player=p, count=n, rack=text if v.exchange_max_same_letter else None,
            tiles=named,
        )  # fmt: skip
        if self.emit(ev):
            for tile in swapped:
                rack.remove(tile)
            rack.extend(self._take(n))
            self.bag.extend(swapped)
            self.rng.shuffle(self.bag)
        return True

    def end_racks(self) -> None:
        racks = (
            rack_string_of(self.racks[0], self.ts.blank),
            rack_string_of(self.racks[1], self.ts.blank),
        )
        self.emit(EndRacks(t=self.t + self._ms(20, 90), racks=racks))


@cache
def game_events(seed: int, variant: str = "nzasp") -> tuple[Event, ...]:
    """The events of the game of ``seed`` under ``variant``, from ``game_started`` at
    ``t = 0`` to the result (and any adjustment after it). Cached."""
    return tuple(_Game(seed, variant).play())


def _shifted(events: Sequence[Event], offset: int) -> Iterator[Event]:
    for ev in events:
        assert ev.t is not None
        yield replace(ev, t=ev.t + offset)


def random_log(seed: int, variant: str = "nzasp", games: int = 1) -> list[Event]:
    """``games`` complete games back to back: game ``i`` is the game of seed ``seed + i``,
    starting a few minutes after the previous one ended."""
    out: list[Event] = []
    for i in range(games):
        offset = 0 if not out else _end_t(out) + _GAP_MS
        out.extend(_shifted(game_events(seed + i, variant), offset))
    return out


def _end_t(events: Sequence[Event]) -> int:
    t = events[-1].t
    assert t is not None
    return t


def log_of_size(
    n_events: int, *, seed: int = 0, variant: str = "nzasp", pool: int = 32
) -> list[Event]:
    """Exactly ``n_events`` events: the games of seeds ``seed .. seed + pool - 1``
    repeated back to back with time offsets (the last game may stop part way)."""
    games = [game_events(seed + i, variant) for i in range(pool)]
    out: list[Event] = []
    i = 0
    while len(out) < n_events:
        offset = 0 if not out else _end_t(out) + _GAP_MS
        out.extend(_shifted(games[i % pool], offset))
        i += 1
    del out[n_events:]
    return out


def turns_of(events: Sequence[Event]) -> int:
    """Turns of a game's log: placements (withdrawn ones too), passes and exchanges."""
    return sum(isinstance(ev, (TilesPlaced, Passed, Exchanged)) for ev in events)


def game_turns(turns: int, variant: str = "nzasp", start: int = 0) -> tuple[int, tuple[Event, ...]]:
    """The first seed from ``start`` whose game has exactly ``turns`` turns, and its events."""
    seed = start
    while True:
        events = game_events(seed, variant)
        if turns_of(events) == turns:
            return seed, events
        seed += 1


def numbered(events: Sequence[Event]) -> list[tuple[int, Event]]:
    """``(line, event)`` pairs, 1-based, as :func:`engine.rules.replay.replay` takes them."""
    return list(enumerate(events, start=1))


def check_log(events: Sequence[Event]) -> GameState:
    """Replay ``events``; raise :class:`GeneratorError` if any is refused."""
    state, rejected = replay(numbered(events))
    if rejected:
        raise GeneratorError(f"{len(rejected)} events refused, first: {rejected[0]}")
    return state
