"""The MQTT transport against a real Mosquitto, one broker per test.

The service side is :class:`MqttClock` inside a real :class:`TableService`
(a SQLite log in ``tmp_path``); the device side is the emulated firmware
(:class:`ClockFirmware` over :class:`MqttDevice`) or, where a test needs
exact payloads (duplicates, reordering, garbage), a raw publisher. Every wait
is bounded (:func:`wait_until`); nothing sleeps a fixed time except the one
test that must let a retained message expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from clock.device.clock_spec import ClockContext
from clock.device.interface import DeviceEvent, DeviceOffline, DeviceOnline, SidePressed
from clock.log.eventlog import EventLog
from clock.table.service import TableService, Update
from clock.timeline import MonotonicTimeline
from engine.events import ClockPressed, Forfeited, GameStarted
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.mqtt_device import MqttDevice
from firmware_bridge.host.mqtt_clock import MqttClock, SeqFilter
from firmware_bridge.host.transports import TRANSPORTS
from firmware_bridge.mqtt.connection import (
    Backoff,
    BrokerSettings,
    MqttSession,
    parse_url,
    publish_properties,
)
from firmware_bridge.mqtt.topics import TableTopics, TopicError, client_id, parse_topic
from firmware_bridge.venue.publisher import TablePublisher
from firmware_bridge.wire.protocol import Set, to_json
from tests.helpers import (
    REPO,
    Broker,
    BrokerFactory,
    free_port,
    missing_part,
    wait_for,
    wait_port,
)

TABLE = TableTopics("club", "t1")
NZASP = GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
"""25:00 each, no cutoff: presses need no plays."""
WAIT_S = 5.0
"""The longest any single thing may take before the test fails."""


# --- helpers ---------------------------------------------------------------------------


def broker_settings(broker: Broker, **kw: Any) -> BrokerSettings:
    return parse_url(broker.url("/club/t1", **kw))


def presses_logged(path: Path) -> list[ClockPressed]:
    """Accepted clock presses in the log, read through a second connection."""
    with EventLog.open(path, create=False) as lg:
        return [e for _, e in lg.events() if isinstance(e, ClockPressed)]


class Raw:
    """A test client that publishes exact payloads and records what it receives."""

    def __init__(self, broker: BrokerSettings, name: str, *subscriptions: str) -> None:
        self.got: list[aiomqtt.Message] = []
        self.session = MqttSession(
            broker,
            identifier=f"test-{name}",
            subscriptions=subscriptions,
            on_message=self.got.append,
            backoff=Backoff(initial_s=0.05, cap_s=0.2),
            connect_timeout_s=1.0,
        )

    async def __aenter__(self) -> Raw:
        self.session.start()
        await self.session.wait_connected(WAIT_S)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.session.close()

    async def publish(self, topic: str, payload: bytes, **kw: Any) -> None:
        async with asyncio.timeout(WAIT_S * 2):
            assert await self.session.publish(topic, payload, **kw)

    def payloads(self, topic: str) -> list[bytes]:
        return [bytes(m.payload) for m in self.got if m.topic.value == topic]


@contextlib.asynccontextmanager
async def running_table(
    broker: BrokerSettings, log: Path, **clock_kw: Any
) -> AsyncIterator[tuple[TableService, MqttClock]]:
    """A service on ``log`` with an MqttClock, the game started, the clock subscribed."""
    clock = MqttClock(broker, **clock_kw)
    clock.session.backoff = Backoff(initial_s=0.05, cap_s=0.3)
    svc = TableService(log, timeline=MonotonicTimeline(), device=clock, heartbeat_ms=0)
    async with svc:
        ack = await svc.submit(NZASP)
        assert ack.accepted
        await clock.session.wait_connected(WAIT_S)
        yield svc, clock


def device(broker: BrokerSettings, name: str = "emu-1") -> MqttDevice:
    link = MqttDevice(ClockFirmware(name), broker, identifier=f"test-clock-{name}")
    link.session.backoff = Backoff(initial_s=0.05, cap_s=0.3)
    return link


def press(seq: int, side: int) -> bytes:
    return json.dumps(
        {"v": 1, "type": "press", "seq": seq, "side": side, "device_ms": 1000 + seq}
    ).encode()


HELLO = b'{"v":1,"type":"hello","seq":1,"device_id":"raw-1","capabilities":0,"version":1}'


# --- pure parts ------------------------------------------------------------------------------


def test_topics_and_client_ids() -> None:
    assert TABLE.clock_events == "rackclock/v1/club/t1/clock/events"
    assert parse_topic(TABLE.director_commands) == (TABLE, "director/commands")
    with pytest.raises(TopicError):
        parse_topic("rackclock/v1/club/t1/other")
    with pytest.raises(TopicError):
        TableTopics("club", "t/1")
    with pytest.raises(TopicError):
        TableTopics("club", "#")
    assert client_id("service", "club", "t1", host="a b") == "rackclock-service-club-t1-a_b"
    assert client_id("clock", "club", "t1", host="x") != client_id(
        "service", "club", "t1", host="x"
    )


def test_url_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    s = parse_url("mqtts://table-t1:s%40cret@hub:9999/club/t1?ca=/etc/ca.pem&keepalive=3")
    assert (s.host, s.port, s.username, s.keepalive) == ("hub", 9999, "table-t1", 3)
    assert s.password == "s@cret"
    assert s.tls is not None
    assert s.tls.ca_file == "/etc/ca.pem"
    assert s.table == TABLE
    assert "s@cret" not in repr(s)
    monkeypatch.setenv("RACKCLOCK_MQTT_PASSWORD", "from-env")
    assert parse_url("mqtt://u@h").password == "from-env"
    assert parse_url("mqtt://h/?protocol=3.1.1").protocol == 4
    for bad in ("http://h", "mqtt://", "mqtt://h?colour=red", "mqtt://h/a/b/c", "mqtt://h:x"):
        with pytest.raises(ValueError, match=r"\S"):
            parse_url(bad)


def test_backoff_is_capped_exponential_with_jitter() -> None:
    b = Backoff(initial_s=0.2, cap_s=5.0, jitter=0.25)
    delays = [b.next() for _ in range(10)]
    assert 0.15 <= delays[0] <= 0.25
    assert all(d <= 5.0 * 1.25 for d in delays)
    assert delays[-1] >= 5.0 * 0.75
    b.reset()
    assert b.next() <= 0.25


def test_seq_filter_duplicates_stale_and_device_restart() -> None:
    f = SeqFilter()
    assert [f.check(s) for s in (1, 2, 3, 3, 2, 5, 4)] == [
        "new", "new", "new", "duplicate", "duplicate", "new", "stale",
    ]  # fmt: skip
    assert f.check(1, restart=True) == "new"  # a HELLO from a restarted device
    assert f.check(2) == "new"


def test_seq_filter_sessions() -> None:
    f = SeqFilter()
    assert [f.check(s) for s in (1, 2, 3)] == ["new", "new", "new"]  # HELLO, presses
    # the HELLO delivered again (QoS 1) in the same session: a repeat, nothing resets,
    # so the presses that follow it again stay repeats
    assert f.check(1) == "duplicate"
    assert f.check(2) == "duplicate"
    # a restart: a new session, counting from 1 again
    assert f.check(1, new_session=True) == "new"
    assert f.check(2) == "new"


def hello(seq: int, session: int) -> bytes:
    return json.dumps(
        {"v": 1, "type": "hello", "seq": seq, "device_id": "raw-1", "capabilities": 0,
         "version": 1, "session": session}
    ).encode()  # fmt: skip


async def test_a_clocks_session_decides_what_a_hello_resets(
    mosquitto: Broker, tmp_path: Path
) -> None:
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    async with running_table(b, log) as (_, clock), Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, hello(1, 0xAAAA))
        await dev.publish(TABLE.clock_events, press(2, 0))
        # reconnected: HELLO again in the same session, then a late repeat of press 2
        await dev.publish(TABLE.clock_events, hello(3, 0xAAAA))
        await dev.publish(TABLE.clock_events, press(2, 0))
        # restarted: a new session counts from 1 again; its press 2 is a new press
        await dev.publish(TABLE.clock_events, hello(1, 0xBBBB))
        await dev.publish(TABLE.clock_events, press(2, 1))
        await wait_for(lambda: clock.stats.messages == 6, "all six messages")
        await wait_for(lambda: len(presses_logged(log)) == 2, "both presses committed")
        assert clock.stats.duplicates == 1
    assert [e.player for e in presses_logged(log)] == [0, 1]


def test_doctests() -> None:
    import doctest

    from firmware_bridge.host import mqtt_clock
    from firmware_bridge.mqtt import connection as mqtt_client
    from firmware_bridge.mqtt import topics

    for module in (topics, mqtt_client, mqtt_clock):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_devices_opens_an_mqtt_clock() -> None:
    spec = TRANSPORTS.parse("mqtt:mqtt://127.0.0.1:1883/club/t9")
    dev = TRANSPORTS.open(spec, ClockContext(MonotonicTimeline(), initial_ms=1_500_000))
    assert isinstance(dev, MqttClock)
    assert dev.table == TableTopics("club", "t9")


# --- service <-> device -----------------------------------------------------------------------


async def test_presses_reach_the_log_and_sets_come_back(mosquitto: Broker, tmp_path: Path) -> None:
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    async with running_table(b, log) as (svc, _):
        dev = device(b)
        dev.start()
        try:
            await wait_for(lambda: svc.status.device_online, "the device online")
            assert svc.status.device_id == "emu-1"
            await wait_for(lambda: dev.fw.sets > 0, "the first SET")
            assert dev.fw.running == 0
            assert not dev.fw.paused
            for side in (0, 1, 0):
                before = dev.fw.sets
                dev.fw.press(side)
                await wait_for(
                    lambda s=side: svc.state.clock.running == 1 - s,  # type: ignore[misc]
                    f"press {side}",
                )
                await wait_for(
                    lambda n=before: dev.fw.sets > n,  # type: ignore[misc]
                    "the SET after the press",
                )
                assert dev.fw.running == 1 - side
            remaining = svc.state.clock.remaining(0, svc.timeline.now_ms())
            assert abs(dev.fw.remaining(0) - remaining) < 500
        finally:
            await dev.close()
    assert [e.player for e in presses_logged(log)] == [0, 1, 0]


async def test_the_same_press_twice_is_one_event(mosquitto: Broker, tmp_path: Path) -> None:
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    async with running_table(b, log) as (_, clock), Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, HELLO)
        await dev.publish(TABLE.clock_events, press(2, 0))
        await dev.publish(TABLE.clock_events, press(2, 0))
        await dev.publish(TABLE.clock_events, press(3, 1))
        await wait_for(lambda: clock.stats.messages == 4, "all four messages")
        await wait_for(lambda: len(presses_logged(log)) == 2, "both presses committed")
        assert clock.stats.duplicates == 1
    assert [e.player for e in presses_logged(log)] == [0, 1]


async def test_an_older_seq_after_a_newer_one_is_dropped(mosquitto: Broker, tmp_path: Path) -> None:
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    async with running_table(b, log) as (_, clock), Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, HELLO)
        await dev.publish(TABLE.clock_events, press(10, 0))
        await dev.publish(TABLE.clock_events, press(9, 1))  # older: arrived too late
        await dev.publish(TABLE.clock_events, press(11, 1))
        await wait_for(lambda: clock.stats.messages == 4, "all four messages")
        await wait_for(lambda: len(presses_logged(log)) == 2, "presses 10 and 11 committed")
        assert clock.stats.stale == 1
    assert [e.player for e in presses_logged(log)] == [0, 1]


async def test_garbage_on_the_events_topic_is_counted_and_ignored(
    mosquitto: Broker, tmp_path: Path
) -> None:
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    garbage = [
        b"",
        b"\xff\xfe\x00",
        b"not json",
        b"[1,2,3]",
        b'{"v":2,"type":"press","seq":1,"side":0,"device_ms":0}',
        b'{"v":1,"type":"press","seq":"1","side":0,"device_ms":0}',
        b'{"v":1,"type":"press","seq":1,"side":7,"device_ms":0}',
        b'{"v":1,"type":"warp","seq":1}',
        b'{"v":1,"type":"press","seq":1,"side":0,"device_ms":0,"remaining_ms":[1]}',
        b"{" * 100_000,
        b"[" * 100_000,
        b'{"v":1,"type":"press","seq":1,"side":0,"device_ms":' + b"9" * 5000 + b"}",
        os.urandom(512),
    ]
    async with running_table(b, log) as (_, clock), Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, HELLO)
        for payload in garbage:
            await dev.publish(TABLE.clock_events, payload)
        await dev.publish(
            TABLE.clock_events, to_json(Set(5, (1, 2), 0, False))
        )  # valid, but not from a device
        await dev.publish(TABLE.clock_events, press(2, 0))
        await wait_for(lambda: len(presses_logged(log)) == 1, "the good press committed")
        assert clock.stats.garbage == len(garbage)
        assert clock.stats.unexpected == 1
    assert len(presses_logged(log)) == 1


# --- outages ----------------------------------------------------------------------------------


async def test_broker_restart_mid_game_loses_no_press(mosquitto: Broker, tmp_path: Path) -> None:
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    offline: list[DeviceEvent] = []
    async with running_table(b, log) as (svc, clock):

        def on_update(u: Update) -> None:
            if u.event is None and u.refused is None and not u.status.device_online:
                offline.append(DeviceOffline(u.status.device_reason))

        svc.add_listener(on_update)
        dev = device(b)
        dev.start()
        try:
            await wait_for(lambda: svc.status.device_online and dev.fw.sets > 0, "device up")
            dev.fw.press(0)
            await wait_for(lambda: len(presses_logged(log)) == 1, "the first press")
            first = svc.state.clock.running
            assert first == 1
            mosquitto.stop()
            await wait_for(
                lambda: not dev.session.connected.is_set() and not clock.session.connected.is_set(),
                "both clients to notice the broker is gone",
            )
            await wait_for(lambda: not svc.status.device_online, "the table to mark it offline")
            dev.fw.press(1)  # made while the broker is down: queued on the device
            dev.fw.press(0)
            assert dev.session.pending >= 2
            mosquitto.start()
            await wait_for(
                lambda: svc.state.clock.running == 1 and len(presses_logged(log)) == 3,
                "the presses made during the outage",
            )
            await wait_for(lambda: svc.status.device_online, "the device back online")
            # (queued messages may arrive before the re-subscription is confirmed)
            await wait_for(
                lambda: dev.session.stats.connects == clock.session.stats.connects == 2,
                "both clients reconnected",
            )
        finally:
            await dev.close()
    assert [e.player for e in presses_logged(log)] == [0, 1, 0]
    assert offline, "the outage was published"


async def test_the_broker_keeps_presses_for_a_service_that_is_away(
    mosquitto: Broker, tmp_path: Path
) -> None:
    """Persistent session: the service's client is gone (and the broker restarts
    meanwhile); the presses wait in its session and arrive when it is back."""
    b = broker_settings(mosquitto)
    ident = "test-service-away"
    first = MqttClock(b, identifier=ident)
    first.session.start()
    await first.session.wait_connected(WAIT_S)  # subscribed: the session exists
    await first.close()
    async with Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, HELLO)
        await dev.publish(TABLE.clock_events, press(2, 0))
    mosquitto.restart()
    async with Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, press(3, 1))
    second = MqttClock(b, identifier=ident)
    got: list[DeviceEvent] = []

    async def read() -> None:
        async for ev in second.events():
            got.append(ev)

    reader = asyncio.create_task(read())
    try:
        await wait_for(
            lambda: sum(isinstance(e, SidePressed) for e in got) == 2, "the queued presses"
        )
    finally:
        await second.close()
        await reader
    assert [e.side for e in got if isinstance(e, SidePressed)] == [0, 1]
    assert any(isinstance(e, DeviceOnline) and e.device_id == "raw-1" for e in got)


async def test_the_will_says_offline_when_the_device_dies(
    mosquitto: Broker, tmp_path: Path
) -> None:
    b = broker_settings(mosquitto)
    code = (
        "import asyncio, sys\n"
        "from firmware_bridge.device.firmware import ClockFirmware\n"
        "from firmware_bridge.device.mqtt_device import run_mqtt\n"
        "asyncio.run(run_mqtt(ClockFirmware('emu-kill'), sys.argv[1]))\n"
    )
    async with running_table(b, tmp_path / "t1.sqlite") as (svc, _):
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            code,
            mosquitto.url("/club/t1"),
            cwd=REPO,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            await wait_for(lambda: svc.status.device_id == "emu-kill", "the device's HELLO", 15)
            assert svc.status.device_online
            proc.send_signal(signal.SIGKILL)
            await wait_for(lambda: not svc.status.device_online, "the will")
            assert "offline" in svc.status.device_reason
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    async with Raw(b, "viewer", TABLE.clock_status) as viewer:
        await wait_for(lambda: viewer.payloads(TABLE.clock_status) == [b"offline"], "retained")


async def test_a_session_survives_an_unexpected_error(
    mosquitto: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug below us (here: aiomqtt's publish raising RuntimeError once) costs a
    reconnect, never the session: the message still goes out."""
    b = broker_settings(mosquitto)
    real = aiomqtt.Client.publish
    calls = 0

    async def flaky(self: aiomqtt.Client, *args: Any, **kw: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("injected")
        await real(self, *args, **kw)

    async with Raw(b, "watch", TABLE.state) as watch, Raw(b, "flaky") as flaky_client:
        monkeypatch.setattr(aiomqtt.Client, "publish", flaky)
        await flaky_client.publish(TABLE.state, b"after the error")
        await wait_for(lambda: watch.payloads(TABLE.state) == [b"after the error"], "it")
        assert flaky_client.session.stats.connects == 2
        assert "injected" in flaky_client.session.stats.last_error


# --- the table publisher ---------------------------------------------------------------------


async def test_the_live_document_is_retained_and_expires(mosquitto: Broker, tmp_path: Path) -> None:
    b = broker_settings(mosquitto)

    async def retained(name: str) -> tuple[list[bytes], list[bytes]]:
        """What a new subscriber gets at once: (retained live documents, statuses)."""
        async with Raw(b, name, TABLE.live, TABLE.status) as late:
            # retained messages come in subscription order: once the status is here,
            # a retained state would already have arrived
            await wait_for(lambda: bool(late.payloads(TABLE.status)), "the status")
            return late.payloads(TABLE.live), late.payloads(TABLE.status)

    async with running_table(b, tmp_path / "t1.sqlite") as (svc, _):
        pub = TablePublisher(svc, b, expiry_s=1, refresh_s=0.5)
        async with pub:
            await pub.session.wait_connected(WAIT_S)
            async with Raw(b, "viewer", TABLE.live, TABLE.status) as viewer:
                await wait_for(lambda: bool(viewer.payloads(TABLE.live)), "the live document")
                doc = json.loads(viewer.payloads(TABLE.live)[-1])
                assert doc["state"]["players"] == ["Ann", "Ben"]
                assert doc["state"]["clocks"][0]["running"] is True
                assert doc["expires_s"] == 1
                props = next(m.properties for m in viewer.got if m.topic.value == TABLE.live)
                assert props is not None
                assert 0 < getattr(props, "MessageExpiryInterval", 0) <= 1
                await wait_for(lambda: viewer.payloads(TABLE.status) == [b"online"], "online")
            # the terminal hangs: nothing refreshes the live document; it must vanish by itself
            # (its publishing task, by the name the publisher gives it)
            publishing = f"table[{pub.table.base}].state"
            next(t for t in asyncio.all_tasks() if t.get_name() == publishing).cancel()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 4.0
            for n in range(100):
                states, statuses = await retained(f"late-{n}")
                assert statuses == [b"online"]
                if not states:
                    break
                assert loop.time() < deadline, "the retained live document did not expire"
                await asyncio.sleep(0.25)
        # a clean close removes it at once and says offline
        async with TablePublisher(svc, b, expiry_s=60, refresh_s=3) as pub2:
            await pub2.session.wait_connected(WAIT_S)
            await wait_for(
                lambda: pub2.session.stats.published >= 2, "online and the live document"
            )
            assert (await retained("before-close"))[0]
        assert await retained("after-close") == ([], [b"offline"])


async def test_traffic_follows_what_happened(mosquitto: Broker, tmp_path: Path) -> None:
    """Each event once and small, with its seq; the live document after each; the full
    snapshot only on connecting, a change of phase, or when asked (issue 15)."""
    b = broker_settings(mosquitto)
    async with running_table(b, tmp_path / "t1.sqlite") as (svc, _):
        pub = TablePublisher(svc, b, expiry_s=60, refresh_s=30, snapshot_s=3600)
        async with pub:
            await pub.session.wait_connected(WAIT_S)
            topics = (TABLE.events, TABLE.live, TABLE.state)
            async with Raw(b, "viewer", *topics) as viewer:
                await wait_for(lambda: bool(viewer.payloads(TABLE.state)), "the snapshot")
                snapshots = len(viewer.payloads(TABLE.state))
                for i in range(10):  # ten presses (scoresheet mode): no change of phase
                    ack = await svc.submit(ClockPressed(player=i % 2), "test")
                    assert ack.accepted, ack.reason
                await wait_for(lambda: len(viewer.payloads(TABLE.events)) >= 10, "ten events")
                events = [json.loads(p) for p in viewer.payloads(TABLE.events)]
                seqs = [e["seq"] for e in events]
                assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gap, no repeat
                kinds = [e["event"]["type"] for e in events]
                assert kinds == ["clock_pressed"] * 10
                sizes = [len(p) for p in viewer.payloads(TABLE.events)]
                lives = [len(p) for p in viewer.payloads(TABLE.live)]
                assert max(sizes) < 300, sizes
                assert max(lives) < 1000, lives
                assert len(viewer.payloads(TABLE.state)) == snapshots  # no snapshot per press
                # a consumer that missed something asks for a snapshot
                await ask_state(b)
                await wait_for(lambda: pub.commands == 1, "the command")
                await wait_for(
                    lambda: len(viewer.payloads(TABLE.state)) == snapshots + 1, "the snapshot"
                )
                # a change of phase (the game ends) brings one too
                ack = await svc.submit(Forfeited(player=1), "director")
                assert ack.accepted, ack.reason
                await wait_for(
                    lambda: len(viewer.payloads(TABLE.state)) == snapshots + 2, "the snapshot"
                )


async def ask_state(b: BrokerSettings) -> None:
    async with aiomqtt.Client(b.host, b.port, identifier="test-ask") as director:
        await director.publish(TABLE.director_commands, b'{"type":"get_state","id":"s1"}', qos=1)


async def test_director_commands_get_replies(mosquitto: Broker, tmp_path: Path) -> None:
    b = broker_settings(mosquitto)
    reply_topic = TABLE.director_replies + "/desk-1"
    async with (
        running_table(b, tmp_path / "t1.sqlite") as (svc, _),
        TablePublisher(svc, b, expiry_s=10, refresh_s=3) as pub,
    ):
        await pub.session.wait_connected(WAIT_S)
        async with aiomqtt.Client(
            b.host, b.port, identifier="test-director", protocol=aiomqtt.ProtocolVersion.V5
        ) as director:
            await director.subscribe(reply_topic, qos=1)

            async def ask(doc: dict[str, Any], corr: bytes) -> tuple[dict[str, Any], bytes]:
                await director.publish(
                    TABLE.director_commands,
                    json.dumps(doc),
                    qos=1,
                    properties=publish_properties(response_topic=reply_topic, correlation=corr),
                )
                return await next_reply()

            async def next_reply() -> tuple[dict[str, Any], bytes]:
                async with asyncio.timeout(WAIT_S):
                    async for m in director.messages:
                        assert m.properties is not None
                        corr = getattr(m.properties, "CorrelationData", b"")
                        return json.loads(m.payload), corr
                raise AssertionError("no reply")

            ok, corr = await ask(
                {"type": "neutralized", "by": "director", "reason": "dispute", "id": "c1"}, b"k1"
            )
            assert corr == b"k1"
            assert (ok["accepted"], ok["id"]) == (True, "c1")
            assert isinstance(ok["seq"], int)
            assert svc.state.clock.neutral
            again, _ = await ask(
                {"type": "neutralized", "by": "director", "reason": "dispute", "id": "c1"}, b"k2"
            )
            assert again == ok, "a redelivered command is answered again, not run again"
            no, _ = await ask({"type": "clock_pressed", "player": 1, "id": "c2"}, b"k3")
            assert no["accepted"] is False
            assert no["rule"]
            assert no["reason"]
            bad, _ = await ask({"type": "no_such_event", "id": "c3"}, b"k4")
            assert bad["accepted"] is False
            assert "error" in bad
            for junk in (b"\xff\xfe", b"[" * 100_000, b"null"):
                await director.publish(
                    TABLE.director_commands,
                    junk,
                    qos=1,
                    properties=publish_properties(response_topic=reply_topic, correlation=b"j"),
                )
            for _ in range(3):
                junk_reply, _ = await next_reply()
                assert junk_reply["accepted"] is False
                assert "error" in junk_reply
        # an MQTT 3.1.1 director: no response topic, the id in the payload
        async with aiomqtt.Client(
            b.host, b.port, identifier="test-director-311", protocol=aiomqtt.ProtocolVersion.V311
        ) as old:
            await old.subscribe(TABLE.director_replies, qos=1)
            await old.publish(
                TABLE.director_commands,
                json.dumps({"type": "resumed", "by": "director", "id": "c4"}),
                qos=1,
            )
            async with asyncio.timeout(WAIT_S):
                async for m in old.messages:
                    doc = json.loads(m.payload)
                    assert (doc["id"], doc["accepted"]) == ("c4", True)
                    break
        assert not svc.state.clock.neutral


# --- TLS ------------------------------------------------------------------------------------------


def _make_certs(d: Path) -> dict[str, Path]:
    """A private CA, a server certificate for 127.0.0.1 and a client certificate."""
    openssl = shutil.which("openssl")
    if openssl is None:
        missing_part("openssl is missing: run scripts/system-deps (apt-get install openssl)")
    f = {
        n: d / n for n in ("ca.key", "ca.crt", "s.key", "s.csr", "s.crt", "c.key", "c.csr", "c.crt")
    }
    ext = d / "ext.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args: str | Path) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True)

    run("req", "-x509", *ec, "-keyout", f["ca.key"], "-out", f["ca.crt"], "-days", "2",
        "-subj", "/CN=rackclock test CA")  # fmt: skip
    for who, cn, extra in (("s", "localhost", ("-extfile", ext)), ("c", "clock-club-t1", ())):
        run("req", *ec, "-keyout", f[f"{who}.key"], "-out", f[f"{who}.csr"], "-subj", f"/CN={cn}")
        run("x509", "-req", "-in", f[f"{who}.csr"], "-CA", f["ca.crt"], "-CAkey", f["ca.key"],
            "-CAcreateserial", "-out", f[f"{who}.crt"], "-days", "2", *extra)  # fmt: skip
    return f


async def _fails_to_connect(broker: BrokerSettings, name: str) -> None:
    raw = Raw(broker, name)
    raw.session.start()
    await wait_for(lambda: raw.session.stats.failures >= 1, f"{name}: a failed handshake")
    assert not raw.session.connected.is_set()
    await raw.session.close()


async def test_tls_with_a_private_ca(mosquitto_factory: BrokerFactory, tmp_path: Path) -> None:
    f = _make_certs(tmp_path)
    port, strict = free_port(), free_port()
    server = f"cafile {f['ca.crt']}\ncertfile {f['s.crt']}\nkeyfile {f['s.key']}\n"
    broker = mosquitto_factory(
        extra=f"listener {port} 127.0.0.1\n{server}"
        f"listener {strict} 127.0.0.1\n{server}require_certificate true\n"
    )
    assert wait_port(port), broker.log()
    assert wait_port(strict), broker.log()
    secure = parse_url(f"mqtts://127.0.0.1:{port}/club/t1?ca={f['ca.crt']}")
    async with Raw(secure, "tls-sub", TABLE.state) as sub, Raw(secure, "tls-pub") as pub:
        await pub.publish(TABLE.state, b"over tls")
        await wait_for(lambda: sub.payloads(TABLE.state) == [b"over tls"], "the TLS message")
    # the system CAs do not know ours
    await _fails_to_connect(parse_url(f"mqtts://127.0.0.1:{port}/club/t1"), "tls-unknown-ca")
    # a listener that wants client certificates
    base = f"mqtts://127.0.0.1:{strict}/club/t1?ca={f['ca.crt']}"
    await _fails_to_connect(parse_url(base), "tls-no-cert")
    with_cert = parse_url(f"{base}&cert={f['c.crt']}&key={f['c.key']}")
    async with Raw(with_cert, "tls-cert") as client:
        await client.publish(TABLE.state, b"with a client certificate")


# --- rackclock serve --clock mqtt:URL ----------------------------------------------------------


async def test_serve_with_an_mqtt_clock(mosquitto: Broker, tmp_path: Path) -> None:
    """The real command: ``rackclock serve --clock mqtt:mqtt://host:port/club/t1``."""
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "rackclock"),
        "serve",
        "--variant",
        "nzasp",
        "--mode",
        "scoresheet",
        "--log",
        str(tmp_path / "t1.sqlite"),
        "--clock",
        "mqtt:" + mosquitto.url("/club/t1"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=REPO,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    lines: list[dict[str, Any]] = []

    async def read_until(pred: Callable[[dict[str, Any]], bool], what: str) -> None:
        assert proc.stdout is not None
        async with asyncio.timeout(15):
            while not any(pred(d) for d in lines):
                line = await proc.stdout.readline()
                assert line, f"serve ended before {what}"
                lines.append(json.loads(line))

    dev = device(parse_url(mosquitto.url("/club/t1")), "emu-serve")
    try:
        await read_until(lambda d: d.get("type") == "GameStarted", "the game started")
        dev.start()
        await read_until(lambda d: d.get("device", {}).get("online") is True, "the device")
        await wait_for(lambda: dev.fw.sets > 0, "the first SET", 15)
        dev.fw.press(0)
        await read_until(lambda d: d.get("type") == "ClockPressed", "the press")
        proc.stdin.write(b"quit\n")
        await proc.stdin.drain()
        async with asyncio.timeout(15):
            assert await proc.wait() == 0
    finally:
        await dev.close()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert presses_logged(tmp_path / "t1.sqlite")[0].player == 0


async def test_a_press_is_acknowledged_to_the_broker_only_once_on_disk(
    mosquitto: Broker, tmp_path: Path
) -> None:
    """The service's PUBACK of a press waits for ``on_disk``: a service that goes away
    before its commit gets the press again from the broker; once acknowledged, never."""
    b = broker_settings(mosquitto)
    ident = "test-service-ack"

    async def presses(clock: MqttClock, count: int, *, commit: bool) -> list[SidePressed]:
        got: list[SidePressed] = []

        async def read() -> None:
            async for ev in clock.events():
                if isinstance(ev, SidePressed):
                    got.append(ev)
                    if commit and ev.on_disk is not None:
                        ev.on_disk()

        reader = asyncio.create_task(read())
        try:
            await wait_for(lambda: len(got) >= count, f"{count} press(es)")
            await asyncio.sleep(0.2)  # a PUBACK sent goes out before we disconnect
        finally:
            await clock.close()
            await reader
        return got

    first = MqttClock(b, identifier=ident)
    first.session.start()
    await first.session.wait_connected(WAIT_S)
    async with Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, HELLO)
        await dev.publish(TABLE.clock_events, press(2, 0))
    # the press arrives, but the service goes before it is on disk: no PUBACK
    assert [p.device_ms for p in await presses(first, 1, commit=False)] == [1002]
    # back again: the broker delivers it again; this time it is committed
    again = await presses(MqttClock(b, identifier=ident), 1, commit=True)
    assert [p.device_ms for p in again] == [1002]
    # acknowledged: the next session gets only what came after
    async with Raw(b, "dev") as dev:
        await dev.publish(TABLE.clock_events, press(3, 1))
    last = await presses(MqttClock(b, identifier=ident), 1, commit=True)
    assert [p.device_ms for p in last] == [1003]


