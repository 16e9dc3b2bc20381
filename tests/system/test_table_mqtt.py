"""The table terminal with its clock on a venue broker also publishes the table,
so the director and the hub see it (a real mosquitto, the app through Pilot)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiomqtt

from clock.table.session import TableSpec
from clock.timeline import MonotonicTimeline
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.table_setup import open_table
from firmware_bridge.venue.director_link import DirectorLink
from firmware_bridge.venue.publisher import TablePublisher
from terminal_ui.table.app import TableApp
from terminal_ui.table.config import TableConfig
from terminal_ui.table.screens import QuitScreen
from tests.helpers import Broker, BrokerFactory, started, until


async def test_the_table_terminal_publishes_its_state(tmp_path: Path, mosquitto: Broker) -> None:
    url = mosquitto.url("/club/t3")
    cfg = TableConfig(
        log=tmp_path / "t3.sqlite",
        players=("Ann", "Ben"),
        clock=f"mqtt:{url}",
        timeline=MonotonicTimeline(),
    )
    app = TableApp(cfg)
    topic = TableTopics("club", "t3").state
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)  # from the start screen, with a clock key
        async with aiomqtt.Client(mosquitto.host, mosquitto.port, identifier="test-viewer") as v:
            await v.subscribe(topic, qos=1)
            async with asyncio.timeout(5):
                async for msg in v.messages:
                    doc = json.loads(bytes(msg.payload))
                    if doc["state"]["players"] == ["Ann", "Ben"]:
                        break
        assert doc["table"] == "t3"
        assert doc["state"]["variant"] == "nzasp"
        await pilot.press("ctrl+q")  # mid-game: it asks first
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        await pilot.press("y")


async def test_one_broker_connection_per_table_process(
    tmp_path: Path, mosquitto_factory: BrokerFactory
) -> None:
    """The clock link and the publisher share the table's one connection (issue 15):
    the broker counts it, and the table still answers its director."""
    broker = mosquitto_factory(extra="sys_interval 1\n")
    url = broker.url("/club/t4")
    spec = TableSpec(log=tmp_path / "t4.sqlite", variant="nzasp", clock=f"mqtt:{url}")
    session = open_table(spec)
    async with session:
        publisher = session.publisher
        assert isinstance(publisher, TablePublisher)
        assert publisher.session is session.service.device.session  # type: ignore[union-attr]
        await publisher.session.wait_connected(5)
        async with aiomqtt.Client(broker.host, broker.port, identifier="test-count") as v:
            await v.subscribe("$SYS/broker/clients/connected", qos=0)
            async with asyncio.timeout(10):
                async for msg in v.messages:
                    count = int(bytes(msg.payload))
                    if count == 2:  # the table and this viewer
                        break
            link = DirectorLink(parse_url(broker.url()), desk="count")
            async with link:
                reply = await link.request(TableTopics("club", "t4"), {"type": "get_state"})
                assert reply.accepted is True
