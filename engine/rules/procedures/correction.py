"""The scorekeeper's corrections (scoresheet mode): an entry taken back or corrected.

TOR-1 makes the scorekeeper, not the players, responsible for the scoresheet, so a
slip of the scorekeeper's is mended by the scorekeeper: the last entry taken back
(the turn is unscored again) or an earlier entry corrected, each logged as its own
event. Once a player has signed, the sheet is the signed result: a change is then
the director's (an adjustment).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.clocktext import clock_text
from engine.errors import Refusal
from engine.events import TurnCorrected
from engine.rules.procedures.common import (
    add_pair,
    line,
    refuse_player,
    rule,
    ruled,
    set_pair,
    variant_of,
)
from engine.rules.state import GameState, Phase, Result, SheetEntry

__all__ = ["HANDLERS", "shifted"]


def shifted(result: Result, player: int, delta: int) -> Result:
    """``result`` with ``delta`` points more for ``player``: winner and spread follow
    the scores, unless the game was decided by rule."""
    final = add_pair(result.scores, player, delta)
    # A forfeit, a bye or a resignation keeps its winner and declared spread: the
    # player who resigned lost, whatever the corrected scores (NZASP 10.2-10.3).
    if result.reason in ("forfeit", "lateness", "bye", "resigned"):
        return replace(result, scores=final)
    winner = None if final[0] == final[1] else (0 if final[0] > final[1] else 1)
    return replace(result, scores=final, winner=winner, spread=abs(final[0] - final[1]))


def _standing(state: GameState) -> tuple[int, int]:
    """The scores as recorded during play: without what the end added (racks, time
    penalties) and the director's adjustments after it. TOR-9's "still behind" reads
    these (time penalties come off only at the end; docs/variants.md)."""
    totals = list(state.scores)
    ended = False
    for h in state.history:
        ended = ended or h.kind in ("end_racks", "penalty")
        if ended and h.kind in ("end_racks", "penalty", "adjusted"):
            totals[h.player] -= h.score
    return totals[0], totals[1]


def _keep_the_ending(state: GameState, player: int, delta: int) -> None:
    """Refuse a correction that would undo why the game ended at the cutoff: one player
    locked out and the other not behind (TOR-8, TOR-9). The ending was decided on the
    scores then; re-deciding it would bring back turns never played, so it is the
    director's to rule (an adjustment).

    Raises:
        Refusal: The correction would put the player who was not behind behind.
    """
    if state.end_reason != "cutoff" or state.locked.count(True) != 1 or not delta:
        return
    seat = state.locked.index(True)
    other = 1 - seat
    before = _standing(state)
    after = add_pair(before, player, delta)
    if (before[other] >= before[seat]) == (after[other] >= after[seat]):
        return
    names = state.players
    raise Refusal(
        f"the game ended at the cutoff because {names[other]} was not behind "
        f"{names[seat]} ({before[other]} to {before[seat]}); this correction makes it "
        f"{after[other]} to {after[seat]}, which would change that ending: the director "
        "rules on it and adjusts the result",
        rule(state, "cutoff"),
    )


def _corrected(state: GameState, ev: TurnCorrected, t: int) -> GameState:
    refuse_player(state, ev.player)
    if state.mode != "scoresheet":
        raise Refusal("board mode scores each play from the board", rule(state, "mode"))
    if any(state.signed):
        raise Refusal(
            "the result is signed: the scoresheet is closed; the director adjusts a score",
            rule(state, "signature_rule"),
        )
    p = ev.player
    name = state.players[p]
    sheet = state.sheet[p]
    if not 1 <= ev.turn <= len(sheet):
        raise Refusal(
            f"{name}'s turn {ev.turn} is not scored (scored: {len(sheet)} turns)",
            rule(state, "mode"),
        )
    old = sheet[ev.turn - 1]
    letter = ev.first_letter.upper()
    if len(letter) > 1 or (letter and not letter.isalpha()):
        raise Refusal(
            f"first letter must be one letter, got {ev.first_letter!r}", rule(state, "mode")
        )
    if ev.undo:
        if ev.turn != len(sheet):
            raise Refusal(
                f"only {name}'s last entry (turn {len(sheet)}) can be taken back; "
                f"correct turn {ev.turn} instead",
                rule(state, "mode"),
            )
        if state.phase in (Phase.END_RACKS, Phase.OVER):
            # The game is over once it ends, before the racks are entered: every turn
            # ended stays scored (the racks need them all, TOR-1); fix corrects one.
            raise Refusal(
                "the game is over: every turn stays scored; correct the entry instead "
                f"(fix {p + 1}:{ev.turn} ...)",
                rule(state, "mode"),
            )
        delta = -old.score
        new_sheet = sheet[:-1]
        text = f"{name}'s turn {ev.turn} ({old.letter or '-'} {old.score}) taken back"
        st = replace(
            state,
            scored=add_pair(state.scored, p, -1),
            # A withdrawn play's turn stays withdrawn when it is scored again.
            voided=set_pair(state.voided, p, ev.turn) if old.withdrawn else state.voided,
        )
    else:
        if state.locked[p] and ev.turn > state.locked_presses[p] and ev.score:
            # TOR-8: a turn ended after -1:01 is a pass; a correction cannot score it.
            raise Refusal(
                f"{name}'s turn {ev.turn} came after "
                f"{clock_text(-variant_of(state).cutoff_overtime_ms)}: no more plays, "
                "it scores 0",
                rule(state, "cutoff"),
            )
        # A withdrawn play scores 0 whatever is entered (the challenge rule).
        score = 0 if old.withdrawn else ev.score
        delta = score - old.score
        new_sheet = (
            *sheet[: ev.turn - 1],
            SheetEntry(letter, score, old.withdrawn),
            *sheet[ev.turn :],
        )
        text = (
            f"{name}'s turn {ev.turn} corrected: {old.letter or '-'} {old.score} "
            f"-> {letter or '-'} {score}"
        )
        st = state
    _keep_the_ending(state, p, delta)
    scores = add_pair(st.scores, p, delta)
    last = st.last
    if last is not None and last.player == p and last.index == ev.turn:
        last = replace(last, score=0 if ev.undo else old.score + delta)
    st = replace(
        st,
        scores=scores,
        sheet=set_pair(st.sheet, p, new_sheet),
        last=last,
        rulings=ruled(st, t, "mode", f"the scorekeeper: {text}"),
        history=line(
            st,
            t,
            p,
            "rescored",
            f"{'undo' if ev.undo else 'fix'} {ev.turn}",
            delta,
            scores,
            st.clock,
        ),
    )
    if state.phase is Phase.OVER and state.result is not None:
        st = replace(st, result=shifted(state.result, p, delta))
    return st


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    TurnCorrected: _corrected,
}
"""The events this module handles."""
