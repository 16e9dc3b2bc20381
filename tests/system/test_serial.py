"""The serial clock end to end, on real pseudo-terminals and real time.

A :class:`TableService` (SQLite log on disk, :class:`MonotonicTimeline`) drives
a :class:`SerialClock`; on the other end of a pty pair (``os.openpty`` or a
``socat`` pair) runs the emulated clock firmware, or the test itself writing
raw frames. Covered: presses reaching the log, the service's SET reaching the
display, device-authoritative drift, unplugging mid-game (closing the pty
master, killing socat, silence) and plugging back in, duplicated, reordered,
corrupted and garbage frames, a clock on ``socket://``, the hexdump, and the
two commands (``serve --clock serial:`` and ``emulate-clock``) together.

socat is required: a missing socat fails these tests under
``REQUIRE_SYSTEM_DEPS=1`` (``make test``) and skips them otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tty
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import pytest

from clock.device.clock_spec import ClockContext
from clock.device.interface import (
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    PausePressed,
    SidePressed,
    TimesReported,
)
from clock.log.eventlog import EventLog, LogRecord
from clock.table.service import TableService, Update
from clock.timeline import MonotonicTimeline
from engine.events import ClockPressed, GameStarted
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.serial_runner import run_fd, run_serial
from firmware_bridge.host.hexdump_file import HexDump
from firmware_bridge.host.serial_clock import SerialClock
from firmware_bridge.host.transports import TRANSPORTS, SerialSpec
from firmware_bridge.wire.framing import FrameDecoder, FrameError, encode_frame
from firmware_bridge.wire.hexdump import decode_dump
from firmware_bridge.wire.link_layer import Link
from firmware_bridge.wire.protocol import (
    Ack,
    Beep,
    Heartbeat,
    Hello,
    Message,
    Nak,
    NakReason,
    Pause,
    Press,
    Set,
    State,
    Text,
    decode,
    encode,
    needs_ack,
)
from terminal_ui.cli.emulate import parse_command
from tests.helpers import missing_part, wait_for

GAME = GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
"""25:00 each, scoresheet mode: presses need no plays."""
SOCAT = shutil.which("socat")
RACKCLOCK = Path(sys.executable).parent / "rackclock"


# --- helpers -----------------------------------------------------------------------------


def need_socat() -> str:
    """The socat binary; fails under REQUIRE_SYSTEM_DEPS=1 when it is missing."""
    if SOCAT is None:
        missing_part("socat is missing: run scripts/system-deps (apt-get install socat)")
    return SOCAT


NOTICE_LIMIT_S = 2.5
"""The protocol notices a lost clock within 1 s; the tests allow this much on a loaded CI."""


class Socat:
    """A socat pty pair with named ends ``a`` and ``b``; stop() is an unplug."""

    def __init__(self, a: Path, b: Path) -> None:
        self.a = a
        self.b = b
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        for p in (self.a, self.b):
            p.unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            [
                need_socat(),
                "-d",
                "-d",
                f"pty,raw,echo=0,link={self.a}",
                f"pty,raw,echo=0,link={self.b}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 5
        while not (self.a.exists() and self.b.exists()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"socat did not create {self.a} and {self.b}")
            time.sleep(0.005)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(5)
        self.proc = None


@pytest.fixture
def socat_pair(tmp_path: Path) -> Iterator[Socat]:
    """A running socat pair at tmp_path/hostA (host) and tmp_path/clockB (device)."""
    pair = Socat(tmp_path / "hostA", tmp_path / "clockB")
    pair.start()
    yield pair
    pair.stop()


class Pty:
    """An ``os.openpty`` pair; the host opens ``link`` (a symlink to the slave)."""

    def __init__(self, link: Path) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(self.slave))
        self.closed = False

    def unplug(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.master)
            os.close(self.slave)


@dataclass
class Table:
    """A running service with a serial clock, and what it published."""

    svc: TableService
    clock: SerialClock
    log_path: Path
    statuses: list[tuple[float, bool, str]] = field(default_factory=list)
    """(monotonic s, online, reason) per status change."""

    def rows(self) -> list[LogRecord]:
        with EventLog.open(self.log_path, create=False) as lg:
            return list(lg.records())

    def presses(self) -> list[LogRecord]:
        return [r for r in self.rows() if r.type == "clock_pressed"]

    def online(self) -> bool:
        return self.svc.status.device_online

    def went_offline_at(self) -> float:
        """When the service published the latest offline status (monotonic s)."""
        at, online, _ = self.statuses[-1]
        assert not online, self.statuses
        return at


@contextlib.asynccontextmanager
async def table(
    tmp_path: Path, url: str, *, authority: str = "host", hexdump: HexDump | None = None
) -> AsyncIterator[Table]:
    """A TableService (real time, log on disk) on a SerialClock at ``url``, game started."""
    timeline = MonotonicTimeline()
    clock = SerialClock(url, timeline=timeline, initial_ms=1_500_000, hexdump=hexdump)
    svc = TableService(
        tmp_path / "game.db",
        timeline=timeline,
        device=clock,
        authority="device" if authority == "device" else "host",
        heartbeat_ms=0,
    )
    t = Table(svc, clock, tmp_path / "game.db")

    def on_update(u: Update) -> None:
        if u.event is None and u.refused is None:
            t.statuses.append((time.monotonic(), u.status.device_online, u.status.device_reason))

    svc.add_listener(on_update)
    async with svc:
        ack = await svc.submit(GAME)
        assert ack.accepted
        yield t


def shows_service_times(fw: ClockFirmware, svc: TableService, tolerance_ms: int = 150) -> bool:
    """Whether the firmware's display agrees with the service's clock now."""
    now = svc.timeline.now_ms()
    clock = svc.state.clock
    if fw.running != clock.running or fw.paused != (clock.running is None):
        return False
    return all(abs(fw.remaining(s) - clock.remaining(s, now)) <= tolerance_ms for s in (0, 1))


class Crystal:
    """A device's millisecond counter whose rate can change (a drifting crystal)."""

    def __init__(self) -> None:
        self.rate = 1.0
        self._rate = 1.0
        self._real0 = time.monotonic_ns()
        self._dev0 = self._real0 // 1_000_000

    def __call__(self) -> int:
        real = time.monotonic_ns()
        if self.rate != self._rate:  # re-anchor, so the counter never jumps
            self._dev0 += int((real - self._real0) * self._rate / 1e6)
            self._real0, self._rate = real, self.rate
        return self._dev0 + int((real - self._real0) * self._rate / 1e6)


