"""The service's proof of life, beside the log: ``<log>.alive``.

Every ``interval`` the running service records its table time and the wall
clock in a small sidecar file (written whole and renamed into place, so it is
never half-written). After a crash, the restarted service knows when it was
last alive: the time from then to now is the gap nobody may be charged for.
The wall clock only bridges a reboot, when the monotonic origin moves.

A director's ruling made offline (:mod:`clock.log.ruling`, on a log no service
holds) writes the sidecar too, marked ``writer: director``: it ties the ruling's
table time to the wall clock, so the next ruling is stamped when it is made
(:func:`ruling_time`). Such a sidecar never says a service is running.
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
    "ruling_time",
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
    writer: str = "service"
    """``service`` (the running table's heartbeat) or ``director`` (an offline ruling)."""


def boot_id() -> str:
    """This boot's id (Linux); empty where the system does not say."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        return ""


def alive_path(log_path: str | os.PathLike[str]) -> Path:
    """The sidecar file of a log."""
    return Path(f"{os.fspath(log_path)}.alive")


def write_alive(
    log_path: str | os.PathLike[str],
    t: int,
    *,
    boot: str | None = None,
    wall_ms: int | None = None,
    writer: str = "service",
) -> None:
    """Record that table time ``t`` is now: the service is alive (``writer``
    ``service``), or a director ruled offline at ``t`` at the wall time ``wall_ms``
    (``director``: no monotonic reading, the console's clock is the wall's)."""
    path = alive_path(log_path)
    tmp = path.with_name(path.name + ".tmp")
    service = writer == "service"
    doc = {
        "t": t,
        "wall_ms": time.time_ns() // 1_000_000 if wall_ms is None else wall_ms,
        "mono_ms": time.monotonic_ns() // 1_000_000 if service else None,
        "boot": (boot_id() if boot is None else boot) if service else "",
        "writer": writer,
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
            str(doc.get("writer", "service")),
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
    if alive.writer == "service" and 0 <= since <= LIVE_WINDOW_MS:
        return max(state.t, alive.t + since), True
    return max(state.t, alive.t), False


def ruling_time(alive: Alive | None, state: GameState, wall_ms: int) -> int:
    """The table time of a ruling made at the wall time ``wall_ms`` on a log no service
    holds: the last sign of life (the service's heartbeat, or the last offline
    ruling's) moved on by the wall clock since, so rulings made 20 s apart are 20 s
    apart in the log.

    Except while a player's clock runs in the log: the service that ran it is gone, so
    nobody's clock has run since its last sign of life (the restarted service charges
    that gap to nobody: ServiceRestarted), and the ruling is stamped there, charging
    the player nothing. Without any sign of life, the log's last event is the latest
    instant known.
    """
    if alive is None:
        return state.t
    clock = state.clock
    if clock.running is not None and not clock.neutral:
        return max(state.t, alive.t)
    return max(state.t, alive.t + max(0, wall_ms - alive.wall_ms))
