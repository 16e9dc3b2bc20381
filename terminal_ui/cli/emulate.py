"""``rackclock emulate-clock``: behave like a physical clock on a serial port or MQTT.

Buttons come from the keyboard or a script; the display is printed whenever
it changes (times, running side, text, host link):

- default: one command per line on standard input: ``a`` (side 0), ``l``
  (side 1), ``p`` or ``space`` (pause), ``q`` (quit), or the script commands;
- ``--keys``: single key presses, no Enter (``a``, ``l``, space or ``p``, ``q`` quits);
- ``--script FILE``: lines ``press 0``, ``press 1``, ``pause``, ``wait MS``,
  ``quit`` (``#`` starts a comment); the clock stops at the end of the script.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import termios
import tty
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["command_lines", "parse_command", "register", "run"]

QUIT_FLUSH_S = 0.3
"""How long to let the last messages reach the host before quitting."""


def register(sub: Any) -> None:
    """Add the ``emulate-clock`` command."""
    cmd = sub.add_parser(
        "emulate-clock",
        help="run an emulated clock device on a serial port or MQTT",
        description=(
            "Behaves like a physical tournament clock (docs/clock-protocol.md): "
            "keys a / l press side 0 / 1, p or space pauses; the display is printed "
            "on every change."
        ),
    )
    where = cmd.add_mutually_exclusive_group(required=True)
    where.add_argument("--serial", metavar="PATH", help="serial port, pty or socket://host:port")
    where.add_argument("--mqtt", metavar="URL", help="broker URL (mqtt://host:port)")
    cmd.add_argument("--table", help="table name (with --mqtt)")
    cmd.add_argument("--keys", action="store_true", help="single key presses (no Enter)")
    cmd.add_argument("--script", type=Path, metavar="FILE", help="button script to play")
    cmd.add_argument(
        "--device-authoritative",
        action="store_true",
        help="send both shown times with each press",
    )
    cmd.add_argument("--hexdump", type=Path, metavar="FILE", help="log every byte (serial)")
    cmd.add_argument("--device-id", default="rackclock-emu", help="identity sent in HELLO")
    cmd.add_argument(
        "--initial-ms", type=int, default=1_500_000, help="time per side before the host sets it"
    )
    cmd.set_defaults(handler=run)


# --- commands --------------------------------------------------------------------------

_KEYS = {"a": "press 0", "l": "press 1", "p": "pause", " ": "pause", "q": "quit"}


def parse_command(line: str) -> tuple[str, int] | None:
    """``("press", side)``, ``("pause", 0)``, ``("wait", ms)``, ``("quit", 0)``; None if blank.

    Raises:
        ValueError: Not a command.
    """
    if line == " ":  # the space bar, in --keys mode
        return ("pause", 0)
    text = line.split("#", 1)[0].strip().lower()
    if not text:
        return None
    text = _KEYS.get(text, text)
    if text == "space":
        text = "pause"
    words = text.split()
    if words == ["pause"] or words == ["quit"]:
        return (words[0], 0)
    if len(words) == 2 and words[0] == "press" and words[1] in ("0", "1"):
        return ("press", int(words[1]))
    if len(words) == 2 and words[0] == "wait" and words[1].isdigit():
        return ("wait", int(words[1]))
    raise ValueError(f"not a clock command: {line.strip()!r} (press 0|1, pause, wait MS, quit)")


# --- the program -----------------------------------------------------------------------


def command_lines(fd: int, single_keys: bool) -> asyncio.Queue[str | None]:
    """Commands from ``fd``: one per line, or one per character with ``single_keys``; None
    at the end (also the mock buttons of ``rackclock pi-clock --mock-pins``).

    Read with the event loop (no thread that could outlive a ``quit``); a regular
    file, which the loop cannot watch, is read at once.
    """
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    pending = bytearray()

    def take(data: bytes) -> None:
        if single_keys:
            for ch in data.decode("utf-8", errors="ignore"):
                if ch in ("\x03", "\x04"):  # Ctrl-C, Ctrl-D in cbreak mode
                    queue.put_nowait("quit")
                elif ch not in "\r\n":
                    queue.put_nowait(ch)
            return
        pending.extend(data)
        while b"\n" in pending:
            line, _, rest = bytes(pending).partition(b"\n")
            pending[:] = rest
            queue.put_nowait(line.decode("utf-8", errors="replace"))

    def end() -> None:
        if pending and not single_keys:
            queue.put_nowait(pending.decode("utf-8", errors="replace"))
        queue.put_nowait(None)

    def readable() -> None:
        try:
            data = os.read(fd, 1024)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            end()
            return
        take(data)

    try:
        loop.add_reader(fd, readable)
    except PermissionError:  # a regular file: everything is there already
        with os.fdopen(os.dup(fd), "rb") as fh:
            take(fh.read())
        end()
    return queue


async def _play(
    source: asyncio.Queue[str | None],
    act: Callable[[str, int], Awaitable[bool]],
    err: TextIO,
) -> None:
    while True:
        line = await source.get()
        if line is None:
            return
        try:
            cmd = parse_command(line)
        except ValueError as exc:
            err.write(f"emulate-clock: {exc}\n")
            err.flush()
            continue
        if cmd is not None and not await act(*cmd):
            return


async def emulate(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the emulated clock; returns the exit status (``out``/``err``: the standard
    streams by default, as they are when it runs)."""
    out = out or sys.stdout
    err = err or sys.stderr
    from firmware_bridge.device.firmware import ClockFirmware, Display
    from firmware_bridge.device.mqtt_device import run_mqtt
    from firmware_bridge.device.serial_runner import run_serial
    from firmware_bridge.mqtt.connection import parse_url

    # Everything a user gave is checked before the clock starts.
    if args.mqtt:
        try:
            parse_url(args.mqtt)
        except ValueError as exc:
            err.write(f"rackclock emulate-clock: {exc}\n")
            return 2
    script: list[str] | None = None
    if args.script is not None:
        try:
            script = args.script.read_text(encoding="utf-8").splitlines()
            for n, line in enumerate(script, start=1):
                try:
                    parse_command(line)
                except ValueError as bad:
                    raise ValueError(f"line {n}: {bad}") from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            err.write(
                f"rackclock emulate-clock: cannot read the script {str(args.script)!r}: {exc}\n"
            )
            return 2
    runner: Awaitable[None]
    fw = ClockFirmware(
        args.device_id,
        initial_ms=args.initial_ms,
        device_authoritative=args.device_authoritative,
    )
    if args.serial:
        runner = run_serial(fw, args.serial, hexdump=args.hexdump)
    else:
        runner = run_mqtt(fw, args.mqtt, args.table)

    last = [""]

    def show(display: Display) -> None:
        line = display.render()
        if line != last[0]:
            last[0] = line
            out.write(line + "\n")
            out.flush()

    fw.listeners.append(show)

    async def act(cmd: str, value: int) -> bool:
        if cmd == "press":
            fw.press(value)
        elif cmd == "pause":
            fw.pause()
        elif cmd == "wait":
            await asyncio.sleep(value / 1000)
        elif cmd == "quit":
            return False
        return True

    saved: list[Any] | None = None
    stdin_fd = -1
    if script is not None:
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        for line in script:
            queue.put_nowait(line)
        queue.put_nowait(None)
    elif args.keys:
        stdin_fd = sys.stdin.fileno()
        if os.isatty(stdin_fd):
            saved = termios.tcgetattr(stdin_fd)
            tty.setcbreak(stdin_fd)
        queue = command_lines(stdin_fd, single_keys=True)
    else:
        stdin_fd = sys.stdin.fileno()
        queue = command_lines(stdin_fd, single_keys=False)

    show(fw.display())
    device = asyncio.ensure_future(runner)
    buttons = asyncio.ensure_future(_play(queue, act, err))
    status = 0
    try:
        done, _ = await asyncio.wait({device, buttons}, return_when=asyncio.FIRST_COMPLETED)
        if device in done:
            failure = device.exception()
            if failure is not None:
                err.write(f"emulate-clock: {failure}\n")
                status = 1
        else:
            await asyncio.sleep(QUIT_FLUSH_S)
    finally:
        for task in (device, buttons):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if saved is not None:
            termios.tcsetattr(stdin_fd, termios.TCSADRAIN, saved)
        if stdin_fd >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(stdin_fd)
    return status


def _names_a_table(url: str) -> bool:
    """Whether the broker URL's path names the table (read by the one URL parser); a
    URL it refuses is refused with its reason by :func:`emulate`."""
    from firmware_bridge.mqtt.connection import parse_url

    try:
        return parse_url(url).table is not None
    except ValueError:
        return True


def run(args: argparse.Namespace) -> int:
    """Run ``emulate-clock`` until quit, end of input or end of script."""
    if args.mqtt and not args.table and not _names_a_table(args.mqtt):
        sys.stderr.write("rackclock emulate-clock: --mqtt needs --table\n")
        return 2
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        return asyncio.run(emulate(args))
    except KeyboardInterrupt:
        return 130
