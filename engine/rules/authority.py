"""Who may make which event.

Every event records who made it (:data:`engine.events.Actor`). The engine refuses
an event from someone who may not make it, with the rule:

- the director's rulings (an adjustment, a forfeit or bye, a declared result, a
  referee's decision on an appeal, a director's resume) come from the director;
- the service's own events (a restart, a deadline) come from the service;
- a clock device only presses and pauses;
- a player acts for their own seat: presses their own clock, answers the
  opponent's play in their own name;
- a clock the director stopped is restarted by the director, and a score the
  director settled is not disputed again (the players cannot override a ruling).

Events without an actor (logs written before actors were recorded) are not checked.
"""

from __future__ import annotations

from engine.errors import Refusal
from engine.events import (
    Actor,
    Adjusted,
    Bye,
    ClockPressed,
    Event,
    Forfeited,
    GameStarted,
    Neutralized,
    Overdrawn,
    OverdrawResolved,
    ResultDeclared,
    Resumed,
    ScoreDisputed,
    ServiceRestarted,
    TimeChecked,
    VerdictAppealed,
)
from engine.rules.procedures.common import LOG_RULE, rule
from engine.rules.state import GameState

__all__ = ["actor_at_table", "check_authority", "seat_of"]

_DIRECTOR_ONLY = (Adjusted, Bye, Forfeited, ResultDeclared, VerdictAppealed)
_SERVICE_ONLY = (ServiceRestarted, TimeChecked)
_DEVICE_MAY = (ClockPressed, Neutralized, Resumed)
_ANY_SEAT = (Overdrawn, OverdrawResolved)
"""Events whose ``player`` is the one they concern, not the one making them: the
opponent may find the extra tiles and return them (NZASP 6.1.3)."""
_NAMES = {
    "player0": "player 1",
    "player1": "player 2",
    "players": "the players",
    "scorekeeper": "the scorekeeper",
    "director": "the director",
    "device": "the clock device",
    "service": "the table service",
}


def seat_of(event: Event) -> int | None:
    """The seat an event is made in the name of, if any."""
    if isinstance(event, ScoreDisputed):
        return event.by
    seat = getattr(event, "player", None)
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def actor_at_table(event: Event, state: GameState) -> Actor:
    """Who makes ``event`` when it is typed at the players' shared table terminal: the
    player it is made for, the player whose clock runs for a stop (NZASP 6.6: "the
    player whose clock is running"), or both players for a joint act."""
    seat = seat_of(event)
    if seat in (0, 1) and not isinstance(event, _ANY_SEAT):
        return "player0" if seat == 0 else "player1"
    if isinstance(event, Neutralized) and state.clock.running in (0, 1):
        return "player0" if state.clock.running == 0 else "player1"
    return "players"


def check_authority(state: GameState, event: Event) -> None:
    """Refuse ``event`` when its actor may not make it now.

    Raises:
        Refusal: with the reason and the rule.
    """
    actor = event.actor
    if actor is None:
        return
    what = type(event).__name__
    who = _NAMES[actor]
    if isinstance(event, _SERVICE_ONLY):
        if actor != "service":
            raise Refusal(f"{who} cannot make a {what}: the table service does", LOG_RULE)
        return
    if isinstance(event, GameStarted):
        if actor in ("device", "service"):
            raise Refusal(f"{who} cannot start a game", LOG_RULE)
        return
    if isinstance(event, _DIRECTOR_ONLY) or (isinstance(event, Resumed) and event.director):
        if actor != "director":
            raise Refusal(
                f"{who} cannot make a {what}: it is the director's ruling",
                rule(state, "director_rule"),
            )
        return
    if actor == "device" and not isinstance(event, _DEVICE_MAY):
        raise Refusal(f"a clock device cannot make a {what}", rule(state, "turn_rule"))
    if isinstance(event, Resumed) and state.neutral_by == "director" and actor != "director":
        raise Refusal(
            f"the director stopped the clock ({state.clock.neutral}): only the director "
            "restarts it",
            rule(state, "director_rule"),
        )
    last = state.last
    if (
        isinstance(event, ScoreDisputed)
        and last is not None
        and last.settled_by == "director"
        and actor != "director"
    ):
        raise Refusal(
            f"the director settled the score of {last.move or 'the last play'} at {last.score}: "
            "the ruling stands",
            rule(state, "director_rule"),
        )
    if actor in ("player0", "player1") and not isinstance(event, _ANY_SEAT):
        seat = int(actor[-1])
        own = seat_of(event)
        if own is not None and own != seat:
            raise Refusal(
                f"{state.players[seat]} cannot make a {what} for {state.players[own]}",
                rule(state, "turn_rule"),
            )
