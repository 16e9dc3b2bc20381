"""The Pi clock's three buttons: two player buttons and pause, debounced.

An arcade button's contacts bounce for a few milliseconds when pressed and
released: the line flips several times. :class:`Debouncer` is the rule (pure,
integer milliseconds in): a press counts when the line was quiet for
``bounce_ms`` before it, so the flips of one press are one press, and the press
counts at its first edge (a clock must switch at once, not after the bounce).

:class:`Buttons` attaches gpiozero inputs to the wired GPIOs (each button between
its GPIO and ground, internal pull-up, so down is low; gpiozero's own
``bounce_time`` is off, as it runs on the wall clock) and calls ``on_side(side, at_ms)``
(``at_ms``: the press's edge, the one reading of ``now_ms`` its debounce made),
``on_pause()`` and, when pause is held down ``halt_ms``, ``on_halt()`` once. Pause
still pauses at its press: the hold is noticed by :meth:`Buttons.poll` (call it
from the refresh loop, every 100 ms or so), which reads ``now_ms`` rather than a
timer thread, so tests step a fake clock. On a Pi the callbacks run on gpiozero's pin thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from firmware_bridge.pi.wiring import Wiring

__all__ = ["BOUNCE_MS", "HALT_MS", "Buttons", "Debouncer"]

BOUNCE_MS = 30
"""A press within this long of the line's last flip is that flip's bounce."""
HALT_MS = 3000
"""Holding pause this long halts the Pi."""


class Debouncer:
    """One button's line, fed its raw edges with the time they came."""

    def __init__(self, bounce_ms: int = BOUNCE_MS) -> None:
        if bounce_ms < 0:
            raise ValueError(f"bounce_ms must be 0 or more, got {bounce_ms}")
        self.bounce_ms = bounce_ms
        """How long the line must be quiet before a press counts."""
        self.pressed = False
        """The line's level at its last edge (after a bounce settles, the button's)."""
        self._last_edge: int | None = None
        self._down_since: int | None = None

    def edge(self, pressed: bool, now_ms: int) -> bool:
        """The line went down (``pressed``) or up at ``now_ms``: whether this is a press."""
        quiet = self._last_edge is None or now_ms - self._last_edge >= self.bounce_ms
        self._last_edge = now_ms
        self.pressed = pressed
        if pressed and quiet:
            self._down_since = now_ms
            return True
        if not pressed and quiet:
            self._down_since = None  # a release, not a press's bounce
        return False

    def held_ms(self, now_ms: int) -> int | None:
        """How long the button has been held down since its press, None when it is up."""
        if self._down_since is None or not self.pressed:
            return None
        return now_ms - self._down_since


class Buttons:
    """The left and right player buttons and the pause button on their GPIOs."""

    def __init__(
        self,
        wiring: Wiring,
        *,
        pin_factory: Any,
        now_ms: Callable[[], int],
        on_side: Callable[[int, int], object],
        on_pause: Callable[[], object],
        on_halt: Callable[[], object],
        bounce_ms: int = BOUNCE_MS,
        halt_ms: int = HALT_MS,
    ) -> None:
        """``pin_factory``: gpiozero's pin factory (its MockFactory in tests)."""
        # the pi extra: only a Pi clock imports it. A plain input, not gpiozero's
        # Button: its hold thread runs on the wall clock and is not used here
        from gpiozero import DigitalInputDevice

        self._now = now_ms
        self._on_side = on_side
        self._on_pause = on_pause
        self._on_halt = on_halt
        self.halt_ms = halt_ms
        """Holding pause this long calls ``on_halt``."""
        self._lock = threading.Lock()  # gpiozero's pin thread and the refresh loop
        self._halted = False
        pins = wiring.buttons
        self.debouncers = (Debouncer(bounce_ms), Debouncer(bounce_ms), Debouncer(bounce_ms))
        """Left, right, pause."""
        self._buttons = [
            DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            for pin in (pins.left, pins.right, pins.pause)
        ]
        for index, button in enumerate(self._buttons):
            button.when_activated = self._edge_handler(index, pressed=True)
            button.when_deactivated = self._edge_handler(index, pressed=False)

    def _edge_handler(self, index: int, *, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            self._edge(index, pressed)

        return handler

    def _edge(self, index: int, pressed: bool) -> None:
        with self._lock:
            at = self._now()
            counted = self.debouncers[index].edge(pressed, at)
            if counted and index == 2:
                self._halted = False  # a new press of pause: its own hold
        if not counted:
            return
        if index == 2:
            self._on_pause()
        else:
            self._on_side(index, at)

    def poll(self) -> None:
        """Notice pause held down ``halt_ms``: ``on_halt`` once per hold."""
        with self._lock:
            held = self.debouncers[2].held_ms(self._now())
            due = held is not None and held >= self.halt_ms and not self._halted
            if due:
                self._halted = True
        if due:
            self._on_halt()

    def close(self) -> None:
        """Release the GPIOs."""
        for button in self._buttons:
            button.close()
