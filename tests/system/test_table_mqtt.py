"""The table terminal with its clock on a venue broker also publishes the table,
so the director and the hub see it (a real mosquitto, the app through Pilot)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiomqtt

from clock.timeline import MonotonicTimeline
from firmware_bridge.venue.topics import TableTopics
from terminal_ui.table.app import TableApp
from terminal_ui.table.config import TableConfig
from terminal_ui.table.screens import QuitScreen
from tests.helpers import Broker, started, until


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
