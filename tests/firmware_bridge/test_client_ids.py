"""Client ids (docs/mqtt.md, "Client ids" and "Security"): every connection's id
begins with its login, a table's is the same at every start (its session is the key
to what is queued for it), and the programs two of which may run at once (the venue
page, the hub, a director's desk, the assignment readers) never share one."""

from __future__ import annotations

import os

from firmware_bridge.host.mqtt_clock import MqttClock
from firmware_bridge.mqtt.connection import MqttSession, parse_url, table_connection
from firmware_bridge.mqtt.topics import client_id, owned_id, process_id
from firmware_bridge.venue.director_link import DirectorLink
from firmware_bridge.venue.page.server import VenuePage

T1 = parse_url("mqtt://t1:pw@127.0.0.1:1/club/t1")
HUB = parse_url("mqtt://hub:pw@127.0.0.1:1")
VIEWER = parse_url("mqtt://viewer:pw@127.0.0.1:1")


def test_an_id_is_put_behind_its_login_once() -> None:
    assert owned_id("t1", "rackclock-service-club-t1-pc") == "t1-rackclock-service-club-t1-pc"
    assert owned_id("t1", "t1-x") == "t1-x"
    assert owned_id("t1", "t10-x") == "t1-t10-x"  # t10's prefix is not t1's
    assert owned_id(None, "x") == "x"
    assert owned_id("", "x") == "x"
    session = MqttSession(VIEWER, identifier="rackclock-viewer-club-page-pc")
    assert session.identifier == "viewer-rackclock-viewer-club-page-pc"


def test_a_tables_ids_are_its_own_and_the_same_at_every_start() -> None:
    first = [table_connection(T1).identifier, MqttClock(T1).session.identifier]
    again = [table_connection(T1).identifier, MqttClock(T1).session.identifier]
    assert first == again
    assert all(ident.startswith("t1-rackclock-service-club-t1-") for ident in first)


def test_pages_hubs_and_desks_each_have_their_own_id() -> None:
    pages = [VenuePage(VIEWER, "club", host="127.0.0.1", port=0).session for _ in range(2)]
    hubs = [DirectorLink(HUB, desk="hub").session for _ in range(2)]
    idents = [s.identifier for s in pages + hubs]
    assert len(set(idents)) == 4
    assert [i.split("-", 1)[0] for i in idents] == ["viewer", "viewer", "hub", "hub"]
    assert [i.split("-", 2)[1] for i in idents] == ["rackclock"] * 4
    assert process_id("viewer", "club", "page") != process_id("viewer", "club", "page")
    assert client_id("viewer", "club", "page", host="pc") == client_id(
        "viewer", "club", "page", host="pc"
    )


def test_a_process_id_is_the_stable_id_and_a_tag_of_its_own() -> None:
    stable = client_id("viewer", "club", "page", host="pc")
    mine = process_id("viewer", "club", "page", host="pc")
    assert mine.startswith(stable + "-")
    pid, tag = mine.removeprefix(stable + "-").split("-")
    assert pid == str(os.getpid())
    assert len(tag) == 6
    # a desk's name is made safe, not refused (a director may call it anything)
    assert process_id("director", "desk 2/ö", host="pc").startswith("rackclock-director-desk_2_")
