"""What the clock device's own display says, and when it beeps (docs/clock-protocol.md,
"The clock's display and buzzer").

Players look at the clock, not a screen: the host puts on the device's text line
what they must see now (a hold, a challenge, a neutralized clock and by whom, the
overtime penalty so far, a cutoff, the result), and sounds the buzzer when a player
enters overtime and at a cutoff. Pure: the service calls it with the state and the
table time and sends what changed.
"""

from __future__ import annotations

from engine.clocktext import penalty_rate
from engine.rules.procedures.common import penalty
from engine.rules.state import GameState, Phase

__all__ = ["beeps_due", "display_text", "next_display_change"]


def display_text(state: GameState, now_ms: int) -> str:
    """The text line for the device now; ``""`` clears it.

    Kept short (a clock's line is narrow): the most urgent thing only.
    """
    if state.variant is None or state.phase is Phase.NOT_STARTED:
        return ""
    names = state.players
    # the phase's short words (the one mapping): the result's headline, a hold, a challenge
    word = state.describe_phase(short=True)
    if word:
        return word
    for seat in (0, 1):
        if state.locked[seat]:
            return f"CUTOFF {names[seat]}"
    if state.clock.neutral is not None:
        by = f" ({state.neutral_by})" if state.neutral_by else ""
        return f"NEUTRAL{by}"
    running = state.clock.running
    if running is not None and state.clock.remaining(running, now_ms) < 0:
        # the device shows -0:03 while 3.4 s over costs 4 (TOR-7): say how it counts
        rate = penalty_rate(state.variant, short=True)
        return f"OVERTIME {names[running]} -{penalty(state, running, now_ms)} ({rate})"
    return ""


def beeps_due(state: GameState, now_ms: int, done: set[str]) -> list[str]:
    """The beeps owed now that ``done`` has not had: ``overtime:<seat>`` when a
    running clock passes zero, ``cutoff:<seat>`` when a player is locked out. The
    caller adds what it sounded to ``done`` (one beep each per game)."""
    due = []
    running = state.clock.running
    if running is not None and state.clock.remaining(running, now_ms) < 0:
        due.append(f"overtime:{running}")
    due += [f"cutoff:{seat}" for seat in (0, 1) if state.locked[seat]]
    return [key for key in due if key not in done]


def next_display_change(state: GameState, now_ms: int) -> int | None:
    """The next instant the text can change with time alone (a running clock passing
    zero, or its penalty growing), or None when only a command can change it."""
    running = state.clock.running
    v = state.variant
    if running is None or v is None or state.phase is Phase.OVER:
        return None
    left = state.clock.remaining(running, now_ms)
    if left >= 0:
        return now_ms + left + 1
    # In overtime the penalty grows at a multiple of the unit (or just past it when
    # part of a unit counts, as read at the variant's resolution).
    over = -left
    unit, step = v.penalty_unit_ms, max(1, v.penalty_resolution_ms)
    k = over // unit + 1
    # When a unit begun costs, the penalty grows one step past each whole unit.
    part = v.penalty_part_counts
    marks: tuple[int, ...] = ((k - 1) * unit + step, k * unit + step) if part else (k * unit,)
    return now_ms + min(m - over for m in marks if m > over)
