"""The rules state machine: ``apply(state, event) -> state``.

:func:`apply` is pure and deterministic. It checks an event against the
current state and the variant; an event the rules allow yields the next state,
with every decision recorded as a :class:`~engine.rules.state.Ruling` citing its
rule; any other raises :class:`~engine.errors.Refusal` with the reason and the
rule, and the caller keeps the old state. Time is the event's ``t``; the
machine never reads a clock. Deadlines (the overtime cutoff) take effect at
their own instant, computed from timestamps by :func:`advance`, whichever
event comes next.

The procedures live in :mod:`engine.rules.procedures`, one module each (``turn``,
``challenge``, ``draw``, ``overdraw``, ``dispute``, ``clockrules``, ``correction``,
``ending``, ``deadline``, and ``common`` for the helpers they share); this module only
dispatches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.errors import EngineError, Refusal
from engine.events import (
    Adjusted,
    EndRacks,
    Event,
    Forfeited,
    GameStarted,
    Neutralized,
    Resigned,
    ResultDeclared,
    Resumed,
    ServiceRestarted,
    Signed,
    TimeChecked,
    TurnCorrected,
    TurnScored,
    VerdictAppealed,
)
from engine.rules.authority import check_authority
from engine.rules.procedures import (
    challenge,
    clockrules,
    correction,
    dispute,
    draw,
    ending,
    overdraw,
    turn,
)
from engine.rules.procedures.common import LOG_RULE, rule
from engine.rules.procedures.deadline import advance, next_deadline
from engine.rules.state import GameState, Phase

__all__ = ["advance", "apply", "next_deadline"]

# Sets of event types, tested by the event's exact type (no event type subclasses
# another): on every event, a set lookup costs less than isinstance over a tuple.
_KEEP_VERDICT = frozenset(
    {Neutralized, Resumed, TimeChecked, ServiceRestarted, Adjusted, VerdictAppealed}
)
"""Events that leave a verdict open to appeal (calling the referee stops the clock)."""

_AFTER_OVER = frozenset({Adjusted, TimeChecked, ServiceRestarted, Signed, TurnCorrected})
"""Events a game that is over still takes."""

_AFTER_END = frozenset(
    {
        EndRacks,
        Adjusted,
        TimeChecked,
        Neutralized,
        Resumed,
        Resigned,
        Forfeited,
        ServiceRestarted,
        TurnScored,
        TurnCorrected,
        ResultDeclared,
        VerdictAppealed,
    }
)
"""Events a game awaiting its end racks still takes."""

# Read once: in CPython 3.11 reading an enum member from its class costs three times
# a module global, and apply reads these on every event.
_NOT_STARTED, _OVER, _END_RACKS = Phase.NOT_STARTED, Phase.OVER, Phase.END_RACKS

_HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    **turn.HANDLERS,
    **challenge.HANDLERS,
    **draw.HANDLERS,
    **overdraw.HANDLERS,
    **dispute.HANDLERS,
    **clockrules.HANDLERS,
    **ending.HANDLERS,
    **correction.HANDLERS,
}


def apply(state: GameState, event: Event, t: int | None = None) -> GameState:
    """The state after ``event``.

    ``t`` overrides the event's own time (a log line without ``t`` takes the
    previous event's). Deadlines up to that time are applied first.

    Raises:
        Refusal: The rules do not allow ``event`` now; ``state`` is unchanged.
    """
    now = t if t is not None else (event.t if event.t is not None else state.t)
    if now < state.t:
        raise Refusal(f"time {now} is before the previous event at {state.t}", LOG_RULE)
    kind = type(event)
    # The exact type, not isinstance: an event's class has msgspec's metaclass, whose
    # isinstance costs three times a type test, on every event.
    if type(event) is GameStarted:
        check_authority(state, event)
        return turn.start(state, event, now)
    if state.phase is _NOT_STARTED or state.variant is None:
        raise Refusal(f"{kind.__name__} before the game started", LOG_RULE)
    state = advance(state, now)
    check_authority(state, event)
    phase = state.phase
    if phase is _OVER and kind not in _AFTER_OVER:
        # Cite what ended this game (a resignation is not a game played out).
        why = state.result.rule if state.result is not None else "end_rule"
        raise Refusal(f"the game is over ({state.end_reason})", rule(state, why))
    if phase is _END_RACKS and kind not in _AFTER_END:
        raise Refusal(
            "the game is over: enter the tiles left on the racks", rule(state, "going_out_factor")
        )
    try:
        new = _HANDLERS[kind](state, event, now)
    except Refusal:
        raise
    except EngineError as exc:
        # Any other input error (a blank named with a letter the set lacks...) is a
        # refusal too: the command is not taken and the table goes on.
        raise Refusal(str(exc), rule(state, "placement_rule")) from None
    if new.verdict is not None and new.verdict is state.verdict and kind not in _KEEP_VERDICT:
        # The appeal (NZASP 6.15.3) is heard before the game moves on.
        new = replace(new, verdict=None)
    # The usual handlers stamp the time in their own copy of the state.
    return new if new.t == now else replace(new, t=now)
