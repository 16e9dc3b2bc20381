"""Benchmark: a press on an MQTT clock, from the button to the commit in the service.

``python -m bench.latency_mqtt [--presses N]`` (or :func:`measure_mqtt` from a caller)

It starts its own Mosquitto on a free loopback port (as the test fixture does),
and runs a :class:`clock.table.service.TableService` (real SQLite log, WAL +
``synchronous=FULL``) whose device is an :class:`MqttClock`; the clock is the
emulated firmware (:class:`ClockFirmware` over :class:`MqttDevice`). Each
press is timed from just before ``ClockFirmware.press`` to the moment a service
listener receives the committed ``ClockPressed``: the clock's outbox, the
broker, de-duplication, the service's queues, the rules, the commit. Presses
are sequential (nzasp, scoresheet mode, so presses alternate without plays).

The clock runs in its own process, as a clock is its own device; each press
waits until the service's SET for the previous one is back on the clock. The
clock and the service are timed with the same monotonic clock
(``time.monotonic_ns``, system-wide on Linux).

In the same run, interleaved with the presses (one of each per round), the raw
baseline: a QoS 1 publish by a plain aiomqtt client in the clock's process to its
receipt by a plain aiomqtt client in the service's process, through the same
broker: the bare transport. Each round also times one raw durable commit
(:class:`bench.durable.RawCommit`), so the floor of a press is that round's raw
trip plus its raw commit. The report is :mod:`bench.latency_report`'s, as for every
transport; its last line is JSON: ``{"transport","n","p50_ms","p99_ms",
"baseline_p50_ms","baseline_p99_ms","ratio_p50","ratio_p99","floor_p50_ms",
"ratio_floor_p50"}``. Floors: ``ratio_floor_p50 <= 2``
(:data:`bench.latency_report.FLOOR_RATIO_P50`) and ``p99 < 10 ms``
(:data:`FLOOR_P99_MS`) on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiomqtt

from bench.durable import RawCommit, floor_figures
from bench.latency_report import print_result
from bench.mosquitto import mosquitto
from bench.stats import percentile_ms
from clock.table.service import TableService, Update
from clock.timeline import MonotonicTimeline
from engine.events import ClockPressed, GameStarted
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.mqtt_device import MqttDevice
from firmware_bridge.host.mqtt_clock import MqttClock
from firmware_bridge.mqtt.connection import BrokerSettings, parse_url
from firmware_bridge.mqtt.topics import TableTopics

__all__ = ["measure_mqtt"]

VARIANT = "nzasp"
TABLE = TableTopics("bench", "t1")
RAW_TOPIC = TABLE.base + "/bench/raw"
REPO = Path(__file__).resolve().parent.parent
FLOOR_P99_MS = 10.0
"""Press-to-commit p99 on loopback (the ratio floor is bench.latency_report's, for every
transport)."""
WAIT_S = 5.0
"""Any single press or message slower than this is a failure."""


async def _device_main(url: str) -> None:
    """The device process: the emulated firmware on MQTT plus a plain client for the
    baseline. Commands on stdin, answered with the ``time.monotonic_ns()`` taken just
    before the action: ``press S`` (answered once the service's SET for it is back
    on the display), ``raw`` (a bare QoS 1 publish), ``quit``."""
    broker = parse_url(url)
    fw = ClockFirmware("bench-clock")
    changed = asyncio.Event()
    fw.listeners.append(lambda _display: changed.set())
    device = MqttDevice(fw, broker, identifier="bench-clock")
    device.start()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    raw = aiomqtt.Client(
        broker.host, broker.port, identifier="bench-raw-pub", protocol=aiomqtt.ProtocolVersion.V5
    )
    payload = b'{"v":1,"type":"press","seq":1,"side":0,"device_ms":123456}'
    try:
        async with raw:
            await device.session.wait_connected(WAIT_S)
            print("ready", flush=True)
            while line := (await reader.readline()).decode().split():
                if line[0] == "press":
                    sets = fw.sets
                    t0 = time.monotonic_ns()
                    fw.press(int(line[1]))
                    async with asyncio.timeout(WAIT_S):
                        while fw.sets == sets:  # the service's SET for this press
                            changed.clear()
                            await changed.wait()
                elif line[0] == "raw":
                    t0 = time.monotonic_ns()
                    await raw.publish(RAW_TOPIC, payload, qos=1)
                else:
                    break
                print(t0, flush=True)
    finally:
        await device.close()


class _Device:
    """The device process, driven line by line."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, broker: BrokerSettings) -> _Device:
        url = f"mqtt://{broker.host}:{broker.port}/{TABLE.venue}/{TABLE.table}"
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.latency_mqtt",
            "--as-device",
            url,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=REPO,
        )
        dev = cls(proc)
        assert await dev._line() == "ready"
        return dev

    async def _line(self) -> str:
        assert self.proc.stdout is not None
        async with asyncio.timeout(WAIT_S * 2):
            line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the device process ended")
        return line.decode().strip()

    async def ask(self, command: str) -> int:
        """Run ``command``; the device's timestamp for it."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()
        return int(await self._line())

    async def stop(self) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(ConnectionError):
            self.proc.stdin.write(b"quit\n")
            await self.proc.stdin.drain()
        try:
            async with asyncio.timeout(WAIT_S):
                await self.proc.wait()
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


async def _measure(
    broker: BrokerSettings, log: Path, n: int, warmup: int
) -> tuple[list[int], list[int], list[int]]:
    """Per round a raw QoS 1 trip, then a press; ``n`` measured rounds after ``warmup``.

    Returns the press latencies and the raw trips (ns). Interleaving puts both under
    the same conditions; each press waits for the previous press's SET to reach the
    clock, as presses seconds apart would.
    """
    waiting: list[asyncio.Future[int]] = []
    loop = asyncio.get_running_loop()
    online = asyncio.Event()

    def on_update(u: Update) -> None:
        if u.status.device_online:
            online.set()
        if isinstance(u.event, ClockPressed) and waiting:
            fut = waiting.pop()
            if not fut.done():
                fut.set_result(time.monotonic_ns())
        elif u.refused is not None and waiting:
            waiting.pop().set_exception(RuntimeError(f"press refused: {u.refused.reason}"))

    clock = MqttClock(broker, identifier="bench-service")
    service = TableService(log, timeline=MonotonicTimeline(), device=clock, heartbeat_ms=0)
    service.add_listener(on_update)
    got: asyncio.Queue[int] = asyncio.Queue()
    sub = aiomqtt.Client(
        broker.host, broker.port, identifier="bench-raw-sub", protocol=aiomqtt.ProtocolVersion.V5
    )

    async def receive() -> None:
        async for _ in sub.messages:
            got.put_nowait(time.monotonic_ns())

    presses: list[int] = []
    base: list[int] = []
    commits: list[int] = []
    raw = RawCommit(log.with_name("raw.db"))
    async with service, sub:
        await sub.subscribe(RAW_TOPIC, qos=1)
        receiver = asyncio.create_task(receive())
        ack = await service.submit(
            GameStarted(variant=VARIANT, players=("Ann", "Ben"), mode="scoresheet")
        )
        assert ack.accepted, ack
        await clock.session.wait_connected(WAIT_S)
        device = await _Device.start(broker)
        try:
            async with asyncio.timeout(WAIT_S):
                await online.wait()
            side = service.state.turn
            assert side is not None
            for i in range(warmup + n):
                t_raw = await device.ask("raw")
                async with asyncio.timeout(WAIT_S):
                    raw_done = await got.get()
                commit = raw.commit_ns()
                fut: asyncio.Future[int] = loop.create_future()
                waiting.append(fut)
                t0 = await device.ask(f"press {side}")
                async with asyncio.timeout(WAIT_S):
                    done = await fut
                if i >= warmup:
                    presses.append(done - t0)
                    base.append(raw_done - t_raw)
                    commits.append(commit)
                side = 1 - side
            assert service.state.presses[0] + service.state.presses[1] == warmup + n
            assert clock.stats.garbage == clock.stats.duplicates == clock.stats.stale == 0
        finally:
            await device.stop()
            receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receiver
            raw.close()
    return presses, base, commits


def measure_mqtt(
    n: int = 2000, *, warmup: int = 200, workdir: Path | None = None
) -> dict[str, Any]:
    """Run both measurements on a private broker; the result as the JSON line's dict."""
    with (
        tempfile.TemporaryDirectory(prefix="rackclock-mqtt-bench-", dir=workdir) as tmp,
        mosquitto(Path(tmp), TABLE) as broker,
    ):
        pair = asyncio.run(_measure(broker, Path(tmp) / "table.db", n, warmup))
    floor = sorted(rt + c for rt, c in zip(pair[1], pair[2], strict=True))
    presses, base = sorted(pair[0]), sorted(pair[1])
    p50, p99 = percentile_ms(presses, 0.5), percentile_ms(presses, 0.99)
    b50, b99 = percentile_ms(base, 0.5), percentile_ms(base, 0.99)
    return {
        **floor_figures(floor, sorted(pair[2]), p50, p99),
        "transport": "mqtt",
        "n": n,
        "p50_ms": round(p50, 3),
        "p99_ms": round(p99, 3),
        "baseline_p50_ms": round(b50, 3),
        "baseline_p99_ms": round(b99, 3),
        "ratio_p50": round(p50 / b50, 2),
        "ratio_p99": round(p99 / b99, 2),
        "max_ms": round(presses[-1] / 1e6, 3),
        "floor_p99_ms": FLOOR_P99_MS,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print its figures, then the JSON line; 1 if a floor is missed."""
    parser = argparse.ArgumentParser(prog="python -m bench.latency_mqtt")
    parser.add_argument("--presses", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200, help="unmeasured presses first")
    parser.add_argument("--as-device", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.as_device:
        asyncio.run(_device_main(args.as_device))
        return 0
    if args.presses < 1 or args.warmup < 0:
        parser.error("--presses must be at least 1 and --warmup at least 0")
    return print_result(measure_mqtt(args.presses, warmup=args.warmup))


if __name__ == "__main__":
    raise SystemExit(main())
