"""Events the rules do not allow are refused with a reason and the rule, and change nothing.

For every bundled variant where the case applies (Toronto speed play is run in
board mode), an event illegal in the current state must raise
:class:`engine.errors.Refusal` with a non-empty reason and a rule that cites the
variant's own source for the parameter concerned; the state before it must
equal a replay of the accepted prefix, and replaying the log with the bad line
must report that line and end in the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import pytest

from engine.errors import Refusal
from engine.events import (
    Accepted,
    Adjudicated,
    Adjusted,
    Challenged,
    ClockPressed,
    EndRacks,
    Event,
    Exchanged,
    GameStarted,
    HoldCalled,
    Neutralized,
    Passed,
    Resigned,
    Resumed,
    ScoreRecorded,
    TilesDrawn,
    TilesPlaced,
    TimeChecked,
)
from engine.rules.machine import apply
from engine.rules.replay import replay
from engine.rules.state import GameState, Phase
from engine.rules.variant import load_variant
from tests.support.gamelog import BOARD_VARIANTS, game_events, numbered

LOG_RULE = "game log"
"""What the engine cites for a log that breaks its own order (no federation rule)."""

# NZASP Rules of Play (June 2022), the clauses each refusal must cite.
NZASP = {
    "exchange_min_bag": "NZASP 6.7",
    "challenge_window": "NZASP 6.12.1.3",
    "placement_rule": "NZASP 6.3.1",
    "turn_rule": "NZASP 6.3.3",
    "going_out_factor": "NZASP 8.3",
    "neutralize_allowed": "NZASP 6.1.3.5",
}

# The first play, 8D to 8H through the centre: W on a double letter, the word doubled.
FIRST = "8D WINDY"
FIRST_SCORE = 2 * (2 * 4 + 1 + 1 + 2 + 4)


def start(variant: str, t: int = 0) -> GameStarted:
    return GameStarted(t=t, variant=variant, players=("Ann", "Ben"), first=0, mode="board")


def opening(variant: str) -> list[Event]:
    """Ann plays 8D WINDY, presses, records her score (NZASP 6.3.4) and draws her five
    tiles."""
    return [
        start(variant),
        TilesPlaced(t=20_000, player=0, move=FIRST, score=FIRST_SCORE),
        ClockPressed(t=21_000, player=0),
        ScoreRecorded(t=22_800, player=0),
        TilesDrawn(t=23_000, player=0, count=5),
    ]


def state_of(prefix: Sequence[Event]) -> GameState:
    state, rejected = replay(numbered(prefix))
    assert rejected == []
    return state


def refused(
    prefix: Sequence[Event], bad: Event, variant: str | None = None, param: str | None = None
) -> Refusal:
    """Check that ``bad`` is refused after ``prefix`` and changes nothing; return the refusal."""
    state = state_of(prefix)
    with pytest.raises(Refusal) as info:
        apply(state, bad)
    exc = info.value
    assert exc.reason.strip()
    assert exc.rule.strip()
    if variant is not None and param is not None:
        v = load_variant(variant)
        assert v.source(param) in exc.rule
        if variant == "nzasp" and param in NZASP:
            assert NZASP[param] in exc.rule
    assert state == state_of(prefix)
    after, rejected = replay(numbered([*prefix, bad]))
    assert [r.line for r in rejected] == [len(prefix) + 1]
    assert (rejected[0].reason, rejected[0].rule) == (exc.reason, exc.rule)
    assert after == state
    return exc


def accepted(prefix: Sequence[Event], ev: Event) -> GameState:
    """``ev`` is allowed after ``prefix`` (the case is a real boundary, not a broken log)."""
    return apply(state_of(prefix), ev)


variants = pytest.mark.parametrize("variant", BOARD_VARIANTS)


# --- the challenge window ----------------------------------------------------------


def _window_closers(variant: str) -> list[Event]:
    """What closes Ann's play to challenge, after her draw, under ``variant``."""
    window = load_variant(variant).challenge_window
    if window == "until_draw":
        return []  # the draw itself
    if window == "until_scoresheet":
        return [ScoreRecorded(t=25_000, player=0)]
    assert window == "until_challenger_turn_ends"
    return [Passed(t=30_000, player=1)]


@variants
def test_challenge_after_the_window_closed(variant: str) -> None:
    pressed = opening(variant)[:3]
    assert accepted(pressed, Challenged(t=22_000, player=1)).phase is Phase.CHALLENGE
    prefix = [*opening(variant), *_window_closers(variant)]
    exc = refused(
        prefix, Challenged(t=40_000, player=1, words=("WINDY",)), variant, "challenge_window"
    )
    assert "WINDY" in exc.reason or "no play" in exc.reason


def test_nzasp_challenge_is_open_until_the_draw() -> None:
    prefix = opening("nzasp")
    assert accepted(prefix[:3], Challenged(t=22_500, player=1)).phase is Phase.CHALLENGE
    refused(prefix, Challenged(t=24_000, player=1), "nzasp", "challenge_window")


