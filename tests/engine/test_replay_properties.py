"""Properties of replay over random valid event logs (tests/support/gamelog.py).

Every generated log is one a table could have written, under every bundled
variant (Toronto speed play in board mode). Replay must accept all of it, agree
with applying the events one by one, be deterministic, read the state at any
instant exactly as the events up to it plus the deadlines would, survive the
JSON Lines round trip, and give results that add up from the game's lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import (
    Adjusted,
    ClockPressed,
    Event,
    GameStarted,
    TilesDrawn,
    TilesPlaced,
    encode_event,
)
from engine.rules.machine import advance, apply
from engine.rules.replay import parse_jsonl, replay, report
from engine.rules.state import GameState, Phase
from tests.support.gamelog import (
    BOARD_VARIANTS,
    check_log,
    game_events,
    numbered,
    random_log,
    turns_of,
)

SEEDS = st.integers(min_value=0, max_value=5000)
VARIANTS = st.sampled_from(BOARD_VARIANTS)
GAMES = st.integers(min_value=1, max_value=4)
FAST = settings(deadline=None, max_examples=100)


def _games(events: Sequence[Event]) -> list[list[Event]]:
    """The log cut at each ``game_started``."""
    out: list[list[Event]] = []
    for ev in events:
        if isinstance(ev, GameStarted):
            out.append([])
        out[-1].append(ev)
    return out


def _fold(events: Sequence[Event]) -> GameState:
    state = GameState()
    for ev in events:
        state = apply(state, ev)
    return state


@FAST
@given(seed=SEEDS, variant=VARIANTS, games=GAMES)
def test_every_generated_log_replays_without_refusal(seed: int, variant: str, games: int) -> None:
    events = random_log(seed, variant, games)
    state, rejected = replay(numbered(events))
    assert rejected == []
    assert state.games == games
    assert state.phase is Phase.OVER
    assert state.result is not None
    times = [ev.t if ev.t is not None else -1 for ev in events]
    assert min(times) >= 0
    assert all(a < b for a, b in pairwise(times))


@FAST
@given(seed=SEEDS, variant=VARIANTS, games=GAMES, data=st.data())
def test_replaying_a_prefix_equals_applying_one_by_one(
    seed: int, variant: str, games: int, data: st.DataObject
) -> None:
    events = random_log(seed, variant, games)
    k = data.draw(st.integers(min_value=0, max_value=len(events)), label="prefix")
    replayed, rejected = replay(numbered(events[:k]))
    folded = _fold(events[:k])
    assert rejected == []
    assert replayed == folded
    assert report(replayed) == report(folded)


@FAST
@given(seed=SEEDS, variant=VARIANTS, games=GAMES, data=st.data())
def test_replay_is_deterministic(seed: int, variant: str, games: int, data: st.DataObject) -> None:
    events = random_log(seed, variant, games)
    k = data.draw(st.integers(min_value=0, max_value=len(events)), label="prefix")
    first, rej1 = replay(numbered(events[:k]))
    second, rej2 = replay(numbered(events[:k]))
    assert first == second
    assert rej1 == rej2
    assert report(first) == report(second)


@FAST
@given(seed=SEEDS, variant=VARIANTS, games=GAMES, data=st.data())
def test_replay_at_an_instant_is_the_events_up_to_it_then_the_deadlines(
    seed: int, variant: str, games: int, data: st.DataObject
) -> None:
    events = random_log(seed, variant, games)
    last_t = events[-1].t
    assert last_t is not None
    at = data.draw(st.integers(min_value=-1000, max_value=last_t + 900_000), label="at")
    by_at, rejected = replay(numbered(events), at=at)
    upto = [ev for ev in events if ev.t is not None and ev.t <= at]
    expected = _fold(upto)
    if expected.variant is not None:
        expected = advance(expected, at)
    assert rejected == []
    assert by_at == expected
    assert report(by_at, at) == report(expected, at)


@FAST
@given(seed=SEEDS, variant=VARIANTS, games=GAMES)
def test_result_scores_are_the_sum_of_the_game_lines(seed: int, variant: str, games: int) -> None:
    for game in _games(random_log(seed, variant, games)):
        state = check_log(game)
        assert state.result is not None
        for seat in (0, 1):
            lines = sum(h.score for h in state.history if h.player == seat)
            assert state.result.scores[seat] == lines, (seat, state.history)
            assert state.scores[seat] == lines


@FAST
@given(seed=SEEDS, variant=VARIANTS, games=GAMES)
def test_jsonl_round_trip_replays_to_the_same_state(seed: int, variant: str, games: int) -> None:
    events = random_log(seed, variant, games)
    text = "\n".join(encode_event(ev).decode() for ev in events) + "\n"
    pairs, bad = parse_jsonl(text)
    assert bad == []
    assert [ev for _, ev in pairs] == events
    from_text, rejected = replay(pairs)
    assert rejected == []
    assert from_text == check_log(events)


@FAST
@given(seed=SEEDS, variant=VARIANTS)
def test_draws_follow_the_bag(seed: int, variant: str) -> None:
    """Each placement's draw is min(tiles played, bag), logged after any challenge."""
    events = game_events(seed, variant)
    assert isinstance(events[0], GameStarted)
    assert 15 <= turns_of(events) <= 80
    state = GameState()
    for ev in events:
        before = state
        state = apply(state, ev)
        if isinstance(ev, ClockPressed) and before.composing is not None:
            played = before.composing.tiles
            assert state.last is not None
            assert state.owed[state.last.player] == min(played, before.bag)
        if isinstance(ev, TilesDrawn):
            assert before.last is not None
            assert ev.count == before.owed[before.last.player]
            assert before.phase is Phase.PLAYING
        if isinstance(ev, TilesPlaced):
            assert before.composing is None


def test_time_adjustment_after_the_game_keeps_the_lines_adding_up() -> None:
    """A director's time correction after the result (a clock fault found late) changes
    the time penalty; the result, the scores and the game's lines must still agree."""
    seed = next(
        s
        for s in range(200)
        if (res := check_log(game_events(s, "nzasp")).result) is not None and res.penalties[0]
    )
    events = [
        *game_events(seed, "nzasp"),
        Adjusted(t=10**9, by="director", player=0, time_delta_ms=60_000, reason="clock fault"),
    ]
    state = check_log(events)
    assert state.result is not None
    lines = tuple(sum(h.score for h in state.history if h.player == seat) for seat in (0, 1))
    assert state.result.scores == state.scores == lines
