"""Deadlines the rules act on by themselves: the overtime cutoff of a variant.

A deadline takes effect at its own instant, computed from the clock's
timestamps, whichever event comes next; the clock service only schedules a
wake-up (a ``time_checked`` event) so it happens on time.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.clocktext import clock_text
from engine.rules.procedures.common import LIVE, add_pair, line, rule, ruled, set_pair, variant_of
from engine.rules.procedures.ending import end_game, finish
from engine.rules.state import GameState, Phase, Ruling

__all__ = ["advance", "next_deadline"]


def next_deadline(state: GameState) -> int | None:
    """The next instant at which the rules act by themselves (the overtime cutoff),
    or None. The clock service schedules a wake-up for it."""
    v = state.variant
    if v is None or v.cutoff == "none" or state.phase not in LIVE:
        return None
    seat = state.clock.running
    if seat is None or state.locked[seat]:
        return None
    return state.clock.when_overtime(seat, v.cutoff_overtime_ms)


def advance(state: GameState, t: int) -> GameState:
    """Apply every deadline that falls at or before ``t``, each at its own instant."""
    deadline = next_deadline(state)
    if deadline is None or t < deadline:
        return state
    v = variant_of(state)
    seat = state.clock.running
    assert seat is not None
    name = state.players[seat]
    mark = clock_text(-v.cutoff_overtime_ms)
    if v.cutoff == "game_ends":
        clock = state.clock.stop(deadline)
        st = replace(
            state,
            clock=clock,
            composing=None,
            end_reason="cutoff",
            rulings=ruled(
                state, deadline, "cutoff", f"{name}'s clock passed {mark}: the game ends"
            ),
        )
        if v.cutoff_rack_deductions and st.mode == "board":
            return replace(st, phase=Phase.END_RACKS)
        return finish(st, deadline, "cutoff", (0, 0))
    # no_more_plays (Toronto speed play, TOR-8/TOR-9)
    locked = set_pair(state.locked, seat, True)
    rulings = ruled(state, deadline, "cutoff", f"{name} reached {mark}: no more plays")
    clock = state.clock
    composing = state.composing
    if composing is not None and composing.player == seat:
        composing = None
        clock = clock.neutralize(deadline, "cutoff: remove the play from the board")
        rulings = (
            *rulings,
            Ruling(
                deadline,
                rule(state, "cutoff"),
                f"{name}'s play on the board is removed with the clock paused",
            ),
        )
    scores = state.scores
    sheet = state.sheet
    if state.mode == "scoresheet" and state.scored[seat] > state.presses[seat]:
        # The turn in play was scored before its press: its play was on the board at
        # the cutoff and is taken off (TOR-8), so the entry stays on that turn at 0.
        entry = sheet[seat][-1]
        scores = add_pair(scores, seat, -entry.score)
        sheet = set_pair(sheet, seat, (*sheet[seat][:-1], replace(entry, score=0)))
        rulings = (
            *rulings,
            Ruling(
                deadline,
                rule(state, "cutoff"),
                f"{name}'s turn {state.scored[seat]} ({entry.letter or '-'} {entry.score}) "
                "was not pressed by the cutoff: it scores 0",
            ),
        )
    history = state.history
    if scores != state.scores:
        history = line(
            state,
            deadline,
            seat,
            "rescored",
            f"fix {state.scored[seat]}",
            scores[seat] - state.scores[seat],
            scores,
            clock,
        )
    st = replace(
        state,
        scores=scores,
        sheet=sheet,
        history=history,
        locked=locked,
        # TOR-8: the turns ended so far may still be scored; later ones score 0.
        locked_presses=set_pair(state.locked_presses, seat, state.presses[seat]),
        clock=clock,
        composing=composing,
        rulings=rulings,
    )
    opp = 1 - seat
    # In scoresheet mode the scores may lag the scorekeeper, so whether the opponent
    # is behind is not known here: they play on, or end the game by passing.
    behind_known = state.mode == "board" or all(state.scored[i] >= state.presses[i] for i in (0, 1))
    # "Still behind" (TOR-9) is read on the scores as recorded: time penalties come
    # off only at the end (an assumed reading; see docs/variants.md).
    if locked[opp] or (behind_known and st.scores[opp] >= st.scores[seat]):
        # TOR-9: only a player who is behind may play on.
        st = replace(
            st,
            rulings=(
                *st.rulings,
                Ruling(
                    deadline,
                    rule(state, "cutoff"),
                    f"{state.players[opp]} is not behind: the game ends",
                ),
            ),
        )
        return end_game(st, deadline, "cutoff")
    return st
