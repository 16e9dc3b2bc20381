"""Benchmark: a press on a clock device, from the button to the commit in the service.

``python -m bench.latency --transport serial [--presses N] [--warmup W] [--profile]``

Serial (:func:`measure_serial`): one process, one event loop, as a table
computer with the clock on USB would run it. A ``os.openpty`` pair stands in for
the cable: the emulated clock firmware (:class:`ClockFirmware` driven by
:func:`firmware_bridge.device.serial_runner.run_fd`) on the master, and on the slave a
:class:`clock.table.service.TableService` (real SQLite log on disk, WAL +
``synchronous=FULL``) whose device is a :class:`SerialClock`
(pyserial-asyncio-fast). nzasp in scoresheet mode, so presses alternate
without plays. Each press is timed from just before ``ClockFirmware.press`` to
the moment a service listener receives the committed ``ClockPressed`` (and, as
the device sees it, to the host's ACK, which is sent after the commit): framing,
the pty, pyserial, the link (CRC, ACK, de-duplication), the device and writer
queues, the rules, the hash-chained append and its fsync. Presses are
sequential: the next one waits until the service's SET for the previous one
has reached the clock.

In the same run, the raw baseline: a frame-sized message (a 13-byte PRESS
frame) written into the master end of a second pty pair, echoed back by a task
reading the slave through the same pyserial-asyncio-fast transport, timed until
it is back at the master: a round trip of the bare transport. Echoes and presses
alternate (one of each per round), so both see the same conditions. The report
also splits each press at the moment its event reaches the host's queue.

Each round also times one raw durable commit (:class:`bench.durable.RawCommit`:
one row committed to a SQLite file with the log's settings). The physical floor
of a durable press is that round's raw round trip plus its raw commit; the
floor's percentiles are over those sums (``floor_p50_ms``, ``floor_p99_ms``).

Last line is JSON: ``{"transport","n","p50_ms","p99_ms","baseline_p50_ms",
"baseline_p99_ms","ratio_p50","ratio_p99","floor_p50_ms","ratio_floor_p50"}``.
Floor: ``ratio_floor_p50 <= 2`` (goal 1.3); the ratio to the bare round trip is
shown for scale.

Other transports plug in through :data:`TRANSPORTS`: a function taking the
number of presses and returning the same dict. ``mqtt`` calls
:func:`bench.latency_mqtt.measure_mqtt`. Every transport's result is printed by
:func:`bench.latency_report.print_result`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import os
import pstats
import tempfile
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

import serial_asyncio_fast

from bench.durable import RawCommit, floor_figures
from bench.latency_report import print_result
from bench.stats import percentile_ms
from clock.device.interface import DeviceEvent
from clock.table.service import TableService, Update
from clock.timeline import MonotonicTimeline
from engine.events import ClockPressed, GameStarted
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.serial_runner import run_fd
from firmware_bridge.host.serial_clock import SerialClock
from firmware_bridge.wire.framing import encode_frame
from firmware_bridge.wire.protocol import Press, encode

__all__ = ["TRANSPORTS", "main", "measure_serial"]

MIN_PRESSES = 2000
VARIANT = "nzasp"
WAIT_S = 5.0
"""Any single press or echo slower than this is a failure."""


class _Pty:
    """An ``os.openpty`` pair: the device side holds the master, the host opens ``path``."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(self.slave)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


async def _change(event: asyncio.Event) -> None:
    """Wait for the next display change (or 10 ms, for status changes)."""
    event.clear()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(0.01):
            await event.wait()


class _TimedClock(SerialClock):
    """A SerialClock that notes when each event reaches the host (for the breakdown)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.emitted: list[int] = []

    def _emit(self, ev: DeviceEvent) -> None:
        self.emitted.append(time.monotonic_ns())
        super()._emit(ev)


class _Echo(asyncio.Protocol):
    """Writes back whatever arrives."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)


