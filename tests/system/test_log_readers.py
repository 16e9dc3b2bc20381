"""Reading a running table's log loses nothing (issue 19; docs/events.md, "Who opens a log").

A real ``rackclock serve`` on a real mosquitto (its publisher answers ``get_log``),
playing presses from its standard input. Between presses, every reader the project
has reads its log: ``get_log`` over the broker (the director's link; the hub's
archive asks the same way), ``rackclock event results``, ``replay``, ``log verify``,
``log export``, ``export gcg`` and ``export naspa``, and a third party's plain
``sqlite3`` connection in another process, read-write and read-only, opened and
closed. Then the table is killed with SIGKILL: every press it acknowledged (printed
after its commit) is in the log, and ``rackclock log verify`` agrees.

Before the fix, the table's own ``get_log`` answer opened and closed the file in the
table's process, dropping its locks; the next reader to close the file deleted the
table's WAL, and every event acknowledged after that was lost in the kill.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.venue.director_link import DirectorLink
from firmware_bridge.venue.mqtt_session import parse_url
from firmware_bridge.venue.topics import TableTopics
from tests.helpers import REPO, Broker
from tests.system.test_kill9 import RACKCLOCK, Table, _rows

EVENT_FILE = """
name = "Club night"

[[division]]
name = "A"
variant = "nzasp"
rounds = 1
plan = [{ rounds = "1", system = "round-robin" }]
players = [{ name = "Ann", rating = 1800 }, { name = "Ben", rating = 1750 }]
"""


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


async def test_readers_during_play_lose_no_acknowledged_event(
    tmp_path: Path, mosquitto: Broker
) -> None:
    log = tmp_path / "t3.sqlite"
    events = tmp_path / "e.sqlite"
    (tmp_path / "e.toml").write_text(EVENT_FILE, encoding="utf-8")
    assert rackclock("event", "new", tmp_path / "e.toml", "-o", events).returncode == 0
    table = Table(log, tmp_path / "serve.err", "--clock", mosquitto.url("/club/t3"))
    acked: dict[int, tuple[str, int]] = {}
    side = 0

    def press() -> None:
        """One press of the running side, acknowledged (printed after its commit)."""
        nonlocal side
        table.send(json.dumps({"type": "clock_pressed", "player": side}))
        line = table.next_line()
        assert "seq" in line, line
        acked[line["seq"]] = (line["type"], line["t"])
        side = 1 - side

    def ran(args: tuple[str | Path, ...], ok: bool = True) -> Callable[[], None]:
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
            assert third_party(log, mode) == len(acked)

        return run

    try:
        first = table.next_line()
        assert first["type"] == "GameStarted", first
        acked[first["seq"]] = (first["type"], first["t"])
        link = DirectorLink(parse_url(mosquitto.url()), desk="director")
        async with link:

            async def get_log() -> None:
                text = await link.get_log_text(TableTopics("club", "t3"))
                assert len(text.splitlines()) == len(acked)

            await get_log()  # the table's own process reads its log first
            readers: list[Callable[[], None]] = [
                ran(("event", "results", events, log), ok=False),
                ran(("replay", log)),
                ran(("log", "verify", log)),
                ran(("log", "export", log)),
                ran(("export", "gcg", log), ok=False),
                ran(("export", "naspa", log, "--round", "1"), ok=False),
                plain("rw"),
                plain("ro"),
            ]
            for read in readers:
                press()
                read()
                press()
                await get_log()
        for _ in range(3):
            press()
        table.kill()
    finally:
        table.close()
    rows = {r.seq: (r.type_name, r.t) for r in _rows(log)}
    assert {seq: rows.get(seq) for seq in acked} == acked
    verified = rackclock("log", "verify", log)
    assert verified.returncode == 0, verified.stdout
    assert f"({len(acked)} events," in verified.stdout
