"""The venue page's model: what a broker message changes, and a browser that falls
behind is dropped (its page reconnects and starts from the whole venue)."""

from __future__ import annotations

import json

from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.page.model import VenueModel

T1 = TableTopics("club", "t1")
NOW_MS = 1_790_000_000_000
"""The fake wall clock: documents are published and read at it."""


def live(seq: int) -> bytes:
    doc = {
        "seq": seq,
        "published_at_ms": NOW_MS,
        "expires_s": 60,
        "state": {"players": ["Ann", "Ben"], "scores": [seq, 0], "clocks": []},
    }
    return json.dumps(doc).encode()


def test_changes_reach_the_browsers_and_other_venues_do_not() -> None:
    model = VenueModel("club", wall_ms=lambda: NOW_MS)
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
    model = VenueModel("club", wall_ms=lambda: NOW_MS)
    slow = model.watch()
    for seq in range(1, 1002):
        model.take(T1.live, live(seq))
    assert not model.watching(slow)
    fresh = model.watch()
    model.take(T1.live, live(1002))
    assert model.watching(fresh)
    assert fresh.get_nowait()["table"]["scores"] == [1002, 0]


def test_the_page_and_the_director_judge_staleness_alike() -> None:
    """One rule (table_document.is_stale): a document past its expiry and the grace
    is stale on the page and on the director's console alike."""
    from firmware_bridge.venue.director_link import TableSnapshot
    from firmware_bridge.venue.table_document import STALE_GRACE_MS, BadDocument, read_live

    for late_ms, stale in ((60_000 + STALE_GRACE_MS - 500, False), (62_000, True)):
        now = NOW_MS
        doc = {
            "seq": 1,
            "published_at_ms": now - late_ms,
            "expires_s": 60,
            "state": {"players": ["Ann", "Ben"]},
        }
        payload = json.dumps(doc).encode()
        model = VenueModel("club", wall_ms=lambda: NOW_MS)
        model.take(T1.status, b"online")
        model.take(T1.live, payload)
        card = model.summary("t1")
        live = read_live(payload)
        assert not isinstance(live, BadDocument)
        snap = TableSnapshot(T1, raw=json.dumps(doc).encode(), received_wall_ms=now, live=live)
        assert (card["status"] == "stale", card["online"]) == (stale, not stale)
        assert snap.stale(now) is stale
