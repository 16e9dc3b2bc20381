"""Benchmark: a venue of N tables on one local mosquitto.

``python -m bench.venue --tables N [--rate R] [--seconds S] [--idle-seconds I]``

Starts a private mosquitto; N table services in this process (each its own
SQLite log, fsync and all, and its own :class:`TablePublisher`: one broker
connection per table), the venue hub (the real :class:`Archive`) in a second
process and a director-side subscriber (every table's ``events`` and ``live``)
in a third. First ``I`` idle seconds, then ``S`` seconds of presses at ``R``
presses a second in all (default N/20: a press per table every 20 s), spread
over the tables. Prints JSON: presses/s, press -> subscriber p50/p99 (from the
press's stamp on the table's monotonic timeline to its event's arrival),
hub lag p50/p99 (from a live document's publication to the hub handling it),
bytes per press and idle bytes/s (payloads and topics seen by the subscriber),
events lost (gaps in each table's ``seq``, and presses never seen), CPU and RSS
per process, and in the same run the raw broker round trip at the same message
size and rate (a bare QoS 1 publish to a subscriber).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiomqtt

from bench.mosquitto import mosquitto
from bench.stats import percentile_ms
from clock.table.service import TableService
from clock.timeline import MonotonicTimeline
from engine.events import ClockPressed, GameStarted
from firmware_bridge.mqtt.connection import BrokerSettings
from firmware_bridge.mqtt.topics import PREFIX, TableTopics
from firmware_bridge.venue.publisher import TablePublisher

__all__ = ["main"]

VENUE = "bench"


def _proc_stats(pid: int) -> dict[str, float]:
    """CPU seconds and RSS (MB) of a process, from /proc."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        cpu = (int(fields[11]) + int(fields[12])) / ticks
        rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 1e6
        return {"cpu_s": round(cpu, 2), "rss_mb": round(rss, 1)}
    return {"cpu_s": 0.0, "rss_mb": 0.0}


def _self_stats() -> dict[str, float]:
    return _proc_stats(os.getpid())


def _dump(path: Path, doc: object) -> None:
    path.write_text(json.dumps(doc))


def _ready(out: Path) -> None:
    Path(f"{out}.ready").write_text("ready")


def _wait_ready(*outs: Path) -> None:
    for out in outs:
        while not Path(f"{out}.ready").exists():
            time.sleep(0.05)


# --- the subscriber process --------------------------------------------------------------------


async def _subscriber(port: int, out: Path) -> None:
    """Every table's events and live documents: (wall s, bytes, kind, latency ms, table, seq)."""
    rows: list[tuple[float, int, str, float, str, int]] = []
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with aiomqtt.Client("127.0.0.1", port, identifier="bench-subscriber") as c:
        await c.subscribe(f"{PREFIX}/{VENUE}/+/events", qos=1)
        await c.subscribe(f"{PREFIX}/{VENUE}/+/live", qos=1)
        await c.subscribe(f"{PREFIX}/{VENUE}/+/state", qos=1)
        await c.subscribe(f"{PREFIX}/{VENUE}/+/status", qos=1)
        _ready(out)

        async def take() -> None:
            async for msg in c.messages:
                now_ms = time.monotonic_ns() / 1e6
                topic = msg.topic.value
                payload = msg.payload if isinstance(msg.payload, bytes) else b""
                size = len(payload) + len(topic) + 5  # fixed header, length, packet id
                table, kind = topic.split("/")[3], topic.rsplit("/", 1)[1]
                lat, seq = -1.0, -1
                if kind == "events":
                    doc = json.loads(payload)
                    seq = int(doc["seq"])
                    t = doc["event"].get("t")
                    if doc["event"].get("type") == "clock_pressed" and t is not None:
                        lat = now_ms - t
                rows.append((time.time(), size, kind, lat, table, seq))

        task = asyncio.create_task(take())
        await stop.wait()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    _dump(out, {"rows": rows, "self": _self_stats()})


# --- the hub process ---------------------------------------------------------------------------