def runs(svc: TableService, side: int | None) -> Callable[[], bool]:
    """A condition: ``side`` runs in the service."""
    return lambda: svc.state.clock.running == side


@contextlib.asynccontextmanager
async def running(coro: object, name: str) -> AsyncIterator[asyncio.Task[object]]:
    """Run ``coro`` as a task for the block; cancel it after."""
    assert asyncio.iscoroutine(coro)
    task: asyncio.Task[object] = asyncio.create_task(coro, name=name)
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def acked_presses(dump: str) -> int:
    """PRESS frames the firmware sent that the host acknowledged, over all sessions."""
    count = 0
    sent: set[int] = set()
    acked: set[int] = set()
    for line in [*decode_dump(io.StringIO(dump)), "t=0 x -- end"]:
        if " -- " in line:
            count += len(sent & acked)
            sent, acked = set(), set()
        elif " TX Press(" in line:
            sent.add(int(line.split("seq=")[1].split(",")[0]))
        elif " RX Ack(" in line:
            acked.add(int(line.split("acked=")[1].split(")")[0]))
    return count


# --- presses, SET, text, beep, hexdump (socat) ----------------------------------------------


async def test_presses_reach_the_log_and_sets_reach_the_display(
    tmp_path: Path, socat_pair: Socat
) -> None:
    fw = ClockFirmware("clock-7")
    fw_dump = io.StringIO()
    host_dump = HexDump(tmp_path / "host.hex")
    async with (
        running(run_serial(fw, str(socat_pair.b), hexdump=HexDump(fw_dump)), "fw"),
        table(tmp_path, str(socat_pair.a), hexdump=host_dump) as t,
    ):
        await wait_for(t.online, "the device online")
        assert t.svc.status.device_id == "clock-7"
        assert t.clock.capabilities == 0x0F
        await wait_for(lambda: shows_service_times(fw, t.svc), "the display to show the game")
        assert fw.running == 0

        fw.press(0)
        assert fw.running == 1  # the display switched at once, before any answer
        await wait_for(lambda: len(t.presses()) == 1, "the press in the log")
        fw.press(1)
        await wait_for(lambda: len(t.presses()) == 2, "the second press in the log")
        await wait_for(lambda: t.svc.state.clock.running == 0, "side 0 running")
        await wait_for(lambda: shows_service_times(fw, t.svc), "the display to follow")

        # a press of the wrong side: the display does not switch; the refusal is logged
        fw.press(1)
        await wait_for(lambda: len(t.presses()) == 3, "the refused press in the log")
        assert t.presses()[-1].refused
        assert fw.running == 0

        # the pause button neutralizes, the display stops at once and stays stopped
        fw.pause()
        assert fw.paused
        await wait_for(lambda: t.svc.state.clock.neutral is not None, "neutralized")
        await wait_for(lambda: shows_service_times(fw, t.svc), "the paused display")
        fw.pause()
        await wait_for(lambda: t.svc.state.clock.neutral is None, "resumed")
        await wait_for(lambda: shows_service_times(fw, t.svc), "the running display")

        await t.clock.show_text("Ann to play")
        await t.clock.beep()
        await wait_for(lambda: fw.text == "Ann to play" and fw.beeps == 1, "text and beep")
        await t.clock.show_text("é" * 40)  # cut to 64 bytes on a character boundary
        await wait_for(lambda: fw.text == "é" * 32, "the cut text")

        accepted = [r for r in t.presses() if not r.refused]
        pressed = [r.event() for r in accepted]
        # the device's own counter at each press is recorded with it, as the spec says
        counters = [ev.device_ms for ev in pressed if isinstance(ev, ClockPressed)]
        assert len(counters) == 2
        assert counters[0] is not None
        assert counters[1] is not None
        assert 0 <= counters[0] <= counters[1] < 2**32
        assert [msgspec.structs.replace(ev, device_ms=None) for ev in pressed] == [
            ClockPressed(player=0, t=accepted[0].t, actor="device"),
            ClockPressed(player=1, t=accepted[1].t, actor="device"),
        ]
        assert t.clock.stats.frames_bad == 0
        assert t.clock.stats.given_up == 0
        assert acked_presses(fw_dump.getvalue()) == len(t.presses())
    host_dump.close()
    decoded = list(decode_dump((tmp_path / "host.hex").read_text().splitlines()))
    assert any("RX Hello(" in line and "clock-7" in line for line in decoded)
    assert sum(" RX Press(" in line for line in decoded) == 3
    assert any(" TX Set(" in line for line in decoded)
    assert any(" TX Text(" in line and "Ann to play" in line for line in decoded)


