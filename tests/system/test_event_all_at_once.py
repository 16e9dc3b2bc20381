"""The whole event at once, every view checked after every step (issue 19).

Eight players, three rounds (round robin, round robin, KOTH), on a real mosquitto
running the ACL ``deploy/mosquitto/make_acl.py`` writes for four tables, every
program on its own login: four ``rackclock serve`` tables (each follows its
assignment and starts the next round's game on ``next``), the director's console
(``director --broker --event``) under Pilot in this process, the venue page
(``venue --page --event``'s server) in headless Chromium, and the ``rackclock
event`` commands run in-process between rounds as the director types them in a
shell. A resignation by the player not on turn, a correction with a reason and a
withdrawal before the last round happen along the way.

After each step the views must agree, polled with a deadline (the issue allows two
seconds to see a change; nothing sleeps a fixed time):

- pair and publish: the tables the CLI prints, the assignments retained on the
  broker, the game each table's log started (round, table, players), the console's
  event screen and the page's table cards;
- each game signed: its result and winner in the table's log (replayed), the
  event's log (``event show``), the console's event screen;
- every step (a round published, each game signed, each round's end, each
  correction): the standings "after round N" (the complete rounds only) the same,
  label and rows, in ``event standings``, the console and the page, and the round
  in play apart: the CLI says how many of its results are in (a bye is none to
  wait for), the console and the page show it as it stands, the same rows, the two
  players of the game just signed with what their games gave them;
- each round's end and each correction: the "after round N" rows are the wins and
  spread the table logs (and the correction) give.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest

from clock.tournament.gamelogs import read_game_log
from clock.tournament.ledger import EventLedger
from engine.events import GameStarted
from engine.rules.replay import split_games
from engine.rules.state import Result as EndResult
from engine.tournament.assignment import decode_assignment
from engine.tournament.records import Result
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.venue.assignment_feed import retained_assignments
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.event import EventScreen
from tests.helpers import Broker, BrokerFactory
from tests.system.test_event import EVENT, HEAVY, LIGHT, SECOND
from tests.system.test_event_tables import tables
from tests.system.test_mqtt_acl import DEPLOY, password
from tests.system.test_venue_page import Page, browser, venue_page

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")
TABLES = ("t1", "t2", "t3", "t4")
SEEN_S = 2.0
"""How long a view may take to show a change (issue 19: within two seconds)."""
BYE_SPREAD = 50
"""NASPA's bye: a win by 50 (Director Manual V.E.4; the naspa variant's bye_spread)."""
CONSOLE_REFRESH_S = 0.25
"""The console's overview refresh, quicker than its default second so the steps
follow each other quickly; the page keeps its own one-second pace."""


# --- the broker with logins and the ACL ---------------------------------------------------


@pytest.fixture
def venue_broker(tmp_path: Path, mosquitto_factory: BrokerFactory) -> Broker:
    """A mosquitto with logins only and the ACL ``make_acl.py club t1 t2 t3 t4`` writes
    (``acl.example`` is its output for two tables): each table's login writes only
    its own topics, so a table's reply is that table's."""
    acl = tmp_path / "acl"
    made = subprocess.run(
        [sys.executable, str(DEPLOY / "make_acl.py"), "club", *TABLES],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    acl.write_text(made.stdout, encoding="utf-8")
    users = ["director", "viewer", *(f"table-club-{t}" for t in TABLES)]
    passwd = tmp_path / "passwd"
    passwd.write_text("".join(f"{u}:{password(u)}\n" for u in users), encoding="utf-8")
    subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True)  # hash in place
    return mosquitto_factory(password_file=passwd, acl_file=acl)


def login(broker: Broker, user: str, path: str = "") -> str:
    return f"mqtt://{user}:{password(user)}@{broker.host}:{broker.port}{path}"


# --- the tables: rackclock serve ----------------------------------------------------------


@dataclass
class Served:
    """One ``rackclock serve`` table, its clock and its assignment on the broker."""

    name: str
    log: Path
    proc: asyncio.subprocess.Process
    lines: list[dict[str, Any]] = field(default_factory=list)
    seen: int = 0
    reader: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(json.loads(raw))

    def say(self, *lines: str | dict[str, object]) -> None:
        assert self.proc.stdin is not None
        text = [ln if isinstance(ln, str) else json.dumps(ln) for ln in lines]
        self.proc.stdin.write(("\n".join(text) + "\n").encode())

    async def until(self, want: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The next line ``want`` takes (after those already seen); a refusal or an
        error on the way fails the test."""
        deadline = time.monotonic() + 10
        while True:
            while self.seen < len(self.lines):
                line = self.lines[self.seen]
                self.seen += 1
                if want(line):
                    return line
                assert "refused" not in line, (self.name, line)
                assert "error" not in line, (self.name, line)
            if time.monotonic() > deadline or self.proc.returncode is not None:
                pytest.fail(f"{self.name}: no {what}; it printed {self.lines}")
            await asyncio.sleep(0.005)


