"""One table of cases, both consumers: what the director's console (its link's
:class:`TableSnapshot` and the overview row) and the venue page (its model's card)
make of a table's ``live`` payloads agrees. No document, a removed one, one that
does not read and one past its expiry are stale on both; the last good document
stays on screen (its players and scores) but is not shown healthy and live."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.director_link import TableSnapshot
from firmware_bridge.venue.page.model import VenueModel
from firmware_bridge.venue.table_document import STALE_GRACE_MS
from terminal_ui.director.rows import Flag, snapshot_row

T1 = TableTopics("club", "t1")
NOW_MS = 1_790_000_000_000
"""The fake wall clock's time: every payload is published and read at it."""


def live(late_ms: int = 0, scores: tuple[int, int] = (30, 12)) -> bytes:
    """A table in play, published ``late_ms`` ago with a 60 s expiry."""
    clock = {"remaining_ms": 600_000, "running": False}
    doc = {
        "seq": 3,
        "published_at_ms": NOW_MS - late_ms,
        "expires_s": 60,
        "state": {
            "players": ["Ann", "Ben"],
            "phase": "playing",
            "phase_text": "Ann to play",
            "scores": list(scores),
            "clocks": [{**clock, "running": True}, clock],
        },
    }
    return json.dumps(doc).encode()


@dataclass(frozen=True)
class Case:
    name: str
    payloads: tuple[bytes, ...]
    """The ``live`` payloads in order (the table says ``online`` first)."""
    stale: bool
    scores: tuple[int, int] | None
    """What stays on screen; None: no document, nothing to show."""


CASES = [
    Case("fresh", (live(),), stale=False, scores=(30, 12)),
    Case("none", (), stale=True, scores=None),
    Case("removed", (live(), b""), stale=True, scores=(30, 12)),
    Case("garbage after a good one", (live(), b"{not json"), stale=True, scores=(30, 12)),
    Case("wrong kinds after a good one", (live(), b'{"state": 3}'), stale=True, scores=(30, 12)),
    Case("only garbage", (b"\xff\xfe",), stale=True, scores=None),
    Case("past its expiry", (live(62_000),), stale=True, scores=(30, 12)),
    Case("within the grace", (live(60_000 + STALE_GRACE_MS - 500),), stale=False, scores=(30, 12)),
    Case("a good one after garbage", (live(), b"{", live(scores=(40, 12))), False, (40, 12)),
    Case("a good one after removal", (live(), b"", live(scores=(40, 12))), False, (40, 12)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_page_and_the_console_agree(case: Case) -> None:
    model = VenueModel("club", wall_ms=lambda: NOW_MS)
    snap = TableSnapshot(T1, online=True)
    model.take(T1.status, b"online")
    for payload in case.payloads:
        model.take(T1.live, payload)
        snap.take(payload, NOW_MS)
    now = NOW_MS

    card = model.summary("t1")
    assert (card["status"], card["online"]) == (
        ("stale", False) if case.stale else ("online", True)
    )
    assert card["scores"] == (None if case.scores is None else list(case.scores))

    assert snap.stale(now) is case.stale
    row = snapshot_row("club/t1", snap, now, 60_000)
    assert (Flag.STALE in row.flags) is case.stale
    assert row.scores == (case.scores or (0, 0))
    if case.stale and case.scores is not None:  # kept, but its clock does not run on
        assert row.remaining_ms == (600_000, 600_000)
