"""The README's commands that no other test starts as a user starts them, started so.

Each runs the installed ``rackclock`` script as a process with its arguments (the
Textual console under tmux, :class:`tests.system.test_e2e_tmux.Terminal`) and checks
what a user would see: the exit status, the line that says it worked, the file
written. :data:`tests.test_readme_table.PROCESS_TESTS` lists, for every command of
the README's table, the tests that start it; these are the ones it names here.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Broker, wait_for
from tests.support.log_rows import log_rows
from tests.support.tmux import WAIT_S, Terminal, tmux_terminal
from tests.system.test_kill9 import RACKCLOCK
from tests.terminal_ui.test_event import rackclock

GAME = """\
{"t":0,"type":"game_started","variant":"nzasp","players":["Ann","Ben"],"first":0}
{"t":31000,"type":"tiles_placed","player":0,"move":"8D WINDY","score":32}
{"t":31500,"type":"clock_pressed","player":0}
"""
"""A game in progress: Ann 32, Ben to play."""


def event_file(*players: str) -> str:
    """An event file: division A, two rounds of round robin among ``players``."""
    listed = ", ".join(f'{{ name = "{name}" }}' for name in players)
    return f"""\
name = "Club night"

[[division]]
name = "A"
variant = "nzasp"
rounds = 2
plan = [{{ rounds = "1-2", system = "round-robin" }}]
players = [{listed}]
"""


def succeeded(*args: str | Path) -> str:
    """``rackclock ARGS``'s output; it must exit 0."""
    done = rackclock(*args)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Terminal]:
    """A fresh tmux server of 120x30 whose data directory is ``tmp_path``."""
    with tmux_terminal(tmp_path, size=(120, 30)) as term:
        yield term


def start_console(tmux: Terminal, args: str, status: Path) -> None:
    """``rackclock ARGS`` in the window; its exit status is written to ``status`` when it
    ends (tmux's own ``pane_dead_status`` can lag the end by seconds, and a dead pane
    can lose the shell's last line)."""
    tmux.start(f"{RACKCLOCK} {args}; echo $? > {status}")


def quit_console(tmux: Terminal, status: Path) -> None:
    """ctrl+q, as the footer says; the console must end with status 0."""
    tmux.keys("C-q")
    deadline = time.monotonic() + WAIT_S
    while not status.exists() or not status.read_text().strip():
        assert time.monotonic() < deadline, f"ctrl+q did not end it:\n{tmux.screen()}"
        time.sleep(0.02)
    assert status.read_text().strip() == "0"


# --- rackclock director ----------------------------------------------------------------------


def test_director_on_log_files_with_the_events_log(tmux: Terminal, tmp_path: Path) -> None:
    """``rackclock director --log FILE --event LOG``: the table's row, then the event screen."""
    (tmp_path / "t1.jsonl").write_text(GAME, encoding="utf-8")
    table = tmp_path / "t1.sqlite"
    succeeded("log", "import", tmp_path / "t1.jsonl", "-o", table)
    (tmp_path / "club.toml").write_text(event_file("Ann", "Ben"), encoding="utf-8")
    event = tmp_path / "club.sqlite"
    succeeded("event", "new", tmp_path / "club.toml", "-o", event)
    succeeded("event", "pair", event)
    start_console(tmux, f"director --log {table} --event {event}", tmp_path / "status")
    tmux.wait_for("1 log file(s)", "Ann v Ben", "32 to 0", "Ben to play")
    tmux.keys("s")  # the event screen
    tmux.wait_for("Club night", "Division A, round 1 of 2", "Ann (first) v Ben: 32 to 0")
    tmux.keys("Escape")
    tmux.wait("the event screen to close", lambda s: "Club night" not in s)
    quit_console(tmux, tmp_path / "status")


