"""A clock's device time that cannot be true (clock/device/device_time.py): kept out of
the offset, ruled on, and never moving a turn's time to the other player
(docs/clock-protocol.md, "Device time"). Fake time, the real service and log."""

from __future__ import annotations

import asyncio
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import aiomqtt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clock.device.device_time import (
    IMPOSSIBLE_MS,
    REANCHOR,
    TOLERANCE_MS,
    DeviceTime,
    Fault,
    Reading,
)
from clock.device.interface import SidePressed
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import ClockPressed, GameStarted, Neutralized, Resumed
from firmware_bridge.host.mqtt_clock import MqttClock
from firmware_bridge.mqtt.connection import parse_url
from tests.clock.test_service import ScriptedDevice, logged
from tests.helpers import settle

SPEED = GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
_MASK = (1 << 32) - 1


# --- the pure pieces -------------------------------------------------------------------


def agreed(dt: DeviceTime, table_ms: int, device_ms: int) -> None:
    """Two honest heartbeats 1 ms apart on the link: the offset is trusted."""
    assert dt.sample(table_ms, device_ms) is None
    assert dt.sample(table_ms + 1_001, device_ms + 1_000) is None


def test_one_sample_far_ahead_is_ignored_and_the_offset_stands() -> None:
    dt = DeviceTime()
    agreed(dt, 100_000, 0)  # offset 100 000
    # the issue's glitch: a press whose counter says 100 s later than it can be
    assert dt.read(110_000, 110_000) == Reading(None, Fault("ahead", 100_000))
    assert dt.rejected == 1
    # the next press, 1.5 s late on the link, is judged by the true offset
    assert dt.read(121_500, 20_000) == Reading(120_000)


def test_a_counter_that_goes_back_is_ignored() -> None:
    dt = DeviceTime()
    agreed(dt, 100_000, 50_000)
    assert dt.read(102_000, 20_000) == Reading(None, Fault("back", 32_000))
    assert dt.read(103_000, 53_000) == Reading(103_000)  # the clock is itself again


def test_a_bad_first_sample_is_outvoted() -> None:
    dt = DeviceTime()
    assert dt.sample(100_000, 5_000) is None  # a glitch, 5 s ahead: cannot be judged yet
    # nothing agrees with it: the next press is stamped on arrival, and vouches for nothing
    assert dt.read(120_000, 20_000) == Reading(None)
    assert dt.read(130_001, 30_000) == Reading(None)
    # two honest samples agree: the glitch is ignored, and a late press is read right
    assert dt.read(142_000, 40_000) == Reading(140_000)


def test_a_counter_that_jumps_ahead_is_followed_after_a_few_samples() -> None:
    dt = DeviceTime()
    agreed(dt, 100_000, 0)
    for i in range(REANCHOR):  # jumped 50 s ahead, and stays so
        reading = dt.read(110_000 + 1_000 * i, 60_000 + 1_000 * i)
        assert reading == Reading(None, Fault("ahead", 50_000)), i
    assert dt.read(120_000, 70_000) == Reading(120_000)


def test_a_counter_that_jumps_back_is_followed_after_a_few_samples() -> None:
    dt = DeviceTime()
    agreed(dt, 100_000, 50_000)
    faults = [dt.read(102_000 + 10_000 * i, 30_000 + 10_000 * i).fault for i in range(REANCHOR)]
    # first behind the last sample kept; then past it, but still 22 s off: the same fault
    assert faults == [Fault("back", 22_000)] * REANCHOR
    assert dt.read(142_000, 70_000) == Reading(142_000)


def test_an_ordinary_slower_sample_is_no_fault() -> None:
    dt = DeviceTime()
    agreed(dt, 100_000, 0)
    assert dt.sample(100_000 + 5_000 + TOLERANCE_MS, 5_000) is None
    # 198 ms faster than the fastest yet: jitter, not a fault
    assert dt.read(105_801, 5_999) == Reading(105_999)


# --- the table's rulings ----------------------------------------------------------------


def table(path: Path, tl: FakeTimeline, dev: ScriptedDevice) -> TableService:
    return TableService(path, timeline=tl, heartbeat_ms=0, device=dev)


