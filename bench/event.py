"""Benchmark: what a director waits on in an event's ledger, against its physical floor.

``python -m bench.event [--tables 50,200] [--appends N] [--refreshes N] [--repeat R] [--dir D]``

Three paths, each timed beside the floor of the same work in the same run, on the
same disk (a temporary directory, or ``--dir``), the path and its floor in turn so
that a disk busy for a while slows both:

1. **An append** to the event's ledger (:meth:`clock.tournament.ledger.EventLedger.append`:
   the write lock, catching up on other writers' records, the rules' check, the
   record and the head inserted, a ``synchronous=FULL`` commit in WAL). The records
   are a director's corrections of one round-1 result (with a reason), so every
   append is accepted and the event does not grow beyond its log. Floor: one raw
   INSERT + COMMIT of a record-sized row in a bare WAL file with
   ``synchronous=FULL``. Then again with a second writer (another connection to the
   same log) appending one record before each timed append, so each one first
   catches up on one record; its floor is a raw commit after another connection's,
   reading the row it added first. Target: p50 within **1.5x** the floor, both ways
   (the fsync is the work; the chain, the check and the head are a little Python and
   a few small queries).
2. **Taking results** from a folder of N finished, signed table logs (one round of
   N tables, real games from :mod:`tests.support.gamelog` written with the real
   :class:`clock.log.eventlog.EventLog`): ``rackclock event results LOG FOLDER`` run
   in-process (the command's own code: each file's chain verified and its events
   decoded in one read-only pass, its games replayed under the rules and matched to
   the round's pairing, the result appended), on a fresh copy of the event's ledger
   each time (best of ``--repeat``).
   Floor: every row of every log read read-only and one SHA-256 over their bytes
   (what the chain check cannot skip), with one raw durable commit after each file
   (the append no result can skip; after the read, as the command does it, since a
   read-only open of a WAL log makes and removes SQLite's ``-wal`` and ``-shm``
   beside it and the next fsync commits those to the file system's journal). The
   ratio to the read and hash alone is printed too. Target: within **3x** the floor
   with the commits. The time is also split: reading the logs as the command does,
   replaying and matching the games, and the rest (the appends, the command).
3. **The console's follow** of the event's ledger when nothing changed
   (:meth:`EventLedger.refresh`: SQLite's ``PRAGMA data_version``). Floor: the least
   query that looks at the file at all, one row read on an open read-only
   connection (the shared lock and the WAL index are the work). Target: within
   **2x**. ``SELECT 1``, which touches no file, is printed beside it.

Exit status 1 when a target is missed. The last line is JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from bench.durable import RawCommit
from bench.stats import best_time, floor_line, percentile_ms
from clock.log.eventlog import EventLog
from clock.tournament.gamelogs import read_game_log
from clock.tournament.ledger import EventLedger
from engine.events import GameStarted, Signed
from engine.tournament.assignment import round_assignments
from engine.tournament.intake import results_from_log
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Result
from terminal_ui.cli import main as rackclock
from tests.support.gamelog import game_events

__all__ = ["main"]

VARIANT = "nzasp"
TARGET_APPEND = 1.5
TARGET_RESULTS = 3.0
TARGET_REFRESH = 2.0


def _event_text(players: int) -> str:
    lines = ['name = "Bench open"', "[[division]]", 'name = "A"', "rounds = 1"]
    lines += [f'variant = "{VARIANT}"', 'plan = [{ rounds = "1", system = "koth" }]']
    lines.append("players = [")
    lines += [f'  {{ name = "Player {i}", rating = {2000 - i} }},' for i in range(1, players + 1)]
    lines.append("]")
    return "\n".join(lines)


def _new_event(path: Path, tables: int) -> None:
    """An event of ``2 * tables`` players with round 1 paired."""
    with EventLedger.create(path, _event_text(2 * tables), "bench.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))


def _table_logs(event: Path, folder: Path) -> int:
    """Each round-1 table's finished game, signed by both, in its own log; how many."""
    with EventLedger.open(event, readonly=True) as ledger:
        games = round_assignments(ledger.state, 1)
        eid, name = ledger.state.id, ledger.state.spec.name
    folder.mkdir()
    for i, a in enumerate(games):
        events = list(game_events(i, VARIANT))
        start = events[0]
        assert isinstance(start, GameStarted)
        events[0] = replace(
            start,
            players=a.players,
            round=1,
            division=a.division,
            table=a.table_name,
            event=name,
            event_id=eid,
        )
        end = events[-1].t
        assert end is not None
        events += [Signed(t=end + 1_000, player=0), Signed(t=end + 2_000, player=1)]
        with EventLog.open(folder / f"{a.table_name}.sqlite") as log:
            for ev in events:
                log.append(ev)
    return len(games)


