"""The two-sided game clock as an immutable value.

It stores the time each player has used up to the moment their clock last
stopped, which side runs and since when. Remaining time is derived from a
timestamp when asked; nothing ticks or accumulates. All times are integer
milliseconds on the table's monotonic timeline, passed in by the caller.
"""

from __future__ import annotations

import msgspec

__all__ = ["GameClock"]


class GameClock(msgspec.Struct, frozen=True):
    """Clock state. ``running`` is the seat whose time runs, or None."""

    initial_ms: int
    """Time each player starts with."""
    used_ms: tuple[int, int] = (0, 0)
    """Time used by each seat, not counting the current run."""
    running: int | None = None
    """Seat whose clock runs now."""
    since_ms: int = 0
    """When the current run started."""
    neutral: str | None = None
    """Why the clock is neutralized (stopped mid-game), or None."""
    resume_to: int | None = None
    """Seat whose clock runs again when the clock is resumed."""

    def used(self, seat: int, now_ms: int) -> int:
        """Time ``seat`` has used up to ``now_ms``."""
        used = self.used_ms[seat]
        if self.running == seat:
            used += max(0, now_ms - self.since_ms)
        return used

    def remaining(self, seat: int, now_ms: int) -> int:
        """Time left; negative in overtime."""
        return self.initial_ms - self.used(seat, now_ms)

    def overtime(self, seat: int, now_ms: int) -> int:
        """How far past zero ``seat`` is (0 if not in overtime)."""
        return max(0, -self.remaining(seat, now_ms))

    def _stopped(self, now_ms: int) -> tuple[int, int]:
        seat = self.running
        if seat is None:
            return self.used_ms
        # The running seat's time added in place: a list built and turned back into a
        # tuple cost a third of every press.
        a, b = self.used_ms
        run = max(0, now_ms - self.since_ms)
        return (a + run, b) if seat == 0 else (a, b + run)

    def start(self, seat: int, now_ms: int) -> GameClock:
        """Stop whatever runs and start ``seat``'s clock at ``now_ms``."""
        return GameClock(self.initial_ms, self._stopped(now_ms), seat, now_ms, None, None)

    def stop(self, now_ms: int) -> GameClock:
        """Stop both clocks (end of game)."""
        return GameClock(self.initial_ms, self._stopped(now_ms), None, now_ms, None, None)

    def neutralize(self, now_ms: int, reason: str, resume_to: int | None = None) -> GameClock:
        """Stop the clock mid-game; ``resume`` later restarts ``resume_to``
        (default: the side that was running)."""
        back = self.running if resume_to is None else resume_to
        if self.neutral is not None:
            back = self.resume_to if resume_to is None else resume_to
        return GameClock(self.initial_ms, self._stopped(now_ms), None, now_ms, reason, back)

    def resume(self, now_ms: int) -> GameClock:
        """Restart the side that ran before the clock was neutralized."""
        if self.resume_to is None:
            return GameClock(self.initial_ms, self.used_ms, None, now_ms, None, None)
        return GameClock(self.initial_ms, self.used_ms, self.resume_to, now_ms, None, None)

    def adjust(self, seat: int, delta_ms: int) -> GameClock:
        """Give ``seat`` ``delta_ms`` more time (negative takes time away)."""
        used = list(self.used_ms)
        used[seat] -= delta_ms
        return msgspec.structs.replace(self, used_ms=(used[0], used[1]))

    def when_overtime(self, seat: int, overtime_ms: int) -> int | None:
        """The instant ``seat`` reaches ``overtime_ms`` past zero, if their clock runs."""
        if self.running != seat:
            return None
        return self.since_ms + (self.initial_ms + overtime_ms - self.used_ms[seat])
