"""The director's link follows one venue when asked (a real mosquitto)."""

from __future__ import annotations

import json

import aiomqtt

from firmware_bridge.venue.director_link import DirectorLink
from firmware_bridge.venue.mqtt_session import parse_url
from firmware_bridge.venue.topics import TableTopics
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