# --- 1. an append ------------------------------------------------------------------------------


def _corrections(ledger: EventLedger, n: int) -> list[Result]:
    """``n`` corrections of round 1's first game, scores varying (each one accepted)."""
    a, b = ledger.state.division("A").pairings[1].pairs[0]
    return [Result("A", 1, a, b, (400 + i % 97, 350), reason="bench") for i in range(n)]


class _RawPair:
    """The floor of an append: a bare WAL file with ``synchronous=FULL`` and two
    connections to it, as the event's ledger has two writers."""

    def __init__(self, path: Path) -> None:
        self._conns = [sqlite3.connect(path, isolation_level=None) for _ in range(2)]
        for conn in self._conns:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
        self._conns[0].execute("CREATE TABLE raw (n INTEGER PRIMARY KEY, body BLOB)")
        self._seq = 0

    def commit(self, who: int) -> int:
        """Connection ``who`` reads the rows it has not seen (the other's last, if
        any), then inserts one record-sized row and commits; the time it took (ns)."""
        conn = self._conns[who]
        t0 = time.perf_counter_ns()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("SELECT n, body FROM raw WHERE n > ?", (self._seq - 1,)).fetchall()
        conn.execute("INSERT INTO raw VALUES (?, ?)", (self._seq + 1, _BODY))
        conn.execute("COMMIT")
        self._seq += 1
        return time.perf_counter_ns() - t0

    def close(self) -> None:
        for conn in self._conns:
            conn.close()


_BODY = b"x" * 120
"""About a correction's encoded record."""


def _appends(root: Path, n: int, *, other: bool) -> tuple[list[int], list[int]]:
    """Latency (ns) of ``n`` appends and of ``n`` raw commits, interleaved (one of
    each per round, so a disk busy for a while slows both); ``other``: another writer
    appends one record before each timed one."""
    log = root / f"append-{other}.sqlite"
    _new_event(log, 4)
    appends: list[int] = []
    floor: list[int] = []
    raw = _RawPair(root / f"append-{other}-raw.sqlite")
    try:
        with EventLedger.open(log) as ledger, EventLedger.open(log) as second:
            records = _corrections(ledger, 2 * n)
            for i in range(n):
                if other:
                    second.append(records[n + i])
                    raw.commit(1)
                t0 = time.perf_counter_ns()
                ledger.append(records[i])
                appends.append(time.perf_counter_ns() - t0)
                floor.append(raw.commit(0))
    finally:
        raw.close()
    return sorted(appends), sorted(floor)


# --- 2. taking results -------------------------------------------------------------------------


