"""The venue screen in a real headless Chromium (Debian's), driven over the DevTools
protocol: the page loads with the tables, a press at a table shows within a second,
a table going offline is shown, and the page stays right through a broker restart.
Each test keeps a screenshot in ``artifacts/venue-page/`` (a CI artifact).

A missing chromium skips these tests unless ``REQUIRE_SYSTEM_DEPS=1`` (``make test``),
where it fails: scripts/system-deps installs it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import shutil
import subprocess
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
import websockets

from clock.table.service import TableService
from clock.timeline import MonotonicTimeline
from clock.tournament.ledger import EventLedger
from engine.clocktext import clock_text
from engine.events import ClockPressed, GameStarted, Resigned
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Result
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.broker import free_port
from firmware_bridge.venue.page.server import VenuePage
from firmware_bridge.venue.publisher import TablePublisher
from tests.helpers import REPO, Broker, missing_part

ARTIFACTS = REPO / "artifacts" / "venue-page"
T1 = TableTopics("club", "t1")


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        missing_part("chromium is not installed: apt-get install -y chromium (scripts/system-deps)")
    return exe


class Page:
    """One browser tab over the Chrome DevTools protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.next_id = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        await self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            msg = json.loads(await self.ws.recv())
            if msg.get("id") == ident:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg["result"]
                return result

    async def eval(self, expr: str) -> Any:
        res = await self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        return res["result"].get("value")

    async def until(self, expr: str, what: str, limit_s: float = 5.0) -> float:
        """Poll ``expr`` until it is true; the seconds it took."""
        start = time.monotonic()
        while not await self.eval(expr):
            if time.monotonic() - start > limit_s:
                pytest.fail(f"the page did not show {what} within {limit_s} s")
            await asyncio.sleep(0.02)
        return time.monotonic() - start

    async def screenshot(self, name: str) -> None:
        shot = await self.call("Page.captureScreenshot", format="png")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))


def _targets(port: int) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as r:
        targets: list[dict[str, Any]] = json.loads(r.read())
    return targets


@contextlib.asynccontextmanager
async def browser(tmp_path: Path, url: str) -> AsyncIterator[Page]:
    profile = tmp_path / "chromium"
    proc = await asyncio.create_subprocess_exec(
        chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        f"--user-data-dir={profile}", "--remote-debugging-port=0", "--window-size=1000,700",
        "about:blank", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 20
        while not port_file.exists() or not port_file.read_text().strip():
            assert time.monotonic() < deadline, "chromium did not start"
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().splitlines()[0])
        targets = await asyncio.to_thread(_targets, port)
        target = next(t for t in targets if t["type"] == "page")
        async with websockets.connect(target["webSocketDebuggerUrl"], max_size=None) as ws:
            page = Page(ws)
            await page.call("Page.enable")
            await page.call("Page.navigate", url=url)
            await page.until("document.readyState === 'complete'", "the page loaded", 10)
            yield page
    finally:
        proc.kill()
        await proc.wait()


@contextlib.asynccontextmanager
async def venue_page(
    broker: Broker, event: Path | None = None, *, url: str | None = None
) -> AsyncIterator[str]:
    """The page's server on a free port (``url``: the broker with a login); its address."""
    port = free_port()
    page = VenuePage(
        parse_url(url or broker.url()), "club", host="127.0.0.1", port=port, event=event
    )
    task = asyncio.create_task(page.run())
    try:
        deadline = time.monotonic() + 10
        while not page.server.started:
            assert time.monotonic() < deadline, "the page server did not start"
            await asyncio.sleep(0.02)
        yield f"http://127.0.0.1:{port}/"
    finally:
        page.server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


@contextlib.asynccontextmanager
async def table(
    broker: Broker, tmp_path: Path
) -> AsyncIterator[tuple[TableService, TablePublisher]]:
    svc = TableService(tmp_path / "t1.sqlite", timeline=MonotonicTimeline(), heartbeat_ms=0)
    async with svc:
        ack = await svc.submit(
            GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
        )
        assert ack.accepted
        pub = TablePublisher(svc, parse_url(broker.url()), T1, refresh_s=5, expiry_s=60)
        async with pub:
            yield svc, pub


