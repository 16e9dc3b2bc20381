"""The physical floor of a durable press: one raw durable commit.

A press is on disk when its event is committed to the table's SQLite log (WAL,
``synchronous=FULL``: the commit waits for the fsync). :class:`RawCommit` does the
least that can be called the same work: one small row inserted and committed in a
file with the same settings, nothing else (no hash, no rules, no queue). The
latency benchmarks add it to the raw transport round trip of the same round to get
the floor of a durable press (docs/benchmarks.md).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from bench.stats import percentile_ms

__all__ = ["RawCommit", "floor_figures"]


class RawCommit:
    """A bare SQLite file with the game log's durability settings."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS raw (n INTEGER PRIMARY KEY, body BLOB)")
        self._n = 0

    def commit_ns(self) -> int:
        """Insert one event-sized row and commit it; the time it took (ns)."""
        self._n += 1
        t0 = time.monotonic_ns()
        self._db.execute("BEGIN")
        self._db.execute("INSERT INTO raw (n, body) VALUES (?, ?)", (self._n, b"x" * 96))
        self._db.execute("COMMIT")
        return time.monotonic_ns() - t0

    def close(self) -> None:
        """Close the file."""
        self._db.close()


def floor_figures(floor: list[int], commits: list[int], p50: float, p99: float) -> dict[str, Any]:
    """The floor of a durable press (sorted sums of raw trip + raw commit, ns) and the
    press's ratios to it."""
    f50, f99 = percentile_ms(floor, 0.5), percentile_ms(floor, 0.99)
    return {
        "commit_p50_ms": round(percentile_ms(commits, 0.5), 3),
        "commit_p99_ms": round(percentile_ms(commits, 0.99), 3),
        "floor_p50_ms": round(f50, 3),
        "floor_p99_ms_physical": round(f99, 3),
        "ratio_floor_p50": round(p50 / f50, 2),
        "ratio_floor_p99": round(p99 / f99, 2),
    }
