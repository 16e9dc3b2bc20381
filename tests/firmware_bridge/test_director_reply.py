"""A table's reply to a director command is one typed record with the wire format
of docs/mqtt.md ("Director commands and replies"): every kind of reply a table has
sent reads, and is written back byte for byte, no key added or lost."""

from __future__ import annotations

import json

import msgspec
import pytest

from firmware_bridge.venue.director_link import reply_text
from firmware_bridge.venue.table_document import BadDocument, DirectorReply, read_reply

EVENT = {"type": "neutralized", "t": 5, "by": "director", "reason": "dispute"}
SENT = {
    "accepted: Neutralized (#43)": {
        "v": 1, "id": "d-1", "accepted": True, "type": "Neutralized", "event": EVENT, "seq": 43,
    },
    "refused: not your turn (R3)": {
        "v": 1, "id": "d-2", "accepted": False, "type": "ClockPressed", "event": EVENT,
        "reason": "not your turn", "rule": "R3",
    },
    "refused: not an event: x": {"v": 1, "id": None, "accepted": False, "error": "not an event: x"},
    "pending: ask again": {
        "v": 1, "id": "d-3", "accepted": None, "pending": True, "error": "ask again",
    },
    "accepted: get_log (#None)": {
        "v": 1, "id": "d-4", "accepted": True, "type": "get_log", "count": 1, "log": "{}\n",
    },
    "refused: disk gone": {
        "v": 1, "id": "d-5", "accepted": False, "type": "get_log", "error": "disk gone",
    },
    "accepted: get_state (#None)": {"v": 1, "id": "d-6", "accepted": True, "type": "get_state"},
}  # fmt: skip
"""How each reply reads -> as the table sent it (json.dumps, compact)."""


@pytest.mark.parametrize("said", list(SENT))
def test_every_reply_a_table_sends_reads_and_is_written_the_same(said: str) -> None:
    wire = json.dumps(SENT[said], separators=(",", ":")).encode()
    reply = read_reply(wire)
    assert isinstance(reply, DirectorReply), reply
    assert reply_text(reply) == said
    assert msgspec.json.encode(reply) == wire


def test_a_newer_table_s_extra_keys_are_read_past() -> None:
    reply = read_reply(b'{"v":2,"id":"d","accepted":true,"type":"get_state","new":[1]}')
    assert isinstance(reply, DirectorReply)
    assert reply.accepted


@pytest.mark.parametrize(
    ("payload", "cause"),
    [
        (b'{"v":1,"id":"d","accepted":1}', "Expected `bool | null`, got `int` - at `$.accepted`"),
        (b'{"v":1,"id":"d","accepted":true,"seq":"4"}', "got `str` - at `$.seq`"),
        (b'{"id":"d","accepted":true}', "Object missing required field `v`"),
        (b"[1]", "Expected `object`, got `array`"),
        (b"\xff", "bad director reply: "),
    ],
)
def test_a_reply_that_does_not_fit_says_why(payload: bytes, cause: str) -> None:
    bad = read_reply(payload)
    assert isinstance(bad, BadDocument)
    assert cause in bad.said
