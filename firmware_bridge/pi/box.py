"""The Pi clock as a whole: :class:`PiClock`, one clock firmware with the Pi's
buttons, lights and displays, run over serial or MQTT as ``rackclock emulate-clock``
runs the emulated one (the same firmware, the same runners).

- The buttons press the firmware: gpiozero calls back on its own pin thread, so a
  press is handed to the event loop (``call_soon_threadsafe``) and the firmware only
  ever runs on the loop. The press is stamped on the pin thread, at the button's
  edge, and the firmware switches at that instant and sends it in the PRESS, however
  long a display's frame kept the loop busy.
- The firmware's listeners drive the lights and the panel on every change (a press
  switches the display at once, before the table answers), and a refresh every
  :data:`REFRESH_S` redraws the running time, ends a beep, turns the MAX7219's pages
  and notices pause held down to halt.
- At power-up the panel says "no table" until the table answers. When the link
  drops the firmware keeps its own time and the panel says "no table"; when the
  table is back the firmware's new session (HELLO) gets the table's SET, which the
  display takes over (docs/clock-protocol.md, "Sessions").
- Pause held down :data:`~firmware_bridge.pi.buttons.HALT_MS` runs the halt action
  (``systemctl poweroff`` by default; the systemd unit's comments say how the
  ``rackclock`` user is allowed to): the text line says POWER OFF, or POWER OFF
  FAILED when the action fails, and the clock goes on. Such a notice of the clock's
  own stands over the table's TEXT for :data:`NOTICE_MS` (one MAX7219 page), then
  the table's line is back: a failed halt must not hide HOLD or CHALLENGE for the
  rest of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from firmware_bridge.device.firmware import ClockFirmware, Display
from firmware_bridge.device.mqtt_device import run_mqtt
from firmware_bridge.device.serial_runner import run_serial
from firmware_bridge.pi import INITIAL_MS
from firmware_bridge.pi.buttons import BOUNCE_MS, HALT_MS
from firmware_bridge.pi.displays import DeviceFactory
from firmware_bridge.pi.hardware import open_hardware
from firmware_bridge.pi.panel import PAGE_MS
from firmware_bridge.pi.wiring import Wiring

__all__ = [
    "DEVICE_ID",
    "HALT_COMMAND",
    "NOTICE_MS",
    "POWER_OFF",
    "POWER_OFF_FAILED",
    "REFRESH_S",
    "PiClock",
    "power_off",
]

log = logging.getLogger(__name__)

DEVICE_ID = "rackclock-pi"
"""The identity the Pi clock sends in HELLO."""
REFRESH_S = 0.1
"""How often the displays are redrawn and the pause button's hold is checked."""
HALT_COMMAND = ("systemctl", "poweroff")
"""What the default halt action runs."""
POWER_OFF = "POWER OFF"
"""The text line once the halt action has been started."""
POWER_OFF_FAILED = "POWER OFF FAILED"
"""The text line when the halt action failed (the clock goes on)."""
NOTICE_MS = PAGE_MS
"""How long a notice of the clock's own (:data:`POWER_OFF`, :data:`POWER_OFF_FAILED`)
stands over the table's TEXT: one MAX7219 page."""


def power_off() -> None:
    """Halt the Pi safely: :data:`HALT_COMMAND`.

    Raises:
        OSError: systemctl cannot be run.
        subprocess.SubprocessError: It refused (not allowed) or hung.
    """
    subprocess.run(HALT_COMMAND, check=True, capture_output=True, timeout=30)


