"""``make bench``: every benchmark in turn, then one line each against its floor.

``python -m bench.suite [NAME ...]`` runs ``bench.gcg``, ``bench.lexicon``,
``bench.replay``, ``bench.press``, ``bench.pairing`` and ``bench.event`` (or the
ones named), each in its own process with its own output shown as it comes, and
ends with the ``bench.NAME: ...`` line each printed: its figure, its floor and the
ratio against the floor, "met" or "NOT MET". A floor not met does not fail the
run (the machine may be shared and busy); a benchmark that crashes does.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

__all__ = ["BENCHMARKS", "main"]

BENCHMARKS = ("gcg", "lexicon", "replay", "press", "pairing", "event")
"""What ``make bench`` runs, in order."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; 0 unless one of them crashed."""
    names = list(argv if argv is not None else sys.argv[1:]) or list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"bench.suite: no benchmark {unknown[0]!r}; known: {', '.join(BENCHMARKS)}")
        return 2
    summary: list[str] = []
    crashed: list[str] = []
    for name in names:
        print(f"== bench.{name}", flush=True)
        proc = subprocess.Popen(
            [sys.executable, "-m", f"bench.{name}"], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        found = False
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith(f"bench.{name}: "):
                summary.append(line.rstrip("\n"))
                found = True
        if proc.wait() != 0:
            crashed.append(name)
            summary.append(f"bench.{name}: failed (exit {proc.returncode})")
        elif not found:
            summary.append(f"bench.{name}: printed no summary line")
    print("== summary (figure, floor, ratio to the floor)")
    for line in summary:
        print(line)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
