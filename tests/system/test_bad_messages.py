"""One table's bad messages stay that table's problem (issue 22, part 1).

Each bad message is published as a table would, retained, on its own table's
topic of a real broker, beside good tables; the director's console (Pilot), the
hub's archive and the venue page (HTTP against its real server) keep showing every
other table right, show the bad table stale with the reason once, and a table
naming another game's players moves nothing of that game's live standings.

Before the fix: a retained ``{"state": {}}`` or a live document without ``at_ms``
made every ``rackclock director`` exit (KeyError; issue 21's typed document already
read it as a table not started, these tests keep it so); ``{"state": "x"}`` or
clocks or scores of the wrong type made the page answer 500 and its stream go
silent; a table naming another game's players moved that game's live standings;
a 10 MB document went whole to every browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiomqtt

from clock.tournament.ledger import EventLedger
from engine.tournament.assignment import round_assignments
from engine.tournament.pairing.pair_round import draw
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import (
    MAX_DOCUMENT_BYTES,
    MAX_MESSAGE_BYTES,
    TableTopics,
    every_table,
)
from firmware_bridge.venue.archive import Archive
from firmware_bridge.venue.director_link import DirectorLink
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.rows import Flag
from tests.helpers import Broker, until, wait_for
from tests.system.test_venue_page import venue_page

CLOCK = {"remaining_ms": 600_000, "overtime_ms": 0, "penalty": 0, "running": False}


def good(players: tuple[str, str], scores: tuple[int, int], **state: Any) -> bytes:
    now = time.time_ns() // 1_000_000
    doc = {
        "v": 1,
        "venue": "club",
        "seq": 5,
        "published_at_ms": now,
        "expires_s": 600,
        "now_ms": 1000,
        "state": {
            "players": list(players),
            "phase": "playing",
            "phase_text": f"{players[0]} to play",
            "turn": 0,
            "at_ms": 1000,
            "scores": list(scores),
            "clocks": [CLOCK, CLOCK],
            **state,
        },
    }
    return json.dumps(doc).encode()


READ_AS_NOT_STARTED = {
    "t1": b'{"state":{}}',
    "t2": json.dumps({"expires_s": 600, "state": {"players": ["Eve", "Fay"]}}).encode(),
}
"""Documents that leave keys out: a table of another version, read with defaults."""
BAD = {
    "t3": (b'{"state":"x"}', "bad live document: Expected `object`, got `str` - at `$.state`"),
    "t4": (b'{"state":{"clocks":"x"}}', "at `$.state.clocks`"),
    "t5": (b'{"state":{"scores":"32-0"}}', "at `$.state.scores`"),
    "t6": (
        b'{"state":{"players":["' + b"x" * (1024 * 1024) + b'","y"]}}',
        f"bad live document: over the {MAX_DOCUMENT_BYTES}-byte limit",
    ),
}
"""Table -> a payload that is no live document, and what its reason says (a 1 MiB
one passes the broker's ``message_size_limit`` and is the consumers' to refuse)."""
HUGE = b'{"state":{"players":["' + b"x" * (10 * 1024 * 1024) + b'","y"]}}'
"""10 MB on t9: the venue's broker drops it (``message_size_limit``, MAX_MESSAGE_BYTES);
on a broker without that limit the consumers drop it as they drop t6's."""
GOOD = {"t7": (("Ann", "Ben"), (30, 12)), "t8": (("Cyd", "Dee"), (55, 40))}


async def publish(broker: Broker, payloads: dict[str, bytes]) -> None:
    """Each payload retained on its table's ``live`` topic, as that table would."""
    for name, payload in payloads.items():
        ident = f"rackclock-table-club-{name}-test"
        async with aiomqtt.Client(broker.host, broker.port, identifier=ident) as c:
            await c.publish(TableTopics("club", name).live, payload, qos=1, retain=True)


def http(url: str) -> tuple[int, Any]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, json.loads(resp.read())


async def get(url: str) -> tuple[int, Any]:
    return await asyncio.to_thread(http, url)


