"""A deterministic generator of random, legal, complete games as GCG records.

The games are nonsense as language (no word list is consulted: the engine
checks placements, not words) but exact as bookkeeping: a shuffled bag, racks
of seven, alternating turns, every placement validated and scored by
:func:`engine.play.placement.place`, and every rack, score, cumulative total and
end-of-game line what a referee would write. So every record passes
``rackclock gcg check`` as OK and complete, which makes the corpus usable both
as benchmark input and as the ground truth of property tests.

``random_game(seed)`` is a pure function of ``seed``; ``corpus(n, seed)`` is the
games ``seed, seed + 1, ..., seed + n - 1``, so any game of a corpus can be
regenerated on its own when a test or benchmark points at it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.equipment.board import EMPTY, Board
from engine.equipment.layout import Layout
from engine.equipment.tiles import TileSet, load_tile_set
from engine.errors import IllegalPlayError
from engine.gcg import Event, EventKind, GameRecord, Player
from engine.play.notation import Move, Position
from engine.play.placement import Placement, place

__all__ = ["GeneratedGame", "corpus", "generate", "random_game"]

# Nicknames and full names; two distinct ones are drawn per game.
_PEOPLE: tuple[tuple[str, str], ...] = (
    ("ann", "Ann Archer"),
    ("bo", "Bo Bristow"),
    ("cyd", "Cyd Calloway"),
    ("dee", "Dee Dunmore"),
    ("eli", "Eli Easton"),
    ("fay", "Fay Fairweather"),
    ("gus", "Gus Garland"),
    ("hal", "Hal Hartley"),
    ("ivy", "Ivy Irwin"),
    ("jo", "Jo Jennings"),
)

# Event mix. Small enough that most games are long runs of placements, large
# enough that a few hundred games exercise every kind of line the checker knows.
_P_PASS = 0.02
_P_EXCHANGE = 0.03
_P_PHONY = 0.04
_P_CHALLENGE = 0.04
_P_TIME_PENALTY = 0.10
# Share of games whose players stop placing once the bag is empty, so that the
# game ends on six scoreless turns with both racks deducted.
_P_STALL = 0.08
_SCORELESS_END = 6
_EXCHANGE_MIN_BAG = 7
_TIME_PENALTY = 10
_CHALLENGE_BONUS = 5

# How many new tiles a play tries for, by weight. Long plays keep a game near
# 20-30 placements (about 86 tiles are drawn after the opening racks).
_SIZES = (1, 2, 3, 4, 5, 6, 7)
_SIZE_WEIGHTS = (2, 4, 7, 9, 7, 4, 3)
# Attempts per turn before giving up and passing; attempts are cheap because
# they start next to tiles already on the board, so most succeed.
_ATTEMPTS = 40


@dataclass(frozen=True, slots=True)
class GeneratedGame:
    """A generated record together with the generator's own bookkeeping."""

    record: GameRecord
    """The game as a GCG record."""
    final_scores: dict[str, int]
    """Each player's final total as tracked while generating, by nickname."""
    placements: int
    """Placement lines, withdrawn phonies included."""
    went_out: bool
    """True when the game ended by a player going out (else six scoreless turns)."""


@dataclass(frozen=True, slots=True)
class _Geometry:
    """Precomputed neighbourhoods of a layout, shared by every game."""

    layout: Layout
    neighbours: tuple[tuple[int, ...], ...]
    """Orthogonal neighbours of each square."""


