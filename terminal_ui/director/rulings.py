"""The director's rulings offline: checked with the engine, then appended to the log.

Also the kinds of ruling the console offers and the time fields' syntax.
Pure: no Textual.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Literal

from msgspec.structs import replace

from clock.log.eventlog import EventLog
from engine.errors import Refusal
from engine.events import Event, encode_event
from engine.rules.machine import apply
from engine.rules.replay import replay
from terminal_ui.cli.replay import load_log
from terminal_ui.director.tables import is_sqlite, table_now

__all__ = ["RulingKind", "offline_ruling", "parse_time_ms"]

RulingKind = Literal["adjust", "resume", "forfeit", "neutralize"]


def offline_ruling(path: Path, event: Event, wall_ms: int | None = None) -> tuple[bool, str]:
    """Check ``event`` on the log's current state with the engine, then append it.

    It is stamped at the table's time now (:func:`table_now`). Returns whether
    it was appended, and the answer in words (the reason and rule if refused).
    A running table service must not be writing the same file: it would not
    know of the new event.

    Raises:
        OSError, EngineError: The file cannot be read or written.
    """
    wall = wall_ms if wall_ms is not None else time.time_ns() // 1_000_000
    events, _ = load_log(path)
    state, _ = replay(events)
    now, _ = table_now(path, state, wall)
    stamped = replace(event, t=max(now, state.t))
    try:
        apply(state, stamped)
    except Refusal as exc:
        return False, f"refused: {exc.reason} ({exc.rule})"
    if is_sqlite(path):
        with EventLog.open(path, create=False) as log:
            seq = log.append(stamped)
    else:
        data = path.read_bytes()
        with path.open("ab") as f:
            if data and not data.endswith(b"\n"):
                f.write(b"\n")
            f.write(encode_event(stamped) + b"\n")
        seq = len(data.splitlines()) + 1  # its line number
    return True, f"accepted: {type(event).__name__} (#{seq}), appended to {path}"


def parse_time_ms(text: str) -> int:
    """Signed seconds or minutes:seconds as milliseconds.

    >>> parse_time_ms("+1:30"), parse_time_ms("-45"), parse_time_ms("")
    (90000, -45000, 0)

    Raises:
        ValueError: Not a time.
    """
    s = text.strip()
    if not s:
        return 0
    m = re.fullmatch(r"([+-]?)(?:(\d+):)?(\d+(?:\.\d+)?)", s)
    if m is None:
        raise ValueError(f"not a time: {text!r} (seconds, or m:ss, with a sign)")
    ms = round((int(m.group(2) or 0) * 60 + float(m.group(3))) * 1000)
    return -ms if m.group(1) == "-" else ms
