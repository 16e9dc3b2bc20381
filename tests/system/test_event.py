"""A small event end to end on a real mosquitto, driven by the real commands.

Eight players in one division, three rounds (round robin, round robin, KOTH),
four tables. Each round: ``rackclock event pair``, ``rackclock event publish``
to the broker; each table is ``rackclock serve --assignment mqtt://.../club/tN``
on an emulated clock, which takes its players and round from the broker and is
played by scripted events on its standard input (a play, six passes, the racks,
both signatures); then ``rackclock event results`` takes the results from the
table logs. The standings are checked against the scripted scores worked out
here, and the exported ``.t`` file against a hand-checked golden copy.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import REPO, Broker

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")
GOLDEN = REPO / "tests" / "data" / "event" / "a.t"

EVENT = """
name = "Club night"

[[division]]
name = "A"
variant = "naspa"
rounds = 3
plan = [
  { rounds = "1-2", system = "round-robin" },
  { rounds = "3", system = "koth" },
]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1750 },
  { name = "Cid Cole", rating = 1700 },
  { name = "Dee Dunn", rating = 1650 },
  { name = "Eve Eng", rating = 1600 },
  { name = "Fay Ford", rating = 1550 },
  { name = "Gus Gray", rating = 1500 },
  { name = "Hal Hunt", rating = 1450 },
]
"""

LIGHT, HEAVY = ("AEIRSTT", 7), ("QZXJKVE", 46)
SECOND = [("AEILNOU", 7), ("DEILNOU", 8), ("GEILNOU", 8), ("BEILNOU", 9)]
WINDY = 32  # 8D WINDY: W on a double letter, the centre's double word


def rackclock(*args: str | Path, stdin: str | None = None) -> str:
    done = subprocess.run(
        [RACKCLOCK, *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def script(rnd: int, table: int) -> tuple[str, tuple[int, int]]:
    """The table's game: the first player plays WINDY, six passes, the racks; and the
    final scores it must give (six scoreless turns: each loses their own rack)."""
    first = HEAVY if (rnd + table) % 3 == 0 else LIGHT
    second = SECOND[table - 1]
    lines = [json.dumps({"type": "tiles_placed", "player": 0, "move": "8D WINDY"}), "press 0"]
    lines += [json.dumps({"type": "passed", "player": (i + 1) % 2}) for i in range(6)]
    lines.append(json.dumps({"type": "end_racks", "racks": [first[0], second[0]]}))
    lines += [json.dumps({"type": "signed", "player": p}) for p in (0, 1)]
    return "\n".join([*lines, "quit"]) + "\n", (WINDY - first[1], -second[1])


def test_an_event_from_pairings_to_tsh(tmp_path: Path, mosquitto: Broker) -> None:
    (tmp_path / "event.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "event.sqlite"
    rackclock("event", "new", tmp_path / "event.toml", "-o", log)
    wins: dict[str, float] = {}
    spread: dict[str, int] = {}
    for rnd in (1, 2, 3):
        rackclock("event", "pair", log)
        published = rackclock("event", "publish", log, "--broker", mosquitto.url("/club"))
        assert "published 4 of 4 table(s)" in published
        tables = []
        for t in (1, 2, 3, 4):
            stdin, scores = script(rnd, t)
            game_log = tmp_path / "tables" / f"r{rnd}-t{t}.sqlite"
            game_log.parent.mkdir(exist_ok=True)
            proc = subprocess.Popen(
                [RACKCLOCK, "serve", "--log", str(game_log), "--clock", "emulated",
                 "--assignment", mosquitto.url(f"/club/t{t}")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            tables.append((proc, stdin, scores))
        for proc, stdin, _ in tables:
            out, err = proc.communicate(stdin, timeout=60)
            assert proc.returncode == 0, err
            lines = [json.loads(line) for line in out.splitlines()]
            assert not [d for d in lines if "refused" in d or "error" in d], lines
        # the tables' logs name their round and players: the event takes them
        taken = rackclock("event", "results", log, tmp_path / "tables")
        assert len([ln for ln in taken.splitlines() if ln.startswith(f"round {rnd}:")]) == 4
        # what each game must have given, from the assignment each table received
        for t, (_, _, scores) in enumerate(tables, start=1):
            a, b = players_of(tmp_path / "tables" / f"r{rnd}-t{t}.sqlite", rnd, t)
            wins[a] = wins.get(a, 0) + (scores[0] > scores[1]) + 0.5 * (scores[0] == scores[1])
            wins[b] = wins.get(b, 0) + (scores[1] > scores[0]) + 0.5 * (scores[0] == scores[1])
            spread[a] = spread.get(a, 0) + scores[0] - scores[1]
            spread[b] = spread.get(b, 0) + scores[1] - scores[0]
    shown = rackclock("event", "standings", log)
    rows = [ln.split(None, 3) for ln in shown.splitlines()[2:]]
    got = [(name, float(wl.split("-")[0]), int(sp)) for _, wl, sp, name in rows]
    assert {n: (w, s) for n, w, s in got} == {n: (wins[n], spread[n]) for n in wins}
    assert [(w, s) for _, w, s in got] == sorted(((w, s) for _, w, s in got), reverse=True)
    rackclock("event", "export", "tsh", log, "-o", tmp_path / "tsh")
    anchor, _, text = (tmp_path / "tsh" / "a.t").read_text(encoding="iso-8859-1").partition("\n")
    assert text == GOLDEN.read_text(encoding="iso-8859-1")
    # the .t file carries the log's anchor in a comment, and verify checks the log by it
    assert anchor.startswith("# rackclock event ledger anchor ")
    verified = rackclock("event", "verify", log, "--anchor", anchor.rsplit(" ", 1)[1])
    assert "chain intact" in verified
    # the published round carries the anchor too
    assert "are as anchored on the broker; records after" in rackclock(
        "event", "verify", log, "--broker", mosquitto.url("/club")
    )


def players_of(game_log: Path, rnd: int, table: int) -> tuple[str, str]:
    """The players the table's log started with: its assignment (round and table too)."""
    from clock.log.eventlog import EventLog
    from engine.events import GameStarted

    with EventLog.open(game_log, create=False) as glog:
        first = next(ev for _, ev in glog.events())
    assert isinstance(first, GameStarted)
    assert (first.round, first.division, first.table) == (rnd, "A", f"t{table}")
    return first.players
