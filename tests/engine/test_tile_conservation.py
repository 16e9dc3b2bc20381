"""Tiles are conserved: at every step of every game, the bag, both racks and the
board hold exactly the tile set (100 English tiles). A withdrawal, an overdraw,
a flash draw or an exchange that lost or invented a tile would break it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.equipment.tiles import load_tile_set
from engine.events import (
    Adjudicated,
    Challenged,
    ClockPressed,
    Event,
    GameStarted,
    OverdrawResolved,
    ScoreRecorded,
    TilesDrawn,
    TilesPlaced,
)
from engine.rules.machine import apply
from engine.rules.state import GameState
from tests.support.gamelog import random_log

VARIANTS = ["nzasp", "wespa", "naspa", "naspa-csw", "indonesia-open"]


def _total(state: GameState) -> int:
    assert state.board is not None
    return state.bag + state.held[0] + state.held[1] + state.board.tile_count()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(VARIANTS))
def test_every_state_of_a_random_game_holds_the_whole_set(seed: int, variant: str) -> None:
    total = load_tile_set("english").total
    state = GameState()
    for ev in random_log(seed, variant):
        state = apply(state, ev)
        if state.board is not None:
            assert _total(state) == total, (seed, variant, type(ev).__name__)


def test_a_withdrawn_play_and_the_challengers_laid_tiles_keep_the_set() -> None:
    # Ben lays a play hooked on Ann's, then challenges Ann's play: it is withdrawn.
    events: list[Event] = [
        GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")),
        TilesPlaced(t=1000, player=0, move="8D WINDY", score=32),
        ClockPressed(t=2000, player=0),
        TilesPlaced(t=3000, player=1, move="7C GALE", score=16),
        Challenged(t=4000, player=1, words=("WINDY",)),
        Adjudicated(t=5000, acceptable=False),
    ]
    state = GameState()
    for ev in events:
        state = apply(state, ev)
        assert _total(state) == 100, type(ev).__name__
    # GALE hooked WINDY; without it GALE no longer fits and must be laid again.
    assert state.composing is None
    assert any("must be laid again" in r.text for r in state.rulings)


def test_a_flash_drawn_play_withdrawn_keeps_the_set() -> None:
    # NZASP 6.3.7: Ben draws without pressing, which completes his turn; Ann may still
    # challenge (6.5.1); withdrawn, his flash-drawn tiles go back to the bag (6.5.3.1).
    events: list[Event] = [
        GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")),
        TilesPlaced(t=1000, player=0, move="8D WINDY", score=32),
        ClockPressed(t=2000, player=0),
        ScoreRecorded(t=2500, player=0),
        TilesDrawn(t=2600, player=0, count=5),
        TilesPlaced(t=3000, player=1, move="7C GALE", score=16),
        TilesDrawn(t=3500, player=1, count=4),
        Challenged(t=4000, player=0, words=("GALE",)),
        Adjudicated(t=5000, acceptable=False),
    ]
    state = GameState()
    for ev in events:
        state = apply(state, ev)
        assert _total(state) == 100, type(ev).__name__
    assert state.held == (7, 7)
    assert any("flash-drawn tiles are shown and go back" in r.text for r in state.rulings)


def test_an_overdraw_returned_keeps_the_set() -> None:
    events: list[Event] = [
        GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")),
        TilesPlaced(t=1000, player=0, move="8D WINDY", score=32),
        ClockPressed(t=2000, player=0),
        TilesDrawn(t=3000, player=0, count=7),
        OverdrawResolved(t=9000, player=0, returned=2),
    ]
    state = GameState()
    for ev in events:
        state = apply(state, ev)
        assert _total(state) == 100, type(ev).__name__
    assert state.held == (7, 7)