async def test_device_authoritative_times_and_drift_ruling(
    tmp_path: Path, socat_pair: Socat
) -> None:
    crystal = Crystal()
    fw = ClockFirmware("clock-da", device_authoritative=True, clock=crystal)
    async with (
        running(run_serial(fw, str(socat_pair.b)), "fw"),
        table(tmp_path, str(socat_pair.a), authority="device") as t,
    ):
        await wait_for(lambda: shows_service_times(fw, t.svc), "the display to show the game")
        await asyncio.sleep(0.2)
        fw.press(0)  # in step with the service: no ruling
        await wait_for(lambda: len(t.presses()) == 1, "the first press")
        assert not [r for r in t.svc.state.rulings if "drift" in r.rule]
        await wait_for(lambda: shows_service_times(fw, t.svc), "the display after the press")

        # the clock's crystal runs three times too fast: over 0.5 s it drifts a second
        crystal.rate = 3.0
        await asyncio.sleep(0.5)
        shown = (fw.remaining(0), fw.remaining(1))
        fw.press(1)
        await wait_for(lambda: len(t.presses()) == 2, "the second press")
        rulings = [r for r in t.svc.state.rulings if "drift" in r.rule]
        assert len(rulings) == 1
        assert "director to review" in rulings[0].text
        # the device's times stand
        now = t.svc.timeline.now_ms()
        assert abs(t.svc.state.clock.remaining(1, now) - shown[1]) < 100
        event = t.presses()[-1].event()
        assert isinstance(event, ClockPressed)
        assert event.device_remaining_ms is not None
        assert abs(event.device_remaining_ms[1] - shown[1]) < 20


# --- unplugging -------------------------------------------------------------------------------