@contextlib.asynccontextmanager
async def served(broker: Broker, folder: Path) -> AsyncIterator[Callable[[], Any]]:
    """``await start()`` starts the four tables, each on its own login (once round 1
    is on the broker: a table takes its first game from its assignment); they stop
    at the end of the block."""
    out: dict[str, Served] = {}

    async def start() -> dict[str, Served]:
        await asyncio.to_thread(folder.mkdir)
        for t in TABLES:
            url = login(broker, f"table-club-{t}", f"/club/{t}")
            proc = await asyncio.create_subprocess_exec(
                RACKCLOCK, "serve", "--log", str(folder / f"{t}.sqlite"),
                "--clock", f"mqtt:{url}", "--assignment", url,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=(folder / f"{t}.err").open("wb"),
            )  # fmt: skip
            table = Served(t, folder / f"{t}.sqlite", proc)
            table.reader = asyncio.create_task(table._read())
            out[t] = table
        return out

    try:
        yield start
    finally:
        for table in out.values():
            if table.proc.returncode is None:
                with contextlib.suppress(Exception):
                    table.say("quit")
                    assert table.proc.stdin is not None
                    table.proc.stdin.close()
                try:
                    await asyncio.wait_for(table.proc.wait(), 10)
                except TimeoutError:
                    table.proc.kill()
                    await table.proc.wait()
            if table.reader is not None:
                await table.reader


def game_lines(rnd: int, table: int, *, resign: bool = False) -> list[dict[str, object]]:
    """The game at a table (test_event.py's): the first player lays WINDY and presses;
    then either six passes and the racks (scores WINDY less the first rack, less the
    second), or the first player resigns while the second is on turn. Both sign."""
    moves: list[dict[str, object]] = [
        {"type": "tiles_placed", "player": 0, "move": "8D WINDY"},
        {"type": "clock_pressed", "player": 0},
    ]
    if resign:
        moves.append({"type": "resigned", "player": 0})  # not on turn: player 1 is
    else:
        first = HEAVY if (rnd + table) % 3 == 0 else LIGHT
        moves += [{"type": "passed", "player": (i + 1) % 2} for i in range(6)]
        moves.append({"type": "end_racks", "racks": [first[0], SECOND[table - 1][0]]})
    return [*moves, {"type": "signed", "player": 0}, {"type": "signed", "player": 1}]


