"""The Pi clock's hardware opened as one: :func:`open_hardware` takes the pins (the
LEDs and buzzer, then the buttons) and then the displays, and lets go of what it took
when a later part cannot be opened, so a failed start leaves every pin free and
every display closed. The Pi clock (:mod:`firmware_bridge.pi.box`) and the
all-in-one (:mod:`firmware_bridge.host.gpio_clock`) both open their parts here.

The pins come first: on a machine without them that is the one thing to say.
gpiozero, given no pin factory, tries its pin libraries in turn and warns of each it
falls back from; on a Pi those warnings are the only account of why a library was
passed over (lgpio cannot make its notification pipes in a directory it cannot
write, gpiozero#1106), so they are logged, and a start that finds no library at
all says each one's reason in its :class:`PinsError`.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_bridge.pi.buttons import BOUNCE_MS, HALT_MS, Buttons
from firmware_bridge.pi.displays import DeviceFactory
from firmware_bridge.pi.face import ClockFace
from firmware_bridge.pi.lights import Lights
from firmware_bridge.pi.panel import Panel
from firmware_bridge.pi.wiring import Wiring

__all__ = ["Hardware", "PinsError", "open_hardware"]

log = logging.getLogger(__name__)


class PinsError(OSError):
    """No GPIO pins here (not a Pi, or no pin library works); the message says each
    library's reason. An OSError, as :class:`~firmware_bridge.pi.displays.PanelError` is:
    one ``except OSError`` takes a start that found no pins or no displays."""


@dataclass(frozen=True, slots=True)
class Hardware:
    """A clock's buttons, lights and displays, opened together."""

    buttons: Buttons
    """The two player buttons and pause."""
    lights: Lights
    """The running side's LEDs and the buzzer."""
    panel: Panel
    """The two displays."""

    def show(self, face: ClockFace, *, beep_ms: int | None = None) -> None:
        """Light, sound and draw ``face`` (``beep_ms``: a new beep's length, see
        :meth:`Lights.show`)."""
        self.lights.show(face, beep_ms=beep_ms)
        self.panel.show(face)  # it sends a display only a frame that changed

    def close(self) -> None:
        """Release the pins, turn the lights off, blank the displays."""
        self.buttons.close()
        self.lights.close()
        self.panel.close()


def open_hardware(
    wiring: Wiring,
    *,
    pin_factory: Any,
    device_factory: DeviceFactory | None,
    now_ms: Callable[[], int],
    on_side: Callable[[int, int], object],
    on_pause: Callable[[], object],
    on_halt: Callable[[], object],
    bounce_ms: int = BOUNCE_MS,
    halt_ms: int = HALT_MS,
) -> Hardware:
    """The lights, the buttons and the panel the wiring names, opened in that order.

    ``pin_factory``: gpiozero's (None: the Pi's own; its MockFactory in tests);
    ``device_factory``: the displays' (None: the hardware). The callbacks are the
    buttons' (:class:`~firmware_bridge.pi.buttons.Buttons`).

    Raises:
        PinsError: No pin library works here.
        PanelError: A display does not answer or its driver is missing.
        gpiozero.GPIOZeroError: A pin is refused (already in use, say).
    """
    from gpiozero import BadPinFactory, PinFactoryFallback  # the pi extra

    with contextlib.ExitStack() as undo:
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                lights = Lights(wiring, pin_factory=pin_factory, now_ms=now_ms)
            except BadPinFactory as exc:
                reasons = "; ".join(
                    str(w.message) for w in fallbacks if issubclass(w.category, PinFactoryFallback)
                )
                raise PinsError(f"no GPIO pins here: {exc} ({reasons})") from None
        for caught in fallbacks:
            if issubclass(caught.category, PinFactoryFallback):
                log.warning("GPIO: %s", caught.message)
            else:  # not ours to judge: shown as it would have been
                warnings.warn_explicit(
                    caught.message, caught.category, caught.filename, caught.lineno
                )
        undo.callback(lights.close)
        buttons = Buttons(
            wiring,
            pin_factory=pin_factory,
            now_ms=now_ms,
            on_side=on_side,
            on_pause=on_pause,
            on_halt=on_halt,
            bounce_ms=bounce_ms,
            halt_ms=halt_ms,
        )
        undo.callback(buttons.close)
        panel = Panel.open(wiring, device_factory, now_ms=now_ms)
        undo.pop_all()
    return Hardware(buttons, lights, panel)
