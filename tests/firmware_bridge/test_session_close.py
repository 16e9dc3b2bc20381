"""An MQTT session's close() ends its connection even when the cancellation lands as a
broker's answer arrives (Python 3.11's asyncio.wait_for, under aiomqtt's timeouts, drops
such a cancellation; on a loaded machine a director link or a table's shutdown then
waited for ever)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiomqtt
import pytest

from firmware_bridge.mqtt.connection import MqttSession, parse_url
from tests.helpers import Broker


async def test_close_as_a_suback_arrives_ends_the_session(
    mosquitto: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = MqttSession(
        parse_url(mosquitto.url()), identifier="test-close", subscriptions=["a/1", "a/2"]
    )
    closing: list[asyncio.Task[None]] = []
    asked = asyncio.Event()
    on_subscribe = aiomqtt.Client._on_subscribe

    def suback_then_close(self: aiomqtt.Client, *args: Any, **kwargs: Any) -> None:
        on_subscribe(self, *args, **kwargs)  # the SUBACK's waiter has its answer...
        if not closing:  # ...and the close is asked for in the same loop iteration
            closing.append(asyncio.get_running_loop().create_task(session.close()))
            asked.set()

    monkeypatch.setattr(aiomqtt.Client, "_on_subscribe", suback_then_close)
    session.start()
    async with asyncio.timeout(10):
        await asked.wait()
    done, _ = await asyncio.wait(closing, timeout=10)
    assert done, "close() did not return: the session went on after its cancellation"
    assert not session.connected.is_set()
