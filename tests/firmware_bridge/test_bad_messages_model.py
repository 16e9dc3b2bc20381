"""What the venue page's model does with a table's bad messages (issue 22): each is
dropped and counted, its table shows stale with the reason, said once in the
server's log, and no other table's card or the venue as a whole changes."""

from __future__ import annotations

import json
import logging

import pytest

from firmware_bridge.mqtt.topics import MAX_DOCUMENT_BYTES, TableTopics
from firmware_bridge.venue.page.model import VenueModel
from firmware_bridge.venue.table_document import BadDocument, Notices, read_live

T1 = TableTopics("club", "t1")
T2 = TableTopics("club", "t2")
NOW_MS = 1_790_000_000_000


def live(players: tuple[str, str], scores: tuple[int, int]) -> bytes:
    doc = {
        "published_at_ms": NOW_MS,
        "expires_s": 60,
        "state": {"players": list(players), "scores": list(scores), "phase": "playing"},
    }
    return json.dumps(doc).encode()


BAD = [
    (T1.live, b'{"state":"x"}', "bad live document: Expected `object`, got `str` - at `$.state`"),
    (T1.live, b'{"state":{"clocks":"x"}}', "at `$.state.clocks`"),
    (T1.live, b'{"state":{"scores":[1]}}', "at `$.state.scores`"),
    (
        T1.live,
        b'{"state":{}, "x": "' + b"y" * MAX_DOCUMENT_BYTES + b'"}',
        "over the 262144-byte limit",
    ),
    (T1.status, b"maybe", "bad status: neither online nor offline"),
    (T1.assignment, b'{"table":"one"}', "bad assignment: Expected `int`, got `str`"),
    (T1.assignment, b"[" * (MAX_DOCUMENT_BYTES + 1), "bad assignment: over the"),
]


@pytest.mark.parametrize(("topic", "payload", "why"), BAD)
def test_a_bad_message_leaves_its_table_stale_and_the_others_alone(
    topic: str, payload: bytes, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    model = VenueModel("club", wall_ms=lambda: NOW_MS)
    for t in (T1, T2):
        model.take(t.status, b"online")
    model.take(T1.live, live(("Ann", "Ben"), (30, 12)))
    model.take(T2.live, live(("Cyd", "Dee"), (5, 7)))
    before = model.summary("t2")
    queue = model.watch()
    with caplog.at_level(logging.WARNING, "firmware_bridge.venue.page.model"):
        for _ in range(3):  # a retained message comes again on each reconnect
            model.take(topic, payload)
    assert model.garbage == 3
    assert model.summary("t2") == before
    card = model.summary("t1")
    assert why in card["note"]
    assert card["players"] == ["Ann", "Ben"]  # the last good document stays on screen
    if topic == T1.live:
        assert card["status"] == "stale"
    said = [r.getMessage() for r in caplog.records if "club/t1" in r.getMessage()]
    assert len(said) == 1  # once per table and reason
    assert len(json.dumps(model.everything())) < 10_000  # nothing of it goes out
    assert all(m["table"]["table"] == "t1" for m in [queue.get_nowait() for _ in range(3)])
    model.take(T1.live, live(("Ann", "Ben"), (31, 12)))  # a good one: the live note goes
    model.take(T1.status, b"online")
    model.take(T1.assignment, b"")
    assert model.summary("t1")["note"] is None
    assert model.summary("t1")["status"] == "online"


def test_a_message_the_model_cannot_take_does_not_stop_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug of ours on one table's message is logged; the page goes on for all."""
    model = VenueModel("club", wall_ms=lambda: NOW_MS)

    def broken(*_: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(model, "_take", broken)
    model.take(T1.live, live(("Ann", "Ben"), (1, 2)))  # does not raise
    monkeypatch.undo()
    model.take(T2.live, live(("Cyd", "Dee"), (5, 7)))
    assert model.summary("t2")["scores"] == [5, 7]


def test_a_reason_is_said_once_per_table_and_a_table_cannot_flood() -> None:
    said = Notices()
    bad = read_live(b'{"state":"x"}')
    assert isinstance(bad, BadDocument)
    assert said.first("club/t1", bad) == (
        "club/t1: bad live document: Expected `object`, got `str` - at `$.state`"
    )
    assert said.first("club/t1", bad) is None
    assert said.first("club/t2", bad) is not None
    lines = [said.first("club/t3", BadDocument(f"r{n}", f"r{n}")) for n in range(20)]
    assert sum(line is not None for line in lines) == 8
