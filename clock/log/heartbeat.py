"""The service's proof of life, beside the log: ``<log>.alive``.

Every ``interval`` the running service records its table time and the wall
clock in a small sidecar file (written whole and renamed into place, so it is
never half-written). After a crash, the restarted service knows when it was
last alive: the time from then to now is the gap nobody may be charged for.
The wall clock only bridges a reboot, when the monotonic origin moves.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from engine.rules.state import GameState

__all__ = [
    "LIVE_WINDOW_MS",
    "Alive",
    "alive_path",
    "boot_id",
    "now_from",
    "read_alive",
    "table_now",
    "write_alive",
]

LIVE_WINDOW_MS = 5000
"""A heartbeat younger than this means a service is running on the log."""


@dataclass(frozen=True, slots=True)
class Alive:
    """The last sign of life."""

    t: int
    """Table time when it was written."""
    wall_ms: int
    """Wall clock (Unix ms) when it was written."""
    mono_ms: int | None = None
    """The raw monotonic clock (ms) when it was written."""
    boot: str = ""
    """The kernel's boot id then: a different one means the machine restarted."""


def boot_id() -> str:
    """This boot's id (Linux); empty where the system does not say."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        return ""


def alive_path(log_path: str | os.PathLike[str]) -> Path:
    """The sidecar file of a log."""
    return Path(f"{os.fspath(log_path)}.alive")


def write_alive(log_path: str | os.PathLike[str], t: int, *, boot: str | None = None) -> None:
    """Record that the service is alive at table time ``t``."""
    path = alive_path(log_path)
    tmp = path.with_name(path.name + ".tmp")
    doc = {
        "t": t,
        "wall_ms": time.time_ns() // 1_000_000,
        "mono_ms": time.monotonic_ns() // 1_000_000,
        "boot": boot_id() if boot is None else boot,
    }
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(tmp, path)


def read_alive(log_path: str | os.PathLike[str]) -> Alive | None:
    """The last sign of life, or None if there is none or it is unreadable."""
    try:
        doc = json.loads(alive_path(log_path).read_text(encoding="utf-8"))
        mono = doc.get("mono_ms")
        return Alive(
            int(doc["t"]),
            int(doc["wall_ms"]),
            int(mono) if mono is not None else None,
            str(doc.get("boot", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def table_now(
    log_path: str | os.PathLike[str] | None, state: GameState, wall_ms: int
) -> tuple[int, bool]:
    """The table's time now, and whether a service is running on the log.

    A fresh heartbeat is moved on by the wall clock since it was written; an old
    one still says the service was alive until then; without one, the log's last
    event is the latest instant known.
    """
    alive = read_alive(log_path) if log_path is not None else None
    return now_from(alive, state, wall_ms)


def now_from(alive: Alive | None, state: GameState, wall_ms: int) -> tuple[int, bool]:
    """:func:`table_now` from a sign of life already read."""
    if alive is None:
        return state.t, False
    since = wall_ms - alive.wall_ms
    if 0 <= since <= LIVE_WINDOW_MS:
        return max(state.t, alive.t + since), True
    return max(state.t, alive.t), False