async def test_unplug_pty_mid_game_then_plug_back_in(tmp_path: Path) -> None:
    link = tmp_path / "ttyCLOCK"
    fw = ClockFirmware("clock-u")
    fw_dump = io.StringIO()
    dump = HexDump(fw_dump)
    pty = Pty(link)
    fw_task = asyncio.create_task(run_fd(fw, pty.master, hexdump=dump), name="fw")
    try:
        async with table(tmp_path, str(link)) as t:
            await wait_for(t.online, "the device online")
            await wait_for(lambda: shows_service_times(fw, t.svc), "the display")
            for side in (0, 1, 0):
                fw.press(side)
                await wait_for(runs(t.svc, 1 - side), f"the press of side {side}")
            # the host logs a press after it sends the ACK, not after the clock read it
            await wait_for(lambda: acked_presses(fw_dump.getvalue()) == 3, "the clock has 3 ACKs")

            # unplug: the firmware's port dies with the pty
            fw_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await fw_task
            unplugged = time.monotonic()
            pty.unplug()
            await wait_for(lambda: not t.online(), "the device offline", limit_s=NOTICE_LIMIT_S)
            assert t.went_offline_at() - unplugged < NOTICE_LIMIT_S
            assert "port lost" in t.svc.status.device_reason
            # the game's time keeps running in the service
            now = t.svc.timeline.now_ms()
            before = t.svc.state.clock.remaining(1, now)
            await asyncio.sleep(0.4)
            assert t.svc.state.clock.running == 1
            assert t.svc.state.clock.remaining(1, t.svc.timeline.now_ms()) <= before - 350
            # a press on the unplugged clock switches its display, but reaches nobody
            fw.press(1)
            assert fw.running == 0
            assert fw.dropped == 1

            # plug back in: a new pty at the same path
            pty = Pty(link)
            fw_task = asyncio.create_task(run_fd(fw, pty.master, hexdump=dump), name="fw2")
            await wait_for(t.online, "the device back online", limit_s=6)
            await wait_for(lambda: shows_service_times(fw, t.svc), "the service's times again")
            assert fw.running == 1
            fw.press(1)
            await wait_for(lambda: t.svc.state.clock.running == 0, "a press after the replug")
            await wait_for(lambda: len(t.presses()) == 4, "four presses logged")
            await wait_for(lambda: acked_presses(fw_dump.getvalue()) == 4, "the clock has 4 ACKs")
            assert [online for _, online, _ in t.statuses] == [True, False, True]
            assert t.clock.disconnects >= 1
    finally:
        fw_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await fw_task
        pty.unplug()


async def test_kill_socat_mid_game_then_restart(tmp_path: Path, socat_pair: Socat) -> None:
    fw = ClockFirmware("clock-s")
    fw_dump = io.StringIO()
    async with (
        running(run_serial(fw, str(socat_pair.b), hexdump=HexDump(fw_dump)), "fw"),
        table(tmp_path, str(socat_pair.a)) as t,
    ):
        await wait_for(lambda: shows_service_times(fw, t.svc), "the display")
        fw.press(0)
        await wait_for(lambda: len(t.presses()) == 1, "a press")
        # the ACK goes through socat: let it reach the clock before socat dies
        await wait_for(lambda: acked_presses(fw_dump.getvalue()) == 1, "the clock has the ACK")
        killed = time.monotonic()
        socat_pair.stop()
        await wait_for(lambda: not t.online(), "the device offline", limit_s=NOTICE_LIMIT_S)
        assert t.went_offline_at() - killed < NOTICE_LIMIT_S
        running_side = t.svc.state.clock.running
        assert running_side == 1
        await asyncio.sleep(0.3)
        socat_pair.start()
        await wait_for(t.online, "the device back online", limit_s=8)
        await wait_for(lambda: shows_service_times(fw, t.svc), "the service's times again")
        fw.press(1)
        await wait_for(lambda: len(t.presses()) == 2, "a press after the restart")
        # the host logs the press once it has sent the ACK; socat may still be relaying it
        await wait_for(lambda: acked_presses(fw_dump.getvalue()) == 2, "the clock has 2 ACKs")
        assert t.svc.state.clock.running == 0


async def test_a_silent_device_is_offline_after_one_second(tmp_path: Path) -> None:
    link = tmp_path / "ttyQUIET"
    fw = ClockFirmware("clock-q")
    pty = Pty(link)
    try:
        async with table(tmp_path, str(link)) as t:
            async with running(run_fd(fw, pty.master), "fw"):
                await wait_for(t.online, "the device online")
            # the firmware stopped (hung), the port stays open
            quiet = time.monotonic()
            await wait_for(lambda: not t.online(), "the device offline", limit_s=NOTICE_LIMIT_S + 1)
            # not before the 1 s of silence (less the last heartbeat's age), not much after
            took = t.went_offline_at() - quiet
            assert 0.7 <= took < NOTICE_LIMIT_S, took
            assert "1 s" in t.svc.status.device_reason
            async with running(run_fd(fw, pty.master), "fw-again"):
                await wait_for(t.online, "the device back online", limit_s=6)
    finally:
        pty.unplug()


# --- raw frames written by hand ----------------------------------------------------------------


