"""Every scorekeeper entry lands on the turn it was meant for (issue 20 §1).

Random Toronto speed games (TOR-1..TOR-9) are played through the engine with the
scorekeeper's own entry path (:func:`entry_event`, :func:`undo_event`, the zeros the
screen records by itself), with lockouts past -1:01, entries out of order
(``2:B12``), bursts of catching up, passes, entries for the turn still being played,
take-backs and corrections. A small model kept here by hand (each player's clock,
the turns in the order they ended, which entry the scorekeeper meant) says where
every entry must land and what each total must be; the scoresheet and the scores
the engine keeps must agree with it after every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import Refusal
from engine.events import ClockPressed, Event, GameStarted, Passed, TimeChecked, TurnCorrected
from engine.rules.machine import apply
from engine.rules.state import GameState, Phase
from terminal_ui.scorekeeper.entry import Entry, parse_fix
from terminal_ui.scorekeeper.turn_book import TurnBook, entry_event, locked_hint, undo_event

INITIAL_MS = 180_000  # TOR-3
LOCKOUT_MS = -61_000  # TOR-8: at -1:01 no more plays


@dataclass
class Model:
    """The game as the scorekeeper at the table sees it, computed by hand."""

    rem: list[int] = field(default_factory=lambda: [INITIAL_MS, INITIAL_MS])
    turn: int = 0
    presses: list[int] = field(default_factory=lambda: [0, 0])
    order: list[tuple[int, int]] = field(default_factory=list)
    """Turns in the order they ended."""
    kind: dict[tuple[int, int], str] = field(default_factory=dict)
    locked_at: list[int | None] = field(default_factory=lambda: [None, None])
    """How many turns a player had ended when locked out."""
    credit: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)
    typed: list[tuple[int, int]] = field(default_factory=list)
    """The turns the scorekeeper typed an entry for, in order (not the automatic 0s)."""

    def locked_turn(self, p: int, i: int) -> bool:
        at = self.locked_at[p]
        return at is not None and i > at

    def next_unscored(self, player: int | None) -> tuple[int, int] | None:
        for p, i in self.order:
            if (p, i) not in self.credit and player in (None, p):
                return (p, i)
        return None

    def last_scored(self, p: int) -> int:
        return max((i for q, i in self.credit if q == p), default=0)

    def totals(self) -> tuple[int, int]:
        a = sum(s for (p, _), (_, s) in self.credit.items() if p == 0)
        b = sum(s for (p, _), (_, s) in self.credit.items() if p == 1)
        return (a, b)


class Game:
    """The engine, the turn book and the model side by side."""

    def __init__(self) -> None:
        self.t = 0
        self.state = GameState()
        self.book = TurnBook()
        self.model = Model()
        self.send(GameStarted(variant="toronto-speed", players=("Ann", "Ben"), first=0))

    def send(self, ev: Event) -> bool:
        """Apply ``ev`` now; the screen's automatic 0s follow. False when refused."""
        ev = _at(ev, self.t)
        try:
            new = apply(self.state, ev)
        except Refusal:
            return False
        self.book.observe(self.state, ev, new)
        self.state = new
        return True

    def settle(self) -> None:
        """The 0s the screen records by itself, once the model knows the turns."""
        for zero in self.book.auto_zeros(self.state):
            assert self.send(zero)
            assert self.model.kind[(zero.player, zero.turn)] == "pass"
            self.model.credit[(zero.player, zero.turn)] = ("", 0)
        if self.book.auto_zeros(self.state):
            self.settle()

    def live(self) -> bool:
        return self.state.phase is Phase.PLAYING

    def end_turn(self, dt: int, passed: bool) -> None:
        m = self.model
        p = m.turn
        if self.live():
            self.t += dt
            m.rem[p] -= dt
            if m.rem[p] <= LOCKOUT_MS and m.locked_at[p] is None:
                m.locked_at[p] = m.presses[p]
                pre = (p, m.presses[p] + 1)
                if pre in m.credit:  # scored before its press: taken off the board (TOR-8)
                    m.credit[pre] = (m.credit[pre][0], 0)
        ev: Event = Passed(player=p) if passed else ClockPressed(player=p)
        if not self.send(ev):
            # The game ended first (at the cutoff, TOR-9, or after the passes); the
            # service's wake-up applies the cutoff at its instant all the same.
            assert self.send(TimeChecked())
            return
        m.presses[p] += 1
        i = m.presses[p]
        m.order.append((p, i))
        m.kind[(p, i)] = "pass" if passed else ("locked" if m.locked_turn(p, i) else "play")
        m.turn = 1 - p
        self.settle()

    def enter(self, player: int | None, letter: str, score: int) -> None:
        """The scorekeeper types an entry for the turn meant: ``player``'s oldest
        unscored one (``2:B12``), or the oldest of all, or else the turn in play."""
        m = self.model
        meant = m.next_unscored(player)
        in_play = (m.turn, m.presses[m.turn] + 1)
        if meant is None and self.live() and player in (None, m.turn) and in_play not in m.credit:
            meant = in_play
        entry = Entry(player, letter, score)
        ev = entry_event(self.state, self.book, entry)
        if meant is None:
            assert isinstance(ev, str), (entry, ev)
            return
        if m.locked_turn(*meant) and score:
            # TOR-8: sent bound to its turn (so the log keeps the refusal), refused by
            # the engine with the rule, never moved to another turn
            assert not isinstance(ev, str), (entry, ev)
            assert (ev.player, ev.turn) == meant, (entry, meant, ev)
            with pytest.raises(Refusal, match="no more plays") as refused:
                apply(self.state, _at(ev, self.t))
            assert "TOR-8" in refused.value.rule
            assert locked_hint(self.state, ev) == "; enter - for it"
            return
        assert not isinstance(ev, str), (entry, meant, ev)
        assert (ev.player, ev.turn) == meant, (entry, meant, ev)
        assert self.send(ev), (entry, meant)
        m.credit[meant] = (letter, score)
        m.typed.append(meant)
        self.settle()  # the screen's 0s follow each update, before the next entry

    def undo(self) -> None:
        m = self.model
        ev = undo_event(self.state, self.book)
        if not m.typed or m.typed[-1][1] != m.last_scored(m.typed[-1][0]):
            assert isinstance(ev, str), ev
            return
        assert isinstance(ev, TurnCorrected), ev
        assert (ev.player, ev.turn) == m.typed[-1]
        if self.state.phase in (Phase.END_RACKS, Phase.OVER):
            # the game is over: every turn stays scored (the engine refuses; fix corrects)
            assert not self.send(ev)
            return
        assert self.send(ev)
        del m.credit[m.typed.pop()]

    def fix(self, pick: int, letter: str, score: int) -> None:
        m = self.model
        if not m.credit:
            return
        p, i = sorted(m.credit)[pick % len(m.credit)]
        typed = f"fix {p + 1}:{i} {letter}{score}" if letter else f"fix {p + 1}:{i} {score}"
        ev = parse_fix(typed)
        assert isinstance(ev, TurnCorrected), (typed, ev)
        accepted = self.send(ev)
        if m.locked_turn(p, i) and score:
            assert not accepted, typed  # TOR-8: a correction cannot score it either
            return
        st_ = self.state
        if st_.end_reason == "cutoff" and st_.locked.count(True) == 1:
            # TOR-9: the game ended because the player not locked out was not behind; a
            # correction that would change that is the director's to rule
            seat = st_.locked.index(True)
            before = list(m.totals())
            after = list(before)
            after[p] += score - m.credit[(p, i)][1]
            if (before[1 - seat] >= before[seat]) != (after[1 - seat] >= after[seat]):
                assert not accepted, typed
                return
        assert accepted, typed
        m.credit[(p, i)] = (letter, score)

    def check(self) -> None:
        m = self.model
        for p in (0, 1):
            sheet = [(e.letter, e.score) for e in self.state.sheet[p]]
            assert sheet == [m.credit[(p, i)] for i in range(1, len(sheet) + 1)]
            assert len(sheet) == sum(1 for q, _ in m.credit if q == p)
        assert self.state.scores == m.totals()


