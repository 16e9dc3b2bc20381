"""The latency benchmarks' report: the lines a person reads, the JSON line, the floors.

One report for every transport (``bench.latency``'s serial measurement and
``bench.latency_mqtt``'s), so their figures read the same and meet the same floor.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["FLOOR_RATIO_P50", "floors_met", "print_result", "report"]

FLOOR_RATIO_P50 = 2.0
"""Press latency over the floor of the same work (raw round trip + raw commit), p50."""


def floors_met(result: dict[str, Any]) -> bool:
    """The ratio floor, and a transport's own p99 floor if it names one (``floor_p99_ms``:
    mqtt's is ``bench.latency_mqtt.FLOOR_P99_MS``)."""
    ok: bool = result["ratio_floor_p50"] <= FLOOR_RATIO_P50
    if "floor_p99_ms" in result:
        ok = ok and result["p99_ms"] < result["floor_p99_ms"]
    return ok


def report(result: dict[str, Any]) -> list[str]:
    """The human-readable lines for ``result``."""
    ok = floors_met(result)
    lines = [
        f"presses:           {result['n']:,} sequential, transport {result['transport']}",
        f"press -> commit:   p50 {result['p50_ms']:.3f} ms  p99 {result['p99_ms']:.3f} ms",
        f"raw round trip:    p50 {result['baseline_p50_ms']:.3f} ms"
        f"  p99 {result['baseline_p99_ms']:.3f} ms",
        f"ratio to the trip: p50 {result['ratio_p50']:.2f}x  p99 {result['ratio_p99']:.2f}x",
        f"raw commit:        p50 {result['commit_p50_ms']:.3f} ms"
        f"  p99 {result['commit_p99_ms']:.3f} ms",
        f"floor (trip+commit): p50 {result['floor_p50_ms']:.3f} ms"
        f"  p99 {result['floor_p99_ms_physical']:.3f} ms",
        f"ratio to the floor: p50 {result['ratio_floor_p50']:.2f}x"
        f"  p99 {result['ratio_floor_p99']:.2f}x",
        f"floor:             ratio_floor_p50 <= {FLOOR_RATIO_P50:g} (goal 1.3)"
        + (f" and p99 < {result['floor_p99_ms']:g} ms" if "floor_p99_ms" in result else "")
        + f": {'met' if ok else 'NOT met'}",
    ]
    if "max_ms" in result:
        lines[1] += f"  max {result['max_ms']:.3f} ms"
    if "ack_p50_ms" in result:
        lines.insert(
            2,
            f"press -> ACK:      p50 {result['ack_p50_ms']:.3f} ms  p99 {result['ack_p99_ms']:.3f}"
            " ms (at the device: the host acknowledges a press once it is on disk)",
        )
    if "to_host_p50_ms" in result:
        share = result["to_host_p50_ms"] / result["p50_ms"]
        lines.insert(
            2,
            f"  to the host:     p50 {result['to_host_p50_ms']:.3f} ms ({share:.0%})"
            f"  p99 {result['to_host_p99_ms']:.3f} ms (press -> event queued by SerialClock;"
            " the rest is the service: queues, rules, log append + fsync)",
        )
    return lines


def print_result(result: dict[str, Any]) -> int:
    """Print the report and the JSON line; 0 when the floors are met, else 1."""
    for line in report(result):
        print(line)
    keys = ("transport", "n", "p50_ms", "p99_ms", "baseline_p50_ms", "baseline_p99_ms")
    extra = ("ratio_p50", "ratio_p99", "floor_p50_ms", "ratio_floor_p50")
    print(json.dumps({k: result[k] for k in (*keys, *extra)}))
    return 0 if floors_met(result) else 1