class Transport:
    """What the serial and MQTT transports do with a clock's counter."""

    def __init__(self, tl: FakeTimeline, dev: ScriptedDevice) -> None:
        self.tl, self.dev, self.time = tl, dev, DeviceTime()

    def heartbeat(self, device_ms: int) -> None:
        self.time.sample(self.tl.now_ms(), device_ms)

    def press(self, side: int, device_ms: int) -> None:
        reading = self.time.read(self.tl.now_ms(), device_ms)
        self.dev.emit(
            SidePressed(side, device_ms, device_at_ms=reading.at, device_fault=reading.fault)
        )


async def test_the_issues_glitch_is_ruled_on_and_charges_nobody(tmp_path: Path) -> None:
    tl = FakeTimeline(100_000)
    dev = ScriptedDevice()
    clock = Transport(tl, dev)
    async with table(tmp_path / "t.db", tl, dev) as svc:
        await svc.submit(SPEED)
        clock.heartbeat(0)  # the counter is the table's time less 100 s
        tl.set(101_000)
        clock.heartbeat(1_000)
        tl.set(110_000)
        clock.press(0, 110_000)  # Ann: the counter says 100 s later than it can be
        await settle(svc)
        tl.set(130_000)
        clock.press(1, 30_000)  # Ben, on time
        await settle(svc)
        tl.set(141_500)
        clock.press(0, 40_000)  # Ann, held up 1.5 s on the link
        await settle(svc)
        rulings = [(r.rule, r.text) for r in svc.state.rulings[1:]]  # after the start's
    presses = [e for _, e in logged(tmp_path / "t.db") if isinstance(e, ClockPressed)]
    # Ann charged her 10 s, Ben his 20 s, Ann her 10 s: the link's 1.5 s charged to nobody
    assert [(e.t, e.arrived_ms, e.device_fault) for e in presses] == [
        (110_000, None, "ahead"),
        (130_000, None, None),
        (140_000, 141_500, None),
    ]
    assert rulings == [
        (
            "table procedure: a clock's impossible device time is ignored",
            "the clock at Ann's press: device time 100.0 s ahead of the table's: sample "
            "ignored; press stamped on arrival",
        ),
        (
            "table procedure: a late press is stamped at the clock's own time",
            "Ann's press reached the table 1.50 s after the clock recorded it (the link was "
            "down or slow): stamped at the clock's time, 24:40.0 left, not charged for the "
            "delay",
        ),
    ]


async def test_a_stamp_cut_short_says_by_how_much(tmp_path: Path) -> None:
    tl = FakeTimeline(0)
    dev = ScriptedDevice()
    async with table(tmp_path / "t.db", tl, dev) as svc:
        await svc.submit(SPEED)
        tl.set(200_000)
        dev.emit(SidePressed(0, device_at_ms=10_000))  # a clock that kept it 190 s
        await settle(svc)
        tl.set(205_000)
        await svc.submit(Neutralized(by="director", reason="a question"))
        tl.set(206_000)
        await svc.submit(Resumed(by="director"))
        tl.set(207_000)
        dev.emit(SidePressed(1, device_at_ms=204_000))  # before the resumption, by its clock
        await settle(svc)
        rulings = [r.text for r in svc.state.rulings if "press reached" in r.text]
    presses = [e for _, e in logged(tmp_path / "t.db") if isinstance(e, ClockPressed)]
    assert [e.device_late_ms for e in presses] == [190_000, 3_000]
    assert "stamped 60.0 s before arrival, the limit; the device said 190.0 s" in rulings[0]
    assert (
        "stamped 1.0 s before arrival, the last logged event; the device said 3.0 s" in rulings[1]
    )


# --- the property: no press moves time between the players -----------------------------

START = 100_000


@dataclass
class Message:
    """One message from the clock, as the simulation knows it."""

    sent: int
    """True table time it was sent (for a press: the instant the player pressed)."""
    counter: int
    """``device_ms`` as sent (corrupted or not)."""
    side: int | None
    """The presser; None for a heartbeat."""
    arrival: int = 0