# --- exchanges ---------------------------------------------------------------------


@cache
def _bag_short_of_exchange(variant: str) -> tuple[Event, ...]:
    """A generated log cut where the player on turn could act and the bag holds one
    tile fewer than an exchange needs."""
    want = load_variant(variant).exchange_min_bag - 1
    for seed in range(300):
        state = GameState()
        events = game_events(seed, variant)
        for i, ev in enumerate(events):
            state = apply(state, ev)
            if (
                state.phase is Phase.PLAYING
                and state.bag == want
                and state.composing is None
                and state.clock.neutral is None
                and state.clock.running == state.turn
                and not state.locked[state.turn]
                and (state.last is None or state.owed[state.last.player] == 0)
            ):
                return events[: i + 1]
    raise AssertionError(f"no generated {variant} game has a turn with {want} tiles in the bag")


@variants
def test_exchange_with_too_few_tiles_in_the_bag(variant: str) -> None:
    v = load_variant(variant)
    first = [start(variant)]
    assert accepted(first, Exchanged(t=5000, player=0, count=3)).bag == 86
    prefix = _bag_short_of_exchange(variant)
    state = state_of(prefix)
    assert state.bag == v.exchange_min_bag - 1
    bad = Exchanged(t=state.t + 1, player=state.turn, count=1)
    exc = refused(prefix, bad, variant, "exchange_min_bag")
    assert str(v.exchange_min_bag - 1) in exc.reason


def test_nzasp_exchange_with_six_in_the_bag() -> None:
    prefix = _bag_short_of_exchange("nzasp")
    state = state_of(prefix)
    assert state.bag == 6
    exc = refused(prefix, Exchanged(t=state.t + 1, player=state.turn, count=2), "nzasp")
    assert "NZASP 6.7" in exc.rule


def test_indonesian_exchange_ban_on_three_of_a_letter() -> None:
    bad = Exchanged(t=5000, player=0, count=2, rack="AAAEIRT")
    refused([start("indonesia-open")], bad, "indonesia-open", "exchange_max_same_letter")


# --- the Toronto cutoff ------------------------------------------------------------


def _toronto_past_cutoff() -> list[Event]:
    """Ann leads 32-0, then lets her 3:00 run past -1:01 (deadline at 243 s)."""
    v = load_variant("toronto-speed")
    assert (v.initial_ms, v.cutoff_overtime_ms) == (180_000, 61_000)
    return [
        start("toronto-speed"),
        TilesPlaced(t=5000, player=0, move=FIRST, score=FIRST_SCORE),
        ClockPressed(t=6000, player=0),
        TilesDrawn(t=7000, player=0, count=5),
        Passed(t=8000, player=1),
    ]


def test_toronto_play_after_the_cutoff() -> None:
    prefix = _toronto_past_cutoff()
    # Ann has used 6 s; her clock ran again from 8 s: -1:01 falls at 8 + 180 + 61 - 6 = 243 s.
    move = TilesPlaced(t=242_999, player=0, move="9D AX", score=None)
    assert accepted(prefix, move).composing is not None
    late = TilesPlaced(t=243_000, player=0, move="9D AX", score=None)
    exc = refused(prefix, late, "toronto-speed", "cutoff")
    assert "TOR-8" in exc.rule
    # The same after a logged wake-up at the deadline: Ben is behind, so he plays on.
    woken = [*prefix, TimeChecked(t=243_000)]
    state = state_of(woken)
    assert state.locked == (True, False)
    assert state.phase is Phase.PLAYING
    refused(woken, TilesPlaced(t=250_000, player=0, move="9D AX"), "toronto-speed", "cutoff")
    refused(woken, Exchanged(t=250_000, player=0, count=1), "toronto-speed", "cutoff")
    assert accepted(woken, Passed(t=250_000, player=0)).turn == 1


# --- turns and players -------------------------------------------------------------


@variants
def test_second_press(variant: str) -> None:
    prefix = opening(variant)[:3]
    refused(prefix, ClockPressed(t=21_500, player=0), variant, "turn_rule")


@variants
def test_press_without_a_play(variant: str) -> None:
    refused([start(variant)], ClockPressed(t=1000, player=0), variant, "turn_rule")


@variants
def test_play_out_of_turn(variant: str) -> None:
    bad = TilesPlaced(t=1000, player=1, move=FIRST, score=FIRST_SCORE)
    refused([start(variant)], bad, variant, "turn_rule")


def _with_player(player: int) -> list[Event]:
    return [
        TilesPlaced(t=30_000, player=player, move="9D AX"),
        ClockPressed(t=30_000, player=player),
        TilesDrawn(t=30_000, player=player, count=1),
        Passed(t=30_000, player=player),
        Exchanged(t=30_000, player=player, count=1),
        Accepted(t=30_000, player=player),
        Challenged(t=30_000, player=player),
        HoldCalled(t=30_000, player=player),
        Resigned(t=30_000, player=player),
        Adjusted(t=30_000, by="director", player=player, score_delta=5),
    ]


