"""One writer per log (issue 20 §2), with real processes: a real ``rackclock serve`` on
a log, the director's console offline (``--log``) under Pilot beside it.

Before issue 20 the console warned of a fresh heartbeat and appended its ruling
anyway; the service's next append then extended a head that was no longer the
file's (it keeps the last seq and hash in memory), the log's chain trigger aborted
it, and the press was neither logged nor printed. Now the service holds the log's
lock (``<log>.lock``) for its life: the console refuses, saying who holds it, the
log is unchanged and the table's next press lands; once the service is killed
(-9), the kernel drops the lock and an offline ruling goes in.
"""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

from clock.log.eventlog import verify
from clock.log.lock import holder
from terminal_ui.director.app import DirectorApp
from tests.helpers import until
from tests.support.log_rows import log_rows
from tests.system.test_kill9 import RACKCLOCK, Table
from tests.terminal_ui.test_director import SIZE, config, rule, select


async def test_the_console_offline_cannot_write_a_running_tables_log(tmp_path: Path) -> None:
    log = tmp_path / "t1.sqlite"
    table = Table(log, tmp_path / "serve.err")
    try:
        assert table.next_line()["type"] == "GameStarted"
        serving = f"rackclock serve (pid {table.proc.pid} on {socket.gethostname()})"
        assert holder(log) == serving
        app = DirectorApp(config(tmp_path, [log]))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: len(app.rows) == 1, "the table")
            await select(pilot, "t1")
            before = log_rows(log)
            await pilot.press("a")  # adjust: refused before the dialog opens
            await until(pilot, lambda: "refused" in app.feedback, "the refusal")
            assert app.feedback == (
                f"t1: refused: t1.sqlite is held by {serving}: rule from the console "
                "connected to the venue broker, or stop the table first"
            )
            assert log_rows(log) == before
            # the table's next press lands, in the log and on its output
            table.send("press 0")
            pressed = table.next_line()
            assert pressed["type"] == "ClockPressed"
            assert pressed["seq"] == len(before) + 1
            assert [r.type_name for r in log_rows(log)][-1] == "ClockPressed"
            # kill -9: the kernel drops the lock, and the offline ruling goes in
            table.kill()
            assert holder(log) is None
            await rule(pilot, "a", player="Ann", score="-10", reason="phoney word")
            await until(pilot, lambda: "Adjusted" in app.feedback, "the answer")
            assert f"accepted: Adjusted (#{len(before) + 2})" in app.feedback
        rows = log_rows(log)
        assert rows[-1].type_name == "Adjusted"
        assert rows[-1].body["actor"] == "director"
        assert verify(log).ok
    finally:
        table.close()


def test_a_second_serve_on_a_log_is_refused_saying_who_holds_it(tmp_path: Path) -> None:
    log = tmp_path / "t1.sqlite"
    first = Table(log, tmp_path / "first.err")
    try:
        assert first.next_line()["type"] == "GameStarted"
        before = log_rows(log)
        second = subprocess.run(
            [str(RACKCLOCK), "serve", "--variant", "nzasp", "--log", str(log)],
            input=b"press 0\n",
            capture_output=True,
            timeout=30,
        )
        assert second.returncode == 1
        assert second.stderr.decode() == (
            f"rackclock serve: t1.sqlite is held by rackclock serve (pid {first.proc.pid} "
            f"on {socket.gethostname()}): one writer per log: stop it first\n"
        )
        assert log_rows(log) == before
        first.send("press 0")
        assert first.next_line()["seq"] == len(before) + 1
        first.quit()
        assert holder(log) is None
    finally:
        first.close()
