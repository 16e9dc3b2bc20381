"""A game log's rows as stored, read read-only: what a process acknowledged is checked
against them (the crash tests), and what a command wrote."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.events import decode_event

__all__ = ["Row", "log_rows"]


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the log as stored."""

    seq: int
    t: int
    type_name: str
    """The event's class name, as ``serve`` prints it."""
    refused: bool
    body: dict[str, Any]


def log_rows(path: Path) -> list[Row]:
    """Every row of the game log at ``path``, read through a read-only connection (the
    log may be held by a live service, or be mid-creation after a kill)."""
    if not path.exists():
        return []
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "events" not in tables:
            return []  # killed while the schema was being created: nothing was committed
        cur = conn.execute("SELECT seq, t, body, refused FROM events ORDER BY seq")
        return [
            Row(seq, t, type(decode_event(bytes(body))).__name__, bool(refused), json.loads(body))
            for seq, t, body, refused in cur
        ]
    finally:
        conn.close()