async def _hub(port: int, out: Path, root: Path) -> None:
    from firmware_bridge.venue.archive import Archive

    lags: list[tuple[float, float]] = []
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    rss0 = _self_stats()["rss_mb"]
    archive = Archive(f"mqtt://127.0.0.1:{port}", root, out=io.StringIO())
    handle = archive.on_change

    def timed(topics: TableTopics) -> None:
        snap = archive.link.tables[topics]
        # a removal (a table's clean stop) keeps the last document: not a new one
        doc = snap.doc if not snap.removed else None
        if doc is not None and isinstance(doc.get("published_at_ms"), int):
            lag = time.time() * 1000 - doc["published_at_ms"]
            lags.append((time.time(), lag))
        handle(topics)

    archive.link.on_change = timed
    task = asyncio.create_task(archive.run())
    await archive.link.session.wait_connected(30)
    _ready(out)
    await stop.wait()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    stats = _self_stats()
    _dump(
        out,
        {
            "lags": lags,
            "self": stats,
            "tables": len(archive.link.tables),
            "rss_start_mb": rss0,
            "writes": archive.writes,
        },
    )


# --- the tables (this process) -----------------------------------------------------------------


async def _raw_round_trip(port: int, size: int, rate: float, seconds: float) -> list[float]:
    """A bare QoS 1 publish -> subscribe round trip at the same size and rate."""
    lat: list[float] = []
    topic = f"{PREFIX}/{VENUE}/raw/bench"
    async with (
        aiomqtt.Client("127.0.0.1", port, identifier="bench-raw-sub") as sub,
        aiomqtt.Client("127.0.0.1", port, identifier="bench-raw-pub") as pub,
    ):
        await sub.subscribe(topic, qos=1)

        async def take() -> None:
            async for msg in sub.messages:
                payload = msg.payload if isinstance(msg.payload, bytes) else b""
                lat.append(time.monotonic_ns() / 1e6 - float(payload[:20]))

        task = asyncio.create_task(take())
        n = max(1, int(rate * seconds))
        for _ in range(n):
            stamp = f"{time.monotonic_ns() / 1e6:20.3f}".encode()
            await pub.publish(topic, stamp + b"x" * max(0, size - 20), qos=1)
            await asyncio.sleep(1 / rate)
        await asyncio.sleep(0.5)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return lat


async def _tables(
    args: argparse.Namespace,
    workdir: Path,
    broker: BrokerSettings,
    shard: int,
    start_at: float,
) -> dict[str, Any]:
    """Run this process's share of the tables: set up, wait for ``start_at`` (wall
    clock, the same for every process), stay idle, then press; windows and counts."""
    port = broker.port
    procs = args.procs
    first = args.tables * shard // procs
    last = args.tables * (shard + 1) // procs
    rate = args.rate / procs
    tl = MonotonicTimeline()
    services: list[TableService] = []
    pubs: list[TablePublisher] = []
    async with contextlib.AsyncExitStack() as stack:
        for i in range(first, last):
            table = TableTopics(VENUE, f"t{i + 1}")
            svc = TableService(workdir / f"t{i + 1}.sqlite", timeline=tl, heartbeat_ms=0)
            await stack.enter_async_context(svc)
            ack = await svc.submit(
                GameStarted(variant="nzasp", players=("A", "B"), mode="scoresheet")
            )
            assert ack.accepted
            pub = TablePublisher(svc, broker, table)
            await stack.enter_async_context(pub)
            services.append(svc)
            pubs.append(pub)
        for pub in pubs:
            await pub.session.wait_connected(30)
        late = time.time() > start_at
        await asyncio.sleep(max(0.0, start_at - time.time()))
        idle0 = time.time()
        await asyncio.sleep(args.idle_seconds)
        idle1 = active0 = time.time()
        presses = 0
        t0 = time.monotonic()
        interval = 1 / rate
        cpu0 = _self_stats()["cpu_s"]
        broker_cpu0 = _proc_stats(args.broker_pid)["cpu_s"]
        while time.monotonic() - t0 < args.seconds:
            svc = services[presses % len(services)]
            seat = svc.state.clock.running
            svc.send(ClockPressed(player=seat if seat is not None else 0), "bench")
            presses += 1
            await asyncio.sleep(max(0.0, t0 + presses * interval - time.monotonic()))
        await asyncio.sleep(2)  # the last events arrive
        active1 = time.time()
        cpu1 = _self_stats()["cpu_s"]
        broker_cpu1 = _proc_stats(args.broker_pid)["cpu_s"]
        tables_rss = _self_stats()["rss_mb"]
        broker_rss = _proc_stats(args.broker_pid)["rss_mb"]
        raw = await _raw_round_trip(port, 400, min(args.rate * 3, 500), 5.0) if shard == 0 else []
    return {
        "late": late,
        "idle": (idle0, idle1),
        "active": (active0, active1),
        "presses": presses,
        "cpu": {
            "tables": round((cpu1 - cpu0) / (active1 - active0), 3),
            "broker": round((broker_cpu1 - broker_cpu0) / (active1 - active0), 3),
        },
        "tables_rss_mb": tables_rss,
        "broker_rss_mb": broker_rss,
        "raw": raw,
    }