class RawDevice:
    """The test as the device: writes frames into the pty master, reads the host's."""

    def __init__(self, pty: Pty) -> None:
        self.fd = pty.master
        os.set_blocking(self.fd, False)
        self.decoder = FrameDecoder()
        self.received: list[Message] = []

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def frame(self, msg: Message) -> bytes:
        return encode_frame(encode(msg))

    def read(self) -> list[Message]:
        """Everything the host sent so far (its messages are ACKed as they come)."""
        with contextlib.suppress(BlockingIOError):
            while data := os.read(self.fd, 4096):
                for item in self.decoder.feed(data):
                    assert not isinstance(item, FrameError), item
                    msg = decode(item)
                    self.received.append(msg)
                    if needs_ack(msg):
                        self.write(self.frame(Ack(0, msg.seq)))
        return self.received

    async def heartbeats(self) -> None:
        """What a device sends when idle, so the host does not think it lost."""
        while True:
            await asyncio.sleep(0.2)
            self.write(self.frame(Heartbeat(0, 0)))
            self.read()

    async def wait_for(self, pred: Callable[[Message], bool], what: str) -> Message:
        found: list[Message] = []

        def seen() -> bool:
            found[:] = [m for m in self.read() if pred(m)]
            return bool(found)

        await wait_for(seen, what)
        return found[0]

    def acks(self, seq: int) -> int:
        return sum(isinstance(m, Ack) and m.acked == seq for m in self.read())


async def test_duplicated_reordered_corrupted_and_garbage_frames(tmp_path: Path) -> None:
    link = tmp_path / "ttyRAW"
    pty = Pty(link)
    dev = RawDevice(pty)
    try:
        async with table(tmp_path, str(link)) as t:
            # the host flushes its input when it opens the port: wait for its heartbeat
            await dev.wait_for(lambda m: True, "the host's first frame")
            dev.write(b"\x00" + dev.frame(Hello(1, "raw-1", 0x0F)))
            beats = asyncio.create_task(dev.heartbeats(), name="raw-heartbeats")
            await wait_for(t.online, "online")
            assert dev.acks(1) == 1
            await dev.wait_for(lambda m: isinstance(m, Set) and m.running == 0, "the SET")

            # the same PRESS frame twice before it is on disk: one ACK, after the
            # commit; a repeat after that (the ACK was lost) is ACKed again; logged once
            press = dev.frame(Press(2, 0, 1000))
            dev.write(press)
            dev.write(press)
            await wait_for(lambda: t.svc.state.clock.running == 1, "the press applied")
            await wait_for(lambda: dev.acks(2) == 1, "the ACK of seq 2, once on disk")
            dev.write(press)
            await wait_for(lambda: dev.acks(2) == 2, "the repeat ACKed again")

            # garbage between frames: counted, ignored, the next frame still gets through
            bad_before = t.clock.stats.frames_bad
            dev.write(b"\x13\x37\xfe\xff\x01\x02\x00garbage-and-more\x00\x05\x05\x05")
            # a corrupted CRC: ignored, no ACK; the retransmission gets through
            bad = bytearray(dev.frame(Press(3, 1, 2000)))
            bad[-3] ^= 0x55
            dev.write(b"\x00" + bytes(bad))
            # four bad frames: the three garbage runs between zero bytes, and the bad CRC
            await wait_for(
                lambda: t.clock.stats.frames_bad >= bad_before + 4,
                "the garbage and the corrupted frame counted",
            )
            assert dev.acks(3) == 0  # the host answers a frame as it reads it
            dev.write(dev.frame(Press(3, 1, 2000)))
            await wait_for(lambda: dev.acks(3) == 1, "the ACK of the retransmission")
            await wait_for(lambda: t.svc.state.clock.running == 0, "the retransmission applied")

            # reordered: seq 5 arrives before seq 4; both are taken once, then a late
            # duplicate of 4 is only ACKed
            dev.write(dev.frame(Pause(5)) + dev.frame(Press(4, 0, 3000)))
            await wait_for(lambda: dev.acks(4) == 1 and dev.acks(5) == 1, "ACKs of 4 and 5")
            assert dev.acks(3) == 1  # ACKs come in order: the corrupted frame got none
            dev.write(dev.frame(Press(4, 0, 3000)))
            await wait_for(lambda: dev.acks(4) == 2, "the duplicate's ACK")

            # a valid frame with an unknown type: NAK reason 2; a bad payload: NAK reason 3
            dev.write(encode_frame(b"\x01\x7e\x00\x06") + encode_frame(b"\x01\x02\x00\x07\x09"))
            nak = await dev.wait_for(lambda m: isinstance(m, Nak) and m.nakked == 6, "NAK 6")
            assert isinstance(nak, Nak)
            assert nak.reason is NakReason.UNKNOWN_TYPE
            nak = await dev.wait_for(lambda m: isinstance(m, Nak) and m.nakked == 7, "NAK 7")
            assert isinstance(nak, Nak)
            assert nak.reason is NakReason.BAD_PAYLOAD

            await wait_for(lambda: len(t.presses()) == 3, "three presses logged")
            # every frame above was read (the link counted the two duplicates and the
            # two bad payloads); rows they wrongly made would show after the sentinel below
            await wait_for(
                lambda: t.clock.stats.duplicates == 3 and t.clock.stats.payloads_bad == 2,
                "the duplicates and the bad payloads counted",
            )
            rows = t.rows()
            expected = ["clock_pressed", "clock_pressed", "neutralized", "clock_pressed"]
            assert [r.type for r in rows[1:]] == expected
            assert rows[-1].refused  # side 0's press while neutralized
            stats = t.clock.stats
            assert stats.duplicates == 3
            assert stats.payloads_bad == 2
            assert stats.frames_bad >= 3
            assert t.online()

            # the device resets while the port stays open: it counts from 1 again, and
            # its first press repeats the seq of the last one; nothing is taken for a repeat
            sets_before = sum(isinstance(m, Set) for m in dev.read())
            dev.write(dev.frame(Hello(1, "raw-1", 0x0F)))
            await wait_for(
                lambda: sum(isinstance(m, Set) for m in dev.read()) > sets_before,
                "the SET that reconciles the reset device",
            )
            # a sentinel: this press is logged after anything the frames above made
            sentinel_t = t.svc.timeline.now_ms()
            dev.write(dev.frame(Press(4, 0, 50)))
            await wait_for(
                lambda: any(r.t >= sentinel_t for r in t.presses()),
                "the reset device's press logged",
            )
            assert [r.type for r in t.rows()[1:]] == [*expected, "clock_pressed"]
            assert [online for _, online, _ in t.statuses] == [True, True]
            beats.cancel()
    finally:
        pty.unplug()


