"""A director's ruling made away from the table, on a log no table service holds.

A log has one writer (:mod:`clock.log.lock`). While a table service runs on the
log it holds the log's lock, and a ruling here is refused, saying who holds it:
the ruling goes to that table over the venue broker instead (the console's broker
mode), where the service itself checks and logs it. Writing beside a running
service is what lost a table's press (issue 20): the service keeps the log's last
seq and hash in memory (``EventLog._tail``), its next append extends a head that
is no longer the file's, the log's ``events_in_chain`` trigger aborts it, and the
press is neither logged nor shown, while the service's state never learns the
ruling.

On a log no service holds, the ruling takes the lock for the moment it writes,
is checked with the engine on the log's state at the time it is made
(:func:`clock.log.heartbeat.ruling_time`) and appended only if the rules allow
it, by :meth:`clock.log.eventlog.EventLog.append`, so it joins the same hash
chain as every event the table made; the sidecar then records its time against
the wall clock, for the next ruling.

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

import contextlib
import io
import os
from pathlib import Path

from msgspec.structs import replace

from clock.log.eventlog import EventLog, LogError, export_jsonl, import_jsonl
from clock.log.heartbeat import read_alive, ruling_time, write_alive
from clock.log.lock import WriterLock
from clock.log.log_files import is_sqlite, load_log
from engine.errors import Refusal
from engine.events import Event
from engine.rules.machine import apply
from engine.rules.replay import replay

__all__ = ["OFFLINE_ADVICE", "append_ruling", "chain_path"]


def chain_path(jsonl: Path) -> Path:
    """The chained SQLite log kept beside a JSON Lines file for the rulings made on it."""
    return jsonl.with_name(jsonl.name + ".chain")


OFFLINE_ADVICE = "rule from the console connected to the venue broker, or stop the table first"
"""What a console refused offline can do instead."""


def append_ruling(
    path: Path, event: Event, wall_ms: int, *, writer: str = "rackclock director"
) -> tuple[bool, str]:
    """Check the director's ``event`` on the log's current state with the engine, then
    append it (made by the director, whatever it says).

    It is stamped at the table time of the wall time ``wall_ms`` (when it is made).
    Returns whether it was appended, and the answer in words (the reason and rule if
    refused).

    Raises:
        LogHeld: A table service holds the log (it is running on it).
        OSError, EngineError: The file cannot be read or written.
    """
    with WriterLock(path, writer, OFFLINE_ADVICE):
        events, bad = load_log(path)
        state, _ = replay(events)
        now = ruling_time(read_alive(path), state, wall_ms)
        stamped = replace(event, t=now, actor="director")
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
        # Only a help to the next ruling's time: the ruling is on disk either way.
        with contextlib.suppress(OSError):
            write_alive(path, now, wall_ms=wall_ms, writer="director")
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
        import_jsonl(text.split("\n"), chain)  # "\n" alone ends a line (replay.parse_jsonl)
    with EventLog.open(chain, create=False) as log:
        seq = log.append(event)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(_export(chain), encoding="utf-8")
    os.replace(tmp, path)
    return seq