def _merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The parent's run (shard 0) with every shard's presses, CPU and memory added."""
    run = dict(runs[0])
    run["presses"] = sum(r["presses"] for r in runs)
    run["cpu"] = dict(run["cpu"], tables=round(sum(r["cpu"]["tables"] for r in runs), 3))
    run["tables_rss_mb"] = round(sum(r["tables_rss_mb"] for r in runs), 1)
    run["late"] = any(r["late"] for r in runs)
    return run


def _report(
    args: argparse.Namespace, run: dict[str, Any], sub_doc: dict[str, Any], hub_doc: dict[str, Any]
) -> dict[str, Any]:
    rows = sub_doc["rows"]
    idle0, idle1 = run["idle"]
    active0, active1 = run["active"]
    presses = run["presses"]
    idle = [r for r in rows if idle0 <= r[0] < idle1]
    active = [r for r in rows if active0 <= r[0] < active1]
    idle_rate = sum(r[1] for r in idle) / max(1e-9, idle1 - idle0)
    # a press's traffic: its event, and the live document (and any snapshot) of its
    # table that followed it within a second
    by_table: dict[str, list[list[Any]]] = {}
    for r in active:
        by_table.setdefault(r[4], []).append(r)
    press_bytes: list[int] = []
    for msgs in by_table.values():
        for i, r in enumerate(msgs):
            if r[2] != "events" or r[3] < 0:
                continue
            total, took_live = r[1], False
            for later in msgs[i + 1 :]:
                if later[0] - r[0] > 1.0 or later[2] == "events":
                    break
                if later[2] == "live" and not took_live:
                    total, took_live = total + later[1], True
                elif later[2] == "state":
                    total += later[1]
            press_bytes.append(total)
    lat = sorted(int(r[3] * 1e6) for r in rows if r[3] >= 0)
    seen: dict[str, list[int]] = {}
    for r in rows:
        if r[2] == "events":
            seen.setdefault(r[4], []).append(r[5])
    # seqs never seen between the first and the last of a table, and presses never seen
    gaps = sum((max(s) - min(s) + 1) - len(set(s)) for s in seen.values())
    pressed_seen = sum(1 for r in rows if r[3] >= 0)
    raw = sorted(int(x * 1e6) for x in run["raw"])
    hub_lags = sorted(int(lag * 1e6) for wall, lag in hub_doc["lags"] if active0 <= wall < active1)
    return {
        "tables": args.tables,
        "presses": presses,
        "presses_per_s": round(presses / args.seconds, 1),
        "press_to_subscriber_p50_ms": percentile_ms(lat, 0.5) if lat else None,
        "press_to_subscriber_p99_ms": percentile_ms(lat, 0.99) if lat else None,
        "hub_lag_p50_ms": percentile_ms(hub_lags, 0.5) if hub_lags else None,
        "hub_lag_p99_ms": percentile_ms(hub_lags, 0.99) if hub_lags else None,
        "bytes_per_press": round(sum(press_bytes) / max(1, len(press_bytes))),
        "bytes_per_press_max": max(press_bytes, default=0),
        "idle_bytes_per_s": round(idle_rate),
        "events_lost": gaps + max(0, presses - pressed_seen),
        "raw_round_trip_p50_ms": percentile_ms(raw, 0.5) if raw else None,
        "raw_round_trip_p99_ms": percentile_ms(raw, 0.99) if raw else None,
        "cpu_share_active": run["cpu"],
        "processes": {
            "tables": {"rss_mb": run["tables_rss_mb"]},
            "broker": {"rss_mb": run["broker_rss_mb"]},
            "hub": hub_doc["self"],
            "subscriber": sub_doc["self"],
        },
        "hub_kb_per_table": round(
            (hub_doc["self"]["rss_mb"] - hub_doc["rss_start_mb"]) * 1000 / max(1, args.tables), 1
        ),
        "hub_writes": hub_doc["writes"],
    }


def _broker_pid(port: int) -> int:
    """The mosquitto listening on ``port`` (a child of this process)."""
    out = subprocess.run(
        ["pgrep", "-f", "mosquitto"], capture_output=True, text=True, check=False
    ).stdout.split()
    for pid in out:
        with contextlib.suppress(OSError):
            conf = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if any(b"mosquitto.conf" in part for part in conf) and int(pid) != os.getpid():
                text = Path(conf[-2].decode() if conf[-1] == b"" else conf[-1].decode())
                if text.is_file() and f"listener {port} " in text.read_text():
                    return int(pid)
    return os.getpid()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.venue", description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, help="presses per second in all (default N/20)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--idle-seconds", type=float, default=65.0)
    parser.add_argument(
        "--procs", type=int, default=1, help="table processes (the load generator's cores)"
    )
    parser.add_argument(
        "--setup-seconds", type=float, help="time allowed to set the tables up (default 10 + N/20)"
    )
    parser.add_argument("--role", choices=("subscriber", "hub", "tables"), help=argparse.SUPPRESS)
    parser.add_argument("--shard", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--broker-pid", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.role == "subscriber":
        asyncio.run(_subscriber(args.port, args.out))
        return 0
    if args.role == "hub":
        with tempfile.TemporaryDirectory() as root:
            asyncio.run(_hub(args.port, args.out, Path(root)))
        return 0
    args.rate = args.rate or args.tables / 20
    if args.role == "tables":
        broker = BrokerSettings("127.0.0.1", args.port)
        run = asyncio.run(_tables(args, args.workdir, broker, args.shard, args.start_at))
        _dump(args.out, run)
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * args.tables + 256)), hard))
    with tempfile.TemporaryDirectory() as tmp, mosquitto(Path(tmp)) as broker:
        work = Path(tmp)
        args.broker_pid = _broker_pid(broker.port)
        args.workdir = work
        me = [sys.executable, "-m", "bench.venue", "--port", str(broker.port)]
        sub_out, hub_out = work / "subscriber.json", work / "hub.json"
        children = [
            subprocess.Popen([*me, "--role", "subscriber", "--out", str(sub_out)]),
            subprocess.Popen([*me, "--role", "hub", "--out", str(hub_out)]),
        ]
        _wait_ready(sub_out, hub_out)
        start_at = time.time() + (args.setup_seconds or 10 + args.tables / 20)
        shards = []
        for shard in range(1, args.procs):
            out = work / f"tables-{shard}.json"
            extra = ["--tables", str(args.tables), "--rate", str(args.rate)]
            extra += ["--seconds", str(args.seconds), "--idle-seconds", str(args.idle_seconds)]
            extra += [
                "--procs",
                str(args.procs),
                "--shard",
                str(shard),
                "--start-at",
                str(start_at),
            ]
            extra += ["--workdir", str(work), "--broker-pid", str(args.broker_pid)]
            shards.append(
                (out, subprocess.Popen([*me, "--role", "tables", "--out", str(out), *extra]))
            )
        run = asyncio.run(_tables(args, work, broker, 0, start_at))
        for _, proc in shards:
            proc.wait(600)
        runs = [run, *(json.loads(out.read_text()) for out, _ in shards)]
        run = _merge(runs)
        if run["late"]:
            sys.stderr.write("bench.venue: the tables were not set up in time: --setup-seconds\n")
            return 1
        for child in children:
            child.send_signal(signal.SIGTERM)
        for child in children:
            child.wait(120)
        result = _report(
            args, run, json.loads(sub_out.read_text()), json.loads(hub_out.read_text())
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