class _EchoRig:
    """The baseline: a frame-sized message into the master, echoed back from the slave
    by a pyserial-asyncio-fast transport (the host side's own I/O path)."""

    def __init__(self) -> None:
        self.pty = _Pty()
        self.frame = encode_frame(encode(Press(7, 0, 123456)))
        self.got: asyncio.Queue[int] = asyncio.Queue()
        self.pending = bytearray()
        self.transport: asyncio.Transport | None = None

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        transport, _ = await serial_asyncio_fast.create_serial_connection(
            loop, _Echo, self.pty.path, baudrate=115_200
        )
        self.transport = transport
        os.set_blocking(self.pty.master, False)
        loop.add_reader(self.pty.master, self._readable)
        await asyncio.sleep(0.05)  # the transport is up

    def _readable(self) -> None:
        self.pending.extend(os.read(self.pty.master, 4096))
        while len(self.pending) >= len(self.frame):
            del self.pending[: len(self.frame)]
            self.got.put_nowait(time.monotonic_ns())

    async def round_trip(self) -> int:
        t0 = time.monotonic_ns()
        os.write(self.pty.master, self.frame)
        async with asyncio.timeout(WAIT_S):
            return await self.got.get() - t0

    async def close(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.pty.master)
        if self.transport is not None:
            self.transport.abort()
        await asyncio.sleep(0.05)
        self.pty.close()


async def _measure(
    log: Path, n: int, warmup: int
) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """Per measured round: a raw echo round trip, then a press; after ``warmup`` rounds.

    Returns the press latencies, the press-to-host parts of them, the round trips,
    the raw commits and the press-to-ACK times at the device (ns). Interleaving puts
    all under the same conditions.
    """
    loop = asyncio.get_running_loop()
    pty = _Pty()
    echo = _EchoRig()
    await echo.open()
    timeline = MonotonicTimeline()
    fw = ClockFirmware("bench-clock", initial_ms=1_500_000)
    clock = _TimedClock(pty.path, timeline=timeline, initial_ms=1_500_000)
    service = TableService(log, timeline=timeline, device=clock, heartbeat_ms=0)
    waiting: list[asyncio.Future[int]] = []

    def on_update(u: Update) -> None:
        if isinstance(u.event, ClockPressed) and waiting:
            fut = waiting.pop()
            if not fut.done():
                fut.set_result(time.monotonic_ns())
        elif u.refused is not None and waiting:
            waiting.pop().set_exception(RuntimeError(f"press refused: {u.refused.reason}"))

    service.add_listener(on_update)
    changed = asyncio.Event()
    fw.listeners.append(lambda _display: changed.set())
    acked_at: list[int] = []
    acked = asyncio.Event()
    receive = fw.serial_receive

    def timed_receive(data: bytes) -> bytes:
        # the moment the device's press is acknowledged: the host's ACK (sent once
        # the press is committed) empties the firmware link's pending messages
        link = fw._link
        before = link.pending() if link is not None else 0
        out = receive(data)
        if before and link is not None and link.pending() == 0:
            acked_at.append(time.monotonic_ns())
            acked.set()
        return out

    fw.serial_receive = timed_receive  # type: ignore[method-assign]
    device = asyncio.create_task(run_fd(fw, pty.master), name="bench.firmware")
    presses: list[int] = []
    acks: list[int] = []
    to_host: list[int] = []
    base: list[int] = []
    commits: list[int] = []
    raw = RawCommit(log.with_name("raw.db"))
    try:
        async with service:
            ack = await service.submit(
                GameStarted(variant=VARIANT, players=("Ann", "Ben"), mode="scoresheet")
            )
            assert ack.accepted, ack
            async with asyncio.timeout(WAIT_S):
                while not (service.status.device_online and fw.running == 0 and not fw.paused):
                    await _change(changed)
            side = 0
            for i in range(warmup + n):
                rt = await echo.round_trip()
                commit = raw.commit_ns()
                fut: asyncio.Future[int] = loop.create_future()
                waiting.append(fut)
                sets = fw.sets
                t0 = time.monotonic_ns()
                fw.press(side)
                acked_at.clear()
                async with asyncio.timeout(WAIT_S):
                    done = await fut
                    while fw.sets == sets:  # the service's SET for this press
                        await _change(changed)
                    while not acked_at:
                        await _change(acked)
                if i >= warmup:
                    presses.append(done - t0)
                    acks.append(acked_at[0] - t0)
                    to_host.append(clock.emitted[-1] - t0)
                    base.append(rt)
                    commits.append(commit)
                side = 1 - side
            state = service.state
            assert state.presses[0] + state.presses[1] == warmup + n, state.presses
            stats = clock.stats
            assert stats.frames_bad == stats.payloads_bad == stats.given_up == 0, stats
    finally:
        device.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await device
        await echo.close()
        pty.close()
        raw.close()
    return presses, to_host, base, commits, acks


