"""Drawing tiles: replacement draws, the flash draw (drawing before recording the
score, NZASP 6.5.1), and drawing without pressing, which completes the turn
(NZASP 6.3.7). Too many tiles drawn is an overdraw (:mod:`.overdraw`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.errors import Refusal
from engine.events import ClockPressed, TilesDrawn
from engine.rules.procedures.common import (
    add_pair,
    refuse_player,
    rule,
    ruled,
    set_pair,
    variant_of,
)
from engine.rules.procedures.overdraw import overdraw
from engine.rules.procedures.turn import pressed
from engine.rules.state import GameState, Phase

__all__ = ["HANDLERS"]

# Read once for every draw: in CPython 3.11 an enum member read from its class costs
# three module globals.
_PLAYING, _HOLD, _CHALLENGE = Phase.PLAYING, Phase.HOLD, Phase.CHALLENGE


def _drawn(state: GameState, ev: TilesDrawn, t: int) -> GameState:
    refuse_player(state, ev.player)
    p = ev.player
    if state.mode != "board":
        raise Refusal("scoresheet mode does not track the bag", rule(state, "mode"))
    if ev.count < 1:
        raise Refusal(f"draw count must be 1 or more, got {ev.count}", rule(state, "draw_rule"))
    comp = state.composing
    if comp is not None and comp.player == p and p == state.turn:
        # NZASP 6.3.7: a player who omits to press completes the turn as soon as they
        # start to draw: the turn passes now. The score was not recorded first, so it
        # is a flash draw (6.5.1): the opponent has not accepted the play.
        st = pressed(state, ClockPressed(player=p), t)
        last = st.last
        assert last is not None
        st = replace(
            st,
            last=replace(last, flash=True),
            rulings=ruled(
                st,
                t,
                "flash_draw_rule",
                f"{state.players[p]} drew without pressing: the draw completes the turn and "
                f"{state.players[1 - p]}'s clock runs; as a flash draw it does not accept "
                f"{comp.move}, which may still be challenged",
            ),
        )
        if st.phase is not _PLAYING:
            return st  # an overdraw, a score dispute or an out-play comes first
        return _drawn(st, ev, t)
    last = state.last
    own = last is not None and last.player == p  # the opponent has not moved on yet
    owed = state.owed[p]
    if not own and not owed:
        raise Refusal(
            f"{state.players[p]} has no replacement tiles to draw", rule(state, "draw_rule")
        )
    if own and state.phase is _CHALLENGE:
        raise Refusal(
            "a challenge is under way: no tiles may be drawn", rule(state, "challenge_procedure")
        )
    provisional = own and state.phase is _HOLD
    if provisional and not variant_of(state).hold_provisional_draw:
        raise Refusal(
            f"hold called: {state.players[p]} may not draw until it is released",
            rule(state, "hold_provisional_draw"),
        )
    v = variant_of(state)
    accepts = (
        own
        and last is not None
        and not provisional
        and v.challenge_window == "until_draw"
        and last.window_open
        and not last.flash
        and last.pressed_at is not None
    )
    new_last = last
    rulings = state.rulings
    if accepts and last is not None and v.record_before_draw and not last.recorded:
        # NZASP 6.5.1: drawing before recording the score is a flash draw; the play is
        # not accepted and may still be challenged.
        accepts = False
        new_last = replace(last, flash=True)
        rulings = ruled(
            state,
            t,
            "record_before_draw",
            f"{state.players[p]} drew before recording the score: a flash draw; "
            f"{last.move or 'the play'} is not accepted and may still be challenged",
        )
    if accepts and last is not None:
        # NZASP 6.12.1.3: drawing a replacement tile accepts the play.
        new_last = replace(last, window_open=False)
        rulings = ruled(
            state, t, "challenge_window", f"{state.players[p]} drew: {last.move} is accepted"
        )
    if ev.count > owed:
        extra = ev.count - owed
        if extra > state.bag:
            raise Refusal(
                f"the bag holds {state.bag + owed} tiles, not {ev.count}"
                + (f": {state.players[p]} is owed {owed}" if owed else ""),
                rule(state, "draw_rule"),
            )
        st = replace(
            state,
            bag=state.bag - extra,
            held=add_pair(state.held, p, extra),
            owed=set_pair(state.owed, p, 0),
            last=new_last,
            rulings=rulings,
        )
        return overdraw(st, t, p, extra)
    if provisional and last is not None:
        new_last = replace(last, provisional=last.provisional + ev.count)
        rulings = ruled(
            state,
            t,
            "hold_provisional_draw",
            f"{state.players[p]} draws {ev.count} provisional tiles during the hold",
        )
    return replace(
        state,
        owed=set_pair(state.owed, p, owed - ev.count),
        last=new_last,
        rulings=rulings,
        t=t,  # stamped here, not copied again by apply
    )


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    TilesDrawn: _drawn,
}
"""The events this module handles."""