async def test_serial_clock_api_with_a_raw_device(tmp_path: Path) -> None:
    link = tmp_path / "ttyAPI"
    pty = Pty(link)
    dev = RawDevice(pty)
    timeline = MonotonicTimeline()
    clock = SerialClock(str(link), timeline=timeline, initial_ms=60_000)
    events: list[DeviceEvent] = []

    async def collect() -> None:
        async for ev in clock.events():
            events.append(ev)

    reader = asyncio.create_task(collect(), name="collect")
    try:
        await clock.set_times((50_000, 40_000), None, True)  # before any connection
        await dev.wait_for(lambda m: True, "the host's first frame")
        dev.write(dev.frame(Hello(1, "api", 0x03)))
        beats = asyncio.create_task(dev.heartbeats(), name="raw-heartbeats")
        await wait_for(lambda: DeviceOnline("api") in events, "DeviceOnline")
        got = await dev.wait_for(lambda m: isinstance(m, Set), "the reconciling SET")
        assert got == Set(got.seq, (50_000, 40_000), None, True)

        dev.write(dev.frame(State(2, (49_000, 39_000), 1)))
        dev.write(dev.frame(Press(3, 0, 77, (48_000, 38_000))))
        dev.write(dev.frame(Pause(4)))
        await wait_for(lambda: len(events) == 4, "three device events")
        assert events[1:] == [
            TimesReported((49_000, 39_000), 1),
            SidePressed(0, 77, 3, (48_000, 38_000)),
            PausePressed(4),
        ]

        before_run = timeline.now_ms()
        await clock.run(1)
        after_run = timeline.now_ms()
        await asyncio.sleep(0.2)
        before_pause = timeline.now_ms()
        await clock.pause()
        after_pause = timeline.now_ms()
        await clock.show_text("x" * 100)
        await clock.beep()
        await dev.wait_for(lambda m: isinstance(m, Beep), "the BEEP")
        sets = [m for m in dev.read() if isinstance(m, Set)]
        assert (sets[-2].running, sets[-2].paused) == (1, False)
        assert sets[-2].remaining_ms == (50_000, 40_000)
        assert (sets[-1].running, sets[-1].paused) == (None, True)
        assert sets[-1].remaining_ms[0] == 50_000
        # side 1 ran from the run to the pause (0.2 s, more on a busy machine), to the ms
        ran = (before_pause - after_run, after_pause - before_run)
        assert 40_000 - ran[1] - 1 <= sets[-1].remaining_ms[1] <= 40_000 - ran[0] + 1, ran
        texts = [m for m in dev.read() if isinstance(m, Text)]
        assert texts[-1].text == "x" * 64
        beeps = [m for m in dev.read() if isinstance(m, Beep)]
        assert beeps[-1].duration_ms == 200

        # a device that reports itself as what only a host sends: counted, ignored
        dev.write(dev.frame(Set(5, (1, 2), 0, False)))
        await wait_for(lambda: clock.unexpected == 1, "the unexpected SET counted")
        assert len(events) == 4

        beats.cancel()
        pty.unplug()
        await wait_for(lambda: isinstance(events[-1], DeviceOffline), "DeviceOffline")
        assert clock.online is False
    finally:
        await clock.close()
        await asyncio.wait_for(reader, 2)
        pty.unplug()
    assert clock.connects == 1


