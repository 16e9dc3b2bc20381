"""The emulated clock firmware on a serial line: :func:`run_serial` on a port (or pty, or
``socket://``), :func:`run_fd` on a raw file descriptor. The firmware core
(:class:`~firmware_bridge.device.firmware.ClockFirmware`) does the protocol without I/O;
these runners move its bytes and call :meth:`~ClockFirmware.serial_poll` every
:data:`POLL_S`. A lost port is reopened with backoff, like a clock plugged in again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from pathlib import Path

import serial
import serial_asyncio_fast

from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.host.hexdump_file import HexDump

__all__ = ["BACKOFF_MAX_S", "BACKOFF_MIN_S", "POLL_S", "UNANSWERED_MS", "run_fd", "run_serial"]

log = logging.getLogger(__name__)

POLL_S = 0.02
"""How often the runners call :meth:`ClockFirmware.serial_poll`."""
BACKOFF_MIN_S = 0.2
"""First wait before reopening a lost port."""
BACKOFF_MAX_S = 5.0
"""Longest wait between attempts to reopen a port."""
UNANSWERED_MS = 10_000
"""How long an open port may go without the table answering before it is a warning
(a USB gadget's ``/dev/ttyGS0`` opens whether or not a laptop is there), on the
firmware's own clock."""


class _PortProtocol(asyncio.Protocol):
    def __init__(self, fw: ClockFirmware, dump: HexDump | None) -> None:
        self.fw = fw
        self.dump = dump
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.made: asyncio.Future[None] = loop.create_future()
        self.lost: asyncio.Future[str] = loop.create_future()

    def write(self, data: bytes) -> None:
        if data and self.transport is not None and not self.transport.is_closing():
            if self.dump is not None:
                self.dump.tx(data)
            self.transport.write(data)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.made.done():
            self.made.set_result(None)

    def data_received(self, data: bytes) -> None:
        if self.dump is not None:
            self.dump.rx(data)
        self.write(self.fw.serial_receive(data))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(f"port lost: {exc}" if exc else "port closed")


async def _drive(
    fw: ClockFirmware, write: Callable[[bytes], None], lost: asyncio.Future[str], where: str
) -> str:
    """Run one session until ``lost`` resolves; returns why it ended. A table that
    does not answer for :data:`UNANSWERED_MS` is a warning, once until it answers."""
    fw.emit = lambda msg: write(fw.serial_send(msg))
    heard_at = fw.now_ms()
    told = False
    try:
        write(fw.serial_open())
        while not lost.done():
            await asyncio.wait([lost], timeout=POLL_S)
            write(fw.serial_poll())
            if fw.host_online:
                heard_at, told = fw.now_ms(), False
            elif not told and fw.now_ms() - heard_at >= UNANSWERED_MS:
                log.warning("%s: no table has answered for %g s", where, UNANSWERED_MS / 1000)
                told = True
        return lost.result()
    finally:
        fw.emit = None
        fw.serial_close()


def _factory(proto: _PortProtocol) -> Callable[[], _PortProtocol]:
    return lambda: proto


def _open_dump(hexdump: HexDump | str | Path | None, fw: ClockFirmware) -> HexDump | None:
    if hexdump is None or isinstance(hexdump, HexDump):
        return hexdump
    return HexDump(hexdump, fw.now_ms)


async def run_serial(
    fw: ClockFirmware,
    url: str,
    *,
    baudrate: int = 115_200,
    hexdump: HexDump | str | Path | None = None,
    reconnect: bool = True,
) -> None:
    """Run ``fw`` on the serial port (or pty, or ``socket://``) at ``url`` until cancelled.

    A lost port is reopened with backoff (0.2 s doubling to 5 s), like a clock
    plugged in again; with ``reconnect=False`` it returns when the port is lost.
    The first failure of each outage (the port lost, or not opening at the start)
    is logged as a warning, the retries that follow only as info: a clock that never
    finds its table says so once, where its service's log shows it.
    """
    dump = _open_dump(hexdump, fw)
    loop = asyncio.get_running_loop()
    backoff = BACKOFF_MIN_S
    said = False  # whether this outage was told at WARNING
    try:
        while True:
            proto = _PortProtocol(fw, dump)
            try:
                transport, _ = await serial_asyncio_fast.create_serial_connection(
                    loop, _factory(proto), url, baudrate=baudrate
                )
            except (OSError, serial.SerialException, ValueError) as exc:
                if not reconnect:
                    raise
                level = logging.INFO if said else logging.WARNING
                log.log(level, "cannot open %s (%s); retrying in %.1f s", url, exc, backoff)
                said = True
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX_S)
                continue
            backoff = BACKOFF_MIN_S
            if said:
                log.warning("%s: open again", url)
                said = False
            if dump is not None:
                dump.note(f"open {url}")
            try:
                await proto.made
                reason = await _drive(fw, proto.write, proto.lost, url)
            finally:
                if not transport.is_closing():  # closing already after a read error
                    transport.abort()
            if dump is not None:
                dump.note(reason)
            if not reconnect:
                log.info("%s: %s", url, reason)
                return
            log.warning("%s: %s; reopening it", url, reason)
            said = True
            await asyncio.sleep(backoff)
    finally:
        if dump is not None and not isinstance(hexdump, HexDump):
            dump.close()


async def run_fd(fw: ClockFirmware, fd: int, *, hexdump: HexDump | str | Path | None = None) -> str:
    """Run ``fw`` on a raw file descriptor (e.g. a pty master) until it fails or is cancelled.

    The descriptor is made non-blocking and is not closed. Returns why it ended.
    """
    dump = _open_dump(hexdump, fw)
    loop = asyncio.get_running_loop()
    lost: asyncio.Future[str] = loop.create_future()
    pending = bytearray()
    os.set_blocking(fd, False)

    def fail(reason: str) -> None:
        if not lost.done():
            lost.set_result(reason)

    def flush() -> None:
        try:
            n = os.write(fd, pending)
        except BlockingIOError:
            return
        except OSError as exc:
            loop.remove_writer(fd)
            fail(f"write failed: {exc}")
            return
        del pending[:n]
        if not pending:
            loop.remove_writer(fd)

    def write(data: bytes) -> None:
        if not data or lost.done():
            return
        if dump is not None:
            dump.tx(data)
        if pending:
            pending.extend(data)
            return
        try:
            n = os.write(fd, data)
        except BlockingIOError:
            n = 0
        except OSError as exc:
            fail(f"write failed: {exc}")
            return
        if n < len(data):
            pending.extend(data[n:])
            loop.add_writer(fd, flush)

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError as exc:
            fail(f"read failed: {exc}")
            return
        if not data:
            fail("end of file")
            return
        if dump is not None:
            dump.rx(data)
        write(fw.serial_receive(data))

    loop.add_reader(fd, readable)
    if dump is not None:
        dump.note(f"open fd {fd}")
    try:
        reason = await _drive(fw, write, lost, f"fd {fd}")
        if dump is not None:
            dump.note(reason)
        return reason
    finally:
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(fd)
        with contextlib.suppress(ValueError, OSError):
            loop.remove_writer(fd)
        if dump is not None and not isinstance(hexdump, HexDump):
            dump.close()
