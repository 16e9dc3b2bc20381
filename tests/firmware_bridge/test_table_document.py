"""A table's state document: the publisher writes what docs/mqtt.md says (the keys in
their order, ``state`` the ``replay --json`` object), the director's link and the
venue page read it back into the same structs or say why not, and one rule says
when it is stale."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import ClockPressed, GameStarted, Neutralized, TilesPlaced
from engine.rules.game_report import LiveReport
from engine.rules.replay import report
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.publisher import TablePublisher
from firmware_bridge.venue.table_document import (
    STALE_GRACE_MS,
    BadDocument,
    TableDocument,
    document_age_ms,
    is_stale,
    read_live,
    read_snapshot,
)

T1 = TableTopics("club", "t1")
ENVELOPE = [
    "v",
    "venue",
    "table",
    "seq",
    "published_at_ms",
    "expires_s",
    "device",
    "now_ms",
    "neutralized_since_ms",
    "state",
]
"""docs/mqtt.md, "Table state": the envelope's keys, in order."""


async def test_the_published_document_is_the_documented_one(tmp_path: Path) -> None:
    timeline = FakeTimeline(10_000)
    svc = TableService(tmp_path / "t1.sqlite", timeline=timeline, heartbeat_ms=0)
    async with svc:
        for event in (
            # a name beyond ASCII: JSON either way, the same text once read
            GameStarted(variant="naspa", players=("Zoë", "Ben")),
            TilesPlaced(player=0, move="8D WINDY"),
            ClockPressed(player=0),
            Neutralized(by="Ann", reason="noise"),
        ):
            timeline.advance(1_500)
            assert (await svc.submit(event, "test")).accepted
        timeline.advance(4_000)
        pub = TablePublisher(svc, parse_url("mqtt://127.0.0.1:1"), T1)  # never started
        for live in (True, False):
            payload = pub.state_payload(live=live)
            doc = json.loads(payload)
            assert list(doc) == ENVELOPE
            assert list(doc["device"]) == ["online", "id", "reason", "offline_since_ms"]
            assert (doc["venue"], doc["table"], doc["now_ms"]) == ("club", "t1", 20_000)
            assert doc["expires_s"] == (pub.expiry_s if live else pub.snapshot_expiry_s)
            assert doc["neutralized_since_ms"] == svc.state.clock.since_ms
            # the report as replay --json has it, key for key in the same order
            expected = report(svc.state, 20_000, live=live)
            assert list(doc["state"]) == list(expected)
            assert doc["state"] == expected
            assert doc["state"]["players"] == ["Zoë", "Ben"]
            # and the consumers read it back into the structs it was made from
            read = read_live(payload) if live else read_snapshot(payload)
            assert not isinstance(read, BadDocument)
            assert msgspec.json.decode(msgspec.json.encode(read)) == doc


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        (b"not json", "JSON is malformed"),
        (b"[1, 2]", "Expected `object`"),
        (b'{"v": 1, "seq": 3}', "missing required field `state`"),
        (b'{"state": "playing"}', "$.state"),
        (b'{"state": {"scores": "32-0"}}', "$.state.scores"),
    ],
)
def test_a_payload_that_is_no_document_says_why(payload: bytes, why: str) -> None:
    for read in (read_live, read_snapshot):
        got = read(payload)
        assert isinstance(got, BadDocument)
        assert why in str(got)
        assert repr(payload[:20])[2:-1] in got.reason  # the input quoted


def test_a_document_of_another_version_reads_with_its_keys_defaulted() -> None:
    got = read_live(b'{"seq": 4, "state": {"players": ["Ann", "Ben"], "extra": 1}, "x": 2}')
    assert isinstance(got, TableDocument)
    assert (got.seq, got.expires_s, got.device) == (4, None, None)
    assert got.state == LiveReport(players=("Ann", "Ben"))


def doc(published_at_ms: int | None, expires_s: int | None) -> TableDocument[LiveReport]:
    return TableDocument(published_at_ms=published_at_ms, expires_s=expires_s, state=LiveReport())


@pytest.mark.parametrize(
    ("document", "wall_ms", "received_ms", "age", "stale"),
    [
        # fresh, and right up to its expiry plus the grace for two machines' clocks
        (doc(100_000, 60), 100_000, 0, 0, False),
        (doc(100_000, 60), 160_000 + STALE_GRACE_MS, 0, 61_000, False),
        (doc(100_000, 60), 160_001 + STALE_GRACE_MS, 0, 61_001, True),
        # a table's clock ahead of ours: no negative age, not stale
        (doc(105_000, 60), 100_000, 0, 0, False),
        # no publication time: aged from its arrival
        (doc(None, 60), 170_000, 100_000, 70_000, True),
        (doc(None, 60), 161_000, 100_000, 61_000, False),
        # no expiry: 10 s
        (doc(100_000, None), 111_000, 0, 11_000, False),
        (doc(100_000, None), 111_001, 0, 11_001, True),
    ],
)
def test_one_staleness_rule(
    document: TableDocument[LiveReport], wall_ms: int, received_ms: int, age: int, stale: bool
) -> None:
    assert document_age_ms(document, wall_ms, received_ms) == age
    assert is_stale(document, wall_ms, received_ms) is stale
