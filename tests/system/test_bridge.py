"""Past one broker: two halls' mosquittos bridged to a central one (three real
mosquittos, the bridges written by deploy/mosquitto/make_bridge.py).

A director on the central broker sees the tables of both halls and its commands
reach them;
the clocks' traffic stays in the hall; when the centre goes away the hall keeps
playing, and when it returns the centre has the hall's latest."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from types import ModuleType

import aiomqtt

from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import ClockPressed, GameStarted
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.director_link import DirectorLink
from firmware_bridge.venue.publisher import TablePublisher
from tests.helpers import REPO, BrokerFactory, wait_for

HALL = TableTopics("hall1", "t1")


def make_bridge() -> ModuleType:
    path = REPO / "deploy" / "mosquitto" / "make_bridge.py"
    spec = importlib.util.spec_from_file_location("make_bridge", path)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_example_is_what_make_bridge_writes() -> None:
    text = make_bridge().bridge("hall1", "central.local:1883", "bridge-hall1")
    assert (REPO / "deploy" / "mosquitto" / "bridge.example").read_text() == text
    assert "/clock/" not in text  # the clocks' traffic stays in the hall


async def test_halls_bridged_to_the_centre(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    central = mosquitto_factory()
    mb = make_bridge()
    hall = mosquitto_factory(extra=mb.bridge("hall1", f"127.0.0.1:{central.port}"))
    hall2 = mosquitto_factory(extra=mb.bridge("hall2", f"127.0.0.1:{central.port}"))
    other = TableTopics("hall2", "t9")
    svc = TableService(tmp_path / "t1.sqlite", timeline=FakeTimeline(1_000_000), heartbeat_ms=0)
    svc2 = TableService(tmp_path / "t9.sqlite", timeline=FakeTimeline(1_000_000), heartbeat_ms=0)
    async with (
        svc,
        svc2,
        TablePublisher(svc, parse_url(hall.url()), HALL, refresh_s=0.5, expiry_s=60),
        TablePublisher(svc2, parse_url(hall2.url()), other, refresh_s=0.5, expiry_s=60),
    ):
        for s in (svc, svc2):
            ack = await s.submit(
                GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
            )
            assert ack.accepted
        # a director on the central broker sees the tables of both halls
        everyone = DirectorLink(parse_url(central.url()), desk="all")
        async with everyone:
            await wait_for(
                lambda: all(
                    (s := everyone.tables.get(t)) is not None and s.doc is not None
                    for t in (HALL, other)
                ),
                "both halls' tables at the centre",
                limit_s=15,
            )
        link = DirectorLink(parse_url(central.url()), desk="centre", venue="hall1")
        async with link:
            await wait_for(
                lambda: (s := link.tables.get(HALL)) is not None and s.doc is not None,
                "the hall's table at the centre",
                limit_s=15,
            )
            # a director command from the centre reaches the hall's table, and its answer returns
            reply = await link.request(HALL, {"type": "get_state"}, timeout_s=10)
            assert reply.accepted is True
        # the clocks' traffic stays in the hall
        async with aiomqtt.Client(central.host, central.port, identifier="test-centre") as c:
            await c.subscribe("rackclock/v1/hall1/+/clock/#", qos=1)
            async with aiomqtt.Client(hall.host, hall.port, identifier="test-clock") as h:
                await h.publish(HALL.clock_status, b"online", qos=1, retain=True)
            # the centre goes away; the hall keeps playing
            central.stop()
            for seat in (0, 1, 0):
                ack = await svc.submit(ClockPressed(player=seat), "test")
                assert ack.accepted, ack.reason
            played = ack.seq
        central.start()
        # back: the centre gets the hall's latest from the bridge
        link = DirectorLink(parse_url(central.url()), desk="centre2", venue="hall1")
        async with link:

            def caught_up() -> bool:
                snap = link.tables.get(HALL)
                return snap is not None and snap.doc is not None and snap.doc["seq"] == played

            await wait_for(caught_up, "the hall's latest at the centre", limit_s=30)
        async with aiomqtt.Client(central.host, central.port, identifier="test-centre-2") as c:
            await c.subscribe(HALL.clock_status, qos=1)
            await c.subscribe(HALL.status, qos=1)
            got: list[str] = []
            async with asyncio.timeout(3):
                async for msg in c.messages:
                    got.append(msg.topic.value)
                    if msg.topic.value == HALL.status:
                        break
            assert HALL.clock_status not in got  # never crossed the bridge
