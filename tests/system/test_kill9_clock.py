"""An ack means the press is on disk: ``rackclock serve`` killed with SIGKILL while a
clock on a pseudo-terminal presses, 200 rounds (docs/clock-protocol.md, "ACK").

The test is the device: it writes frames into the pty master as the protocol says
(HELLO, then a PRESS of the running side every 10-200 ms, repeated after 100 ms
while unacknowledged, a PAUSE to resume a neutralized game) and reads what the host
sends (SET, ACK). Each press carries a device time no other press has, so the log
row it made can be found. The service is killed at a random instant; in half the
rounds the instant is the worst one, the moment an ACK is read (before the fix the
ACK went out before the commit, and such a press could be lost).

After each kill: every press the device saw acknowledged is in the log exactly once
and the hash chain verifies. After each restart: the game comes back neutralized,
with a ``service_restarted`` row whose gap is logged, and the device is told so
(its SET says paused). At the end ``rackclock log verify`` passes.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import signal
import subprocess
import sys
import time
import tty
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from clock.log.eventlog import verify
from firmware_bridge.wire.framing import FrameDecoder, FrameError, encode_frame
from firmware_bridge.wire.protocol import (
    Ack,
    Hello,
    Message,
    Pause,
    Press,
    Set,
    decode,
    encode,
    needs_ack,
)
from tests.helpers import REPO
from tests.support.log_rows import log_rows

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and ptys"),
    # 200 starts of the real command: about two minutes alone, more on a loaded machine
    pytest.mark.timeout(600),
]

RACKCLOCK = Path(sys.executable).parent / "rackclock"
ROUNDS = int(os.environ.get("KILL9_ROUNDS", "200"))
SEED = 20261124
START_TIMEOUT_S = 10.0
"""The service must take the device's HELLO within this (else it is hung)."""


@dataclass
class Device:
    """The clock as the test plays it, on the master side of a pty."""

    fd: int
    seq: int = 0
    device_ms: int = 1_000
    decoder: FrameDecoder = field(default_factory=FrameDecoder)
    sets: list[Set] = field(default_factory=list)
    acked: set[int] = field(default_factory=set)
    """Sequence numbers the host acknowledged (this round)."""
    unacked: dict[int, tuple[bytes, float]] = field(default_factory=dict)
    """Presses sent and not yet acknowledged: frame, when last sent."""
    press_ms: dict[int, int] = field(default_factory=dict)
    """Press seq -> its device time (this round)."""

    def send(self, msg: Message) -> bytes:
        frame = encode_frame(encode(msg))
        with contextlib.suppress(OSError):
            os.write(self.fd, frame)
        return frame

    def next_seq(self) -> int:
        self.seq = self.seq % 0xFFFF + 1
        return self.seq

    def read(self) -> list[Message]:
        """What the host sent since the last read (its messages are ACKed)."""
        got: list[Message] = []
        with contextlib.suppress(BlockingIOError, OSError):
            while data := os.read(self.fd, 4096):
                for item in self.decoder.feed(data):
                    assert not isinstance(item, FrameError), item
                    msg = decode(item)
                    got.append(msg)
                    if isinstance(msg, Ack):
                        self.acked.add(msg.acked)
                        self.unacked.pop(msg.acked, None)
                    elif isinstance(msg, Set):
                        self.sets.append(msg)
                    if needs_ack(msg):
                        self.send(Ack(0, msg.seq))
        return got

    def press(self, side: int) -> None:
        seq = self.next_seq()
        self.device_ms += 7
        self.press_ms[seq] = self.device_ms
        self.unacked[seq] = (self.send(Press(seq, side, self.device_ms)), time.monotonic())

    def pause(self) -> None:
        seq = self.next_seq()
        self.unacked[seq] = (self.send(Pause(seq)), time.monotonic())

    def repeat(self) -> None:
        """Send again what waited 100 ms for its ACK (the protocol's retransmission)."""
        now = time.monotonic()
        for seq, (frame, sent) in list(self.unacked.items()):
            if now - sent >= 0.1:
                with contextlib.suppress(OSError):
                    os.write(self.fd, frame)
                self.unacked[seq] = (frame, now)

    def new_round(self) -> None:
        self.acked.clear()
        self.unacked.clear()
        self.press_ms.clear()
        self.sets.clear()


def _serve(log: Path, link: Path, stderr: Path) -> subprocess.Popen[bytes]:
    with stderr.open("ab") as err:
        return subprocess.Popen(
            [
                str(RACKCLOCK),
                "serve",
                "--variant",
                "nzasp",
                "--mode",
                "scoresheet",
                "--log",
                str(log),
                "--players",
                "Ann,Ben",
                "--clock",
                f"serial:{link}",
            ],
            cwd=REPO,
            stdin=subprocess.PIPE,  # kept open: serve stops at the end of its input
            stdout=subprocess.DEVNULL,
            stderr=err,
        )


