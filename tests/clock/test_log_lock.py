"""One writer per log (issue 20 §2): the lock a table service holds for its life, and
the time an offline ruling is stamped with.

The cross-process side (a real ``rackclock serve``, kill -9, two serves) is in
tests/system/test_one_writer.py; here one process, real files, fake time.
"""

from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from clock.log.eventlog import EventLog, LogError
from clock.log.heartbeat import read_alive, table_now, write_alive
from clock.log.lock import LogHeld, WriterLock, holder, lock_path
from clock.log.log_files import load_log
from clock.log.ruling import append_ruling
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import Adjusted, ClockPressed, Event, GameStarted, Neutralized, encode_event
from engine.rules.replay import replay

START = GameStarted(t=1_000, variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
HERE = f"(pid {os.getpid()} on {socket.gethostname()})"


def write_log(path: Path, events: list[Event]) -> Path:
    with EventLog.open(path) as log:
        for ev in events:
            log.append(ev)
    return path


def times(path: Path) -> list[int]:
    return [ev.t or 0 for _, ev in load_log(path)[0]]


def test_the_lock_names_its_holder_and_refuses_a_second_writer(tmp_path: Path) -> None:
    log = tmp_path / "t1.sqlite"
    assert holder(log) is None
    with WriterLock(log, "rackclock serve"):
        assert holder(log) == f"rackclock serve {HERE}"
        with pytest.raises(LogHeld) as held:
            WriterLock(log, "rackclock director", "rule over the broker")
        assert (
            str(held.value) == f"t1.sqlite is held by rackclock serve {HERE}: rule over the broker"
        )
        # closing another descriptor of the lock file (or of the log) keeps the lock:
        # a flock belongs to its own open file description, not to the process
        lock_path(log).read_bytes()
        os.close(os.open(lock_path(log), os.O_RDWR))
        assert holder(log) == f"rackclock serve {HERE}"
    assert holder(log) is None  # released: the file stays, emptied
    assert lock_path(log).read_bytes() == b""
    with WriterLock(log, "next"):
        assert holder(log) == f"next {HERE}"


def test_a_log_in_a_missing_folder_is_refused_by_name(tmp_path: Path) -> None:
    log = tmp_path / "nowhere" / "t1.sqlite"
    with pytest.raises(
        LogError, match=r"cannot create .*t1\.sqlite': the folder .* does not exist"
    ):
        WriterLock(log, "rackclock serve")


async def test_a_service_holds_its_log_for_its_life(tmp_path: Path) -> None:
    log = tmp_path / "t1.sqlite"
    first = TableService(
        log, timeline=FakeTimeline(5_000), heartbeat_ms=0, writer="rackclock serve"
    )
    async with first:
        await first.submit(START)
        assert holder(log) == f"rackclock serve {HERE}"
        second = TableService(log, timeline=FakeTimeline(5_000), heartbeat_ms=0)
        with pytest.raises(LogHeld, match=r"^t1\.sqlite is held by rackclock serve \(pid "):
            await second.start()
        assert holder(log) == f"rackclock serve {HERE}"  # the refused one took nothing
        # an offline ruling is refused too, and writes nothing
        with EventLog.open_readonly(log) as reader:
            before = log.read_bytes(), reader.head()
        with pytest.raises(LogHeld, match="rule from the console connected to the venue broker"):
            append_ruling(log, Adjusted(by="Dee", player=0, score_delta=-10), 0)
        with EventLog.open_readonly(log) as reader:
            assert (log.read_bytes(), reader.head()) == before
        # the table's next press lands
        ack = await first.submit(ClockPressed(player=0))
        assert ack.accepted
        assert ack.seq == 2
    assert holder(log) is None
    async with TableService(log, timeline=FakeTimeline(9_000), heartbeat_ms=0) as again:
        assert again.state.players == ("Ann", "Ben")


def test_offline_rulings_are_stamped_when_they_are_made(tmp_path: Path) -> None:
    """Before issue 20 both carried the log's last time: the stale heartbeat (or none)
    froze the table's time at the last event."""
    log = write_log(tmp_path / "t1.sqlite", [START, Neutralized(t=4_000, by="Ann", reason="bag")])
    write_alive(log, 6_000, wall_ms=1_000_000)  # the service's last sign of life
    assert append_ruling(log, Adjusted(by="Dee", player=0, score_delta=-5), 1_030_000)[0]
    assert append_ruling(log, Adjusted(by="Dee", player=1, score_delta=5), 1_050_000)[0]
    assert times(log)[-2:] == [36_000, 56_000]  # 20 s apart, as they were made
    alive = read_alive(log)
    assert alive is not None
    assert (alive.t, alive.wall_ms, alive.writer) == (56_000, 1_050_000, "director")
    # a console's sidecar never says a service runs on the log
    assert table_now(log, replay(load_log(log)[0])[0], 1_050_001)[1] is False


def test_a_first_offline_ruling_without_any_heartbeat_anchors_the_next(tmp_path: Path) -> None:
    log = write_log(tmp_path / "t2.sqlite", [START, Neutralized(t=4_000, by="Ann", reason="bag")])
    assert append_ruling(log, Adjusted(by="Dee", player=0, score_delta=-5), 500_000)[0]
    assert append_ruling(log, Adjusted(by="Dee", player=0, score_delta=-5), 520_000)[0]
    assert times(log)[-2:] == [4_000, 24_000]


def test_a_running_clock_is_not_charged_for_the_time_its_service_was_gone(
    tmp_path: Path,
) -> None:
    """The service died with Ben's clock running: nobody's clock ran since its last sign
    of life, so the ruling is stamped there (the restarted service neutralizes the gap)."""
    log = write_log(tmp_path / "t3.sqlite", [START, ClockPressed(t=2_000, player=0)])
    write_alive(log, 7_000, wall_ms=1_000_000)
    assert append_ruling(log, Adjusted(by="Dee", player=1, score_delta=5), 2_600_000)[0]
    state, rejected = replay(load_log(log)[0])
    assert not rejected
    assert state.clock.running == 1
    assert times(log)[-1] == 7_000
    # stamped at the wall time (26:40 on), Ben's 25:00 would be gone
    assert state.clock.remaining(1, state.t) > 0


def test_log_import_into_a_held_log_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from terminal_ui.cli import main

    source = tmp_path / "t1.jsonl"
    source.write_bytes(encode_event(START) + b"\n")
    target = tmp_path / "t9.sqlite"
    with WriterLock(target, "rackclock serve"):
        assert main(["log", "import", str(source), "-o", str(target)]) == 1
        err = capsys.readouterr().err
        held = f"t9.sqlite is held by rackclock serve {HERE}: one writer per log: stop it first"
        assert err == f"rackclock log import: {held}\n"
        assert not target.exists()
    assert main(["log", "import", str(source), "-o", str(target)]) == 0
    assert times(target) == [1_000]


@pytest.mark.parametrize("command", ["table", "scorekeeper"])
def test_the_table_terminals_refuse_a_held_log_before_their_screen(
    tmp_path: Path, command: str
) -> None:
    log = tmp_path / "t1.sqlite"
    rackclock = Path(sys.executable).parent / "rackclock"
    with WriterLock(log, "rackclock serve"):
        done = subprocess.run(
            [str(rackclock), command, "--variant", "nzasp", "--log", str(log)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=30,
        )
    assert done.returncode == 1  # as serve: the log's state refuses (2: a bad argument)
    assert done.stderr == (
        f"rackclock {command}: t1.sqlite is held by rackclock serve {HERE}: "
        "one writer per log: stop it first\n"
    )
    assert not log.exists()


def test_a_look_at_the_lock_does_not_turn_a_writer_away(tmp_path: Path) -> None:
    """holder() takes the lock shared for a moment; a writer starting then waits for it
    (a few ms), but one held by a nameless program for good is refused."""
    log = tmp_path / "t1.sqlite"
    lock_path(log).touch()
    look = os.open(lock_path(log), os.O_RDONLY)
    try:
        fcntl.flock(look, fcntl.LOCK_SH)
        threading.Timer(0.02, fcntl.flock, (look, fcntl.LOCK_UN)).start()
        with WriterLock(log, "rackclock serve"):
            assert holder(log) == f"rackclock serve {HERE}"
        fcntl.flock(look, fcntl.LOCK_SH)  # and now it stays
        with pytest.raises(LogHeld, match="held by another program"):
            WriterLock(log, "rackclock serve")
    finally:
        os.close(look)


def test_a_restart_after_kill_9_is_not_refused_in_the_dead_holders_name(tmp_path: Path) -> None:
    """After kill -9 the lock file still names the dead holder; a restart that meets a
    holder() look waits the look out and takes the lock, and a lock held for good is
    refused in the name the file gives."""
    log = tmp_path / "t1.sqlite"
    lock_path(log).write_text("rackclock serve\t99999\tdeadhost\n")
    look = os.open(lock_path(log), os.O_RDONLY)
    try:
        fcntl.flock(look, fcntl.LOCK_SH)
        threading.Timer(0.02, fcntl.flock, (look, fcntl.LOCK_UN)).start()
        with WriterLock(log, "rackclock serve"):
            assert holder(log) == f"rackclock serve {HERE}"
        lock_path(log).write_text("rackclock serve\t99999\tdeadhost\n")
        fcntl.flock(look, fcntl.LOCK_SH)  # and now it stays
        with pytest.raises(LogHeld, match=r"held by rackclock serve \(pid 99999 on deadhost\)"):
            WriterLock(log, "rackclock serve")
    finally:
        os.close(look)