def test_director_on_the_broker(tmux: Terminal, tmp_path: Path, mosquitto: Broker) -> None:
    """``rackclock director --broker URL``: a ``rackclock serve`` table on the broker shows."""
    table = subprocess.Popen(
        [str(RACKCLOCK), "serve", "--variant", "nzasp", "--players", "Ann Lee,Ben Ray",
         "--log", str(tmp_path / "t1.sqlite"), "--clock", mosquitto.url("/club/t1")],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        status = tmp_path / "status"
        start_console(tmux, f"director --broker {mosquitto.url()} --venue club", status)
        # its clock is not connected, so the row is flagged OFFLINE: where the window is
        # too narrow for the row on one line, the overview gives each player a line of
        # their own (name, score, clock) rather than cut a name (docs/director.md, "Overview")
        row = re.compile(r"club/t1 +(Ann Lee v Ben Ray +0 to 0 |Ann Lee +0 +\S+.*\n +Ben Ray +0 )")
        tmux.wait(
            "the table's row",
            lambda screen: "connected; 1 table(s)" in screen and bool(row.search(screen)),
        )
        quit_console(tmux, tmp_path / "status")
        assert table.stdin is not None
        table.stdin.write(b"quit\n")
        table.stdin.close()
        assert table.wait(WAIT_S) == 0
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()


# --- rackclock emulate-clock --mqtt ----------------------------------------------------------


async def test_emulate_clock_on_mqtt_is_a_tables_clock(tmp_path: Path, mosquitto: Broker) -> None:
    """``rackclock emulate-clock --mqtt URL --table T`` is the clock of ``rackclock serve
    --clock URL/VENUE/T``: its key press is the table's ``ClockPressed``."""
    log = tmp_path / "t1.sqlite"
    # a URL without /venue/table names the venue "default"
    serve = await asyncio.create_subprocess_exec(
        str(RACKCLOCK), "serve", "--variant", "nzasp", "--mode", "scoresheet",
        "--log", str(log), "--clock", mosquitto.url("/default/t1"),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    clock = await asyncio.create_subprocess_exec(
        str(RACKCLOCK), "emulate-clock", "--mqtt", mosquitto.url(), "--table", "t1",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    table: list[dict[str, Any]] = []
    shown: list[str] = []

    async def read(proc: asyncio.subprocess.Process, into: list[Any], parse: Any) -> None:
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            into.append(parse(line.decode()))

    readers = [
        asyncio.create_task(read(serve, table, json.loads)),
        asyncio.create_task(read(clock, shown, str.rstrip)),
    ]
    try:
        # the clock shows the host's times once the host answers ("no host" until then)
        await wait_for(lambda: bool(shown) and "no host" not in shown[-1], "the host", WAIT_S)
        assert clock.stdin is not None
        assert serve.stdin is not None
        clock.stdin.write(b"a\n")  # the left button
        await clock.stdin.drain()
        pressed = lambda: any(d.get("type") == "ClockPressed" for d in table)  # noqa: E731
        await wait_for(pressed, "the press at the table", WAIT_S)
        clock.stdin.write(b"q\n")
        await clock.stdin.drain()
        async with asyncio.timeout(WAIT_S):
            assert await clock.wait() == 0
        serve.stdin.write(b"quit\n")
        await serve.stdin.drain()
        async with asyncio.timeout(WAIT_S):
            assert await serve.wait() == 0
    finally:
        for proc in (clock, serve):
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        for task in readers:
            task.cancel()
    assert [r.type_name for r in log_rows(log)][:2] == ["GameStarted", "ClockPressed"]
    assert any(">" in line and "<" in line for line in shown), shown  # a clock running


# --- rackclock event withdraw ----------------------------------------------------------------


def test_event_withdraw_then_pair(tmp_path: Path) -> None:
    """``rackclock event withdraw LOG NAME --round N``: the next pairing leaves them out."""
    (tmp_path / "club.toml").write_text(event_file("Ann", "Ben", "Cid", "Dee"), encoding="utf-8")
    event = tmp_path / "club.sqlite"
    succeeded("event", "new", tmp_path / "club.toml", "-o", event)
    said = succeeded("event", "withdraw", event, "Dee", "--round", "1")
    assert said.strip() == "Dee withdrawn from round 1: not paired from then on"
    paired = succeeded("event", "pair", event)
    assert "bye:" in paired
    assert "Dee" not in paired
    assert "event verify LEDGER --anchor" in paired
