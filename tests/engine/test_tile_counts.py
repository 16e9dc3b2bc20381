"""The end racks' refusal names the letter the set has too few of and its counts, and
shows an empty rack as ``-`` (not a Python list with ``''``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.errors import Refusal
from engine.events import EndRacks, Event
from engine.rules.machine import apply
from engine.rules.replay import replay
from engine.rules.state import GameState
from tests.support.gamelog import game_events, numbered


def state_of(events: Sequence[Event]) -> GameState:
    state, rejected = replay(numbered(events))
    assert rejected == []
    return state


def _out_game() -> tuple[GameState, EndRacks]:
    """A generated game that ends with a player going out: the state before its end
    racks, and the end racks."""
    for seed in range(50):
        events = game_events(seed, "naspa")
        at = next(i for i, e in enumerate(events) if isinstance(e, EndRacks))
        end = events[at]
        assert isinstance(end, EndRacks)
        if "" in end.racks:
            return state_of(events[:at]), end
    raise AssertionError("no generated game ends with a player going out")


def test_the_end_racks_refusal_names_the_letter_and_shows_an_empty_rack_as_a_dash() -> None:
    state, end = _out_game()
    assert state.board is not None
    seat = 0 if end.racks[0] else 1
    # a letter of one tile, on the board, in place of the rack's first tile
    gone = next(c for c in "ZQXJK" if state.board.cells.count(c) == 1)
    racks = [end.racks[0], end.racks[1]]
    racks[seat] = gone + racks[seat][1:]
    with pytest.raises(Refusal) as info:
        apply(state, EndRacks(t=end.t, racks=(racks[0], racks[1])))
    reason = info.value.reason
    shown = [r or "-" for r in racks]
    assert reason.startswith(f"racks {shown[0]} {shown[1]} cannot both be: they hold 1 {gone}")
    assert f"the set holds 1 {gone}, 1 of them on the board" in reason
    assert "[" not in reason
    assert "''" not in reason