async def assign(broker: Broker) -> None:
    doc = {"table": 1, "division": "A", "round": 3, "players": ["Ann", "Ben"], "variant": "nzasp"}
    async with aiomqtt.Client(broker.host, broker.port, identifier="test-event") as c:
        await c.publish(T1.assignment, json.dumps(doc), qos=1, retain=True)


async def test_a_press_shows_within_a_second_and_offline_is_shown(
    mosquitto: Broker, tmp_path: Path
) -> None:
    await assign(mosquitto)
    async with (
        table(mosquitto, tmp_path) as (svc, pub),
        venue_page(mosquitto) as url,
        browser(tmp_path, url) as page,
    ):
        await page.until(
            "document.querySelector('#table-t1 .seat') !== null"
            " && document.querySelector('#table-t1').textContent.includes('Ann')",
            "table t1 with its players",
        )
        assert "round 3" in await page.eval("document.querySelector('#table-t1').textContent")
        running = "document.querySelector('#table-t1 .seat.running')?.dataset.seat"
        await page.until(f"{running} === '0'", "Ann's clock running")
        ack = await svc.submit(ClockPressed(player=0), "test")
        assert ack.accepted
        took = await page.until(f"{running} === '1'", "Ben's clock running after the press")
        assert took < 1.0, took
        await page.screenshot("press")
        # a table's board and moves: the latest snapshot, on a click
        await page.eval("document.getElementById('table-t1').click()")
        await page.until(
            "!document.getElementById('detail').hidden"
            " && document.getElementById('detail-title').textContent === 't1'",
            "table t1's moves",
        )
        # the table's terminal goes away: the page says so
        await pub.close()
        await page.until(
            "document.querySelector('#table-t1').classList.contains('offline')",
            "table t1 offline",
        )
        assert "OFFLINE" in await page.eval("document.querySelector('#table-t1').textContent")
        await page.screenshot("offline")


# the times a clock shows: 0, under a second, a minute's edges, hours, and overtime
CLOCK_TIMES = sorted(
    {
        *range(-130_000, 130_001, 737),
        *(sign * ms for sign in (1, -1) for ms in (0, 1, 499, 999, 1000, 1001, 59_999, 60_000)),
        *(sign * ms for sign in (1, -1) for ms in (61_500, 1_499_999, 1_500_000, 3_599_999)),
        *(sign * ms for sign in (1, -1) for ms in (3_600_000, 3_661_500, 36_000_000)),
    }
)


async def test_the_page_formats_a_clock_as_clocktext_does(
    mosquitto: Broker, tmp_path: Path
) -> None:
    """The page ticks the running clock itself, so it formats times in JavaScript
    (app.js ``clockText``): run in the browser, it gives engine/clocktext.py's text
    for every time, and the card shows the table's clock in that text."""
    async with (
        table(mosquitto, tmp_path) as (svc, _),
        venue_page(mosquitto) as url,
        browser(tmp_path, url) as page,
    ):
        got = await page.eval(f"{json.dumps(CLOCK_TIMES)}.map(clockText)")
        assert got == [clock_text(ms) for ms in CLOCK_TIMES]
        # Ben's clock stands (Ann's runs): the card shows it as clock_text has it
        ben = clock_text(svc.state.clock.remaining(1, svc.timeline.now_ms()))
        seat = "document.querySelector('#table-t1 .seat[data-seat=\"1\"] .clock')"
        await page.until(f"{seat}?.textContent === {json.dumps(ben)}", f"Ben's clock {ben}")