async def test_a_press_made_while_the_broker_is_down_is_stamped_at_the_clocks_time(
    mosquitto: Broker, tmp_path: Path
) -> None:
    """A broker stop in the middle of Ben's turn: he presses during the outage; the
    press reaches the table when the broker is back, seconds late, and is stamped when
    the clock recorded it, not when it arrived (docs/clock-protocol.md, "Device time")."""
    b = broker_settings(mosquitto)
    log = tmp_path / "t1.sqlite"
    async with running_table(b, log) as (svc, clock):
        dev = device(b)
        dev.start()
        try:
            await wait_for(lambda: svc.status.device_online and dev.fw.sets > 0, "device up")
            await wait_for(lambda: clock.device_time.table_time(0) is not None, "the offset")
            dev.fw.press(0)
            await wait_for(lambda: len(presses_logged(log)) == 1, "Ann's press")
            mosquitto.stop()
            await wait_for(lambda: not dev.session.connected.is_set(), "the device offline")
            pressed_at = svc.timeline.now_ms()
            dev.fw.press(1)  # Ben, during the outage: queued on the clock
            # a real outage on a real broker: it stays down one second of table time
            await wait_for(lambda: svc.timeline.now_ms() - pressed_at >= 1_000, "the outage")
            mosquitto.start()
            await wait_for(lambda: len(presses_logged(log)) == 2, "Ben's press, late")
        finally:
            await dev.close()
    ben = presses_logged(log)[1]
    assert ben.arrived_ms is not None
    assert ben.t is not None
    assert ben.arrived_ms - ben.t >= 1_000  # it arrived over a second after the press
    assert abs(ben.t - pressed_at) <= 50  # stamped when Ben pressed (both on this host)
    rulings = [r.text for r in svc.state.rulings]
    assert any("Ben's press reached the table" in text for text in rulings), rulings
