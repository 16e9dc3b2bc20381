"""The venue page's model: what a broker message changes, and a browser that falls
behind is dropped (its page reconnects and starts from the whole venue)."""

from __future__ import annotations

import json
import time

from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.page.model import VenueModel

T1 = TableTopics("club", "t1")


def live(seq: int) -> bytes:
    doc = {
        "seq": seq,
        "published_at_ms": time.time_ns() // 1_000_000,
        "expires_s": 60,
        "state": {"players": ["Ann", "Ben"], "scores": [seq, 0], "clocks": []},
    }
    return json.dumps(doc).encode()


def test_changes_reach_the_browsers_and_other_venues_do_not() -> None:
    model = VenueModel("club")
    queue = model.watch()
    model.take(T1.status, b"online")
    model.take(T1.live, live(1))
    model.take(TableTopics("other", "t1").live, live(2))
    got = [queue.get_nowait() for _ in range(queue.qsize())]
    assert [m["table"]["scores"] for m in got] == [None, [1, 0]]
    assert model.everything()["tables"][0]["online"] is True
    model.take(T1.live, b"")  # a clean stop removes the document
    assert model.everything()["tables"][0]["online"] is False


def test_a_browser_that_falls_behind_is_dropped() -> None:
    model = VenueModel("club")
    slow = model.watch()
    for seq in range(1, 1002):
        model.take(T1.live, live(seq))
    assert not model.watching(slow)
    fresh = model.watch()
    model.take(T1.live, live(1002))
    assert model.watching(fresh)
    assert fresh.get_nowait()["table"]["scores"] == [1002, 0]