async def test_the_page_stays_right_through_a_broker_restart(
    mosquitto: Broker, tmp_path: Path
) -> None:
    async with (
        table(mosquitto, tmp_path) as (svc, _),
        venue_page(mosquitto) as url,
        browser(tmp_path, url) as page,
    ):
        await page.until("document.querySelector('#table-t1 .seat') !== null", "table t1")
        mosquitto.stop()
        await page.until("document.body.dataset.link === 'down'", "the broker unreachable")
        assert "broker unreachable" in await page.eval(
            "document.getElementById('link').textContent"
        )
        assert "NO LINK" in await page.eval("document.querySelector('#table-t1').textContent")
        await page.screenshot("broker-down")
        # a press while the broker is away reaches the page once it is back
        ack = await svc.submit(ClockPressed(player=0), "test")
        assert ack.accepted
        mosquitto.start()
        await page.until("document.body.dataset.link === 'up'", "the broker back", 30)
        running = "document.querySelector('#table-t1 .seat.running')?.dataset.seat"
        await page.until(f"{running} === '1'", "the press made while it was away", 30)
        await page.screenshot("broker-back")


EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 1
plan = [{ rounds = "1", system = "koth" }]
players = [{ name = "Ann", rating = 1800 }, { name = "Ben", rating = 1700 }]
"""


async def test_live_standings_follow_the_tables_and_the_event(
    mosquitto: Broker, tmp_path: Path
) -> None:
    log = tmp_path / "club.sqlite"
    # the director's console holds the log open as its writer all along: its commits
    # stay in the WAL (the main file's mtime does not move), the page still sees them
    with EventLedger.create(log, EVENT, "club.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
        async with (
            table(mosquitto, tmp_path) as (svc, _),
            venue_page(mosquitto, log) as url,
            browser(tmp_path, url) as page,
        ):
            box = "document.getElementById('standings').textContent"
            # "after round N" is the complete rounds only; the round in play apart
            await page.until(
                f"{box}.includes('Division A, before round 1')"
                f" && {box}.includes('Division A, with round 1 as it stands (0 of 1 results in')",
                "the standings and the round in play apart",
            )
            # Ben, not on turn, resigns at 0-0: the card says who won and why, not "0 / 0"
            assert (await svc.submit(Resigned(player=1))).accepted
            card = "document.getElementById('table-t1').textContent"
            await page.until(
                f"{card}.includes('game over: Ann wins: Ben resigned (scores Ann 0, Ben 0;')",
                "the result on the table's card",
            )
            won = "document.querySelector('#table-t1 .seat.won span').textContent"
            assert await page.eval(won) == "Ann"
            live = "#standings table[data-block='in-play'] tr:nth-child(2) td"
            await page.until(
                f"[...document.querySelectorAll(\"{live}\")].map(c => c.textContent).join(' ')"
                " === '1 1-0 +50 Ann'",
                "the resignation counted in the round in play",
            )
            ledger.append(Result("A", 1, 1, 2, (400, 300)))  # the director records the result
            await page.until(
                f"{box}.includes('after round 1')"
                " && !document.querySelector(\"#standings table[data-block='in-play']\")",
                "the final standings",
            )
            first = "document.querySelector('#standings tr:nth-child(2) td.player').textContent"
            assert await page.eval(first) == "Ann"
            await page.screenshot("standings")


TWO_DIVISIONS = (REPO / "tests" / "data" / "newt" / "two-divisions.toml").read_text(
    encoding="utf-8"
)
"""The test event of the tsh feed's tests too (tests/firmware_bridge/test_newt.py)."""

CELLS = (
    "[...document.querySelectorAll('#{box} table:nth-of-type(1) tr')]"
    ".map(r => [...r.cells].map(c => c.textContent))"
)
"""The cells of the first table in a box, heads first."""


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url) as r:
        return r.headers["content-type"], r.read()


