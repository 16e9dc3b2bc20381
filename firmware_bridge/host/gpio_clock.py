"""The all-in-one clock: a Raspberry Pi's own buttons, LEDs, buzzer and displays as
the clock of the table that runs on the same Pi (``--clock gpio``, docs/pi-clock.md).

:class:`GpioClock` is a :class:`~clock.device.interface.ClockDevice` with no wire
between the clock and the table: the in-process emulated clock
(:class:`~clock.device.emulated.EmulatedClock`, the one clock core and its device
events) with the Pi's buttons pressing it and its displays drawing it, so the displays switch
at the press, before the service has seen it; the service's SET then sets them
(host-authoritative). The hardware is the Pi clock's (:mod:`firmware_bridge.pi`):

- :class:`~firmware_bridge.pi.buttons.Buttons` call back on gpiozero's pin thread.
  A press is stamped there with the table's time and handed to the event loop
  (``call_soon_threadsafe``), and goes to the service with that time as
  ``device_at_ms``: a press the loop took late is still the press of its instant
  (the service's tolerance, clock/device/device_time.py).
- The parts are opened together (:func:`~firmware_bridge.pi.hardware.open_hardware`,
  which lets every pin go when a display does not answer).
- :class:`~firmware_bridge.pi.lights.Lights` and
  :class:`~firmware_bridge.pi.panel.Panel` draw :meth:`GpioClock.face` on every
  change and every :data:`REFRESH_MS` of the table's time (the running time, a beep's
  end, the MAX7219's pages).
- The table is in this process: the panel says ``table ok`` while the service reads
  the clock, ``no table`` before and after.
- A long press of pause only pauses here: the Pi is shut down from the terminal
  that runs the table, so a press held too long cannot stop a table mid-game.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from gpiozero import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from clock.device.emulated import EmulatedClock
from clock.device.interface import DeviceEvent
from clock.timeline import Timeline
from firmware_bridge.pi.displays import DeviceFactory, dummy_devices
from firmware_bridge.pi.face import Face
from firmware_bridge.pi.hardware import PinsError, open_hardware
from firmware_bridge.pi.wiring import Wiring, load_wiring

__all__ = ["DEVICE_ID", "REFRESH_MS", "GpioClock", "open_gpio_clock"]

DEVICE_ID = "gpio"
"""The clock's identity, as the table's link line shows it (``clock: connected (gpio)``)."""
REFRESH_MS = 100
"""How often the lights and displays are redrawn and the pause button's hold read."""


