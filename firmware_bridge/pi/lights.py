"""The Pi clock's running-side LEDs and its buzzer.

:meth:`Lights.show` lights the LED of the side whose time runs (neither when the
clock is paused) and starts the buzzer for each new beep: the clock's beep count
rose since the last show. The buzzer stops at the first show ``beep_ms`` after it
started (the BEEP's own ``duration_ms`` when the show is given it), read from
``now_ms`` (no timer thread, so tests step a fake clock): the refresh loop shows
the clock every 100 ms or so anyway, to redraw a running time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_bridge.pi.face import ClockFace, running_side
from firmware_bridge.pi.wiring import Wiring

__all__ = ["BEEP_MS", "Lights"]

BEEP_MS = 200
"""How long one beep sounds."""


class Lights:
    """Two LEDs and an active buzzer on their GPIOs."""

    def __init__(
        self,
        wiring: Wiring,
        *,
        pin_factory: Any,
        now_ms: Callable[[], int],
        beep_ms: int = BEEP_MS,
    ) -> None:
        """``pin_factory``: gpiozero's pin factory (its MockFactory in tests)."""
        from gpiozero import LED, Buzzer  # the pi extra: only a Pi clock imports it

        self._now = now_ms
        self.beep_ms = beep_ms
        """How long one beep sounds."""
        self._leds = (
            LED(wiring.leds.left, pin_factory=pin_factory),
            LED(wiring.leds.right, pin_factory=pin_factory),
        )
        self._buzzer = Buzzer(wiring.buzzer, pin_factory=pin_factory)
        self._beeps = 0
        self._quiet_at: int | None = None  # when the sounding beep ends

    def show(self, face: ClockFace, *, beep_ms: int | None = None) -> None:
        """Light the running side's LED; sound a new beep; end one that has sounded.

        ``beep_ms``: how long a new beep sounds (a BEEP's ``duration_ms``; None:
        :attr:`beep_ms`).
        """
        running = running_side(face)
        for side, led in enumerate(self._leds):
            if side == running:
                led.on()
            else:
                led.off()
        now = self._now()
        if face.beeps > self._beeps:
            self._buzzer.on()
            self._quiet_at = now + (self.beep_ms if beep_ms is None else beep_ms)
        elif self._quiet_at is not None and now >= self._quiet_at:
            self._buzzer.off()
            self._quiet_at = None
        self._beeps = face.beeps  # a restarted clock counts from 0 again

    @property
    def lit(self) -> tuple[bool, bool]:
        """Whether each side's LED is on."""
        return (bool(self._leds[0].is_lit), bool(self._leds[1].is_lit))

    @property
    def sounding(self) -> bool:
        """Whether the buzzer sounds."""
        return bool(self._buzzer.is_active)

    def close(self) -> None:
        """Turn everything off and release the GPIOs."""
        for device in (*self._leds, self._buzzer):
            device.off()
            device.close()