async def test_the_projector_shows_the_sheets_and_the_tsh_feed_follows_the_event(
    mosquitto: Broker, tmp_path: Path
) -> None:
    """``/projector``: each division's pairings (the round to post) beside its
    standings, the same cells as the printed sheets, the divisions taking turns;
    the director records the round and pairs the next: the projector and
    ``/tourney.js`` follow, and division B, over, shows its prize sheet."""
    from engine.exports.newt import tourney_js
    from engine.tournament.prizes import prize_list
    from engine.tournament.sheets.pairings import pairings, pairings_sheet
    from engine.tournament.sheets.prizes import prizes_sheet
    from engine.tournament.sheets.standings import standings, standings_sheet

    def cells(sheet_rows: tuple[tuple[str, ...], ...], head: tuple[str, ...]) -> list[list[str]]:
        return [list(head), *map(list, sheet_rows)]

    log = tmp_path / "open.sqlite"
    with EventLedger.create(log, TWO_DIVISIONS, "open.toml") as ledger:
        for name in ("A", "B"):
            ledger.append(draw(ledger.state.division(name), 1))
        async with (
            venue_page(mosquitto, log) as url,
            browser(tmp_path, url + "projector?every=600") as page,
        ):
            state = ledger.state
            div = state.division("A")
            await page.until(
                "document.body.dataset.division === 'A'"
                " && document.getElementById('pairings').textContent.includes('round 1')",
                "division A's pairings of round 1",
            )
            posted = pairings_sheet(pairings(state, div, 1)).sections[0]
            assert await page.eval(CELLS.format(box="pairings")) == cells(posted.rows, posted.head)
            table = standings_sheet(standings(state, div, 0)).sections[0]
            assert await page.eval(CELLS.format(box="standings")) == cells(table.rows, table.head)
            assert "before round 1" in await page.eval(
                "document.getElementById('standings').textContent"
            )
            await page.screenshot("projector")
            # both lists fit one screen, the list by name under the list by table
            assert await page.eval(
                "[...document.querySelectorAll('#pairings h3')].map(h => h.textContent)"
            ) == [s.caption for s in pairings_sheet(pairings(state, div, 1)).sections]
            # the divisions take turns
            await page.eval("turn += 1; show()")
            assert await page.eval("document.body.dataset.division") == "B"
            # the director records round 1 (a forfeit among them) and pairs round 2
            for first, second in ledger.state.division("A").pairings[1].pairs:
                if not second:
                    continue
                if first == 1:
                    ledger.append(Result("A", 1, first, second, (410, 390)))
                else:
                    ledger.append(
                        Result(
                            "A", 1, first, second, (0, 0), "forfeit", winner=first, spread=50,
                            cause="director",
                        )
                    )  # fmt: skip
            ledger.append(draw(ledger.state.division("A"), 2))
            ledger.append(Result("B", 1, 1, 2, (380, 385)))  # division B is over
            await page.eval("turn = 0; show()")
            await page.until(
                "document.body.dataset.division === 'A'"
                " && document.getElementById('pairings').textContent.includes('round 2')"
                " && document.getElementById('standings').textContent.includes('after round 1')",
                "round 2's pairings and the standings after round 1",
            )
            state = ledger.state
            div = state.division("A")
            posted = pairings_sheet(pairings(state, div, 2)).sections[0]
            assert await page.eval(CELLS.format(box="pairings")) == cells(posted.rows, posted.head)
            table = standings_sheet(standings(state, div, 1)).sections[0]
            assert await page.eval(CELLS.format(box="standings")) == cells(table.rows, table.head)
            await page.screenshot("projector-round-2")
            kind, feed = await asyncio.to_thread(_get, url + "tourney.js")
            assert kind == "text/javascript; charset=utf-8"
            assert feed == tourney_js(state)
            assert b'"scores":[410]' in feed
            # B's prize sheet takes its turn after B's pairings and standings
            await page.until(
                "divisions.some(d => d.division === 'B' && d.prizes)", "division B's prizes"
            )
            for turn in range(8):
                await page.eval(f"turn = {turn}; show()")
                if await page.eval("document.body.dataset.view") == "prizes":
                    break
            assert await page.eval("document.body.dataset.division") == "B"
            prizes = prizes_sheet(state.spec.name, prize_list(state, state.division("B"), 1))
            places, specials = prizes.sections
            assert await page.eval(CELLS.format(box="prizes")) == cells(places.rows, places.head)
            high = "#prizes table:nth-of-type(2) tr:nth-child(2) td"
            assert await page.eval(
                f"[...document.querySelectorAll('{high}')].map(c => c.textContent)"
            ) == list(specials.rows[0])
            assert "Gus Gray" in await page.eval("document.getElementById('prizes').textContent")
            await page.screenshot("projector-prizes")