@variants
@pytest.mark.parametrize("player", [2, -1])
def test_unknown_player(variant: str, player: int) -> None:
    prefix = opening(variant)
    for bad in _with_player(player):
        exc = refused(prefix, bad, variant, "turn_rule")
        assert repr(player) in exc.reason, (bad, exc)


@variants
def test_second_game_while_one_is_in_progress(variant: str) -> None:
    refused(opening(variant), start(variant, t=30_000), variant, "turn_rule")


# --- placements --------------------------------------------------------------------

MISFITS_ON_EMPTY = [
    pytest.param("8M WINDY", id="runs-off-the-board"),
    pytest.param("16A AT", id="starts-off-the-board"),
    pytest.param("1A AT", id="first-play-off-centre"),
]
MISFITS_AFTER_WINDY = [
    pytest.param("D8 QAT", id="on-an-occupied-square"),
    pytest.param("1A AT", id="not-connected"),
    pytest.param("8C QI", id="word-not-whole"),
    pytest.param("9D A.", id="played-through-an-empty-square"),
]


@variants
@pytest.mark.parametrize("move", MISFITS_ON_EMPTY)
def test_first_move_that_does_not_fit(variant: str, move: str) -> None:
    exc = refused(
        [start(variant)], TilesPlaced(t=9000, player=0, move=move), variant, "placement_rule"
    )
    assert move in exc.reason


@variants
@pytest.mark.parametrize("move", MISFITS_AFTER_WINDY)
def test_move_that_does_not_fit(variant: str, move: str) -> None:
    prefix = opening(variant)
    exc = refused(prefix, TilesPlaced(t=40_000, player=1, move=move), variant, "placement_rule")
    assert move in exc.reason
    assert accepted(prefix, TilesPlaced(t=40_000, player=1, move="9D AX")).composing is not None


# --- the log's own order -----------------------------------------------------------

BEFORE_START = [
    TilesPlaced(t=0, player=0, move=FIRST),
    ClockPressed(t=0, player=0),
    Passed(t=0, player=0),
    Resumed(t=0, by="director"),
    EndRacks(t=0, racks=("", "")),
    Adjusted(t=0, by="director", player=0, score_delta=5),
    TimeChecked(t=0),
]


@pytest.mark.parametrize("bad", BEFORE_START, ids=lambda ev: type(ev).__name__)
def test_event_before_the_game_started(bad: Event) -> None:
    exc = refused([], bad)
    assert LOG_RULE in exc.rule


@variants
def test_time_going_backwards(variant: str) -> None:
    prefix = opening(variant)[:2]
    exc = refused(prefix, ClockPressed(t=19_999, player=0))
    assert LOG_RULE in exc.rule
    assert "19999" in exc.reason


# --- procedures out of place -------------------------------------------------------


@variants
def test_end_racks_before_the_game_ends(variant: str) -> None:
    bad = EndRacks(t=40_000, racks=("AEEIORT", "ABCEEOS"))
    refused(opening(variant), bad, variant, "going_out_factor")


@variants
def test_adjudicated_with_no_challenge_pending(variant: str) -> None:
    prefix = opening(variant)[:3]
    refused(prefix, Adjudicated(t=25_000, acceptable=False), variant, "challenge_rule")
    # Also once a challenge has been settled.
    settled = [*prefix, Challenged(t=22_000, player=1), Adjudicated(t=30_000, acceptable=True)]
    refused(settled, Adjudicated(t=31_000, acceptable=False), variant, "challenge_rule")


@variants
def test_resumed_when_not_neutralized(variant: str) -> None:
    refused([start(variant)], Resumed(t=5000, by="director"), variant, "neutralize_allowed")
    stopped: list[Event] = [start(variant), Neutralized(t=5000, by="director", reason="bag check")]
    running = [*stopped, Resumed(t=9000, by="director")]
    assert state_of(running).clock.running == 0
    refused(running, Resumed(t=9500, by="director"), variant, "neutralize_allowed")


@variants
def test_resumed_during_a_challenge(variant: str) -> None:
    prefix = [*opening(variant)[:3], Challenged(t=22_000, player=1)]
    refused(prefix, Resumed(t=25_000, by="director"), variant, "neutralize_allowed")


# --- a finished game ---------------------------------------------------------------


@variants
def test_a_press_after_a_resignation_cites_the_resignation_not_the_game_played_out(
    variant: str,
) -> None:
    prefix = [*opening(variant), Resigned(t=30_000, player=1)]
    exc = refused(prefix, ClockPressed(t=31_000, player=1), variant, "forfeit_spread")
    assert "resigned" in exc.reason
    assert load_variant(variant).source("end_rule") not in exc.rule