# --- a clock on TCP -------------------------------------------------------------------------------


async def test_socket_url_to_a_clock_on_tcp(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.setblocking(False)
    port = server.getsockname()[1]
    fw = ClockFirmware("tcp-clock")
    connections: list[socket.socket] = []

    async def serve_clock() -> None:
        while True:
            conn, _ = await loop.sock_accept(server)
            connections.append(conn)
            await run_fd(fw, conn.fileno())
            conn.close()

    try:
        async with (
            running(serve_clock(), "tcp-clock"),
            table(tmp_path, f"socket://127.0.0.1:{port}") as t,
        ):
            await wait_for(t.online, "the TCP clock online")
            await wait_for(lambda: shows_service_times(fw, t.svc), "the display")
            fw.press(0)
            await wait_for(lambda: len(t.presses()) == 1, "the press over TCP")
            await wait_for(lambda: shows_service_times(fw, t.svc), "the display after the press")
            # the clock drops the connection: offline, then the host connects again
            connections[-1].shutdown(socket.SHUT_RDWR)
            await wait_for(lambda: not t.online(), "offline after the TCP drop", limit_s=1.5)
            await wait_for(t.online, "online again", limit_s=6)
            assert len(connections) == 2
            fw.press(1)
            await wait_for(lambda: len(t.presses()) == 2, "a press on the new connection")
    finally:
        server.close()
        for c in connections:
            c.close()


# --- specs, commands -------------------------------------------------------------------------


def test_serial_specs() -> None:
    assert TRANSPORTS.parse("serial:/dev/ttyACM0") == SerialSpec(
        "serial:/dev/ttyACM0", "/dev/ttyACM0"
    )
    assert TRANSPORTS.parse("serial:socket://h:1,hexdump=/tmp/x.hex") == SerialSpec(
        "serial:socket://h:1,hexdump=/tmp/x.hex", "socket://h:1", hexdump="/tmp/x.hex"
    )
    with pytest.raises(ValueError, match="unknown serial option"):
        TRANSPORTS.parse("serial:/dev/ttyACM0,speed=9")
    spec = TRANSPORTS.parse("serial:hwgrep://0483:5740")
    dev = TRANSPORTS.open(spec, ClockContext(MonotonicTimeline(), initial_ms=60_000))
    assert isinstance(dev, SerialClock)
    assert dev.url == "hwgrep://0483:5740"


def test_emulator_commands() -> None:
    assert parse_command("a") == ("press", 0)
    assert parse_command("l\n") == ("press", 1)
    assert parse_command(" ") == ("pause", 0)
    assert parse_command("space") == ("pause", 0)
    assert parse_command("wait 250  # settle") == ("wait", 250)
    assert parse_command("press 1") == ("press", 1)
    assert parse_command("  ") is None
    with pytest.raises(ValueError, match="not a clock command"):
        parse_command("press 2")


async def test_serve_and_emulate_clock_commands_over_socat(
    tmp_path: Path, socat_pair: Socat
) -> None:
    script = tmp_path / "buttons.txt"
    script.write_text("wait 3000\npress 0\nwait 300\npress 1\nwait 300\npause\nwait 300\nquit\n")
    emu = await asyncio.create_subprocess_exec(
        str(RACKCLOCK),
        "emulate-clock",
        "--serial",
        str(socat_pair.b),
        "--script",
        str(script),
        "--hexdump",
        str(tmp_path / "clock.hex"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    serve = await asyncio.create_subprocess_exec(
        str(RACKCLOCK),
        "serve",
        "--variant",
        "nzasp",
        "--mode",
        "scoresheet",
        "--log",
        str(tmp_path / "game.db"),
        "--clock",
        f"serial:{socat_pair.a},hexdump={tmp_path / 'host.hex'}",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        emu_out, emu_err = await asyncio.wait_for(emu.communicate(), 15)
        assert emu.returncode == 0, emu_err.decode()
        assert serve.stdin is not None
        serve.stdin.write(b"quit\n")
        await serve.stdin.drain()
        serve.stdin.close()
        out, err = await asyncio.wait_for(serve.communicate(), 15)
    finally:
        for proc in (emu, serve):
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert serve.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert '"online": true' in "\n".join(lines)
    types = [line for line in lines if '"type"' in line]
    assert [x.split('"type": "')[1].split('"')[0] for x in types] == [
        "GameStarted",
        "ClockPressed",
        "ClockPressed",
        "Neutralized",
    ]
    shown = emu_out.decode().splitlines()
    assert any(">" in line and "<" in line for line in shown)
    assert "paused" in shown[-1] or "paused" in shown[-2]
    assert (tmp_path / "clock.hex").read_text().count(" TX ") > 3
    assert (tmp_path / "host.hex").read_text().count(" RX ") > 3


class LiteralDevice:
    """A device written from the spec alone that keeps one link for its whole life (the
    spec does not make it start over when the host goes quiet), on the pty master."""

    def __init__(self, pty: Pty) -> None:
        self.fd = pty.master
        os.set_blocking(self.fd, False)
        self.link = Link(0, session=0xC10C)
        self.delivered: list[Message] = []
        self.t0 = time.monotonic()

    def now(self) -> int:
        return int((time.monotonic() - self.t0) * 1000)

    def send(self, msg: Message) -> None:
        os.write(self.fd, self.link.send(msg, self.now()))

    def pump(self, *, beat: bool = True) -> None:
        """Read what the host sent; answer as the spec says (ACKs, and HELLO to a
        host that starts a new session); heartbeat unless ``beat`` is False."""
        with contextlib.suppress(BlockingIOError):
            while data := os.read(self.fd, 4096):
                msgs, reply = self.link.receive(data, self.now())
                if reply:
                    os.write(self.fd, reply)
                for msg in msgs:
                    self.delivered.append(msg)
                    if isinstance(msg, Hello):
                        self.send(Hello(0, "literal", 0x0F))
        if beat:
            with contextlib.suppress(OSError):
                os.write(self.fd, self.link.poll(self.now(), self.now()))

    def sets(self) -> int:
        return sum(isinstance(m, Set) for m in self.delivered)


async def test_a_device_that_keeps_its_link_takes_the_hosts_sets_after_the_host_reopens(
    tmp_path: Path,
) -> None:
    """The host reopens the port on its own after a second of silence and counts from 1
    again; its HELLO (a new session) tells the device, whose duplicate window would
    otherwise drop the host's next SETs as repeats (docs/clock-protocol.md, "Sessions")."""
    link = tmp_path / "ttyLIT"
    pty = Pty(link)
    dev = LiteralDevice(pty)

    async def pumping(beat: Callable[[], bool]) -> None:
        while True:
            dev.pump(beat=beat())
            await asyncio.sleep(0.01)

    quiet = False
    try:
        async with table(tmp_path, str(link)) as t:
            pump = asyncio.create_task(pumping(lambda: not quiet), name="literal-device")
            try:
                await wait_for(lambda: dev.sets() > 0, "the host's first SET")
                dev.send(Hello(0, "literal", 0x0F))
                await wait_for(t.online, "online")
                for side in (0, 1, 0, 1):  # presses: the host answers each with a SET
                    sets = dev.sets()
                    dev.send(Press(0, side, dev.now()))
                    await wait_for(lambda: dev.sets() > sets, "the SET after a press")  # noqa: B023
                hosts_session = dev.link.peer_session
                quiet = True  # a stall: the host hears nothing for over a second
                await wait_for(lambda: not t.online(), "the host to give the device up", 5)
                quiet = False
                await wait_for(
                    lambda: dev.link.peer_session != hosts_session, "the host's new session"
                )
                before = dev.sets()
                await wait_for(t.online, "online again")
                # the host's reconciling SET has a seq the device saw in the old session
                await wait_for(lambda: dev.sets() > before, "a SET taken after the reopen")
                assert t.clock.connects == 2
            finally:
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pump
    finally:
        pty.unplug()
