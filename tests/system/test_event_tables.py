"""One round, one set of table numbers: ``event pair``, ``event show``, ``event publish``,
the assignments retained on a real mosquitto and ``LEDGER@tN`` name the same game
at the same table, with byes and two divisions; a publish clears the retained
assignment of every table the round does not use. The commands run in-process.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clock.log.eventlog import EventLog
from engine.events import GameStarted
from engine.tournament.assignment import Assignment, decode_assignment
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.venue.assignment_feed import (
    load_assignment,
    publish_assignments,
    retained_assignments,
)
from terminal_ui.cli import main
from tests.helpers import Broker

EVENT = """
name = "Two halls"
[[division]]
name = "A"
rounds = 3
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
  { name = "Eve Eng", rating = 1400 },
]
[[division]]
name = "B"
rounds = 3
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Fay Ford", rating = 1300 },
  { name = "Gus Gray", rating = 1200 },
  { name = "Hal Hunt", rating = 1100 },
  { name = "Ivy Ivey", rating = 1000 },
]
"""

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")
TABLE = re.compile(r"table\s+(t\d+): (.+?) \(first\) v (.+?)(?:  |$)", re.MULTILINE)


def run(capsys: pytest.CaptureFixture[str], *args: str | int | Path) -> str:
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def tables(text: str) -> dict[str, tuple[str, str]]:
    """``table tN: FIRST (first) v SECOND`` lines: the games by table."""
    return {m[1]: (m[2], m[3]) for m in TABLE.finditer(text)}


def on_broker(broker: Broker) -> dict[str, Assignment]:
    held = asyncio.run(retained_assignments(parse_url(broker.url()), "club"))
    return {t: decode_assignment(p, t) for t, p in held.items()}


def test_every_tool_numbers_the_tables_alike_and_publish_clears_the_rest(
    tmp_path: Path, mosquitto: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "e.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "e.sqlite"
    run(capsys, "event", "new", tmp_path / "e.toml", "-o", log)
    # a game left on t7 by another event
    old = Assignment(7, "X", 9, ("Old One", "Old Two"), "naspa", "Last week")
    asyncio.run(publish_assignments(parse_url(mosquitto.url()), "club", [old]))
    assert set(on_broker(mosquitto)) == {"t7"}

    paired = run(capsys, "event", "pair", log)
    assert paired.count("bye: ") == 1  # division A's fifth player
    games = tables(paired)
    assert sorted(games) == ["t1", "t2", "t3", "t4"]  # B goes on after A; a bye has no table
    assert re.search(r"anchor 3:[0-9a-f]{16}", paired)  # the event file, two pairings
    published = run(capsys, "event", "publish", log, "--broker", mosquitto.url("/club"))
    assert "cleared the assignment of t7 (not used in round 1)" in published
    assert tables(published) == games
    held = on_broker(mosquitto)
    assert {t: a.players for t, a in held.items()} == games
    assert {a.anchor for a in held.values()} == {paired.split("anchor ")[1].split()[0]}
    assert tables(run(capsys, "event", "show", log)) == games
    for t, players in games.items():
        assert load_assignment(f"{log}@{t}").players == players

    # B loses a player before round 1 starts: its round is paired again on fewer tables
    run(capsys, "event", "withdraw", log, "Ivy Ivey", "--division", "B", "--round", "1")
    run(capsys, "event", "unpair", log, "--division", "B", "--round", "1", "--reason", "Ivy ill")
    again = tables(run(capsys, "event", "pair", log, "--division", "B", "--round", "1"))
    assert sorted(again) == ["t3"]
    published = run(capsys, "event", "publish", log, "--broker", mosquitto.url("/club"))
    assert "cleared the assignment of t4 (not used in round 1)" in published
    games = {t: g for t, g in games.items() if t in ("t1", "t2")} | again
    assert {t: a.players for t, a in on_broker(mosquitto).items()} == games
    assert tables(run(capsys, "event", "show", log)) == games
    assert "are as anchored on the broker; records after" in run(
        capsys, "event", "verify", log, "--broker", mosquitto.url("/club")
    )


def test_serve_starts_the_next_rounds_game_when_told(
    tmp_path: Path, mosquitto: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "e.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "e.sqlite"
    run(capsys, "event", "new", tmp_path / "e.toml", "-o", log)
    run(capsys, "event", "pair", log, "--division", "B")
    run(capsys, "event", "publish", log, "--broker", mosquitto.url("/club"))  # B at t1, t2
    game_log = tmp_path / "t1.sqlite"
    proc = subprocess.Popen(
        [RACKCLOCK, "serve", "--log", str(game_log), "--clock", "emulated",
         "--assignment", mosquitto.url("/club/t1")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdin is not None
    assert proc.stdout is not None

    def say(line: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(want: str) -> dict[str, object]:
        assert proc.stdout is not None
        for line in proc.stdout:
            doc: dict[str, object] = json.loads(line)
            if want in doc:
                return doc
        raise AssertionError(f"serve ended before {want!r}: {proc.stderr and proc.stderr.read()}")

    try:
        until("seq")  # round 1's game started
        say(json.dumps({"type": "resigned", "player": 1}))
        say(json.dumps({"type": "signed", "player": 0}))
        say("next")
        assert "no new game" in str(until("error"))
        run(capsys, "event", "result", log, 1, "Fay Ford", 50, "Gus Gray", 0, "--division", "B")
        run(capsys, "event", "result", log, 1, "Hal Hunt", 400, "Ivy Ivey", 30, "--division", "B")
        run(capsys, "event", "pair", log, "--division", "B")
        run(capsys, "event", "publish", log, "--broker", mosquitto.url("/club"))
        offer = until("assignment")
        assert offer == {
            "assignment": {
                "round": 2, "division": "B", "table": "t1", "players": ["Fay Ford", "Hal Hunt"],
            },
            "ready": False,  # one signature missing
        }  # fmt: skip
        say("next")
        assert "not over and signed" in str(until("error"))
        say(json.dumps({"type": "signed", "player": 1}))
        say("next")
        while (done := until("seq"))["type"] != "GameStarted":
            assert done["type"] == "Signed"
        assert done["seq"] == 5  # after round 1's start, resignation and two signatures
        say("quit")
        assert proc.wait(30) == 0
    finally:
        proc.kill()
        proc.wait()
    with EventLog.open(game_log, create=False) as glog:
        starts = [ev for _, ev in glog.events() if isinstance(ev, GameStarted)]
    assert [(g.round, g.players) for g in starts] == [
        (1, ("Fay Ford", "Gus Gray")),
        (2, ("Fay Ford", "Hal Hunt")),
    ]
