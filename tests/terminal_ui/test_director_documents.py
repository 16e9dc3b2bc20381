"""The console's rows read the typed live document: a document a table of another
version sends with keys left out decodes (every field has a default) and makes a
row, and one such table does not take the other tables' rows down with it."""

from __future__ import annotations

import json
import time

import aiomqtt

from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.director_link import TableSnapshot
from firmware_bridge.venue.table_document import BadDocument, read_live
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.rows import Flag, snapshot_row
from tests.helpers import Broker, until

T1 = TableTopics("club", "t1")


def snapshot(doc: dict[str, object]) -> TableSnapshot:
    now = time.time_ns() // 1_000_000
    live = read_live(json.dumps(doc).encode())
    assert not isinstance(live, BadDocument)
    return TableSnapshot(T1, raw=json.dumps(doc).encode(), received_wall_ms=now, live=live)


def test_a_document_without_clocks_or_rulings_makes_a_row() -> None:
    now = time.time_ns() // 1_000_000
    snap = snapshot({"published_at_ms": now, "expires_s": 60, "state": {"players": ["Ann", "Ben"]}})
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


async def test_the_console_shows_every_table_beside_one_of_another_version(
    mosquitto: Broker,
) -> None:
    """A table whose document leaves keys out, and one that sends garbage, on the same
    broker as a table in play: the console shows all three (it once raised
    ``KeyError: 'clocks'`` for the first, and no table had a row)."""
    now = time.time_ns() // 1_000_000
    clock = {"remaining_ms": 600_000, "running": False}
    playing = {
        "published_at_ms": now,
        "expires_s": 600,
        "state": {
            "players": ["Ann", "Ben"],
            "phase": "playing",
            "phase_text": "Ann to play",
            "scores": [30, 12],
            "clocks": [clock, clock],
        },
    }
    sparse = {"published_at_ms": now, "expires_s": 600, "state": {"players": ["Cyd", "Dee"]}}
    async with aiomqtt.Client(mosquitto.host, mosquitto.port, identifier="test-tables") as c:
        for name, payload in (
            ("t1", json.dumps(playing).encode()),
            ("t2", json.dumps(sparse).encode()),
            ("t3", b"{garbage"),
        ):
            await c.publish(TableTopics("club", name).live, payload, qos=1, retain=True)
    app = DirectorApp(DirectorConfig(broker=mosquitto.url(), desk="test-desk"))
    async with app.run_test(size=(150, 45)) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three tables")
        rows = {r.label: r for r in app.rows}
        assert (rows["club/t1"].players, rows["club/t1"].scores) == (("Ann", "Ben"), (30, 12))
        assert (rows["club/t2"].players, rows["club/t2"].phase) == (("Cyd", "Dee"), "not_started")
        assert (rows["club/t3"].phase, rows["club/t3"].flags) == ("no_state", (Flag.STALE,))
