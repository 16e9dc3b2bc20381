"""Drawing tiles: replacement draws, the flash draw, and overdraws with the
variant's procedure, the clock neutralized meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.errors import Refusal
from engine.events import Overdrawn, OverdrawResolved, TilesDrawn
from engine.rules.procedures.common import (
    add_pair,
    refuse_player,
    rule,
    ruled,
    set_pair,
    variant_of,
)
from engine.rules.state import GameState, Phase

__all__ = ["HANDLERS", "overdraw"]


def overdraw(state: GameState, t: int, player: int, extra: int) -> GameState:
    v = variant_of(state)
    if v.overdraw == "n_plus_1":
        how = (
            f"the opponent picks {extra + 1} of {state.players[player]}'s tiles, puts 1 back "
            f"on the rack and returns {extra} to the bag"
        )
    else:
        how = (
            f"the opponent picks {extra + 2} of {state.players[player]}'s tiles, looks, "
            f"returns {extra} to the bag and the rest to the rack"
        )
    resume = state.phase if state.phase is not Phase.OVERDRAW else state.resume_phase
    return replace(
        state,
        phase=Phase.OVERDRAW,
        overdraw=(player, extra),
        resume_phase=resume,
        clock=state.clock.neutralize(t, "overdraw"),
        rulings=ruled(
            state,
            t,
            "overdraw",
            f"{state.players[player]} overdrew by {extra}: {how}; clock neutralized meanwhile",
        ),
    )


def _drawn(state: GameState, ev: TilesDrawn, t: int) -> GameState:
    refuse_player(state, ev.player)
    p = ev.player
    if state.mode != "board":
        raise Refusal("scoresheet mode does not track the bag", rule(state, "mode"))
    if ev.count < 1:
        raise Refusal(f"draw count must be 1 or more, got {ev.count}", rule(state, "turn_rule"))
    comp = state.composing
    if comp is not None and comp.player == p and p == state.turn:
        if state.phase not in (Phase.PLAYING, Phase.HOLD):
            raise Refusal(
                f"cannot draw now: {state.describe_phase()}", rule(state, "challenge_procedure")
            )
        # Drawing without pressing completes the turn (NZASP 6.3.7); the score was not
        # recorded first, so it is a flash draw and does not accept the turn (6.5.1).
        if ev.count > state.bag:
            raise Refusal(
                f"the bag holds {state.bag} tiles, not {ev.count}", rule(state, "turn_rule")
            )
        # The clock still runs until the player presses it; the play is fixed from now.
        return replace(
            state,
            bag=state.bag - ev.count,
            held=add_pair(state.held, p, ev.count),
            composing=replace(comp, drawn_early=comp.drawn_early + ev.count),
        )
    last = state.last
    own = last is not None and last.player == p  # the opponent has not moved on yet
    owed = state.owed[p]
    if not own and not owed:
        raise Refusal(
            f"{state.players[p]} has no replacement tiles to draw", rule(state, "turn_rule")
        )
    if own and state.phase is Phase.CHALLENGE:
        raise Refusal(
            "a challenge is under way: no tiles may be drawn", rule(state, "challenge_procedure")
        )
    provisional = own and state.phase is Phase.HOLD
    if provisional and not variant_of(state).hold_provisional_draw:
        raise Refusal(
            f"hold called: {state.players[p]} may not draw until it is released",
            rule(state, "hold_provisional_draw"),
        )
    accepts = (
        own
        and last is not None
        and not provisional
        and variant_of(state).challenge_window == "until_draw"
        and last.window_open
        and not last.drawn_early
        and last.pressed_at is not None
    )
    new_last = last
    rulings = state.rulings
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
                f"the bag holds {state.bag + owed} tiles, not {ev.count}", rule(state, "turn_rule")
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
        state, owed=set_pair(state.owed, p, owed - ev.count), last=new_last, rulings=rulings
    )


def _overdrawn(state: GameState, ev: Overdrawn, t: int) -> GameState:
    refuse_player(state, ev.player)
    if state.phase not in (Phase.PLAYING, Phase.HOLD):
        raise Refusal(
            f"cannot settle an overdraw now: {state.describe_phase()}", rule(state, "overdraw")
        )
    if ev.extra < 1:
        raise Refusal(f"an overdraw is 1 tile or more, got {ev.extra}", rule(state, "overdraw"))
    if state.mode == "board":
        if ev.extra > state.bag:
            raise Refusal(f"the bag holds only {state.bag} tiles", rule(state, "overdraw"))
        state = replace(
            state, bag=state.bag - ev.extra, held=add_pair(state.held, ev.player, ev.extra)
        )
    return overdraw(state, t, ev.player, ev.extra)


def _overdraw_resolved(state: GameState, ev: OverdrawResolved, t: int) -> GameState:
    if state.phase is not Phase.OVERDRAW or state.overdraw is None:
        raise Refusal("no overdraw is being settled", rule(state, "overdraw"))
    player, extra = state.overdraw
    if ev.player != player or ev.returned != extra:
        raise Refusal(
            f"{state.players[player]} must return {extra} tiles, not "
            f"{ev.returned} from player {ev.player!r}",
            rule(state, "overdraw"),
        )
    disputed = state.resume_phase is Phase.SCORE_DISPUTE
    st = replace(
        state,
        phase=state.resume_phase,
        overdraw=None,
        # A score dispute waiting behind the overdraw keeps the clock stopped.
        clock=state.clock.neutralize(t, "score dispute") if disputed else state.clock.resume(t),
        rulings=ruled(
            state,
            t,
            "overdraw",
            f"{extra} tiles returned to the bag; "
            + ("the score dispute is next" if disputed else "clock resumed"),
        ),
    )
    if disputed:
        st = replace(st, resume_phase=Phase.PLAYING)
    if state.mode == "board":
        st = replace(st, bag=state.bag + extra, held=add_pair(state.held, player, -extra))
    return st


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    TilesDrawn: _drawn,
    Overdrawn: _overdrawn,
    OverdrawResolved: _overdraw_resolved,
}
"""The events this module handles."""