class GpioClock(EmulatedClock):
    """The Pi's buttons, lights and displays as the table's clock device: the emulated
    clock (its core, its events, the service's SET, TEXT and BEEP) with real buttons
    pressing it and every change drawn on the lights and displays.

    Opened inside the table's event loop (the session opens its clock there).
    ``pin_factory``: gpiozero's (None: the Pi's own; MockFactory in tests);
    ``device_factory``: the displays' (None: the hardware; luma's dummy devices in
    tests).
    """

    def __init__(
        self,
        timeline: Timeline,
        wiring: Wiring,
        *,
        initial_ms: int,
        report_times: bool = False,
        pin_factory: Any = None,
        device_factory: DeviceFactory | None = None,
    ) -> None:
        super().__init__(
            timeline, initial_ms=initial_ms, report_times=report_times, device_id=DEVICE_ID
        )
        self._timeline = timeline
        self._loop = asyncio.get_running_loop()
        self._refresh: asyncio.Task[None] | None = None
        self.online = False
        """Whether the table reads the clock (from :meth:`events` to :meth:`close`)."""
        self.pin_factory = pin_factory
        """gpiozero's pin factory (None: the Pi's own); tests drive its mock pins."""
        self.hardware = open_hardware(
            wiring,
            pin_factory=pin_factory,
            device_factory=device_factory,
            now_ms=timeline.now_ms,
            on_side=self._side_edge,
            on_pause=self._pause_edge,
            on_halt=_stay_up,
        )
        """The buttons, the lights and the displays."""
        self.buttons = self.hardware.buttons
        """The two player buttons and pause."""
        self.lights = self.hardware.lights
        """The running side's LEDs and the buzzer."""
        self.panel = self.hardware.panel
        """The two displays."""
        self._changed()  # power-up: the times, and "no table" until the service reads

    # --- what it shows ------------------------------------------------------------------
    def face(self) -> Face:
        """What the clock shows now."""
        return Face(
            self.core.shown(),
            self.core.running,
            self.core.paused,
            self.text,
            self.beeps,
            self.online,
        )

    def _changed(self) -> None:
        self.hardware.show(self.face())

    async def _refreshing(self) -> None:
        while True:
            await self._timeline.sleep_until(self._timeline.now_ms() + REFRESH_MS)
            self.buttons.poll()
            self._changed()

    # --- the buttons (gpiozero's pin thread) --------------------------------------------
    def _side_edge(self, side: int, at_ms: int) -> None:
        # ``at_ms``: the press's instant (its debounced edge), before any wait for the loop
        with contextlib.suppress(RuntimeError):  # the loop closed as the button went down
            self._loop.call_soon_threadsafe(self._press, side, at_ms)

    def _pause_edge(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._pause)

    def _press(self, side: int, at: int) -> None:
        if self.closed:  # queued from the pin thread as the clock closed
            return
        # at the button's edge, not when the loop got to it; a press on the side not
        # running changes nothing here
        self.press(side, at)

    def _pause(self) -> None:
        if self.closed:
            return
        self.core.pause()  # stops both sides on the displays at once, as the firmware does
        self.pause_button()

    # --- the device interface -----------------------------------------------------------
    async def events(self) -> AsyncIterator[DeviceEvent]:
        """Button events in order, until closed; the displays refresh meanwhile."""
        self.online = True
        self._changed()
        self._refresh = asyncio.create_task(self._refreshing())
        async for ev in super().events():
            yield ev

    async def close(self) -> None:
        """End the event stream, turn the lights off, blank the displays, free the pins."""
        self.closed = True  # before the await below: a press queued meanwhile is dropped
        if self._refresh is not None:
            self._refresh.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresh
            self._refresh = None
        self.online = False
        await super().close()
        self.hardware.close()


def _stay_up() -> None:
    """Pause held down: the all-in-one does not halt (the module's docstring says why)."""


def open_gpio_clock(
    timeline: Timeline,
    *,
    initial_ms: int,
    report_times: bool = False,
    wiring_file: Path | None = None,
    display: str | None = None,
    mock: bool = False,
) -> GpioClock:
    """The clock on this Pi's pins (``mock``: gpiozero's mock pins and luma's dummy
    displays), wired by default or as ``wiring_file`` says, with ``display`` over it.

    Raises:
        ValueError: The wiring cannot be used, or there are no such pins or displays
            here (not a Pi, I2C or SPI off, a display not answering), in one line.
    """
    wiring = load_wiring(wiring_file)
    if display is not None:
        wiring = wiring.with_display(display)
    pin_factory: Any = None
    device_factory: DeviceFactory | None = None
    if mock:
        pin_factory, device_factory = MockFactory(), dummy_devices
    try:
        return GpioClock(
            timeline,
            wiring,
            initial_ms=initial_ms,
            report_times=report_times,
            pin_factory=pin_factory,
            device_factory=device_factory,
        )
    except PinsError as exc:
        raise ValueError(f"{exc}; on a laptop, try gpio:mock") from None
    except GPIOZeroError as exc:  # a pin refused: taken by another program, say
        raise ValueError(f"the GPIO pins cannot be used: {exc}") from None
    except OSError as exc:  # a display that does not answer: the panel's one line says which
        raise ValueError(str(exc)) from None
