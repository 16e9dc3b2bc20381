"""The end of a game: going out, scoreless turns, end racks, time penalties, the
result; resignations, forfeits, byes and the players' signatures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.clocktext import clock_text
from engine.equipment.board import Board
from engine.equipment.rack import parse_rack
from engine.equipment.tiles import TileSet
from engine.errors import EngineError, Refusal
from engine.events import Bye, EndRacks, Forfeited, Resigned, ResultDeclared, Signed
from engine.play.tile_counts import count_words, short_tile
from engine.rules.procedures.common import (
    add_pair,
    penalty,
    refuse_player,
    rule,
    ruled,
    set_pair,
    tiles_of,
    variant_of,
)
from engine.rules.state import EndReason, GameState, Phase, Result, Ruling, Turn
from engine.rules.variant import Variant
from engine.tournament.scores import score_text

__all__ = [
    "HANDLERS",
    "end_game",
    "finish",
    "racks_fit",
    "scoreless_check",
    "scoreless_ended",
    "went_out",
]


def end_game(state: GameState, t: int, reason: EndReason) -> GameState:
    """The game is over; the racks are awaited (board mode) or the result is computed."""
    return replace(
        state, clock=state.clock.stop(t), composing=None, end_reason=reason, phase=Phase.END_RACKS
    )


_FINISHED_BY: dict[EndReason, str] = {"scoreless": "scoreless_turns", "cutoff": "cutoff"}
"""The rule a game that ends in its racks cites, when it is not a game played out
(``end_rule``): the one its ending's ruling cited (:func:`scoreless_check`, the deadline).
A game awarded cites its own (:func:`_award`)."""


def finish(
    state: GameState,
    t: int,
    reason: EndReason,
    adjust: tuple[int, int],
    racks: tuple[str, str] = ("", ""),
) -> GameState:
    v = variant_of(state)
    clock = state.clock.stop(t)
    st = replace(state, clock=clock)
    pens = (penalty(st, 0, t), penalty(st, 1, t))
    rulings = state.rulings
    history = state.history
    scores = (state.scores[0] + adjust[0], state.scores[1] + adjust[1])
    for seat in (0, 1):
        if adjust[seat]:
            history = (
                *history,
                Turn(
                    t,
                    seat,
                    "end_racks",
                    # The player who went out gains the opponent's tiles; otherwise own tiles.
                    f"({racks[1 - seat] if adjust[seat] > 0 else racks[seat]})",
                    adjust[seat],
                    scores[seat],
                    clock.remaining(seat, t),
                    racks[seat],
                ),
            )
    for seat in (0, 1):
        if pens[seat]:
            over = clock.overtime(seat, t)
            unit = "second" if v.penalty_unit_ms == 1000 else "minute"
            rulings = (
                *rulings,
                Ruling(
                    t,
                    v.source("penalty_points"),
                    f"{state.players[seat]} used {clock_text(over, tenths=True)} overtime: "
                    f"-{pens[seat]} "
                    f"({v.penalty_points} per {unit}"
                    f"{' or part' if v.penalty_part_counts else ''})",
                ),
            )
            scores = add_pair(scores, seat, -pens[seat])
            history = (
                *history,
                Turn(
                    t,
                    seat,
                    "penalty",
                    "(time)",
                    -pens[seat],
                    scores[seat],
                    clock.remaining(seat, t),
                ),
            )
    if scores[0] == scores[1]:
        winner = None
        rulings = (*rulings, Ruling(t, v.source("tie"), "tied score: half a win each"))
    else:
        winner = 0 if scores[0] > scores[1] else 1
    spread = abs(scores[0] - scores[1])
    if not v.spread_recorded:
        rulings = (*rulings, Ruling(t, v.source("spread_recorded"), "the spread is not recorded"))
    result = Result(
        scores, winner, reason, spread, pens, adjust, _FINISHED_BY.get(reason, "end_rule")
    )
    return replace(
        st,
        phase=Phase.OVER,
        result=result,
        rulings=rulings,
        history=history,
        scores=scores,
        end_reason=reason,
        composing=None,
    )


def scoreless_ended(state: GameState, v: Variant) -> bool:
    """Whether the consecutive scoreless turns have reached ``v``'s limit, which ends
    the game. A play tests it before calling :func:`scoreless_check`: most plays score,
    and the test is cheaper than the call on every play of every replay."""
    return state.scoreless >= v.scoreless_turns


def scoreless_check(state: GameState, t: int) -> GameState:
    v = variant_of(state)
    if not scoreless_ended(state, v) or state.phase in (Phase.END_RACKS, Phase.OVER):
        return state
    st = replace(
        state,
        rulings=ruled(
            state,
            t,
            "scoreless_turns",
            f"{v.scoreless_turns} consecutive scoreless turns: the game ends; "
            "each player loses the value of their own tiles",
        ),
    )
    return end_game(st, t, "scoreless")


def went_out(state: GameState, t: int) -> GameState:
    last = state.last
    assert last is not None
    name = state.players[last.player]
    st = replace(
        state,
        last=replace(last, window_open=False),
        rulings=ruled(
            state,
            t,
            "going_out_factor",
            f"{name} went out: {variant_of(state).going_out_factor}x "
            f"{state.players[1 - last.player]}'s tiles to {name}",
        ),
    )
    return end_game(st, t, "out")


def racks_fit(racks: Counter[str], board: Board, tile_set: TileSet) -> bool:
    """Whether ``racks`` (both racks' tiles together) can be what the board leaves of
    the set (:func:`engine.play.tile_counts.short_tile`, which counts on the board
    only the racks' own tiles; ``tests/engine/test_fast_paths.py`` holds it to the
    whole-pool form)."""
    return short_tile(racks, board, tile_set) is None


def _end_racks(state: GameState, ev: EndRacks, t: int) -> GameState:
    v = variant_of(state)
    if state.mode == "board" and state.phase is not Phase.END_RACKS:
        raise Refusal(
            f"the tiles left on the racks come after the game ends; now: {state.describe_phase()}",
            rule(state, "going_out_factor"),
        )
    if state.mode == "scoresheet" and state.phase in (Phase.CHALLENGE, Phase.OVER):
        raise Refusal(
            f"cannot end the game now: {state.describe_phase()}", rule(state, "going_out_factor")
        )
    ts = tiles_of(state)
    racks: list[Counter[str]] = []
    for seat, text in enumerate(ev.racks):
        try:
            rack = parse_rack(text, ts)
        except EngineError as exc:
            raise Refusal(str(exc), rule(state, "going_out_factor")) from None
        if state.mode == "board" and sum(rack.values()) != state.held[seat]:
            raise Refusal(
                f"{state.players[seat]}'s rack {text!r} has {sum(rack.values())} tiles; "
                f"{state.players[seat]} holds {state.held[seat]}",
                rule(state, "going_out_factor"),
            )
        racks.append(rack)
    if state.mode == "board":
        assert state.board is not None
        both = racks[0] + racks[1]
        short = short_tile(both, state.board, ts)
        if short is not None:
            raise Refusal(
                f"racks {ev.racks[0] or '-'} {ev.racks[1] or '-'} cannot both be: they hold "
                + count_words(short, both[short], state.board, ts),
                rule(state, "going_out_factor"),
            )
    values = (ts.rack_value(racks[0].elements()), ts.rack_value(racks[1].elements()))
    reason = state.end_reason or "out"
    empty = [not sum(r.values()) for r in racks]
    st = state
    if empty[0] != empty[1]:
        out = 0 if empty[0] else 1
        gain = v.going_out_factor * values[1 - out]
        adjust = set_pair((0, 0), out, gain)
        reason = "out"
        st = replace(
            st,
            rulings=ruled(
                st,
                t,
                "going_out_factor",
                f"{state.players[out]} gets {v.going_out_factor} x {values[1 - out]} = {gain} "
                f"for {state.players[1 - out]}'s tiles ({ev.racks[1 - out]})",
            ),
        )
    elif reason == "cutoff" and not v.cutoff_rack_deductions:
        adjust = (0, 0)
    else:
        adjust = (-values[0], -values[1])
        if reason not in ("scoreless", "cutoff"):
            reason = "scoreless" if state.phase is Phase.END_RACKS else "ended"
        st = replace(
            st,
            rulings=ruled(
                st,
                t,
                "cutoff_rack_deductions" if reason == "cutoff" else "rack_deduction_rule",
                f"each player loses their own tiles: {state.players[0]} -{values[0]}, "
                f"{state.players[1]} -{values[1]}",
            ),
        )
    return finish(st, t, reason, adjust, (ev.racks[0], ev.racks[1]))


def _award(
    state: GameState,
    t: int,
    winner: int | None,
    reason: EndReason,
    spread: int,
    param: str,
    text: str,
    scores: tuple[int, int] | None = None,
) -> GameState:
    final = scores if scores is not None else state.scores
    result = Result(final, winner, reason, spread, rule=param)
    return replace(
        state,
        phase=Phase.OVER,
        result=result,
        end_reason=reason,
        clock=state.clock.stop(t),
        composing=None,
        rulings=ruled(state, t, param, text),
    )


def _resigned(state: GameState, ev: Resigned, t: int) -> GameState:
    refuse_player(state, ev.player)
    w = 1 - ev.player
    v = variant_of(state)
    return _award(
        state,
        t,
        w,
        "resigned",
        v.forfeit_spread,
        "forfeit_spread",
        f"{state.players[ev.player]} resigns: {state.players[w]} wins by "
        f"{v.forfeit_spread} (a resignation counts as a forfeit)",
    )


def _forfeited(state: GameState, ev: Forfeited, t: int) -> GameState:
    refuse_player(state, ev.player)
    v = variant_of(state)
    if ev.both:
        text = (
            "neither player came: both score 0 and nobody wins"
            if v.double_absence == "both_zero"
            else "neither player came: both lose, no spread"
        )
        return _award(
            state, t, None, "absent", 0, "double_absence", f"{text} ({ev.reason}, {ev.by})", (0, 0)
        )
    w = 1 - ev.player
    param = "lateness_spread" if ev.lateness else "forfeit_spread"
    spread = v.lateness_spread if ev.lateness else v.forfeit_spread
    return _award(
        state,
        t,
        w,
        "lateness" if ev.lateness else "forfeit",
        spread,
        param,
        f"{state.players[ev.player]} forfeits ({ev.reason}, {ev.by}): "
        f"{state.players[w]} wins, spread {spread}",
    )


def _bye(state: GameState, ev: Bye, t: int) -> GameState:
    refuse_player(state, ev.player)
    if state.history:
        raise Refusal("a bye is given before any play", rule(state, "bye_spread"))
    v = variant_of(state)
    return _award(
        state,
        t,
        ev.player,
        "bye",
        v.bye_spread,
        "bye_spread",
        f"{state.players[ev.player]} has a bye: a win, spread {v.bye_spread}",
        scores=(0, 0),
    )


def _declared(state: GameState, ev: ResultDeclared, t: int) -> GameState:
    scores = ev.scores if ev.scores is not None else state.scores
    winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    stated = "as stated" if ev.scores is not None else "as they stand"
    return _award(
        state,
        t,
        winner,
        "declared",
        abs(scores[0] - scores[1]),
        "director_rule",
        f"the director, {ev.by}, ends the game with the scores {stated}: "
        f"{state.players[0]} {score_text(*scores)} {state.players[1]}"
        + (f" ({ev.reason})" if ev.reason else ""),
        scores,
    )


def _signed(state: GameState, ev: Signed, t: int) -> GameState:
    refuse_player(state, ev.player)
    if state.phase is not Phase.OVER:
        raise Refusal(
            f"the result is signed once the game is over; now: {state.describe_phase()}",
            rule(state, "signature_rule"),
        )
    if state.signed[ev.player]:
        raise Refusal(
            f"{state.players[ev.player]} has already signed", rule(state, "signature_rule")
        )
    signed = set_pair(state.signed, ev.player, True)
    text = f"{state.players[ev.player]} confirms the result"
    if all(signed):
        text += ": both players have signed"
    return replace(state, signed=signed, rulings=ruled(state, t, "signature_rule", text))


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    EndRacks: _end_racks,
    Resigned: _resigned,
    Forfeited: _forfeited,
    Bye: _bye,
    Signed: _signed,
    ResultDeclared: _declared,
}
"""The events this module handles."""
