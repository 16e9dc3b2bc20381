"""When a screen's clocks next change: the screens redraw then, not on a fixed tick.

A clock shows whole seconds rounded toward zero (:mod:`engine.clocktext`), so the
running clock's text changes once a second, at a known instant; an offline clock's
"offline M:SS" too. While no clock runs and the link is up, nothing changes with time
alone and the screens do nothing until the next update from the table.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message_pump import MessagePump
from textual.timer import Timer

from clock.table.service import Status
from engine.rules.state import GameState, Phase

__all__ = ["Ticker", "next_tick_ms"]


def next_tick_ms(state: GameState, link: Status, now_ms: int) -> int | None:
    """Milliseconds from ``now_ms`` until a clock on the screen shows something else;
    None when nothing shown changes with time alone.

    >>> from engine.events import GameStarted
    >>> from engine.rules.machine import apply
    >>> st = apply(GameState(), GameStarted(t=0, variant="nzasp", players=("A", "B")))
    >>> next_tick_ms(st, Status(True), 250)  # 24:59.750 left: 24:59 until 24:59.000
    751
    >>> next_tick_ms(st, Status(True), 1_500_400)  # -0:00.400: -0:01 in 600 ms
    600
    """
    delays: list[int] = []
    clock = state.clock
    if clock.running is not None and not clock.neutral and state.phase is not Phase.OVER:
        left = clock.remaining(clock.running, now_ms)
        delays.append(left % 1000 + 1 if left > 0 else 1000 - (-left) % 1000)
    if link.attached and not link.device_online and link.offline_since_ms is not None:
        delays.append(1000 - (now_ms - link.offline_since_ms) % 1000)
    return min(delays) if delays else None


class Ticker:
    """Calls ``draw`` when a clock on the screen next changes, and again after that,
    for as long as one does; :meth:`arm` after every update from the table."""

    def __init__(
        self,
        owner: MessagePump,
        now_ms: Callable[[], int],
        shown: Callable[[], tuple[GameState, Status]],
        draw: Callable[[], None],
    ) -> None:
        self._owner = owner
        self._now_ms = now_ms
        self._shown = shown
        self._draw = draw
        self._timer: Timer | None = None
        self._armed_at: int | None = None

    def arm(self) -> None:
        """Wake at the next change (not at all while nothing runs)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        now = self._now_ms()
        state, link = self._shown()
        delay = next_tick_ms(state, link, now)
        if delay is None:
            return
        if now == self._armed_at:
            # the table's time has not moved since the last wake (a test's fake time,
            # stopped): do not spin on the same instant
            delay = max(delay, 100)
        self._armed_at = now
        self._timer = self._owner.set_timer(delay / 1000, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self._draw()
        self.arm()