class PiClock:
    """One Pi clock: the firmware, its three buttons, two LEDs, buzzer and two displays.

    Args:
        wiring: Which GPIO does what, and the displays.
        pin_factory: gpiozero's pin factory (None: the Pi's own; MockFactory in tests).
        device_factory: Makes the displays (None: the hardware; ``dummy_devices`` in
            tests and with ``--mock-pins``).
        initial_ms: Time per side until the table sets it.
        clock: The firmware's millisecond clock (monotonic by default; fake in tests).
        halt: The halt action, run off the loop when pause is held down.
        device_id: Sent in HELLO.
        bounce_ms: A button's bounce window.
        halt_ms: How long pause is held to halt.

    Raises:
        firmware_bridge.pi.hardware.PinsError: No pin library works here (it says
            each one's reason).
        firmware_bridge.pi.displays.PanelError: A display does not answer.
        gpiozero.GPIOZeroError: A pin is refused.
    """

    def __init__(
        self,
        wiring: Wiring,
        *,
        pin_factory: Any = None,
        device_factory: DeviceFactory | None = None,
        initial_ms: int = INITIAL_MS,
        clock: Callable[[], int] | None = None,
        halt: Callable[[], None] = power_off,
        device_id: str = DEVICE_ID,
        bounce_ms: int = BOUNCE_MS,
        halt_ms: int = HALT_MS,
    ) -> None:
        self.fw = ClockFirmware(device_id, initial_ms=initial_ms, clock=clock)
        """The clock firmware: timekeeping and the device side of the protocol."""
        now = self.fw.now_ms
        self.halt = halt
        """The halt action."""
        self.halts = 0
        """How many times the halt action was started."""
        self.notice = ""
        """A line of the clock's own over the table's text (the halt's), "" for none:
        set by :meth:`_say`, gone :data:`NOTICE_MS` later."""
        self._notice_until = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._halting: asyncio.Task[None] | None = None
        self.hardware = open_hardware(
            wiring,
            pin_factory=pin_factory,
            device_factory=device_factory,
            now_ms=now,
            on_side=self._side_pressed,
            on_pause=self._pause_pressed,
            on_halt=self._pause_held,
            bounce_ms=bounce_ms,
            halt_ms=halt_ms,
        )
        """The buttons, the LEDs and buzzer, and the two displays."""
        self.fw.listeners.append(self._show)

    # --- what it shows ------------------------------------------------------------------
    def face(self, display: Display | None = None) -> Display:
        """What the clock shows: ``display`` (the firmware's, now, by default) with the
        clock's own notice over the table's text while it stands."""
        shown = self.fw.display() if display is None else display
        return dataclasses.replace(shown, text=self.notice) if self.notice else shown

    def _show(self, display: Display) -> None:
        self.hardware.show(self.face(display), beep_ms=self.fw.beep_ms)  # BEEP's duration

    def _say(self, notice: str) -> None:
        """Put ``notice`` over the table's text for :data:`NOTICE_MS`, and show it."""
        self.notice = notice
        self._notice_until = self.fw.now_ms() + NOTICE_MS
        self._show(self.fw.display())

    def refresh(self) -> None:
        """Redraw the running time, end a beep and a notice, check pause's hold (every
        :data:`REFRESH_S`)."""
        self.hardware.buttons.poll()
        if self.notice and self.fw.now_ms() >= self._notice_until:
            self.notice = ""
        self._show(self.fw.display())

    # --- the buttons (any thread) -------------------------------------------------------
    def _to_loop(self, action: Callable[[], object]) -> None:
        loop = self._loop
        if loop is None:
            log.warning("a button was pressed while the clock was not running: ignored")
            return
        with contextlib.suppress(RuntimeError):  # the loop closed as the button went down
            loop.call_soon_threadsafe(action)

    def _side_pressed(self, side: int, at_ms: int) -> None:
        # ``at_ms``: the button's edge, not when the loop gets to it
        self._to_loop(lambda: self.fw.press(side, at_ms))

    def _pause_pressed(self) -> None:
        self._to_loop(self.fw.pause)

    def _pause_held(self) -> None:
        self._to_loop(self._start_halt)

    def _start_halt(self) -> None:
        if self._halting is not None and not self._halting.done():
            return
        self._halting = asyncio.get_running_loop().create_task(self._halt())

    async def _halt(self) -> None:
        self.halts += 1
        self._say(POWER_OFF)
        try:
            await asyncio.to_thread(self.halt)
        except (OSError, subprocess.SubprocessError) as exc:
            log.error("cannot power off: %s", exc)
            self._say(POWER_OFF_FAILED)

    # --- running ------------------------------------------------------------------------
    async def run_serial(self, port: str, *, hexdump: Path | None = None) -> None:
        """Be the clock on the serial port (``/dev/ttyGS0``, a UART, a pty) until
        cancelled; a lost port is reopened with backoff."""
        await self.run(run_serial(self.fw, port, hexdump=hexdump))

    async def run_mqtt(self, url: str, table: str | None = None) -> None:
        """Be ``table``'s clock on the broker at ``url`` until cancelled.

        Raises:
            ValueError: A bad URL, or no table named.
        """
        await self.run(run_mqtt(self.fw, url, table))

    async def run(self, link: Awaitable[object]) -> None:
        """Run the clock on ``link`` (a firmware runner) until it ends or is cancelled:
        the buttons reach the firmware, the displays are refreshed."""
        self._loop = asyncio.get_running_loop()
        self._show(self.fw.display())  # power-up: the time and "no table"
        task = asyncio.ensure_future(link)
        try:
            while not task.done():
                await asyncio.wait([task], timeout=REFRESH_S)
                self.refresh()
            task.result()
        finally:
            self._loop = None
            for pending in (task, self._halting):
                if pending is not None and not pending.done():
                    pending.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await pending

    def close(self) -> None:
        """Release the GPIOs, turn the lights off, blank the displays."""
        self.hardware.close()