def _at(ev: Event, t: int) -> Event:
    return msgspec.structs.replace(ev, t=t)


_letter = st.sampled_from(["", "Q", "K", "B"])
_score = st.integers(min_value=0, max_value=60)
_seconds = st.one_of(st.integers(1, 30), st.integers(60, 200)).map(lambda s: s * 1000)
_step = st.one_of(
    # a turn ends after some seconds (whole seconds, long enough to reach -1:01 at times)
    st.tuples(st.just("press"), _seconds, st.booleans()),
    st.tuples(st.just("pass"), st.integers(1, 30).map(lambda s: s * 1000), st.just(True)),
    # a burst of catching up: entries for the oldest turns, some out of order
    st.tuples(
        st.just("enter"),
        st.lists(st.tuples(st.sampled_from([None, None, 0, 1]), _letter, _score), max_size=6),
        st.just(True),
    ),
    st.tuples(st.just("undo"), st.just(0), st.just(True)),
    st.tuples(st.just("fix"), st.integers(0, 40), st.tuples(_letter, _score)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_step, min_size=5, max_size=45))
def test_every_entry_lands_on_the_turn_meant(steps: list[tuple[str, object, object]]) -> None:
    game = Game()
    for what, a, b in steps:
        if what in ("press", "pass"):
            assert isinstance(a, int)
            game.end_turn(a, passed=what == "pass")
        elif what == "enter":
            assert isinstance(a, list)
            for player, letter, score in a:
                game.enter(player, letter, score)
        elif what == "undo":
            game.undo()
        else:
            assert isinstance(a, int)
            assert isinstance(b, tuple)
            game.fix(a, *b)
        game.settle()
        game.check()


def test_a_locked_out_play_is_refused_not_moved() -> None:
    """Issue 20: a press after -1:01 was scored 0 by the screen itself, so the
    scorekeeper's entry for that play (k30) went to the opponent's turn, and the next
    entry too. Now the entry is for the locked-out turn, refused there (TOR-8), and
    - records its 0; the opponent's next play lands on the opponent's turn."""
    game = Game()
    game.end_turn(20_000, passed=False)  # Ann 1
    game.enter(None, "Q", 56)
    game.end_turn(100_000, passed=False)  # Ben 1
    game.enter(None, "B", 40)
    game.end_turn(230_000, passed=False)  # Ann 2, pressed at -1:10: locked out
    assert game.state.locked == (True, False)
    assert game.state.phase is Phase.PLAYING  # Ben is behind: he plays on (TOR-9)
    game.enter(None, "K", 30)  # meant for Ann's turn 2: refused, not put on Ben's
    game.check()
    assert game.state.scores == (56, 40)
    assert game.state.scored == (1, 1)
    game.enter(None, "", 0)  # - for Ann's turn 2
    game.end_turn(10_000, passed=False)  # Ben 2
    game.enter(None, "J", 20)
    game.check()
    assert [e.score for e in game.state.sheet[0]] == [56, 0]
    assert [e.score for e in game.state.sheet[1]] == [40, 20]
    assert game.state.scores == (56, 60)
