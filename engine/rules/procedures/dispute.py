"""Score disputes: the clock is neutralized, both claims are recorded, and the
resolution is logged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.errors import Refusal
from engine.events import Actor, ScoreDisputed, ScoreResolved
from engine.rules.procedures.common import (
    add_pair,
    line,
    play_name,
    refuse_player,
    rule,
    ruled,
    variant_of,
)
from engine.rules.procedures.turn import out_play
from engine.rules.state import GameState, Phase, Play

__all__ = ["HANDLERS", "settle_score"]


def _score_disputed(state: GameState, ev: ScoreDisputed, t: int) -> GameState:
    refuse_player(state, ev.by)
    last = state.last
    if state.phase is Phase.SCORE_DISPUTE and last is not None and state.claims is not None:
        # The declared score already differed from the board's: the opponent's own
        # dispute is the same dispute, not a second one.
        return replace(
            state,
            rulings=ruled(
                state,
                t,
                "dispute_neutralizes",
                f"{state.players[ev.by]} disputes the score of {play_name(state, last)} "
                f"too: one dispute; {_claims_text(state, last, state.claims, explicit=False)}",
            ),
        )
    if (
        last is None
        or last.pressed_at is None
        or state.phase not in (Phase.PLAYING, Phase.OUT_PLAY, Phase.HOLD)
    ):
        raise Refusal(
            "no pressed play whose score can be disputed", rule(state, "dispute_neutralizes")
        )
    claims = ev.claims or (
        last.declared if last.declared is not None else last.score,
        last.computed if last.computed is not None else last.score,
    )
    clock = (
        state.clock.neutralize(t, "score dispute")
        if variant_of(state).dispute_neutralizes
        else state.clock
    )
    return replace(
        state,
        phase=Phase.SCORE_DISPUTE,
        claims=claims,
        resume_phase=state.phase,
        clock=clock,
        rulings=ruled(
            state,
            t,
            "dispute_neutralizes",
            f"{state.players[ev.by]} disputes the score of {play_name(state, last)}: "
            + _claims_text(state, last, claims, explicit=ev.claims is not None)
            + ("; clock neutralized" if variant_of(state).dispute_neutralizes else ""),
        ),
    )


def _claims_text(state: GameState, last: Play, claims: tuple[int, int], *, explicit: bool) -> str:
    """Who claims which score: the player who made the play claims the first; the
    second is the board's count, or the opponent's claim when one was given."""
    names = state.players
    mine = f"{names[last.player]} claims {claims[0]}"
    if explicit:
        return f"{mine}, {names[1 - last.player]} claims {claims[1]}"
    if last.computed is not None:
        return f"{mine}, the board gives {claims[1]}"
    return f"{mine}; {names[1 - last.player]} does not agree"


def _whose(state: GameState, last: Play, score: int) -> str:
    """Whose claim a settled score is, as the dispute's ruling named them."""
    claims = state.claims
    if claims is None:
        return ""
    mover, other = state.players[last.player], state.players[1 - last.player]
    if score == claims[0]:
        return f", {mover}'s claim"
    if claims[0] == claims[1]:  # a score sheet: the opponent gave no number
        return f", not {mover}'s claim of {claims[0]}"
    if score == claims[1]:
        board = last.computed is not None and claims[1] == last.computed
        return ", the board's count" if board else f", {other}'s claim"
    return f", neither claim ({claims[0]} / {claims[1]})"


_AGREED = {
    "players": "both players agree",
    "scorekeeper": "both players agree; entered by the scorekeeper",
}
"""Who agreed a settled score, by who entered it (else as given, e.g. the director)."""


def settle_score(state: GameState, t: int, score: int, how: str, by: Actor | None) -> GameState:
    """The last play's score is settled at ``score``; the clock runs again."""
    last = state.last
    assert last is not None
    agreed = _AGREED.get(how, how)
    delta = score - last.score
    scores = add_pair(state.scores, last.player, delta)
    st = replace(
        state,
        scores=scores,
        last=replace(last, score=score, settled_by=by),
        claims=None,
        phase=state.resume_phase,
        clock=state.clock.resume(t),
        neutral_by=None,
        rulings=ruled(
            state,
            t,
            "dispute_neutralizes",
            f"score of {play_name(state, last)} settled at {score}{_whose(state, last, score)} "
            f"({agreed}); clock resumed",
        ),
    )
    if delta:
        st = replace(
            st,
            history=line(
                st,
                t,
                last.player,
                "rescored",
                f"score {last.score} -> {score}",
                delta,
                scores,
                st.clock,
            ),
        )
    if st.phase is Phase.OUT_PLAY:
        return out_play(replace(st, phase=Phase.PLAYING), t)
    return st


def _score_resolved(state: GameState, ev: ScoreResolved, t: int) -> GameState:
    last = state.last
    if state.phase is not Phase.SCORE_DISPUTE or last is None:
        raise Refusal("no score dispute to resolve", rule(state, "dispute_neutralizes"))
    if ev.score < 0:
        raise Refusal(f"a play cannot score {ev.score}", rule(state, "dispute_neutralizes"))
    return settle_score(state, t, ev.score, ev.by, ev.actor)


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    ScoreDisputed: _score_disputed,
    ScoreResolved: _score_resolved,
}
"""The events this module handles."""
