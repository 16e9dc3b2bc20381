"""The hub's archive writes in batches, off the event loop, and only what changed:
a refresh of a table's live document that carries no new event writes nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path

from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.archive import Archive
from firmware_bridge.venue.director_link import TableSnapshot
from firmware_bridge.venue.table_document import BadDocument, read_live


def snapshot(t: TableTopics, seq: int, score: int) -> TableSnapshot:
    """A table's snapshot as the link holds it: the document as it came, and read."""
    doc = {"v": 1, "seq": seq, "state": {"scores": [score, 0], "result": None}}
    typed = read_live(json.dumps(doc).encode())
    assert not isinstance(typed, BadDocument)
    return TableSnapshot(t, raw=json.dumps(doc).encode(), live=typed)


async def test_only_new_events_are_written_and_in_batches(tmp_path: Path) -> None:
    archive = Archive("mqtt://127.0.0.1:1", tmp_path, out=io.StringIO())
    tables = [TableTopics("club", f"t{i}") for i in range(1, 4)]
    for seq in (1, 2, 3):  # three updates per table before a batch: one write each
        for t in tables:
            archive.link.tables[t] = snapshot(t, seq, 10 * seq)
            archive.on_change(t)
    assert archive.writes == 0  # nothing written on the message path
    await archive.flush()
    assert archive.writes == 3
    path, _ = archive.paths("club", "t2")
    assert json.loads(path.read_text())["seq"] == 3
    for t in tables:  # refreshes with the same seq: nothing to write
        archive.link.tables[t] = snapshot(t, 3, 30)
        archive.on_change(t)
    await archive.flush()
    assert archive.writes == 3
    archive.link.tables[tables[0]] = snapshot(tables[0], 4, 40)
    archive.on_change(tables[0])
    await archive.flush()
    assert archive.writes == 4
    await archive.link.close()
