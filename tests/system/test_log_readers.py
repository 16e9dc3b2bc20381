"""Reading a running table's log loses nothing (issue 19; docs/events.md, "Who opens a log").

A real ``rackclock serve`` on a real mosquitto (its publisher answers ``get_log``),
playing presses from its standard input. Between presses, every reader the project
has reads its log: ``get_log`` over the broker from the director's link and from the
venue hub's archive (``rackclock venue``'s :class:`Archive`, running, on its own
``hub`` connection), ``rackclock event results``, ``replay``, ``log verify``,
``log export``, ``export gcg`` and ``export naspa``, and a third party's plain
``sqlite3`` connection in another process, read-write and read-only, opened and
closed. The game then ends (a resignation) and the hub archives the finished game's
log by itself while both players sign. Then the table is killed with SIGKILL: every
event it acknowledged (printed after its commit) is in the log, the hub's copy is a
prefix of it, and ``rackclock log verify`` agrees.

:func:`cli_readers` is every reader that runs as its own program: the table
terminal's test (test_table_log_readers.py) reads its log with the same ones.

Before the fix, the table's own ``get_log`` answer opened and closed the file in the
table's process, dropping its locks; the next reader to close the file deleted the
table's WAL, and every event acknowledged after that was lost in the kill.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from engine.events import Resigned, Signed, decode_event
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.archive import Archive
from firmware_bridge.venue.director_link import DirectorLink
from tests.helpers import REPO, Broker, background, wait_for
from tests.support.log_rows import log_rows
from tests.system.test_kill9 import RACKCLOCK, Table

EVENT_FILE = """
name = "Club night"

[[division]]
name = "A"
variant = "nzasp"
rounds = 1
plan = [{ rounds = "1", system = "round-robin" }]
players = [{ name = "Ann", rating = 1800 }, { name = "Ben", rating = 1750 }]
"""


SIGNATURES = ({"type": "signed", "player": 0}, {"type": "signed", "player": 1})
"""Both players sign the result."""


def rackclock(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(RACKCLOCK), *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def third_party(path: Path, mode: str) -> int:
    """A plain sqlite3 connection in another process, in URI ``mode``: opened, read, closed."""
    code = (
        "import sqlite3\n"
        f"c = sqlite3.connect({path.resolve().as_uri() + '?mode=' + mode!r}, uri=True)\n"
        "print(c.execute('SELECT count(*) FROM events').fetchone()[0])\n"
        "c.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
    )
    return int(done.stdout)


def cli_readers(log: Path, events: Path, count: Callable[[], int]) -> list[Callable[[], None]]:
    """Every reader of a table's log that is a program of its own, each a call that
    runs it once: ``event results`` (against the event log ``events``), ``replay``,
    ``log verify``, ``log export``, ``export gcg`` and ``export naspa``, and a plain
    sqlite3 connection read-write and read-only, which must count ``count()`` events."""

    def ran(*args: str | Path, ok: bool = True) -> Callable[[], None]:
        def run() -> None:
            done = rackclock(*args)
            if ok:
                assert done.returncode == 0, (args, done.stderr)
            else:  # a game in progress may give nothing to write: said, not an internal error
                assert done.returncode in (0, 1), (args, done.stderr)
                assert "internal error" not in done.stderr, done.stderr

        return run

    def plain(mode: str) -> Callable[[], None]:
        def run() -> None:
            assert third_party(log, mode) == count(), mode

        return run

    return [
        ran("event", "results", events, log, ok=False),
        ran("replay", log),
        ran("log", "verify", log),
        ran("log", "export", log),
        ran("export", "gcg", log, ok=False),
        ran("export", "naspa", log, "--round", "1", ok=False),
        plain("rw"),
        plain("ro"),
    ]


def new_event(tmp_path: Path) -> Path:
    """An event log for ``EVENT_FILE`` (Ann v Ben), made with ``rackclock event new``."""
    (tmp_path / "e.toml").write_text(EVENT_FILE, encoding="utf-8")
    events = tmp_path / "e.sqlite"
    made = rackclock("event", "new", tmp_path / "e.toml", "-o", events)
    assert made.returncode == 0, made.stderr
    return events


async def test_readers_during_play_lose_no_acknowledged_event(
    tmp_path: Path, mosquitto: Broker
) -> None:
    log = tmp_path / "t3.sqlite"
    events = new_event(tmp_path)
    table = Table(log, tmp_path / "serve.err", "--clock", mosquitto.url("/club/t3"))
    topics = TableTopics("club", "t3")
    acked: dict[int, tuple[str, int]] = {}
    side = 0

    def ack(doc: dict[str, object]) -> None:
        """The table's next line acknowledges one event (printed after its commit)."""
        line = table.next_line()
        assert "seq" in line, (doc, line)
        acked[line["seq"]] = (line["type"], line["t"])

    def press() -> None:
        """One press of the running side, acknowledged."""
        nonlocal side
        doc = {"type": "clock_pressed", "player": side}
        table.send(json.dumps(doc))
        ack(doc)
        side = 1 - side

    # the venue hub, as `rackclock venue` runs it: it archives a finished game's log
    hub = Archive(mosquitto.url(), tmp_path / "archive", out=io.StringIO(), flush_s=0.05)
    _, archived = hub.paths("club", "t3")
    try:
        first = table.next_line()
        assert first["type"] == "GameStarted", first
        acked[first["seq"]] = (first["type"], first["t"])
        link = DirectorLink(parse_url(mosquitto.url()), desk="director")
        async with link, background(hub.run(), "hub"):

            async def get_log(by: DirectorLink) -> None:
                text = await by.get_log_text(topics)
                assert len(text.splitlines()) == len(acked), by.desk

            def sees_table(by: DirectorLink) -> bool:
                snap = by.tables.get(topics)
                return snap is not None and snap.doc is not None

            for by in (link, hub.link):
                # the table's state on the broker: it listens for commands by then (a
                # command sent before the table subscribes is lost, and times out)
                await wait_for(partial(sees_table, by), f"{by.desk} to see t3")
            await get_log(link)  # the table's own process reads its log first
            for read in cli_readers(log, events, lambda: len(acked)):
                press()
                read()
                press()
                await get_log(link)
                press()
                await get_log(hub.link)  # the hub asks on its own connection
            # the game ends: the hub fetches the finished game's log by itself while
            # both players sign (a resignation needs no scores in scoresheet mode)
            for doc in ({"type": "resigned", "player": 1}, *SIGNATURES):
                table.send(json.dumps(doc))
                ack(doc)
            await wait_for(lambda: hub.logs_archived > 0, "the hub to archive the log")
        table.kill()
    finally:
        table.close()
    rows = {r.seq: (r.type_name, r.t) for r in log_rows(log)}
    assert {seq: rows.get(seq) for seq in acked} == acked
    verified = rackclock("log", "verify", log)
    assert verified.returncode == 0, verified.stdout
    assert f"({len(acked)} events," in verified.stdout
    # the hub's copy: the log as it stood when the game had ended, line for line
    copy = [decode_event(line) for line in archived.read_text(encoding="utf-8").splitlines()]
    assert [(type(ev).__name__, ev.t) for ev in copy] == [acked[s] for s in sorted(acked)][
        : len(copy)
    ]
    assert isinstance(copy[-1], Resigned | Signed), copy[-1]
