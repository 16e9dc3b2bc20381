"""``rackclock pi-clock``: be the table's clock on a Raspberry Pi (docs/pi-clock.md).

Two player buttons, a pause button, two LEDs, a buzzer and two displays on the Pi's
GPIOs (:class:`firmware_bridge.pi.box.PiClock`), speaking docs/clock-protocol.md over
serial (the Pi as a USB serial gadget, ``/dev/ttyGS0``, or a UART) or MQTT.

``--mock-pins`` runs it where there is no Pi: gpiozero's mock pins and luma's dummy
displays; the display is printed on every change, and lines on standard input press
the mock buttons (as ``emulate-clock`` reads them: ``a`` or ``press 0``, ``l`` or
``press 1``, ``p`` or ``pause``, ``wait MS``, ``quit``; the end of the input quits).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_bridge.pi import INITIAL_MS, extra_refusal
from terminal_ui.cli.emulate import QUIT_FLUSH_S, command_lines, parse_command

if TYPE_CHECKING:
    from firmware_bridge.device.firmware import Display
    from firmware_bridge.pi.box import PiClock
    from firmware_bridge.pi.wiring import Wiring

__all__ = ["register", "run"]

PRESS_S = 0.05
"""How long a mock button is held down for one press (longer than a bounce)."""


def register(sub: Any) -> None:
    """Add the ``pi-clock`` command."""
    cmd = sub.add_parser(
        "pi-clock",
        help="run the clock on a Raspberry Pi: GPIO buttons, LEDs, buzzer, OLED or LED displays",
        description=(
            "Runs the tournament clock on a Raspberry Pi (docs/pi-clock.md): two player "
            "buttons and a pause button, the running side's LEDs, a buzzer and two displays, "
            "talking to the table over serial or MQTT (docs/clock-protocol.md). Holding "
            "pause for 3 s powers the Pi off. --mock-pins runs it on a machine that is not a "
            "Pi, for tests and demos: mock pins and dummy displays, the display printed, "
            "and lines on standard input press the buttons (a, l, p, wait MS, quit)."
        ),
    )
    where = cmd.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--serial", metavar="PORT", help="serial port: /dev/ttyGS0 (USB gadget), a UART, a pty"
    )
    where.add_argument("--mqtt", metavar="URL", help="broker URL (mqtt://host:port/venue/table)")
    cmd.add_argument("--table", help="table name (with --mqtt, unless the URL names it)")
    cmd.add_argument(
        "--wiring", type=Path, metavar="FILE", help="TOML file over the default wiring"
    )
    cmd.add_argument(
        "--display",
        metavar="oled|sh1106|max7219|none",
        help="the displays (default: the wiring's, oled)",
    )
    cmd.add_argument(
        "--initial-ms",
        type=int,
        default=INITIAL_MS,
        help="time per side before the table sets it (milliseconds, more than 0)",
    )
    cmd.add_argument(
        "--mock-pins",
        action="store_true",
        help="no Pi: gpiozero's mock pins and luma's dummy displays (tests, demos); "
        "prints the display, standard input presses the buttons",
    )
    cmd.set_defaults(handler=run)


def _mqtt_refusal(url: str, table: str | None) -> str | None:
    """Why ``--mqtt`` cannot be used, None when it can (read by the one URL parser)."""
    from firmware_bridge.mqtt.connection import parse_url

    try:
        named = parse_url(url).table
    except ValueError as exc:
        return str(exc)
    if table is None and named is None:
        return f"--mqtt {url!r} names no table: add --table T (or /<venue>/<table> to the URL)"
    return None


def run(args: argparse.Namespace) -> int:
    """Run the Pi clock until stopped (with ``--mock-pins``: until quit or end of input)."""
    err = sys.stderr
    refusal = extra_refusal("the Pi clock")
    if refusal is not None:
        err.write(f"rackclock pi-clock: {refusal}\n")
        return 2
    if args.initial_ms <= 0:
        err.write(
            f"rackclock pi-clock: --initial-ms {args.initial_ms}: "
            "the time per side must be more than 0 milliseconds\n"
        )
        return 2
    from firmware_bridge.pi.wiring import WiringError, load_wiring

    try:
        wiring = load_wiring(args.wiring)
        if args.display is not None:
            wiring = wiring.with_display(args.display)
    except WiringError as exc:
        err.write(f"rackclock pi-clock: {exc}\n")
        return 2
    if args.mqtt:
        bad = _mqtt_refusal(args.mqtt, args.table)
        if bad is not None:
            err.write(f"rackclock pi-clock: {bad}\n")
            return 2
    elif args.table:
        err.write("rackclock pi-clock: --table goes with --mqtt\n")
        return 2
    logging.basicConfig(level=logging.WARNING, stream=err)
    try:
        return asyncio.run(_main(args, wiring, sys.stdout, err))
    except KeyboardInterrupt:
        return 130


def _open(args: argparse.Namespace, wiring: Wiring, pins: Any, out: TextIO) -> PiClock:
    """The clock on the Pi's pins and displays, or on mock ones (``pins``: a MockFactory).

    Raises:
        OSError, gpiozero.GPIOZeroError: No pins or displays here.
    """
    from firmware_bridge.pi.box import PiClock, power_off
    from firmware_bridge.pi.displays import dummy_devices

    if pins is None:
        return PiClock(wiring, initial_ms=args.initial_ms, halt=power_off)

    def no_halt() -> None:
        out.write("pi-clock: pause held: the Pi would power off (not with --mock-pins)\n")
        out.flush()

    return PiClock(
        wiring,
        pin_factory=pins,
        device_factory=dummy_devices,
        initial_ms=args.initial_ms,
        halt=no_halt,
    )


async def _main(args: argparse.Namespace, wiring: Wiring, out: TextIO, err: TextIO) -> int:
    from gpiozero import GPIOZeroError
    from gpiozero.pins.mock import MockFactory

    pins = MockFactory() if args.mock_pins else None
    try:
        # gpiozero's pin-library fallbacks are logged by the hardware's opening, and
        # named in its error when no library works (lgpio's reason first)
        clock = _open(args, wiring, pins, out)
    except (OSError, GPIOZeroError) as exc:  # PinsError and PanelError are OSErrors
        err.write(
            f"rackclock pi-clock: cannot open the Pi's pins or displays: {exc} "
            "(not a Raspberry Pi? --mock-pins runs it without one)\n"
        )
        return 1
    loop = asyncio.get_running_loop()
    link = clock.run_serial(args.serial) if args.serial else clock.run_mqtt(args.mqtt, args.table)
    tasks = {asyncio.ensure_future(link)}
    if args.mock_pins:
        _print_display(clock, out)
        tasks.add(asyncio.ensure_future(_mock_buttons(pins, wiring, err)))
    this = asyncio.current_task()
    if this is not None:
        # systemd stops the clock with SIGTERM: let the lights and displays go dark
        loop.add_signal_handler(signal.SIGTERM, this.cancel)
    status = 0
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            failure = task.exception()
            if failure is not None:
                err.write(f"rackclock pi-clock: {failure}\n")
                status = 1
        if status == 0:
            await asyncio.sleep(QUIT_FLUSH_S)  # the last press reaches the table
    except asyncio.CancelledError:
        status = 0
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        clock.close()
    return status


def _print_display(clock: PiClock, out: TextIO) -> None:
    """With --mock-pins: print the display on every change, in the panel's words."""
    from firmware_bridge.pi.panel import link_state

    last = [""]

    def show(display: Display) -> None:
        face = clock.face(display)
        # the link state is printed in front: render()'s own "no host" would say it twice
        line = f"{link_state(face)}  {dataclasses.replace(face, host_online=True).render()}"
        if line != last[0]:
            last[0] = line
            out.write(line + "\n")
            out.flush()

    clock.fw.listeners.append(show)
    show(clock.fw.display())


async def _mock_buttons(pins: Any, wiring: Wiring, err: TextIO) -> None:
    """With --mock-pins: press the mock buttons on ``pins`` (a MockFactory) as standard
    input says, until quit or the end of the input."""
    gpio = {
        "press0": wiring.buttons.left,
        "press1": wiring.buttons.right,
        "pause0": wiring.buttons.pause,
    }
    lines = command_lines(sys.stdin.fileno(), single_keys=False)
    while (line := await lines.get()) is not None:
        try:
            command = parse_command(line)
        except ValueError as exc:
            err.write(f"pi-clock: {exc}\n")
            err.flush()
            continue
        if command is None:
            continue
        what, value = command
        if what == "quit":
            return
        if what == "wait":
            await asyncio.sleep(value / 1000)
            continue
        pin = pins.pin(gpio[f"{what}{value}"])
        pin.drive_low()
        await asyncio.sleep(PRESS_S)
        pin.drive_high()