@cache
def _geometry(layout: Layout) -> _Geometry:
    rows, cols = layout.rows, layout.cols
    neighbours: list[tuple[int, ...]] = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        around = [
            (r + dr) * cols + (c + dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        neighbours.append(tuple(around))
    return _Geometry(layout, tuple(neighbours))


def try_play(
    board: Board,
    tile_set: TileSet,
    rng: random.Random,
    letters: Sequence[str],
    rack: list[str],
    anchor: int,
    across: bool,
    k: int,
    before: int,
) -> Placement | None:
    """Lay ``k`` random tiles of ``rack`` in one line through the empty square
    ``anchor``, ``before`` of them ahead of it, and let the engine validate and
    score it (None if the engine refuses). Blanks get a random letter of ``letters``."""
    lay = board.layout
    cells = board.cells
    cols = lay.cols
    r, c = divmod(anchor, cols)
    if across:
        base, t0, step, limit = r * cols, c, 1, cols
    else:
        base, t0, step, limit = c, r, cols, lay.rows
    # Walk outwards collecting empty squares; tiles on the board in between
    # become played-through squares of the same word.
    back: list[int] = []
    t = t0 - 1
    while len(back) < before and t >= 0:
        if cells[base + t * step] == EMPTY:
            back.append(t)
        t -= 1
    fwd = [t0]
    t = t0 + 1
    while len(back) + len(fwd) < k and t < limit:
        if cells[base + t * step] == EMPTY:
            fwd.append(t)
        t += 1
    start = back[-1] if back else t0
    while start > 0 and cells[base + (start - 1) * step] != EMPTY:
        start -= 1
    end = fwd[-1]
    while end + 1 < limit and cells[base + (end + 1) * step] != EMPTY:
        end += 1
    chosen = iter(rng.sample(rack, len(back) + len(fwd)))
    out: list[str] = []
    for t in range(start, end + 1):
        if cells[base + t * step] != EMPTY:
            out.append(".")
            continue
        tile = next(chosen)
        out.append(rng.choice(letters).lower() if tile == tile_set.blank else tile)
    pos = Position(r, start, True) if across else Position(start, c, False)
    try:
        return place(board, Move(pos, "".join(out)), tile_set)
    except IllegalPlayError:
        return None


class _Game:
    """One game being played out; every field mirrors what the checker replays."""

    def __init__(self, seed: int, tile_set: TileSet, board: Board) -> None:
        self.rng = random.Random(seed)
        self.ts = tile_set
        self.board = board
        self.geo = _geometry(board.layout)
        self.letters = sorted(t for t in tile_set.counts if tile_set.has_letter(t))
        bag = list(tile_set.distribution().elements())
        self.rng.shuffle(bag)
        self.bag = bag
        people = self.rng.sample(_PEOPLE, 2)
        self.players = tuple(Player(nick, name) for nick, name in people)
        self.racks: list[list[str]] = [self.draw(tile_set.rack_size) for _ in range(2)]
        self.scores = [0, 0]
        self.events: list[Event] = []
        # Empty squares next to a tile: every play must cover one (after the first).
        self.anchors: set[int] = set()
        self.scoreless = 0
        self.placements = 0
        self.stall = self.rng.random() < _P_STALL

    # --- bookkeeping -----------------------------------------------------------
    def draw(self, n: int) -> list[str]:
        n = min(n, len(self.bag))
        drawn = self.bag[len(self.bag) - n :]
        del self.bag[len(self.bag) - n :]
        return drawn

    def rack(self, p: int) -> str:
        return rack_string_of(self.racks[p], self.ts.blank)

    def emit(
        self,
        p: int,
        kind: EventKind,
        score: int,
        *,
        rack: str | None = None,
        move: Move | None = None,
        exchanged: str = "",
        end_rack: str = "",
    ) -> None:
        """Append an event line for ``p`` (rack field: their current rack unless
        given), adding ``score`` to their total."""
        self.scores[p] += score
        self.events.append(
            Event(
                kind,
                self.players[p].nick,
                self.rack(p) if rack is None else rack,
                score,
                self.scores[p],
                move=move,
                exchanged=exchanged,
                end_rack=end_rack,
            )
        )

    def end_turn(self, scored: bool) -> None:
        self.scoreless = 0 if scored else self.scoreless + 1

    # --- finding a play ----------------------------------------------------------
    def find_play(self, p: int) -> Placement | None:
        rack = self.racks[p]
        size = len(rack)
        going_out = not self.bag
        empty = self.board.is_empty
        candidates = [self.board.layout.centre] if empty else sorted(self.anchors)
        for attempt in range(_ATTEMPTS):
            if going_out:
                # With the bag empty, try hard to play the whole rack: that ends the game.
                k = size if attempt < _ATTEMPTS // 2 else self.rng.randint(1, size)
            else:
                k = min(size, self.rng.choices(_SIZES, _SIZE_WEIGHTS)[0])
            if empty:
                k = max(k, 2)  # a lone first tile forms no word
                if k > size:
                    return None
            anchor = self.rng.choice(candidates)
            pl = try_play(
                self.board,
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

    # --- turns -------------------------------------------------------------------
    def apply(self, p: int, pl: Placement) -> None:
        """Put ``pl`` on the board, take its tiles from the rack, refill from the bag."""
        self.board = self.board.with_tiles(pl.new)
        rack = self.racks[p]
        for tile in pl.rack_tiles:
            rack.remove(tile)
        rack.extend(self.draw(len(pl.new)))
        anchors = self.anchors
        cells = self.board.cells
        neighbours = self.geo.neighbours
        for idx, _ in pl.new:
            anchors.discard(idx)
            for nb in neighbours[idx]:
                if cells[nb] == EMPTY:
                    anchors.add(nb)

    def turn(self, p: int) -> bool:
        """Play one turn for ``p``; True when ``p`` went out."""
        rng = self.rng
        roll = rng.random()
        if self.stall and not self.bag:
            self.emit(p, EventKind.PASS, 0)
            self.end_turn(False)
            return False
        if roll < _P_PASS:
            self.emit(p, EventKind.PASS, 0)
            self.end_turn(False)
            return False
        if roll < _P_PASS + _P_EXCHANGE and len(self.bag) >= _EXCHANGE_MIN_BAG:
            self.exchange(p)
            return False
        pl = self.find_play(p)
        if pl is None:
            # Stuck (rare): exchange when the bag allows, else pass.
            if len(self.bag) >= _EXCHANGE_MIN_BAG:
                self.exchange(p)
            else:
                self.emit(p, EventKind.PASS, 0)
                self.end_turn(False)
            return False
        self.placements += 1
        goes_out = not self.bag and len(pl.new) == len(self.racks[p])
        if not goes_out and pl.score > 0 and rng.random() < _P_PHONY:
            # Played, challenged off: the board and rack are as before, the turn is lost.
            self.emit(p, EventKind.PLACEMENT, pl.score, move=pl.move)
            self.emit(p, EventKind.WITHDRAWN, -pl.score)
            self.end_turn(False)
            return False
        self.emit(p, EventKind.PLACEMENT, pl.score, move=pl.move)
        self.apply(p, pl)
        self.end_turn(pl.score != 0)
        if rng.random() < _P_CHALLENGE:
            # An unsuccessful challenge of this play: the rack field is the rack
            # after drawing, as real records write it.
            self.emit(p, EventKind.CHALLENGE_BONUS, _CHALLENGE_BONUS)
        return not self.racks[p] and not self.bag

    def exchange(self, p: int) -> None:
        rack = self.racks[p]
        n = self.rng.randint(1, len(rack))
        swapped = self.rng.sample(rack, n)
        self.emit(p, EventKind.EXCHANGE, 0, exchanged=rack_string_of(swapped, self.ts.blank))
        # Draw first, then return the tiles: the player never redraws their own.
        for tile in swapped:
            rack.remove(tile)
        rack.extend(self.draw(n))
        self.bag.extend(swapped)
        self.rng.shuffle(self.bag)
        self.end_turn(False)

    def play(self) -> GeneratedGame:
        p = 0
        went_out = False
        while True:
            if self.turn(p):
                went_out = True
                break
            if self.scoreless >= _SCORELESS_END:
                break
            p = 1 - p
        ts = self.ts
        if went_out:
            opp = self.rack(1 - p)
            self.emit(p, EventKind.END_POINTS, 2 * ts.rack_value(opp), rack="", end_rack=opp)
        else:
            for q in (0, 1):
                own = self.rack(q)
                self.emit(q, EventKind.END_DEDUCTION, -ts.rack_value(own), end_rack=own)
        if self.rng.random() < _P_TIME_PENALTY:
            self.emit(self.rng.randrange(2), EventKind.TIME_PENALTY, -_TIME_PENALTY)
        record = GameRecord(self.players, (), tuple(self.events))
        finals = {pl.nick: s for pl, s in zip(self.players, self.scores, strict=True)}
        return GeneratedGame(record, finals, self.placements, went_out)


def rack_string_of(tiles: Sequence[str], blank: str = "?") -> str:
    """The canonical rack string (letters sorted, blanks last) of a list of tiles."""
    letters = sorted(t for t in tiles if t != blank)
    return "".join(letters) + blank * (len(tiles) - len(letters))


def generate(seed: int, *, tile_set: TileSet | None = None) -> GeneratedGame:
    """Play out the game of ``seed`` and return it with the generator's bookkeeping."""
    ts = tile_set or load_tile_set("english")
    return _Game(seed, ts, Board.empty()).play()


def random_game(seed: int) -> GameRecord:
    """A random legal complete game, a pure function of ``seed``."""
    return generate(seed).record


def corpus(n: int, seed: int = 0) -> list[GameRecord]:
    """The games of seeds ``seed`` to ``seed + n - 1``."""
    return [random_game(seed + i) for i in range(n)]