async def poll(cond: Any, what: str, limit_s: float = 10.0) -> None:
    deadline = time.monotonic() + limit_s
    while not await cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_a_table_s_bad_documents_reach_no_screen_and_no_other_table(
    mosquitto: Broker, tmp_path: Path
) -> None:
    await publish(
        mosquitto,
        {
            **READ_AS_NOT_STARTED,
            **{name: payload for name, (payload, _) in BAD.items()},
            **{name: good(players, scores) for name, (players, scores) in GOOD.items()},
            "t9": HUGE,
        },
    )
    names = [*READ_AS_NOT_STARTED, *BAD, *GOOD]

    def shown(labels: list[str]) -> list[str]:
        return sorted(n.removeprefix("club/") for n in labels if n != "club/t9")

    # the console: every table has its row, the good ones as they are, the bad stale
    app = DirectorApp(DirectorConfig(broker=mosquitto.url(), desk="test-desk"))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: shown([r.label for r in app.rows]) == names, "every table's row")
        rows = {r.label.removeprefix("club/"): r for r in app.rows}
        assert "t9" not in rows or rows["t9"].flags == (Flag.STALE,)
        for name, (players, scores) in GOOD.items():
            assert (rows[name].players, rows[name].scores) == (players, scores)
            assert Flag.STALE not in rows[name].flags
        assert rows["t1"].phase == rows["t2"].phase == "not_started"
        assert rows["t2"].players == ("Eve", "Fay")
        for name, (_, why) in BAD.items():
            assert rows[name].flags == (Flag.STALE,), name
            assert why in rows[name].phase_text, name  # the row's note says why
        link = app.link
        assert link is not None
        assert link.garbage >= len(BAD)
        # said once per table, and the reason names the field
        assert shown([n.split(":")[0] for n in link.notices]) == list(BAD)
        assert "club/t4: bad live document: Expected `array`, got `str` - at `$.state.clocks`" in (
            link.notices
        )
        # the same garbage again is counted, not said again
        await publish(mosquitto, {"t3": BAD["t3"][0]})
        await until(pilot, lambda: link.garbage >= len(BAD) + 1, "the repeated garbage")
        assert len(shown([n.split(":")[0] for n in link.notices])) == len(BAD)
        assert app.is_running

    # the hub: the good tables archived, each bad table said once on its stdout
    out = io.StringIO()
    archive = Archive(mosquitto.url(), tmp_path / "archive", out=out, flush_s=0.05)
    task = asyncio.create_task(archive.run())
    try:

        async def archived() -> bool:
            return all(archive.paths("club", n)[0].exists() for n in (*GOOD, *READ_AS_NOT_STARTED))

        await poll(archived, "the good tables archived")
        await poll(
            lambda: asyncio.sleep(0, all(f"table club/{n}:" in out.getvalue() for n in BAD)),
            "the bad tables said",
        )
        for name, (_, why) in BAD.items():
            lines = [
                ln for ln in out.getvalue().splitlines() if ln.startswith(f"table club/{name}:")
            ]
            assert len(lines) == 1, lines
            assert why in lines[0], lines
            assert not archive.paths("club", name)[0].exists()  # nothing of it archived
        saved = json.loads(archive.paths("club", "t7")[0].read_text())
        assert saved["state"]["scores"] == [30, 12]
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    # the page: answers, every good table right, the bad ones stale with the reason
    async with venue_page(mosquitto) as url:

        async def all_there() -> bool:
            status, venue = await get(f"{url}venue")
            return status == 200 and shown([f"club/{t['table']}" for t in venue["tables"]]) == names

        await poll(all_there, "every table on the page")
        _, venue = await get(f"{url}venue")
        cards = {t["table"]: t for t in venue["tables"]}
        for name, (players, scores) in GOOD.items():
            assert (cards[name]["players"], cards[name]["scores"]) == (list(players), list(scores))
            assert cards[name]["status"] == "online" or cards[name]["status"] == "stale"
            assert cards[name]["note"] is None
        for name, (_, why) in BAD.items():
            assert cards[name]["status"] == "stale"
            assert cards[name]["players"] is None
            assert why in cards[name]["note"], name
        assert "t9" not in cards or cards["t9"]["players"] is None
        # no card carries the big documents, nor does the whole venue
        assert len(json.dumps(venue)) < 100_000
        # the stream opens with the whole venue, and a good table's change still comes
        opened = asyncio.to_thread(urllib.request.urlopen, f"{url}events", timeout=10)
        with await opened as stream:
            first = await asyncio.to_thread(stream.readline)
            assert first.startswith(b"data: ")
            assert json.loads(first[6:])["type"] == "venue"
            await publish(mosquitto, {"t7": good(("Ann", "Ben"), (44, 12))})

            def next_data() -> dict[str, Any]:
                while True:
                    line = stream.readline()
                    if line.startswith(b"data: "):
                        doc: dict[str, Any] = json.loads(line[6:])
                        return doc

            change = await asyncio.to_thread(next_data)
            assert change["table"]["table"] == "t7"
            assert change["table"]["scores"] == [44, 12]


EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 1
plan = [{ rounds = "1", system = "koth" }]
players = [
  { name = "Ann", rating = 1900 }, { name = "Ben", rating = 1800 },
  { name = "Cyd", rating = 1700 }, { name = "Dee", rating = 1600 },
]
"""


async def test_a_table_naming_another_game_s_players_moves_nothing_of_it(
    mosquitto: Broker, tmp_path: Path
) -> None:
    """The round puts Ann v Ben at one table and Cyd v Dee at the other; the second
    table publishes Ann v Ben at 500-0. The page's and the console's live standings
    count Ann v Ben as its own table has it (30-12), and Cyd v Dee as not started."""
    path = tmp_path / "club.sqlite"
    with EventLedger.create(path, EVENT, "club.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
        at = {a.players: a.table_name for a in round_assignments(ledger.state, 1)}
    own = next(t for p, t in at.items() if set(p) == {"Ann", "Ben"})
    other = next(t for p, t in at.items() if set(p) == {"Cyd", "Dee"})
    first = next(p for p in at if set(p) == {"Ann", "Ben"})
    scores = (30, 12) if first[0] == "Ann" else (12, 30)
    await publish(
        mosquitto,
        {own: good(first, scores, round=1), other: good(first, (500, 0), round=1)},
    )

    async with venue_page(mosquitto, path) as url:

        async def counted() -> bool:
            _, venue = await get(f"{url}venue")
            play = venue["standings"][0]["in_play"] if venue["standings"] else None
            return play is not None and any(r["spread"] for r in play["rows"])

        await poll(counted, "the live standings")
        _, venue = await get(f"{url}venue")
        rows = {r["name"]: r["spread"] for r in venue["standings"][0]["in_play"]["rows"]}
        assert rows == {"Ann": 18, "Ben": -18, "Cyd": 0, "Dee": 0}

    app = DirectorApp(DirectorConfig(broker=mosquitto.url(), desk="test-desk", event=path))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: len(app.rows) == 2, "both tables")
        assert app.desk is not None
        text = app.desk.text(app.rows)
        assert "Cyd (first) v Dee: not started" in text or "Dee (first) v Cyd: not started" in text
        live = text.split("as it stands")[1]
        assert "+18" in live
        assert "+500" not in live
        assert "+488" not in live


BAD_REPLIES = {
    b'{"v":1,"id":"%s","accepted":"yes"}': (
        "bad director reply: Expected `bool | null`, got `str` - at `$.accepted`"
    ),
    b'{"v":1,"id":"%s","accepted":true,"type":"get_log","log":5}': (
        "bad director reply: Expected `str | null`, got `int` - at `$.log`"
    ),
    b'["%s"]': "bad director reply: Expected `object`, got `array`",
    b'{"v":1,"id":"%s","accepted":true,"log":"' + b"x" * MAX_MESSAGE_BYTES + b'"}': (
        f"bad director reply: over the {MAX_MESSAGE_BYTES}-byte limit"
    ),
}
"""A reply -> what the director is told: wrong types, not an object, too big."""


async def test_a_table_s_bad_replies_answer_no_command_and_are_said_once(
    mosquitto_factory: Any,
) -> None:
    """t1 answers each command with every bad reply (carrying its id) before a good
    one: the command gets the good one, never a bad one; each reason is said once
    for t1, however often it comes; t2's command is answered meanwhile."""
    broker = mosquitto_factory(message_size_limit=0)  # the too-big reply reaches the link
    t1, t2 = TableTopics("club", "t1"), TableTopics("club", "t2")
    async with aiomqtt.Client(broker.host, broker.port, identifier="test-tables") as tables:
        await tables.subscribe(every_table("club", "director/commands"), qos=1)

        async def answer() -> None:
            async for msg in tables.messages:
                table = t1 if msg.topic.value == t1.director_commands else t2
                ident = json.loads(bytes(msg.payload))["id"]
                replies = f"{table.director_replies}/desk-9"
                if table == t1:
                    for bad in BAD_REPLIES:
                        await tables.publish(replies, bad.replace(b"%s", ident.encode()), qos=1)
                good = {"v": 1, "id": ident, "accepted": True, "type": "Adjusted", "seq": 7}
                await tables.publish(replies, json.dumps(good), qos=1)

        link = DirectorLink(parse_url(broker.url()), desk="desk-9")
        async with link:
            await wait_for(link.session.connected.is_set, "the director's connection")
            answering = asyncio.create_task(answer())
            try:
                for _ in range(2):  # the second time: counted, not said again
                    got = await asyncio.gather(
                        link.request(t1, {"type": "get_state"}, timeout_s=10),
                        link.request(t2, {"type": "get_state"}, timeout_s=10),
                    )
                    assert [(r.accepted, r.seq, r.log) for r in got] == [(True, 7, None)] * 2
            finally:
                answering.cancel()
        assert link.garbage == 2 * len(BAD_REPLIES)
        assert sorted(link.notices) == sorted(f"club/t1: {why}" for why in BAD_REPLIES.values())
