"""A director's ruling made away from the table, written through the log's one writer.

The ruling is checked with the engine on the log's state at the table's time
now (:func:`clock.log.heartbeat.table_now`) and appended only if the rules allow
it, by :meth:`clock.log.eventlog.EventLog.append`, so it joins the same hash
chain as every event the table made.

A JSON Lines file (the hub's archive) has no chain of its own. Its ruling goes
into the chained SQLite log beside it, ``<file>.chain``, made from the JSON
Lines by :func:`clock.log.eventlog.import_jsonl` the first time; the JSON Lines
file is then rewritten (whole, renamed into place) as the export of that chain
(refused rows included, as kept for forensics),
so every reader of the file sees the ruling and ``rackclock log verify`` can
check the chain. A ``.chain`` whose events no longer match the file (the hub
fetched the table's log again, or someone edited it) is kept aside as ``<file>.chain.stale-N`` and a
new one is made from the file.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from msgspec.structs import replace

from clock.log.eventlog import EventLog, LogError, export_jsonl, import_jsonl
from clock.log.files import is_sqlite, load_log
from clock.log.heartbeat import table_now
from engine.errors import Refusal
from engine.events import Event
from engine.rules.machine import apply
from engine.rules.replay import replay

__all__ = ["append_ruling", "chain_path"]


def chain_path(jsonl: Path) -> Path:
    """The chained SQLite log kept beside a JSON Lines file for the rulings made on it."""
    return jsonl.with_name(jsonl.name + ".chain")


def append_ruling(path: Path, event: Event, wall_ms: int) -> tuple[bool, str]:
    """Check the director's ``event`` on the log's current state with the engine, then
    append it (made by the director, whatever it says).

    It is stamped at the table's time now. Returns whether it was appended, and
    the answer in words (the reason and rule if refused). A running table
    service must not be writing the same file: it would not know of the event.

    Raises:
        OSError, EngineError: The file cannot be read or written.
    """
    events, bad = load_log(path)
    state, _ = replay(events)
    now, _ = table_now(path, state, wall_ms)
    stamped = replace(event, t=max(now, state.t), actor="director")
    try:
        apply(state, stamped)
    except Refusal as exc:
        return False, f"refused: {exc.reason} ({exc.rule})"
    if is_sqlite(path):
        with EventLog.open(path, create=False) as log:
            seq = log.append(stamped)
    else:
        if bad:
            line = bad[0]
            raise LogError(
                f"{str(path)!r} line {line.line}: {line.reason}; a ruling needs every line"
                " readable (mend the file, or rule on the table's SQLite log)"
            )
        seq = _append_beside(path, stamped)
    return True, f"accepted: {type(event).__name__} (#{seq}), appended to {path}"


def _export(chain: Path) -> str:
    out = io.StringIO()
    export_jsonl(chain, out, include_refused=True)
    return out.getvalue()


def _append_beside(path: Path, event: Event) -> int:
    """Append to the chain beside a JSON Lines file, then rewrite the file from it."""
    text = path.read_text(encoding="utf-8")
    chain = chain_path(path)
    if chain.exists() and _export(chain) != text:
        n = 1
        while chain.with_name(f"{chain.name}.stale-{n}").exists():
            n += 1
        chain.rename(chain.with_name(f"{chain.name}.stale-{n}"))
    if not chain.exists():
        import_jsonl(text.splitlines(), chain)
    with EventLog.open(chain, create=False) as log:
        seq = log.append(event)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(_export(chain), encoding="utf-8")
    os.replace(tmp, path)
    return seq
