"""A client of ours tells the broker the largest packet it takes (MQTT 5's Maximum
Packet Size): a broker with no size limit of its own (not the venue's) drops a larger
message for it instead of handing it over whole, and the messages after it arrive."""

from __future__ import annotations

import asyncio

import aiomqtt

from firmware_bridge.mqtt.connection import MqttSession, parse_url
from firmware_bridge.mqtt.topics import MAX_PACKET_BYTES
from tests.helpers import BrokerFactory


async def test_a_broker_without_a_limit_drops_a_message_too_large_for_us(
    mosquitto_factory: BrokerFactory,
) -> None:
    broker = mosquitto_factory(message_size_limit=0)  # 0: mosquitto takes any size
    got: list[int] = []
    small = asyncio.Event()

    def take(msg: aiomqtt.Message) -> None:
        payload = msg.payload if isinstance(msg.payload, bytes) else b""
        got.append(len(payload))
        if len(payload) == 5:
            small.set()

    session = MqttSession(
        parse_url(broker.url()), identifier="test-packet-limit", subscriptions=["big/1"]
    )
    session.route("big/1", take)
    session.start()
    try:
        async with asyncio.timeout(10):
            await session.connected.wait()
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier="test-sender") as sender:
            await sender.publish("big/1", b"x" * (MAX_PACKET_BYTES + 1), qos=1)
            await sender.publish("big/1", b"small", qos=1)
        async with asyncio.timeout(10):
            await small.wait()
    finally:
        await session.close()
    assert got == [5], got  # the large one never arrived; the next one did