async def rackclock(*args: str | int | Path) -> str:
    """The command's output; it must succeed."""
    proc = await asyncio.create_subprocess_exec(
        RACKCLOCK, *map(str, args), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, (args, err.decode())
    return out.decode()


# --- the views ----------------------------------------------------------------------------

Row = tuple[str, str, int, str]
"""A standings row as every view shows it: rank, W-L, spread, name."""
ROW = re.compile(r"^\s*(\d+=?)\s+(\d+(?:\.5)?-\d+(?:\.5)?)\s+([+-]?\d+)\s+(\S.*?)\s*$")


def standings_rows(lines: list[str]) -> list[Row]:
    """The rows; a name without the marks after it (``  (round 1: lost by resignation)``:
    the CLI and the console mark games won or lost by rule, the page does not)."""
    return [(m[1], m[2], int(m[3]), m[4].split("  (")[0]) for ln in lines if (m := ROW.match(ln))]


def cli_standings(text: str) -> tuple[str, list[Row]]:
    """``event standings``: its label and rows."""
    head = re.search(r"^division A (.+):$", text, re.MULTILINE)
    assert head is not None, text
    return head[1], standings_rows(text.splitlines())


def console_standings(text: str, block: str = "") -> tuple[str, list[Row]]:
    """The console's event screen: the label and rows of its first standings block
    ("after round N"), or of the one whose label starts with ``block``."""
    _, _, tail = text.partition("\nStandings " + block)
    label, _, rest = tail.partition("\n")
    rows = rest.split("\n\n")[0].splitlines()
    return block + label, standings_rows(rows)


IN_PLAY = "with round "
"""How the console's and the page's block of the round in play begins."""

PAGE_STANDINGS = """JSON.stringify([...document.querySelectorAll('#standings table')].map(t => [
  t.dataset.block, t.querySelector('caption').textContent,
  [...t.querySelectorAll('tr')].slice(1).map(r => [...r.cells].map(c => c.textContent))]))"""


async def page_standings(page: Page) -> dict[str, tuple[str, list[Row]]]:
    """The page's standings blocks: ``after`` (round N) and ``in-play``."""
    got = json.loads(await page.eval(PAGE_STANDINGS) or "[]")
    out = {}
    for block, caption, rows in got:
        assert caption.startswith("Division A, "), caption
        out[block] = (
            caption.removeprefix("Division A, "),
            [(r, wl, int(s), n) for r, wl, s, n in rows],
        )
    return out


async def settled(what: str, probe: Callable[[], Any]) -> None:
    """Poll ``probe`` (sync or async; it returns None or a falsy value until the views
    agree, else fails with what it saw at the deadline)."""
    deadline = time.monotonic() + SEEN_S
    last: object = None
    while True:
        got = probe()
        if asyncio.iscoroutine(got):
            got = await got
        if got is True:
            return
        last = got
        if time.monotonic() > deadline:
            pytest.fail(f"the views did not agree on {what} within {SEEN_S} s: {last}")
        await asyncio.sleep(0.02)


# --- the test -----------------------------------------------------------------------------


async def test_every_view_agrees_after_every_step(tmp_path: Path, venue_broker: Broker) -> None:
    (tmp_path / "event.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "event.sqlite"

    async def shell(*args: str | int | Path) -> str:
        """``rackclock event ARGS`` as the director types it in another window."""
        return await rackclock("event", *args)

    await shell("new", tmp_path / "event.toml", "-o", log)
    director = login(venue_broker, "director", "/club")
    app = DirectorApp(
        DirectorConfig(
            broker=login(venue_broker, "director"),
            venue="club",
            event=log,
            export_dir=tmp_path,
            refresh_s=CONSOLE_REFRESH_S,
        )
    )

    def screen() -> str:
        """The console's event screen as it shows now (its redraw timer's call)."""
        assert isinstance(app.screen, EventScreen)
        app.screen.redraw()
        return app.screen.shown

    def shown(line: str) -> Callable[[], bool]:
        """Whether the console's event screen shows ``line`` now (wrapped or not: the
        screen wraps a game's line between its parts to fit its width)."""
        words = " ".join(line.split())
        return lambda: words in " ".join(screen().split())

    def taken(key: str) -> Callable[[], bool]:
        """Whether the event's log has the result of game ``round:first:second``."""
        return lambda: key in event_now()

    def event_now() -> dict[str, Result]:
        """The event's results by ``round:first:second`` names, read-only."""
        with EventLedger.open(log, readonly=True) as ledger:
            div = ledger.state.division("A")
            return {
                f"{r}:{div.name(res.first)}:{div.name(res.second)}": res
                for r, got in div.results.items()
                for res in got.values()
            }

    wins: dict[str, float] = {}
    spread: dict[str, int] = {}

    def count(a: str, b: str, scores: tuple[int, int], winner: int | None, margin: int) -> None:
        """What a game gives each player: ``winner`` 0/1 (None: the scores decide)."""
        if winner is None:
            winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        for seat, name in enumerate((a, b)):
            if not name:  # a bye's
                continue
            wins[name] = wins.get(name, 0) + (0.5 if winner is None else float(winner == seat))
            sign = 0 if winner is None else (1 if winner == seat else -1)
            spread[name] = spread.get(name, 0) + sign * margin

    async def standings_agree(label: str, in_play: str | None = None) -> None:
        """``event standings``, the console and the page: the same "after round N"
        block (label and rows), and the CLI's line on the round in play (None: none
        is in play, and the console and the page show no block for it)."""
        text = await shell("standings", log)
        cli_label, cli_rows = cli_standings(text)
        assert cli_label == label, text
        said = [ln.strip() for ln in text.splitlines() if " in play: " in ln]
        assert said == ([in_play] if in_play else []), text

        async def probe() -> bool | object:
            pages = await page_standings(page)
            views = (console_standings(screen()), pages.get("after"))
            live = (IN_PLAY in screen(), "in-play" in pages)
            return (
                all(v == (label, cli_rows) for v in views) and live == (bool(in_play),) * 2
            ) or (views, live)

        await settled(f"the standings {label} ({in_play})", probe)

    async def standings_counted(label: str) -> None:
        """At a round's end: the three agree, and the rows are what the games gave."""
        await standings_agree(label)
        _, cli_rows = cli_standings(await shell("standings", log))
        assert {n: (float(wl.split("-")[0]), s) for _, wl, s, n in cli_rows} == {
            n: (wins[n], spread[n]) for n in wins
        }

    async with (
        served(venue_broker, tmp_path / "tables") as start_tables,
        venue_page(venue_broker, log, url=login(venue_broker, "viewer")) as url,
        browser(tmp_path, url) as page,
        app.run_test(size=(120, 60)) as pilot,
    ):
        await pilot.press("s")  # the event screen
        await pilot.pause()
        boards: dict[str, Served] = {}
        for rnd in (1, 2, 3):
            if rnd == 3:  # Hal leaves before the last round: seven players, a bye
                await shell("withdraw", log, "Hal Hunt", "--round", 3)
            # --- pair: the CLI's tables, the console's event screen
            paired = await shell("pair", log)
            games = tables(paired)
            byes = re.findall(r"^ +bye: (.+)$", paired, re.MULTILINE)
            assert (len(games), len(byes)) == ((3, 1) if rnd == 3 else (4, 0))
            for name in byes:  # a win by the bye spread (Director Manual V.E.4)
                count(name, "", (BYE_SPREAD, 0), 0, BYE_SPREAD)

            def listed(rnd: int = rnd, games: dict[str, tuple[str, str]] = games) -> object:
                shown = screen()
                want = [f"{t:>4}  {a} (first) v {b}: not started" for t, (a, b) in games.items()]
                return (f"round {rnd} of 3" in shown and all(w in shown for w in want)) or shown

            await settled(f"round {rnd}'s tables on the console", listed)
            # --- publish: the broker, each table's game, the console's rows, the page
            published = await shell("publish", log, "--broker", director)
            assert tables(published) == games
            held = await retained_assignments(parse_url(director), "club")
            assert {t: decode_assignment(p, t).players for t, p in held.items()} == games
            if rnd == 1:
                boards = await start_tables()
            for t in games:
                if rnd > 1:
                    offer = await boards[t].until(lambda ln: "assignment" in ln, "new assignment")
                    assert offer["assignment"]["players"] == list(games[t])
                    assert offer["ready"] is True
                    boards[t].say("next")
                await boards[t].until(lambda ln: ln.get("type") == "GameStarted", "game started")
                start = split_games(read_game_log(boards[t].log))[-1][0][1]
                assert isinstance(start, GameStarted)
                assert (start.round, start.division, start.table) == (rnd, "A", t)
                assert start.players == games[t]
            if rnd == 3:  # the table the round does not use keeps its round 2 game
                boards["t4"].say("next")
                answer = await boards["t4"].until(lambda ln: "error" in ln, "its answer")
                assert "no new game" in answer["error"]

            def on_console(games: dict[str, tuple[str, str]] = games) -> object:
                rows = {r.key: r.players for r in app.rows}
                return all(rows.get(f"club/{t}") == games[t] for t in games) or rows

            await settled(f"round {rnd}'s games on the console", on_console)

            async def on_page(rnd: int = rnd, games: dict[str, tuple[str, str]] = games) -> object:
                cards = {t: await page.eval(f"document.getElementById('table-{t}')?.textContent")
                         for t in games}  # fmt: skip
                return (
                    all(
                        text and f"round {rnd} A" in text and a in text and b in text
                        for text, (a, b) in zip(cards.values(), games.values(), strict=True)
                    )
                    or cards
                )

            await settled(f"round {rnd}'s games on the page", on_page)
            before = f"after round {rnd - 1}" if rnd > 1 else "before round 1"
            await standings_agree(before, f"round {rnd} in play: 0 of {len(games)} results in")
            # --- each game, signed in turn
            for done, (t, (a, b)) in enumerate(games.items(), start=1):
                n = int(t[1:])
                resign = (rnd, t) == (1, "t2")
                boards[t].say(*game_lines(rnd, n, resign=resign))
                for _ in (0, 1):  # both signatures committed
                    await boards[t].until(lambda ln: ln.get("type") == "Signed", "signature")
                # the table's log, replayed while the table runs (read-only)
                table = json.loads(await rackclock("replay", "--json", boards[t].log))
                assert (table["players"], table["signed"], table["rejected"]) == (
                    [a, b],
                    [True, True],
                    [],
                )
                res = msgspec.convert(table["result"], EndResult)
                if resign:
                    assert (res.reason, res.winner) == ("resigned", 1)
                key = f"{rnd}:{a}:{b}"
                await settled(f"{key} in the event's log", taken(key))
                recorded = event_now()[key]
                assert recorded.scores == res.scores
                assert recorded.won(recorded.first) == (1.0 if res.winner == 0 else 0.0)
                if resign:
                    assert (recorded.kind, recorded.cause) == ("forfeit", "resigned")
                margin = recorded.spread if recorded.spread is not None else res.spread
                count(a, b, res.scores, res.winner, margin)
                score = f"{res.scores[0]} to {res.scores[1]}"
                assert f"table {t:>4}: {a} (first) v {b}  {score}" in await shell("show", log)
                line = f"{t:>4}  {a} (first) v {b}: {score}  result in"
                await settled(f"{key} on the console", shown(line))
                # a table's log taken again (its next game) after the correction below
                # is not refused for the corrected game: the correction stands
                assert "not taken" not in screen()

                if done == len(games):
                    continue  # the round is complete: checked below
                await standings_agree(
                    before, f"round {rnd} in play: {done} of {len(games)} results in"
                )

                async def same(pair: tuple[str, str] = (a, b)) -> object:
                    """The console and the page: the same round in play as it stands, in
                    which the two players have what their games so far gave them (no
                    other game of theirs is in play)."""
                    pages = await page_standings(page)
                    views = (console_standings(screen(), IN_PLAY), pages.get("in-play"))
                    if views[1] is None:
                        return views
                    got = {n: (float(wl.split("-")[0]), s) for _, wl, s, n in views[1][1]}
                    want = {n: (wins[n], spread[n]) for n in pair}
                    return (views[0] == views[1] and all(got.get(n) == want[n] for n in pair)) or (
                        views,
                        want,
                    )

                await settled(f"round {rnd} as it stands after {key}", same)
            await standings_counted(f"after round {rnd}")
            if rnd == 1:  # --- a correction: t3's scores were typed wrong at the table
                a, b = games["t3"]
                old = event_now()[f"1:{a}:{b}"]
                await shell("result", log, 1, a, 400, b, 410, "--reason", "scoresheet recount")
                for seat, name in enumerate((a, b)):  # undo the table's, count the new one
                    wins[name] -= old.won(old.first if seat == 0 else old.second)
                    spread[name] -= old.margin(old.first if seat == 0 else old.second)
                count(a, b, (400, 410), None, 10)
                assert f"table   t3: {a} (first) v {b}  400 to 410" in await shell("show", log)
                line = f"  t3  {a} (first) v {b}: 400 to 410  result in"
                await settled("the correction on the console", shown(line))
                await standings_counted("after round 1")
        # the tables' logs taken again from the shell: every game is in already (the
        # corrected one as corrected), and the log the console and the shell both
        # appended to is whole, up to the anchor the last publish sent the tables
        assert await shell("results", log, tmp_path / "tables") == ""
        # records 1..N as the last publish anchored them; the last round's results came
        # after it, and verify says they are not covered by that anchor
        verified = await shell("verify", log, "--broker", director)
        assert re.search(r"records 1\.\.\d+ are as anchored", verified), verified
