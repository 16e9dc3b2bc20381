"""The clock outside turns: neutralize and resume, the out-play restart right,
the service restart, deadline wake-ups, and the director's adjustments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.clocktext import clock_text
from engine.errors import Refusal
from engine.events import (
    Adjusted,
    ClockRestarted,
    Neutralized,
    Resumed,
    ServiceRestarted,
    TimeChecked,
)
from engine.rules.procedures.common import (
    LIVE,
    add_pair,
    line,
    penalty,
    refuse_player,
    rule,
    ruled,
    set_pair,
    variant_of,
)
from engine.rules.procedures.correction import shifted
from engine.rules.procedures.dispute import settle_score
from engine.rules.procedures.overdraw import settle
from engine.rules.state import GameState, Phase, Ruling

__all__ = ["HANDLERS"]


def _neutralized(state: GameState, ev: Neutralized, t: int) -> GameState:
    if not variant_of(state).neutralize_allowed:
        raise Refusal("neutralizing is not allowed", rule(state, "neutralize_allowed"))
    if state.phase not in LIVE and state.phase is not Phase.END_RACKS:
        raise Refusal(
            f"cannot neutralize now: {state.describe_phase()}", rule(state, "neutralize_allowed")
        )
    if state.clock.neutral:
        raise Refusal(
            f"the clock is already neutralized ({state.clock.neutral})",
            rule(state, "neutralize_allowed"),
        )
    if not ev.reason.strip():
        raise Refusal("neutralizing needs a reason", rule(state, "neutralize_allowed"))
    return replace(
        state,
        clock=state.clock.neutralize(t, f"{ev.reason} ({ev.by})"),
        neutral_by=ev.actor,
        rulings=ruled(state, t, "neutralize_allowed", f"clock neutralized by {ev.by}: {ev.reason}"),
    )


def _resumed(state: GameState, ev: Resumed, t: int) -> GameState:
    if not state.clock.neutral:
        raise Refusal("the clock is not neutralized", rule(state, "neutralize_allowed"))
    director = ev.director or ev.actor == "director"
    if director and state.phase is Phase.OVERDRAW:
        # The director settles the overdraw: the tiles go back as the procedure says.
        return settle(state, t, f"ruled by the director, {ev.by}")
    if director and state.phase is Phase.SCORE_DISPUTE and state.last is not None:
        # The director lets the score stand as counted; the game goes on.
        return settle_score(
            state, t, state.last.score, f"the director, {ev.by}: the score stands", "director"
        )
    if state.phase is Phase.CHALLENGE:
        raise Refusal(
            "a challenge awaits its verdict: valid or invalid (the adjudicator or the "
            "director rules), then the clock runs",
            rule(state, "neutralize_allowed"),
        )
    if state.phase in (Phase.SCORE_DISPUTE, Phase.OVERDRAW):
        raise Refusal(
            f"{state.describe_phase()}: the clock resumes when it is settled",
            rule(state, "neutralize_allowed"),
        )
    if (
        state.phase is Phase.OUT_PLAY
        and state.clock.neutral == "out-play"
        and not (ev.director or ev.by == "director")
    ):
        raise Refusal(
            "the out-play waits for the opponent's answer", rule(state, "outplay_restart_ms")
        )
    return replace(
        state,
        clock=state.clock.resume(t),
        neutral_by=None,
        rulings=ruled(state, t, "neutralize_allowed", f"clock resumed by {ev.by}"),
    )


def _clock_restarted(state: GameState, ev: ClockRestarted, t: int) -> GameState:
    refuse_player(state, ev.player)
    v = variant_of(state)
    last = state.last
    if (
        state.phase not in (Phase.OUT_PLAY, Phase.HOLD)
        or last is None
        or not last.out
        or last.player != ev.player
    ):
        raise Refusal(
            f"{state.players[ev.player]} has no out-play awaiting an answer",
            rule(state, "outplay_restart_ms"),
        )
    if not v.outplay_restart_ms:
        raise Refusal(
            "this variant gives no right to restart the opponent's clock",
            rule(state, "outplay_restart_ms"),
        )
    assert last.pressed_at is not None
    waited = t - last.pressed_at
    if waited < v.outplay_restart_ms:
        raise Refusal(
            f"{state.players[ev.player]} may restart the opponent's clock after "
            f"{v.outplay_restart_ms // 1000} s; only {waited} ms have passed",
            rule(state, "outplay_restart_ms"),
        )
    opp = 1 - ev.player
    return replace(
        state,
        clock=state.clock.start(opp, t),
        rulings=ruled(
            state,
            t,
            "outplay_restart_ms",
            f"no answer after {waited // 1000} s: "
            f"{state.players[ev.player]} restarts {state.players[opp]}'s clock",
        ),
    )


def _restarted(state: GameState, ev: ServiceRestarted, t: int) -> GameState:
    """The service was down: the game comes back neutralized, the gap charged to nobody."""
    down = clock_text(ev.gap_ms, tenths=True)
    text = f"{ev.reason}: the service was down {down}"
    rule = "table procedure: no time is charged while the service is down"
    st = replace(state, rulings=(*state.rulings, Ruling(t, rule, text)))
    if state.phase in LIVE and state.clock.running is not None and not state.clock.neutral:
        st = replace(st, clock=state.clock.neutralize(t, f"{ev.reason} (down {down})"))
    return st


def _time_checked(state: GameState, ev: TimeChecked, t: int) -> GameState:
    return state


def _adjusted(state: GameState, ev: Adjusted, t: int) -> GameState:
    refuse_player(state, ev.player)
    p = ev.player
    what = []
    if ev.score_delta:
        what.append(f"{ev.score_delta:+d} points")
    if ev.time_delta_ms:
        what.append(f"{clock_text(ev.time_delta_ms, plus=True)} on the clock")
    if not what:
        raise Refusal("an adjustment changes the score or the time", f"director {ev.by}")
    text = f"{state.players[p]} {' and '.join(what)}: {ev.reason or 'no reason given'}"
    rulings = (*state.rulings, Ruling(t, f"director {ev.by}", text))
    scores = add_pair(state.scores, p, ev.score_delta)
    clock = state.clock.adjust(p, ev.time_delta_ms) if ev.time_delta_ms else state.clock
    st = replace(
        state,
        scores=scores,
        clock=clock,
        rulings=rulings,
        history=line(state, t, p, "adjusted", ev.reason, ev.score_delta, scores, clock),
    )
    res = state.result
    if state.phase is Phase.OVER and res is not None:
        pens = res.penalties
        if ev.time_delta_ms and res.reason not in ("forfeit", "lateness", "bye", "resigned"):
            pens = set_pair(pens, p, penalty(st, p, t))
        refund = res.penalties[p] - pens[p]
        if refund:
            # The time penalty is recomputed from the adjusted clock; scores and lines follow.
            scores = add_pair(st.scores, p, refund)
            st = replace(
                st,
                scores=scores,
                history=line(st, t, p, "penalty", "(time)", refund, scores, st.clock),
                rulings=(
                    *st.rulings,
                    Ruling(
                        t,
                        f"director {ev.by}",
                        f"{state.players[p]}'s time penalty is now {pens[p]} "
                        f"(was {res.penalties[p]})",
                    ),
                ),
            )
        st = replace(st, result=replace(shifted(res, p, ev.score_delta + refund), penalties=pens))
    return st


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    Neutralized: _neutralized,
    Resumed: _resumed,
    ClockRestarted: _clock_restarted,
    ServiceRestarted: _restarted,
    TimeChecked: _time_checked,
    Adjusted: _adjusted,
}
"""The events this module handles."""
