"""The opponent's answer to a play: accept, hold and release, challenge, the
verdict on the whole play and its consequences, and the challenge window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.errors import EngineError, Refusal
from engine.events import (
    Accepted,
    Adjudicated,
    Challenged,
    HoldCalled,
    HoldReleased,
    ScoreRecorded,
    VerdictAppealed,
)
from engine.play.notation import parse_move
from engine.play.placement import place
from engine.rules.procedures.common import (
    add_pair,
    line,
    play_name,
    refuse_player,
    rule,
    ruled,
    set_pair,
    tiles_of,
    variant_of,
)
from engine.rules.procedures.ending import scoreless_check, went_out
from engine.rules.state import GameState, Phase, Play, Verdict

__all__ = ["HANDLERS"]


def _answer_target(state: GameState, player: int, what: str) -> Play:
    refuse_player(state, player)
    last = state.last
    if last is None or last.pressed_at is None or last.player == player:
        raise Refusal(
            f"{state.players[player]} has no play of the opponent's to {what}",
            rule(state, "challenge_window"),
        )
    if not last.window_open:
        raise Refusal(
            f"the right to {what} {last.move or 'the last play'} has lapsed",
            rule(state, "challenge_window"),
        )
    return last


def _accepted(state: GameState, ev: Accepted, t: int) -> GameState:
    last = _answer_target(state, ev.player, "accept")
    if state.phase not in (Phase.PLAYING, Phase.OUT_PLAY, Phase.HOLD):
        raise Refusal(f"cannot accept now: {state.describe_phase()}", rule(state, "turn_rule"))
    if last.out:
        return went_out(state, t)
    return replace(state, phase=Phase.PLAYING, last=replace(last, window_open=False))


def _hold(state: GameState, ev: HoldCalled, t: int) -> GameState:
    if not variant_of(state).hold_allowed:
        raise Refusal("holds are not allowed", rule(state, "hold_allowed"))
    last = _answer_target(state, ev.player, "hold")
    if state.phase not in (Phase.PLAYING, Phase.OUT_PLAY):
        raise Refusal(f"cannot hold now: {state.describe_phase()}", rule(state, "hold_allowed"))
    draw = (
        "may draw provisional tiles" if variant_of(state).hold_provisional_draw else "may not draw"
    )
    return replace(
        state,
        phase=Phase.HOLD,
        resume_phase=state.phase,
        rulings=ruled(
            state,
            t,
            "hold_allowed",
            f"hold called by {state.players[ev.player]} on {last.move or 'the last play'}; "
            f"{state.players[last.player]} {draw}",
        ),
    )


def _hold_released(state: GameState, ev: HoldReleased, t: int) -> GameState:
    refuse_player(state, ev.player)
    last = state.last
    if state.phase is not Phase.HOLD or last is None or last.player == ev.player:
        raise Refusal(
            f"{state.players[ev.player]} has no hold to release", rule(state, "hold_allowed")
        )
    st = replace(
        state,
        phase=state.resume_phase,
        rulings=ruled(
            state, t, "hold_allowed", f"hold released: {play_name(state, last)} is accepted"
        ),
    )
    if last.out:
        return went_out(st, t)
    return replace(st, phase=Phase.PLAYING, last=replace(last, window_open=False))


def _challenged(state: GameState, ev: Challenged, t: int) -> GameState:
    v = variant_of(state)
    last = _answer_target(state, ev.player, "challenge")
    if v.challenge_rule == "void":
        raise Refusal(
            "no challenges under the void rule: words are checked when played",
            rule(state, "challenge_rule"),
        )
    if state.phase not in (Phase.PLAYING, Phase.HOLD, Phase.OUT_PLAY):
        raise Refusal(
            f"cannot challenge now: {state.describe_phase()}", rule(state, "challenge_rule")
        )
    if last.unnamed:
        raise Refusal(
            f"{state.players[last.player]} must name the blank first",
            rule(state, "blank_before_press"),
        )
    words = tuple(w.upper() for w in ev.words)
    if state.mode == "board":
        unknown = [w for w in words if w not in last.words]
        if unknown:
            raise Refusal(
                f"{unknown[0]!r} is not a word formed by {last.move} ({', '.join(last.words)})",
                rule(state, "challenge_rule"),
            )
        words = words or last.words
    elif not words:
        words = ("?",)
    resume = state.phase if state.phase is not Phase.HOLD else state.resume_phase
    return replace(
        state,
        phase=Phase.CHALLENGE,
        resume_phase=resume,
        last=replace(last, challenged=words),
        clock=state.clock.neutralize(t, "challenge", resume_to=1 - last.player),
        rulings=ruled(
            state,
            t,
            "challenge_procedure",
            f"{state.players[ev.player]} challenges "
            + (
                ", ".join(words)
                if state.mode == "board"
                else play_name(state, replace(last, challenged=words))
            )
            + ": one challenge, clock neutralized",
        ),
    )


def _adjudicated(state: GameState, ev: Adjudicated, t: int) -> GameState:
    if state.phase is not Phase.CHALLENGE or state.last is None:
        raise Refusal("no challenge awaits a verdict", rule(state, "challenge_rule"))
    st = _verdict(state, ev.acceptable, ev.by, t)
    if variant_of(state).appeal_allowed:
        # NZASP 6.15.3: the decision may be appealed once to a referee.
        st = replace(st, verdict=Verdict(before=state, acceptable=ev.acceptable, t=t))
    return st


def _appealed(state: GameState, ev: VerdictAppealed, t: int) -> GameState:
    if not variant_of(state).appeal_allowed:
        raise Refusal("this variant has no appeal of a verdict", rule(state, "appeal_allowed"))
    verdict = state.verdict
    if verdict is None:
        raise Refusal(
            "no verdict to appeal: an appeal is heard once, before the game moves on",
            rule(state, "appeal_allowed"),
        )
    play = verdict.before.last
    assert play is not None
    move = play.move or "the play"
    if ev.acceptable == verdict.acceptable:
        return replace(
            state,
            verdict=None,
            rulings=ruled(
                state,
                t,
                "appeal_allowed",
                f"appeal: the {ev.by} upholds the verdict on {move} "
                f"({'acceptable' if ev.acceptable else 'unacceptable'})",
            ),
        )
    # The verdict is reversed: the game goes on from the challenge as the referee rules,
    # each clock keeping the time it has used meanwhile.
    before = verdict.before
    new = _verdict(before, ev.acceptable, ev.by, t)
    used = state.clock.stop(t).used_ms
    ruling = ruled(
        state,
        t,
        "appeal_allowed",
        f"appeal: the {ev.by} reverses the verdict: {move} is "
        f"{'acceptable' if ev.acceptable else 'unacceptable'}; "
        + ("the tiles go back on the board" if ev.acceptable else "the tiles come off the board"),
    )
    return replace(
        new,
        verdict=None,
        clock=replace(new.clock, used_ms=used),
        rulings=(*ruling, *new.rulings[len(before.rulings) :]),
    )


def _verdict(state: GameState, acceptable: bool, by: str, t: int) -> GameState:
    """The consequences of the verdict on the play under challenge."""
    last = state.last
    assert last is not None
    v = variant_of(state)
    p, c = last.player, 1 - last.player
    names = state.players
    if not acceptable:
        scores = add_pair(state.scores, p, -last.score)
        st = replace(
            state,
            scores=scores,
            turn=c,
            phase=Phase.PLAYING,
            last=None,
            scoreless=last.scoreless_before + 1,
        )
        if state.mode == "board" and last.placement is not None:
            assert state.board is not None
            st = replace(
                st,
                board=state.board.without(i for i, _ in last.placement.new),
                held=set_pair(state.held, p, last.held_before),
                # Only the replacement tiles counted for this play go back; tiles the
                # challenger has drawn since stay out of the bag.
                bag=state.bag + last.accounted,
                owed=set_pair(state.owed, p, 0),
            )
            st = _relay_after_withdrawal(st, t)
        else:
            st = _void_scored(st, p, last, t)
        clock = st.clock.start(c, t)
        text = (
            f"{play_name(state, last)} is unacceptable ({by}): tiles withdrawn, "
            f"{names[p]} loses the turn; {names[c]}'s clock runs"
        )
        if last.provisional:
            text += f"; {last.provisional} provisional tiles go back to the bag"
        if last.flash and last.accounted:
            # NZASP 6.5.3.1: flash-drawn tiles are shown to both players and returned.
            text += "; the flash-drawn tiles are shown and go back to the bag"
        st = replace(
            st,
            clock=clock,
            rulings=ruled(st, t, "withdrawal_rule", text),
            history=line(st, t, p, "withdrawn", "--", -last.score, scores, clock),
        )
        return scoreless_check(st, t)
    # The play stands.
    st = replace(state, last=replace(last, window_open=False))
    # NZASP 6.17: points for each word challenged; a word named twice counts once.
    n = max(1, len(set(last.challenged)))
    kind = v.challenge_rule
    scores = state.scores
    if kind == "points_per_word" or kind == "points_per_challenge":
        bonus = v.challenge_points * (n if kind == "points_per_word" else 1)
        scores = add_pair(scores, p, bonus)
        per = (
            f"{v.challenge_points} x {n} word{'s' if n > 1 else ''}"
            if kind == "points_per_word"
            else f"{v.challenge_points} per challenge"
        )
        st = replace(
            st,
            scores=scores,
            rulings=ruled(
                st,
                t,
                "challenge_points",
                f"{play_name(state, last)} is acceptable ({by}): "
                f"{names[p]} gets {bonus} ({per}); {names[c]} keeps the turn",
            ),
            history=line(st, t, p, "bonus", "(challenge)", bonus, scores, st.clock),
        )
    elif kind == "double":
        st = replace(
            st,
            rulings=ruled(
                st,
                t,
                "challenge_rule",
                f"{play_name(state, last)} is acceptable ({by}): {names[c]} loses the turn",
            ),
        )
    else:
        st = replace(
            st,
            rulings=ruled(
                st,
                t,
                "challenge_rule",
                f"{play_name(state, last)} is acceptable ({by}): no penalty",
            ),
        )
    if last.out:
        return went_out(replace(st, clock=st.clock.resume(t).stop(t)), t)
    if kind == "double":
        clock = st.clock.start(p, t)
        st = replace(
            st,
            phase=Phase.PLAYING,
            turn=p,
            clock=clock,
            scoreless=st.scoreless + 1,
            history=line(st, t, c, "lost_turn", "-", 0, st.scores, clock),
        )
        return scoreless_check(st, t)
    return replace(st, phase=Phase.PLAYING, clock=st.clock.resume(t))


def _relay_after_withdrawal(state: GameState, t: int) -> GameState:
    """The challenger's tiles laid before the verdict were checked against a board
    that held the withdrawn play: check them again, or ask for them again."""
    comp = state.composing
    if comp is None or state.board is None:
        return state
    try:
        pl = place(
            state.board,
            parse_move(comp.move, unnamed_blanks=True),
            tiles_of(state),
            unnamed_blanks=True,
        )
    except EngineError:
        return replace(
            state,
            composing=None,
            rulings=ruled(
                state,
                t,
                "placement_rule",
                f"{state.players[comp.player]}'s {comp.move} no longer fits the board without "
                "the withdrawn play: it must be laid again",
            ),
        )
    return replace(state, composing=replace(comp, placement=pl, computed=pl.score, words=pl.words))


def _void_scored(state: GameState, p: int, last: Play, t: int) -> GameState:
    """Scoresheet mode: a withdrawn play scores 0 whether or not it was scored yet."""
    if state.scored[p] >= last.index:
        return state  # its score was already taken off above
    return replace(state, voided=set_pair(state.voided, p, last.index))


def _score_recorded(state: GameState, ev: ScoreRecorded, t: int) -> GameState:
    refuse_player(state, ev.player)
    v = variant_of(state)
    comp = state.composing
    if comp is not None and comp.player == ev.player and ev.player == state.turn:
        # Written before the press: a pre-written score is a flash draw (NZASP 6.5.1).
        if not v.record_before_draw:
            return state
        return replace(
            state,
            composing=replace(comp, flash=True),
            rulings=ruled(
                state,
                t,
                "record_before_draw",
                f"{state.players[ev.player]} pre-writes the score of {comp.move}: a flash "
                "draw; the play will not be accepted by a draw and may still be challenged",
            ),
        )
    last = state.last
    if last is not None and last.player == ev.player and not last.recorded:
        state = replace(state, last=replace(last, recorded=True))
        last = state.last
    if (
        variant_of(state).challenge_window == "until_scoresheet"
        and last is not None
        and last.window_open
        and state.phase is Phase.PLAYING
    ):
        return replace(
            state,
            last=replace(last, window_open=False),
            rulings=ruled(
                state,
                t,
                "challenge_window",
                f"score sheet written: {play_name(state, last)} is accepted",
            ),
        )
    return state


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    Accepted: _accepted,
    HoldCalled: _hold,
    HoldReleased: _hold_released,
    Challenged: _challenged,
    Adjudicated: _adjudicated,
    ScoreRecorded: _score_recorded,
    VerdictAppealed: _appealed,
}
"""The events this module handles."""