def _handshake(dev: Device, proc: subprocess.Popen[bytes]) -> Set:
    """HELLO until the host answers with a SET (it flushes its input when it opens
    the port, so the first HELLOs may be lost)."""
    deadline = time.monotonic() + START_TIMEOUT_S
    dev.send(Hello(dev.next_seq(), "kill9-clock", 0x0F))
    last = time.monotonic()
    while not dev.sets:
        assert proc.poll() is None, f"serve exited with {proc.returncode}"
        assert time.monotonic() < deadline, "the host never answered the HELLO"
        time.sleep(0.005)
        dev.read()
        if time.monotonic() - last > 0.05 and not dev.sets:
            dev.send(Hello(dev.next_seq(), "kill9-clock", 0x0F))
            last = time.monotonic()
    return dev.sets[-1]


def _play_until_killed(dev: Device, proc: subprocess.Popen[bytes], rng: random.Random) -> None:
    """Press at 10-200 ms intervals; kill at a random instant, or right after an ACK."""
    at_ack = rng.random() < 0.5
    kill_at = time.monotonic() + rng.uniform(0.02, 0.35)
    next_press = time.monotonic()
    acks_seen = len(dev.acked)
    while True:
        dev.read()
        now = time.monotonic()
        if at_ack and len(dev.acked) > acks_seen and dev.press_ms.keys() & dev.acked:
            break  # the worst instant: the device has just seen an ACK
        if not at_ack and now >= kill_at:
            break
        if at_ack and now >= kill_at + 1.0:
            break  # no ACK came (every press refused is still ACKed; defensive only)
        if now >= next_press:
            last = dev.sets[-1]
            if last.paused:
                dev.pause()  # the pause button resumes a neutralized game
            else:
                dev.press(last.running if last.running is not None else 0)
            next_press = now + rng.uniform(0.01, 0.2)
        dev.repeat()
        # wake the moment the host writes (an ACK), not on a poll period
        select.select([dev.fd], [], [], max(0.0, min(next_press - time.monotonic(), 0.005)))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=5)
    assert proc.returncode == -signal.SIGKILL
    dev.read()  # ACKs written before the death are still in the pty


def _check_round(log: Path, dev: Device, stderr: Path) -> int:
    """Every acknowledged press is in the log exactly once; the chain verifies.
    Returns how many acknowledged presses this round had."""
    rows = log_rows(log)
    result = verify(log)
    assert result.ok, (result.problems, stderr.read_text()[-2000:])
    logged = Counter(
        r.body.get("device_ms") for r in rows if r.type_name == "ClockPressed" and r.body
    )
    acked = [seq for seq in dev.press_ms if seq in dev.acked]
    for seq in acked:
        ms = dev.press_ms[seq]
        assert logged[ms] == 1, f"press seq {seq} (device_ms {ms}) logged {logged[ms]} times"
    return len(acked)


def _check_restart(log: Path, rows_before: int, first: Set) -> None:
    """The restarted service resumed the game neutralized, the gap logged."""
    new = log_rows(log)[rows_before:]
    restarted = [r for r in new if r.type_name == "ServiceRestarted"]
    assert len(restarted) == 1, [r.type_name for r in new]
    assert restarted[0].body["gap_ms"] > 0, restarted[0]
    assert first.paused, first  # the device is told: both clocks stopped


def test_every_acknowledged_press_survives_kill9(tmp_path: Path) -> None:
    log = tmp_path / "table.db"
    link = tmp_path / "ttyCLOCK"
    stderr = tmp_path / "serve.stderr"
    master, slave = os.openpty()
    tty.setraw(master)
    link.symlink_to(os.ttyname(slave))
    os.set_blocking(master, False)
    dev = Device(master)
    rng = random.Random(SEED)
    total_acked = worst = 0
    try:
        for round_no in range(ROUNDS):
            dev.new_round()
            rows_before = len(log_rows(log))
            proc = _serve(log, link, stderr)
            try:
                first = _handshake(dev, proc)
                if round_no > 0:
                    _check_restart(log, rows_before, first)
                _play_until_killed(dev, proc, rng)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                if proc.stdin is not None:
                    proc.stdin.close()
            total_acked += _check_round(log, dev, stderr)
            worst += bool(dev.press_ms.keys() & dev.acked)
    finally:
        os.close(master)
        os.close(slave)
    # the rounds did what they claim: presses were acknowledged, and killed on an ACK
    assert total_acked >= ROUNDS, total_acked
    assert worst >= ROUNDS // 3, worst
    done = subprocess.run(
        [str(RACKCLOCK), "log", "verify", str(log)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
