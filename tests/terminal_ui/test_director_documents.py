"""The console's rows read the typed live document: a document a table of another
version sends with keys left out decodes (every field has a default) and makes a
row, and one such table does not take the other tables' rows down with it."""

from __future__ import annotations

import json
import time

from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.director_link import TableSnapshot
from firmware_bridge.venue.table_document import BadDocument, read_live
from terminal_ui.director.rows import snapshot_row

T1 = TableTopics("club", "t1")


def snapshot(doc: dict[str, object]) -> TableSnapshot:
    now = time.time_ns() // 1_000_000
    live = read_live(json.dumps(doc).encode())
    assert not isinstance(live, BadDocument)
    return TableSnapshot(T1, doc=doc, received_wall_ms=now, live=live)


def test_a_document_without_clocks_or_rulings_makes_a_row() -> None:
    now = time.time_ns() // 1_000_000
    snap = snapshot(
        {"published_at_ms": now, "expires_s": 60, "state": {"players": ["Ann", "Ben"]}}
    )
    row = snapshot_row("club/t1", snap, now, 60_000)
    assert (row.players, row.scores, row.remaining_ms) == (("Ann", "Ben"), (0, 0), (0, 0))
    assert (row.phase, row.phase_text, row.flags, row.running) == (
        "not_started",
        "not_started",
        (),
        None,
    )


def test_an_empty_report_makes_a_row() -> None:
    now = time.time_ns() // 1_000_000
    row = snapshot_row("club/t1", snapshot({"state": {}}), now, 60_000)
    assert (row.players, row.phase) == (("", ""), "not_started")
