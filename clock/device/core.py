"""The one clock core: how a two-sided tournament clock keeps its own time.

Every emulated clock keeps time with a :class:`ClockCore`: the in-process
:class:`clock.device.emulated.EmulatedClock` the table terminal's keys drive, and
the emulated firmware (:class:`firmware_bridge.device.firmware.ClockFirmware`)
that speaks the wire protocol. A physical clock behaves the same way.

Like the engine's clock it stores the time each side has used up to the moment
its running stopped (``used_ms``, ``since_ms``) and derives what it shows from a
reading of its own millisecond counter; nothing ticks.

The press rule (one for every clock): pressing switches the running side to the
opponent when the clock runs and the pressed side is the one running (or none
is); a clock that was never started, or that the host stopped without naming a
side, starts the opponent's side at the first press. A clock paused with a side
named (the host's pause) does not start on a press: only the host resumes it.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ClockCore"]


class ClockCore:
    """Two sides, a running side, a pause, and the time each side has used."""

    def __init__(self, now_ms: Callable[[], int], *, initial_ms: int) -> None:
        self._now = now_ms
        self.initial_ms = initial_ms
        """Time per side at the start."""
        self.used_ms = [0, 0]
        """Time used per side, up to ``since_ms`` for the running side."""
        self.since_ms = now_ms()
        """When the running side last started."""
        self.running: int | None = None
        """The side named to run (its time runs unless ``paused``)."""
        self.paused = True
        """Both sides stopped: a new clock is paused until its first press or SET."""

    def now_ms(self) -> int:
        """The clock's own millisecond counter."""
        return self._now()

    def remaining(self, side: int) -> int:
        """What the clock shows for ``side`` (negative in overtime)."""
        return self._remaining_at(side, self._now())

    def shown(self) -> tuple[int, int]:
        """Both times shown now."""
        now = self._now()
        return (self._remaining_at(0, now), self._remaining_at(1, now))

    def shown_at(self, at_ms: int) -> tuple[int, int]:
        """Both times at ``at_ms`` on this clock's counter (a press's edge, handled
        later): the running side's time counted to then, never before the last change,
        as :meth:`press` counts it."""
        at = max(at_ms, self.since_ms)
        return (self._remaining_at(0, at), self._remaining_at(1, at))

    def _remaining_at(self, side: int, at_ms: int) -> int:
        used = self.used_ms[side]
        if self.running == side and not self.paused:
            used += at_ms - self.since_ms
        return self.initial_ms - used

    def _freeze(self, at_ms: int | None = None) -> None:
        # A press stamped at its button's edge (``at_ms``) may reach the core after a
        # later change (a SET): it never counts before the last change.
        now = self._now() if at_ms is None else max(at_ms, self.since_ms)
        if self.running is not None and not self.paused:
            self.used_ms[self.running] += now - self.since_ms
        self.since_ms = now

    def press(self, side: int, at_ms: int | None = None) -> bool:
        """Player ``side`` presses their button; returns whether the running side switched.

        ``at_ms``: when the button went down, on this clock's counter, when the press is
        handled later than that (a Pi's button thread hands it to the event loop);
        by default now.
        """
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, got {side!r}")
        if self.paused and self.running is not None:
            return False  # stopped by the host with a side named: only the host resumes
        if not self.paused and self.running not in (side, None):
            return False  # the opponent's clock already runs
        self._freeze(at_ms)
        self.running = 1 - side
        self.paused = False
        return True

    def pause(self) -> None:
        """Stop both sides (the side named to run stays named)."""
        self._freeze()
        self.paused = True

    def run(self, side: int) -> None:
        """Run ``side``."""
        self._freeze()
        self.running = side
        self.paused = False

    def set(self, remaining_ms: tuple[int, int], running: int | None, paused: bool) -> None:
        """Show these times, as the host says; run ``running`` unless ``paused``."""
        self.used_ms = [self.initial_ms - remaining_ms[0], self.initial_ms - remaining_ms[1]]
        self.since_ms = self._now()
        self.running = running
        self.paused = paused
