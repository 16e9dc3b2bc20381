"""The director's link follows one venue when asked (a real mosquitto)."""

from __future__ import annotations

import json

import aiomqtt

from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.director_link import DirectorLink
from tests.helpers import Broker, wait_for


async def test_a_director_follows_one_venue(mosquitto: Broker) -> None:
    doc = {"v": 1, "seq": 1, "expires_s": 60, "state": {"scores": [0, 0]}}
    async with aiomqtt.Client(mosquitto.host, mosquitto.port, identifier="test-tables") as c:
        for venue in ("club", "other"):
            await c.publish(TableTopics(venue, "t1").live, json.dumps(doc), qos=1, retain=True)
    everyone = DirectorLink(parse_url(mosquitto.url()), desk="all")
    club = DirectorLink(parse_url(mosquitto.url()), desk="club", venue="club")
    async with everyone, club:
        await wait_for(lambda: len(everyone.tables) == 2, "both venues")
        await wait_for(lambda: len(club.tables) == 1, "the club's table")
        assert list(club.tables) == [TableTopics("club", "t1")]


async def test_only_the_table_asked_may_answer(mosquitto: Broker) -> None:
    """A reply carrying the id of a command sent to t1 but coming over t2's reply
    topic is not t1's answer (under the ACL only t2's login writes there)."""
    import asyncio

    asked = TableTopics("club", "t1")
    other = TableTopics("club", "t2")
    async with aiomqtt.Client(mosquitto.host, mosquitto.port, identifier="test-t2") as fake:
        await fake.subscribe(asked.director_commands, qos=1)

        async def answer_twice() -> None:
            async for msg in fake.messages:
                ident = json.loads(bytes(msg.payload))["id"]
                for table in (other, asked):
                    reply = {"v": 1, "id": ident, "accepted": True, "type": table.table}
                    await fake.publish(f"{table.director_replies}/desk-1", json.dumps(reply), qos=1)
                return

        link = DirectorLink(parse_url(mosquitto.url()), desk="desk-1")
        async with link:
            await wait_for(link.session.connected.is_set, "the director's connection")
            task = asyncio.create_task(answer_twice())
            reply = await link.request(asked, {"type": "get_log"}, timeout_s=5)
            await task
        assert reply.type == "t1"
        assert link.garbage == 1


async def test_a_bad_status_is_dropped_and_said_once(mosquitto: Broker) -> None:
    """A status that is neither online nor offline changes nothing and is said once."""
    t1 = TableTopics("club", "t1")
    link = DirectorLink(parse_url(mosquitto.url()), desk="desk-2")
    async with link:
        await wait_for(link.session.connected.is_set, "the director's connection")
        async with aiomqtt.Client(mosquitto.host, mosquitto.port, identifier="test-t1") as c:
            await c.publish(t1.status, b"online", qos=1)
            await c.publish(t1.status, b"maybe", qos=1)
            await c.publish(t1.status, b"maybe", qos=1)
        await wait_for(lambda: link.garbage == 2, "both bad statuses")
    assert link.tables[t1].online is True
    assert link.notices == ["club/t1: bad status: neither online nor offline"]