def script(rng: random.Random, presses: int) -> list[Message]:
    """Honest traffic (delays up to TOLERANCE_MS, some presses held up to 50 s on the
    link) with corrupted counters: far ahead once, far behind the last message once, and
    jumps ahead or back that stay. A corruption or an outage comes only once the clock
    has had ``REANCHOR + 1`` honest messages since the last corruption (the documented
    cost of a jump: up to ``REANCHOR`` presses stamped on arrival), and the first
    message may be a glitch."""
    skew = rng.randrange(1 << 32)  # the counter's true offset from the table's time
    t, last_sent, last_arrival, calm = START, START, START, 0
    out: list[Message] = []

    def send(sent: int, side: int | None) -> None:
        nonlocal skew, last_sent, last_arrival, calm
        counter = sent + skew
        corrupt = rng.random() < (0.3 if not out else 0.15) and (not out or calm > REANCHOR)
        if corrupt:
            kind = rng.choice(["ahead", "behind"] if not out else ["ahead", "behind", "up", "down"])
            far = rng.randrange(1_000, 200_000)
            if kind == "ahead":
                counter += far
            elif kind == "behind":
                counter = last_sent + skew - IMPOSSIBLE_MS - far
            elif kind == "up":
                skew += far
                counter = sent + skew
            else:  # back past the last message
                skew -= sent - last_sent + IMPOSSIBLE_MS + far
                counter = sent + skew
            calm = 0
        delay = rng.randrange(TOLERANCE_MS + 1)
        if not corrupt and side is not None and calm > REANCHOR and rng.random() < 0.15:
            delay = rng.randrange(1_000, 50_000)  # held up on the link
        arrival = max(sent + delay, last_arrival)
        out.append(Message(sent, counter & _MASK, side, arrival))
        last_sent, last_arrival = sent, arrival
        calm += 0 if corrupt else 1

    send(t, None)  # the heartbeat after HELLO
    for i in range(presses):
        for _ in range(rng.randrange(3)):
            t = max(t, last_arrival) + rng.randrange(100, 3_000)
            send(t, None)
        t = max(t, last_arrival) + rng.randrange(1_000, 30_000)
        send(t, i % 2)
    return out


async def play(messages: list[Message], path: Path) -> list[tuple[Message, ClockPressed]]:
    """The messages through a transport's DeviceTime into the real service."""
    tl = FakeTimeline(START)
    dev = ScriptedDevice()
    clock = Transport(tl, dev)
    async with table(path, tl, dev) as svc:
        await svc.submit(SPEED)
        for m in messages:
            tl.set(m.arrival)
            if m.side is None:
                clock.heartbeat(m.counter)
            else:
                clock.press(m.side, m.counter)
                await settle(svc)
    logged_presses = [e for _, e in logged(path) if isinstance(e, ClockPressed)]
    made = [m for m in messages if m.side is not None]
    assert len(logged_presses) == len(made)
    return list(zip(made, logged_presses, strict=True))


@settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 2**32), st.integers(4, 24))
def test_no_press_moves_time_between_the_players(seed: int, presses: int) -> None:
    """Each press's stamp is within TOLERANCE_MS after the instant it was made (never
    before it: the presser is never credited time they used), so each turn charged
    differs from the truth by less than TOLERANCE_MS, whatever the counter said."""
    messages = script(random.Random(seed), presses)
    with tempfile.TemporaryDirectory() as tmp:
        pairs = asyncio.run(play(messages, Path(tmp) / "t.db"))
    before, true_before = START, START
    for m, e in pairs:
        assert e.t is not None
        assert 0 <= e.t - m.sent <= TOLERANCE_MS, (m, e)
        charged, truth = e.t - before, m.sent - true_before
        assert abs(charged - truth) <= TOLERANCE_MS, (m, e, charged, truth)
        before, true_before = e.t, m.sent


# --- HELLO and the offset (docs/clock-protocol.md, "Sessions") ---------------------------


def test_a_hello_in_the_same_session_keeps_the_offset_and_a_new_session_forgets_it() -> None:
    tl = FakeTimeline(100_000)
    clock = MqttClock(parse_url("mqtt://127.0.0.1:1/club/t1"), timeline=tl)  # never started
    no_message = cast("aiomqtt.Message", None)  # HELLO and HEARTBEAT are not acknowledged

    def hear(doc: str) -> None:
        clock._on_event(doc.encode(), no_message)

    hello = (
        '{"v":1,"type":"hello","seq":%d,"device_id":"c","capabilities":0,"version":1,"session":%d}'
    )
    hear(hello % (1, 7))
    hear('{"v":1,"type":"heartbeat","seq":2,"device_ms":0}')
    tl.set(101_000)
    hear('{"v":1,"type":"heartbeat","seq":3,"device_ms":1000}')
    hear(hello % (4, 7))  # it reconnected: the same session, the same counter
    assert clock.device_time.table_time(5_000) == 105_000
    hear(hello % (1, 8))  # it restarted: its counter may count from 0 again
    assert clock.device_time.table_time(5_000) is None
