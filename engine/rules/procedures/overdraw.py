"""Overdraws: too many tiles drawn, or found on a rack. The clock is neutralized
until the tiles are back in the bag (NZASP 6.1.3.5), by the variant's procedure:
the opponent picks n+1 of the player's tiles and returns n (NZASP 6.1.3.2), or
n+2 (NSA); of tiles found on a rack, the opponent chooses from the rack turned to
them (NZASP 6.1.3.4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.errors import Refusal
from engine.events import Overdrawn, OverdrawResolved
from engine.rules.procedures.common import add_pair, refuse_player, rule, ruled, variant_of
from engine.rules.state import GameState, Phase

__all__ = ["HANDLERS", "overdraw", "settle"]


def overdraw(
    state: GameState, t: int, player: int, extra: int, *, on_rack: bool = False
) -> GameState:
    """``player`` holds ``extra`` tiles too many: the clock stops until they go back."""
    v = variant_of(state)
    # The opponent chooses which tiles go back, as every overdraw value says (n_plus_1,
    # n_plus_2, opponent_chooses), and the ruling names them: the cited texts name nobody.
    name, other = state.players[player], state.players[1 - player]
    tiles = f"{extra} tile{'s' if extra > 1 else ''}"
    if on_rack:
        param = "overdraw_on_rack_rule"
        how = f"{name} turns the rack to {other}, who chooses {tiles} to return to the bag"
    elif v.overdraw == "n_plus_1":
        param = "overdraw"
        how = (
            f"{other} picks {extra + 1} of {name}'s tiles, puts 1 back on "
            f"{name}'s rack and returns {extra} to the bag"
        )
    else:
        param = "overdraw"
        how = (
            f"{other} picks {extra + 2} of {name}'s tiles, looks, returns {extra} "
            f"to the bag and the rest to {name}'s rack"
        )
    resume = state.phase if state.phase is not Phase.OVERDRAW else state.resume_phase
    return replace(
        state,
        phase=Phase.OVERDRAW,
        overdraw=(player, extra),
        overdraw_param=param,
        resume_phase=resume,
        clock=state.clock.neutralize(t, "overdraw"),
        rulings=ruled(
            state,
            t,
            param,
            f"{name} has {tiles} too many: {how}; clock neutralized meanwhile",
        ),
    )


def settle(state: GameState, t: int, how: str) -> GameState:
    """The overdrawn tiles are back in the bag: the clock runs again (or the score
    dispute waiting behind the overdraw comes next). ``how`` says who settled it."""
    assert state.overdraw is not None
    player, extra = state.overdraw
    disputed = state.resume_phase is Phase.SCORE_DISPUTE
    st = replace(
        state,
        phase=state.resume_phase,
        overdraw=None,
        overdraw_param="overdraw",
        neutral_by=None,
        # A score dispute waiting behind the overdraw keeps the clock stopped.
        clock=state.clock.neutralize(t, "score dispute") if disputed else state.clock.resume(t),
        rulings=ruled(
            state,
            t,
            state.overdraw_param,
            f"{extra} of {state.players[player]}'s tiles returned to the bag ({how}); "
            + ("the score dispute is next" if disputed else "clock resumed"),
        ),
    )
    if disputed:
        st = replace(st, resume_phase=Phase.PLAYING)
    if state.mode == "board":
        st = replace(st, bag=state.bag + extra, held=add_pair(state.held, player, -extra))
    return st


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
    return overdraw(state, t, ev.player, ev.extra, on_rack=ev.on_rack)


def _overdraw_resolved(state: GameState, ev: OverdrawResolved, t: int) -> GameState:
    if state.phase is not Phase.OVERDRAW or state.overdraw is None:
        raise Refusal("no overdraw is being settled", rule(state, "overdraw"))
    player, extra = state.overdraw
    if ev.player != player or ev.returned != extra:
        raise Refusal(
            f"{state.players[player]} must return {extra} tile{'s' if extra > 1 else ''}, "
            f"not {ev.returned} from player {ev.player!r}",
            rule(state, state.overdraw_param),
        )
    return settle(state, t, "settled by the players")


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    Overdrawn: _overdrawn,
    OverdrawResolved: _overdraw_resolved,
}
"""The events this module handles."""
