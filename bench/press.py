"""Benchmark: a clock press, from the button to the committed, published state.

``python -m bench.press [--presses N]``

In-process, as ``rackclock serve`` runs a table: a :class:`clock.table.service.TableService`
with a real SQLite game log on disk (a temporary directory; WAL and
``synchronous=FULL``, as :class:`clock.log.eventlog.EventLog` sets them) and an
:class:`clock.device.emulated.EmulatedClock` as the device. An nzasp game in scoresheet
mode, so presses alternate without plays. Each press is timed from just before
``EmulatedClock.press`` to the moment a listener receives the update for that
press, which the service publishes after the commit (fsync included). Presses are
sequential: the next one waits for the previous one's update.

In the same run, on the same disk, the raw cost of one SQLite commit: a plain
connection, WAL and ``synchronous=FULL``, one INSERT and COMMIT per iteration.
Last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.stats import floor_line, percentile_ms
from clock.device.emulated import EmulatedClock
from clock.table.service import TableService, Update
from clock.timeline import MonotonicTimeline
from engine.events import ClockPressed, GameStarted
from engine.rules.variant import load_variant

VARIANT = "nzasp"


async def _presses(path: Path, n: int, warmup: int) -> list[int]:
    """Latency (ns) of ``n`` presses after ``warmup`` unmeasured ones."""
    timeline = MonotonicTimeline()
    device = EmulatedClock(timeline, initial_ms=load_variant(VARIANT).initial_ms)
    loop = asyncio.get_running_loop()
    waiting: list[asyncio.Future[int]] = []

    def on_update(u: Update) -> None:
        if isinstance(u.event, ClockPressed) and waiting:
            done = time.perf_counter_ns()
            fut = waiting.pop()
            if not fut.done():
                fut.set_result(done)
        elif u.refused is not None and waiting:
            waiting.pop().set_exception(RuntimeError(f"press refused: {u.refused.reason}"))

    service = TableService(path, timeline=timeline, device=device)
    service.add_listener(on_update)
    out: list[int] = []
    async with service:
        ack = await service.submit(
            GameStarted(variant=VARIANT, players=("Ann", "Ben"), mode="scoresheet")
        )
        assert ack.accepted, ack
        side = service.state.turn
        for i in range(warmup + n):
            fut: asyncio.Future[int] = loop.create_future()
            waiting.append(fut)
            t0 = time.perf_counter_ns()
            device.press(side)
            done = await fut
            if i >= warmup:
                out.append(done - t0)
            side = 1 - side
        assert service.state.presses[0] + service.state.presses[1] == warmup + n
    return out


def _commits(path: Path, n: int) -> list[int]:
    """Latency (ns) of ``n`` single-row commits, WAL + synchronous=FULL."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, t INTEGER, body BLOB)")
        body = b'{"type":"clock_pressed","t":123456789,"player":0}'
        out: list[int] = []
        for i in range(n):
            t0 = time.perf_counter_ns()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO events (seq, t, body) VALUES (?, ?, ?)", (i + 1, i, body))
            conn.execute("COMMIT")
            out.append(time.perf_counter_ns() - t0)
        return out
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.press")
    parser.add_argument("--presses", type=int, default=10_000)
    parser.add_argument("--warmup", type=int, default=200, help="unmeasured presses first")
    parser.add_argument("--dir", type=Path, default=None, help="where the logs go (a disk)")
    args = parser.parse_args(argv)
    n: int = args.presses
    if n < 1 or args.warmup < 0:
        parser.error("--presses must be at least 1 and --warmup at least 0")
    where = args.dir or Path(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(prefix="rackclock-bench-", dir=args.dir) as tmp:
        presses = sorted(asyncio.run(_presses(Path(tmp) / "table.db", n, args.warmup)))
        commits = sorted(_commits(Path(tmp) / "raw.db", max(n, 2_000)))
    p50, p90, p99 = (percentile_ms(presses, q) for q in (0.5, 0.9, 0.99))
    c50, c99 = percentile_ms(commits, 0.5), percentile_ms(commits, 0.99)
    print(f"presses:            {n:,} sequential ({args.warmup} warm-up), logs under {where}")
    print(
        f"press -> published: p50 {p50:.3f} ms  p90 {p90:.3f} ms  p99 {p99:.3f} ms"
        f"  max {presses[-1] / 1e6:.3f} ms"
    )
    print(
        f"raw SQLite commit:  p50 {c50:.3f} ms  p99 {c99:.3f} ms"
        f"  max {commits[-1] / 1e6:.3f} ms  ({len(commits):,} commits)"
    )
    print(f"ratio:              press p50 = {p50 / c50:.2f}x a raw commit p50")
    print(f"floor:              p99 under 5 ms: {'met' if p99 < 5 else 'NOT met'}")
    print(
        floor_line(
            "bench.press",
            f"p99 {p99:.3f} ms",
            "p99 5 ms",
            5 / p99,
            f"(p50 {p50 / c50:.2f}x a raw commit)",
        )
    )
    result = {
        "n": n,
        "p50_ms": round(p50, 3),
        "p99_ms": round(p99, 3),
        "commit_p50_ms": round(c50, 3),
        "ratio_p50": round(p50 / c50, 2),
        "p90_ms": round(p90, 3),
        "max_ms": round(presses[-1] / 1e6, 3),
        "commit_p99_ms": round(c99, 3),
        "commit_max_ms": round(commits[-1] / 1e6, 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