def measure_serial(
    n: int = MIN_PRESSES, *, warmup: int = 200, workdir: Path | None = None
) -> dict[str, Any]:
    """Presses and raw round trips, interleaved; the JSON line's dict (plus a breakdown)."""
    with tempfile.TemporaryDirectory(prefix="rackclock-serial-bench-", dir=workdir) as tmp:
        runs = asyncio.run(_measure(Path(tmp) / "table.db", n, warmup))
    floor = sorted(rt + c for rt, c in zip(runs[2], runs[3], strict=True))
    presses, to_host, base = (sorted(r) for r in runs[:3])
    p50, p99 = percentile_ms(presses, 0.5), percentile_ms(presses, 0.99)
    b50, b99 = percentile_ms(base, 0.5), percentile_ms(base, 0.99)
    return {
        **floor_figures(floor, sorted(runs[3]), p50, p99),
        "transport": "serial",
        "n": n,
        "p50_ms": round(p50, 3),
        "p99_ms": round(p99, 3),
        "baseline_p50_ms": round(b50, 3),
        "baseline_p99_ms": round(b99, 3),
        "ratio_p50": round(p50 / b50, 2),
        "ratio_p99": round(p99 / b99, 2),
        "max_ms": round(presses[-1] / 1e6, 3),
        "to_host_p50_ms": round(percentile_ms(to_host, 0.5), 3),
        "to_host_p99_ms": round(percentile_ms(to_host, 0.99), 3),
        "ack_p50_ms": round(percentile_ms(sorted(runs[4]), 0.5), 3),
        "ack_p99_ms": round(percentile_ms(sorted(runs[4]), 0.99), 3),
    }


def _measure_mqtt(n: int) -> dict[str, Any]:
    """The MQTT transport's measurement (:mod:`bench.latency_mqtt`), imported when asked
    for: a serial run loads no MQTT client. The dependency goes one way: what both
    modules share (the report and its floors) is :mod:`bench.latency_report`."""
    from bench.latency_mqtt import measure_mqtt

    return measure_mqtt(n)


TRANSPORTS: dict[str, Callable[[int], dict[str, Any]]] = {
    "serial": measure_serial,
    "mqtt": _measure_mqtt,  # hook: any function (presses) -> the same dict
}
"""Each transport's measurement."""


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print its figures, then the JSON line; 1 if the floor is missed."""
    parser = argparse.ArgumentParser(prog="python -m bench.latency")
    parser.add_argument("--transport", choices=sorted(TRANSPORTS), default="serial")
    parser.add_argument("--presses", type=int, default=MIN_PRESSES)
    parser.add_argument("--profile", action="store_true", help="cProfile the run (serial)")
    args = parser.parse_args(argv)
    if args.presses < MIN_PRESSES:
        parser.error(f"--presses must be at least {MIN_PRESSES}")
    measure = TRANSPORTS[args.transport]
    if args.profile:
        prof = cProfile.Profile()
        result = prof.runcall(measure, args.presses)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    else:
        result = measure(args.presses)
    return print_result(result)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