def _take_results(event: Path, folder: Path) -> None:
    """``rackclock event results EVENT FOLDER``, in this process, its output dropped."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        status = rackclock(["event", "results", str(event), str(folder)])
    if status != 0:
        raise RuntimeError(f"event results exited {status}: {sink.getvalue()[-400:]}")


def _read_and_hash(path: Path) -> int:
    """Every row of one log, read read-only, hashed with SHA-256; how many rows."""
    digest = hashlib.sha256()
    rows = 0
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for row in conn.execute("SELECT * FROM events"):
            rows += 1
            for cell in row:
                digest.update(cell if isinstance(cell, bytes) else str(cell).encode())
    finally:
        conn.close()
    assert rows
    return rows


def _floor(files: list[Path], raw: RawCommit | None) -> int:
    """Every log read and hashed; with ``raw``, one raw durable commit after each (in
    the command's order: a read's own file changes, SQLite's ``-wal`` and ``-shm``
    made and removed beside the log, are in the next commit's journal)."""
    rows = 0
    for path in files:
        rows += _read_and_hash(path)
        if raw is not None:
            raw.commit_ns()
    return rows


def _results(root: Path, tables: int, repeat: int) -> dict[str, Any]:
    where = root / f"results-{tables}"
    where.mkdir()
    master = where / "event.sqlite"
    _new_event(master, tables)
    folder = where / "tables"
    n = _table_logs(master, folder)
    files = sorted(folder.glob("*.sqlite"))
    best = floor = floor_c = float("inf")
    raw = RawCommit(where / "raw.sqlite")
    try:
        for i in range(repeat):  # the command and its floors in turn: a busy disk slows all
            copy = where / f"event-{i}.sqlite"
            shutil.copyfile(master, copy)  # a fresh event each time: every result is new
            t0 = time.perf_counter()
            _take_results(copy, folder)
            best = min(best, time.perf_counter() - t0)
            with EventLedger.open(copy, readonly=True) as ledger:
                got = len(ledger.state.division("A").results.get(1, {}))
            if got != n:
                raise RuntimeError(f"{got} results taken from {n} tables")
            floor = min(floor, best_time(lambda: _floor(files, None), 1))
            floor_c = min(floor_c, best_time(lambda: _floor(files, raw), 1))
    finally:
        raw.close()
    read_s, intake_s = _parts(master, files, repeat)
    return {
        "tables": n,
        "events": _floor(files, None),
        "results_s": round(best, 4),
        "floor_read_hash_s": round(floor, 4),
        "floor_with_commits_s": round(floor_c, 4),
        "ratio_read_hash": round(best / floor, 1),
        "ratio": round(best / floor_c, 2),
        "ms_per_table": round(best / n * 1000, 3),
        "part_read_s": round(read_s, 4),
        "part_replay_match_s": round(intake_s, 4),
    }


def _parts(event: Path, files: list[Path], repeat: int) -> tuple[float, float]:
    """Where the command's time goes: the seconds to read every log as it does
    (chain verified and events decoded in one pass), and to replay and match every game
    against the event (nothing appended). The rest is the appends and the command."""
    read = best_time(lambda: [read_game_log(f) for f in files], repeat)
    logs = [(str(f), read_game_log(f)) for f in files]
    with EventLedger.open(event, readonly=True) as ledger:
        state = ledger.state

        def intake() -> None:
            for name, events in logs:
                got = results_from_log(state, name, events)
                assert len(got.results) == 1, got

        return read, best_time(intake, repeat)


# --- 3. the console's follow ----------------------------------------------------------------


def _refresh_ns(path: Path, n: int) -> tuple[list[int], list[int], list[int]]:
    """Latency (ns) of ``n`` refreshes with nothing new, of ``n`` ``SELECT 1`` and of
    ``n`` one-row reads of the file (the head), interleaved, each sorted."""
    follow: list[int] = []
    trivial: list[int] = []
    row: list[int] = []
    with EventLedger.open(path, readonly=True) as ledger:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        try:
            for _ in range(n):
                t0 = time.perf_counter_ns()
                changed = ledger.refresh()
                t1 = time.perf_counter_ns()
                conn.execute("SELECT 1").fetchone()
                t2 = time.perf_counter_ns()
                conn.execute("SELECT count FROM head").fetchone()
                t3 = time.perf_counter_ns()
                assert not changed
                follow.append(t1 - t0)
                trivial.append(t2 - t1)
                row.append(t3 - t2)
        finally:
            conn.close()
    return sorted(follow), sorted(trivial), sorted(row)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.event", description=__doc__)
    parser.add_argument("--tables", default="50,200", help="folder sizes, comma-separated")
    parser.add_argument("--appends", type=int, default=2_000)
    parser.add_argument("--refreshes", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where the logs go (a disk)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.tables.split(",")]
    if args.appends < 1 or args.refreshes < 1 or args.repeat < 1 or min(sizes) < 1:
        parser.error("--tables, --appends, --refreshes and --repeat must be at least 1")
    out: dict[str, Any] = {}
    met = True
    shares: list[tuple[str, float]] = []  # (path, target over ratio): above 1 is met
    with tempfile.TemporaryDirectory(prefix="rackclock-bench-", dir=args.dir) as tmp:
        root = Path(tmp)
        print(f"logs under {root.parent}")
        for other in (False, True):
            key = "append_catch_up" if other else "append"
            app, raw = _appends(root, args.appends, other=other)
            a50, a99 = percentile_ms(app, 0.5), percentile_ms(app, 0.99)
            r50, r99 = percentile_ms(raw, 0.5), percentile_ms(raw, 0.99)
            ratio = a50 / r50
            met &= ratio <= TARGET_APPEND
            shares.append(("append" + (" after another" if other else ""), TARGET_APPEND / ratio))
            what = "append after another writer's" if other else "append"
            print(
                f"{what + ':':<31} p50 {a50:.3f} ms  p99 {a99:.3f} ms | floor p50 "
                f"{r50:.3f} ms  p99 {r99:.3f} ms | ratio p50 {ratio:.2f} "
                f"(target {TARGET_APPEND:g}: {'met' if ratio <= TARGET_APPEND else 'NOT met'})"
            )
            out[key] = {
                "p50_ms": round(a50, 3),
                "p99_ms": round(a99, 3),
                "floor_p50_ms": round(r50, 3),
                "floor_p99_ms": round(r99, 3),
                "ratio_p50": round(ratio, 2),
            }
        for tables in sizes:
            res = _results(root, tables, args.repeat)
            met &= res["ratio"] <= TARGET_RESULTS
            shares.append((f"results {tables}", TARGET_RESULTS / res["ratio"]))
            print(
                f"results from {res['tables']} tables ({res['events']} events): "
                f"{res['results_s'] * 1000:.1f} ms ({res['ms_per_table']:.2f} ms a table) | "
                f"floor read+hash {res['floor_read_hash_s'] * 1000:.1f} ms "
                f"({res['ratio_read_hash']:.1f}x), with a commit per result "
                f"{res['floor_with_commits_s'] * 1000:.1f} ms ({res['ratio']:.2f}x, target "
                f"{TARGET_RESULTS:g}: {'met' if res['ratio'] <= TARGET_RESULTS else 'NOT met'})"
            )
            rest = res["results_s"] - res["part_read_s"] - res["part_replay_match_s"]
            print(
                f"  of which: reading the logs (chain verified, events decoded) "
                f"{res['part_read_s'] * 1000:.1f} ms, replaying and matching the games "
                f"{res['part_replay_match_s'] * 1000:.1f} ms; the appends and the rest "
                f"{rest * 1000:.1f} ms"
            )
            out[f"results_{tables}"] = res
        follow, trivial, row = _refresh_ns(root / "append-False.sqlite", args.refreshes)
        f50, s50, r50 = (percentile_ms(x, 0.5) * 1000 for x in (follow, trivial, row))
        ratio = f50 / r50
        met &= ratio <= TARGET_REFRESH
        shares.append(("follow", TARGET_REFRESH / ratio))
        print(
            f"refresh, nothing new:            p50 {f50:.2f} µs | floor: a one-row read "
            f"p50 {r50:.2f} µs, ratio {ratio:.2f} (target {TARGET_REFRESH:g}: "
            f"{'met' if ratio <= TARGET_REFRESH else 'NOT met'}); SELECT 1 p50 {s50:.2f} µs, "
            f"ratio {f50 / s50:.2f}"
        )
        out["refresh"] = {
            "p50_us": round(f50, 2),
            "floor_row_p50_us": round(r50, 2),
            "ratio_p50": round(ratio, 2),
            "select1_p50_us": round(s50, 2),
            "ratio_select1_p50": round(f50 / s50, 2),
        }
    print(f"targets: {'met' if met else 'NOT met'}")
    worst, share = min(shares, key=lambda item: item[1])
    print(
        floor_line(
            "bench.event",
            f"worst path: {worst}",
            "each path's target ratio to its physical floor",
            share,
            "(" + ", ".join(f"{name} {value:.2f}x" for name, value in shares) + ")",
        )
    )
    print(json.dumps(out))
    # A target not met is reported, not failed: on a shared machine a slow run is no bug.
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
