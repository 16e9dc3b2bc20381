"""``rackclock event prizes`` on files on disk: an event's ledger whose round 1 came
from two tables' SQLite game logs (generated games, tests/support/gamelog.py) and
round 2 from slips; the special prizes read from the logs the results name or from
``--games``, read-only."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from clock.log.eventlog import EventLog
from clock.tournament.gamelogs import read_game_log, take_results
from clock.tournament.ledger import EventLedger, verify_ledger
from clock.tournament.special_prizes import event_prize_lists, named_logs
from engine.rules.replay import replay as replay_game
from engine.tournament.records import Paired, Result
from firmware_bridge.mqtt.connection import BrokerSettings
from firmware_bridge.venue.page import server
from tests.support.gamelog import game_events, numbered

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")
SEEDS = (24, 17)
"""Ann v Cyd (Cyd's four bingos), Ben v Hal (Hal's 183, the highest play)."""


def rackclock(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RACKCLOCK, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )


def day(tmp_path: Path) -> Path:
    """The ledger after two rounds; the tables' logs under ``tmp_path / "tables"``,
    named by the results as ``event results`` run in the ledger's folder names them
    (``tables/t1.sqlite``)."""
    games = [game_events(seed, "naspa") for seed in SEEDS]
    names = [p for g in games for p in replay_game(numbered(g))[0].players]
    players = ",\n".join(
        f'{{ name = "{n}", rating = {1500 - 100 * i} }}' for i, n in enumerate(names)
    )
    text = (
        'name = "Prize Day"\n[[division]]\nname = "A"\nrounds = 2\nprizes = 2\n'
        'plan = [{ rounds = "1-2", system = "swiss" }]\n'
        f"players = [\n{players}\n]\n"
    )
    path = tmp_path / "day.sqlite"
    tables = tmp_path / "tables"
    tables.mkdir()
    with EventLedger.create(path, text, "day.toml") as ledger:
        ledger.append(Paired("A", 1, ((1, 2), (3, 4))))
        for i, events in enumerate(games, start=1):
            log = tables / f"t{i}.sqlite"
            with EventLog.open(log) as gl:
                for ev in events:
                    gl.append(ev)
            named = f"tables/t{i}.sqlite"
            got = take_results(ledger, named, read_game_log(log), round_=1, unsigned=True)
            assert len(got.results) == 1, got
        ledger.append(Paired("A", 2, ((1, 3), (2, 4))))
        ledger.append(Result("A", 2, 1, 3, (412, 399)))
        ledger.append(Result("A", 2, 2, 4, (380, 420)))
    return path


def test_the_logs_the_results_name_give_the_plays(tmp_path: Path) -> None:
    path = day(tmp_path)
    with EventLedger.open(path, readonly=True) as ledger:
        divs = list(ledger.state.divisions.values())
        here, missing = named_logs(divs, tmp_path)
        assert (here, missing) == (
            [tmp_path / "tables/t1.sqlite", tmp_path / "tables/t2.sqlite"],
            [],
        )
        lists, skipped = event_prize_lists(ledger.state, divs, base=tmp_path)
    assert skipped == []
    (plist,) = lists
    assert plist.final
    kinds = {(s.kind, s.name, s.value) for s in plist.specials}
    assert ("high play", "Hal", 183) in kinds
    assert ("most bingos", "Cyd", 4) in kinds


def test_event_prizes_prints_the_places_and_the_special_prizes(tmp_path: Path) -> None:
    path = day(tmp_path)
    before = verify_ledger(path)
    got = rackclock("event", "prizes", path, "--games", tmp_path / "tables")
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert lines[0] == "Prize Day, division A: prizes after round 2"
    places = lines.index("Places")
    assert lines[places + 2].split()[:2] == ["prize", "#"]
    assert lines[places + 4].split()[0] == "1st"
    assert any(re.match(r"high play +Hal +183 +\S+ \S+ +round 1 table 2: ", ln) for ln in lines)
    assert any(re.match(r"most bingos +Cyd +4 bingo\(s\) +round 1 table 1: ", ln) for ln in lines)
    assert any(re.match(r"high game +\S+ +\d+ +round \d", ln) for ln in lines)
    assert verify_ledger(path) == before  # read-only
    early = rackclock("event", "prizes", path, "--round", "1")
    assert early.returncode == 0, early.stderr
    assert early.stdout.startswith("Prize Day, division A: prizes after round 1\n")
    assert "Provisional: the division plays 2 rounds." in early.stdout


def test_bad_input_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    path = day(tmp_path)
    before = verify_ledger(path)
    for args, code, said in (
        (("--round", "0"), 2, "--round 0: rounds are numbered from 1"),
        (("--round", "3"), 1, "--round 3: division A: rounds 1-2 have results"),
        (("--division", "Z"), 1, "no division 'Z'"),
        (("--games", tmp_path / "nowhere"), 1, "no such file"),
    ):
        got = rackclock("event", "prizes", path, *args)
        assert got.returncode == code, (args, got.stderr)
        assert said in got.stderr
        assert len(got.stderr.strip().splitlines()) == 1
        assert got.stdout == ""
    assert verify_ledger(path) == before


def test_the_logs_are_found_from_the_ledgers_folder_wherever_it_runs(tmp_path: Path) -> None:
    # the results name tables/t1.sqlite (event results ran beside the ledger); the
    # venue page or the director may run anywhere
    path = day(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    got = rackclock("event", "prizes", path, cwd=elsewhere)
    assert got.returncode == 0, got.stderr
    assert got.stderr == ""
    assert re.search(r"^high play +Hal +183 ", got.stdout, re.M), got.stdout
    # a log gone: said once on stderr, its game gives no plays, the rest still do
    (tmp_path / "tables" / "t2.sqlite").unlink()
    got = rackclock("event", "prizes", path, cwd=elsewhere)
    assert got.returncode == 0, got.stderr
    assert got.stderr == (
        f"the game log tables/t2.sqlite the results name is not here (from {tmp_path})\n"
    )
    assert "Note: 1 game(s) from tables have no log at hand (give --games)" in got.stdout
    assert re.search(r"^most bingos +Cyd +4 bingo", got.stdout, re.M)
    assert not re.search(r"^high play +Hal", got.stdout, re.M)


def test_before_any_round_is_complete_it_says_so(tmp_path: Path) -> None:
    path = tmp_path / "early.sqlite"
    text = (
        'name = "Early"\n[[division]]\nname = "A"\nrounds = 2\nprizes = 2\n'
        'plan = [{ rounds = "1-2", system = "swiss" }]\n'
        'players = [{ name = "Ann", rating = 1500 }, { name = "Ben", rating = 1400 }]\n'
    )
    with EventLedger.create(path, text, "early.toml") as ledger:
        ledger.append(Paired("A", 1, ((1, 2),)))
    got = rackclock("event", "prizes", path)
    assert (got.returncode, got.stdout, got.stderr) == (
        0,
        "division A: no round complete yet\n",
        "",
    )


async def test_the_venue_page_finds_the_logs_and_says_each_trouble_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the page runs from another folder than event results did (pytest's: the repo)
    path = day(tmp_path)
    (tmp_path / "tables" / "t2.sqlite").unlink()
    page = server.VenuePage(BrokerSettings(), "club", host="127.0.0.1", port=0, event=path)
    caplog.set_level(logging.WARNING, logger=server.log.name)
    with EventLedger.open(path, readonly=True) as ledger:
        state = ledger.state
    await page._prizes(state)
    sheet = page.model.prizes["A"]
    assert "most bingos" in str(sheet)  # t1's plays, found from the ledger's folder
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "venue page: prizes: the game log tables/t2.sqlite the results name is not here "
        f"(from {tmp_path})"
    ]
    # a correction makes the sheet again: the missing log is not said a second time
    old = state.division("A").results[2][(2, 4)]
    state.apply(msgspec.structs.replace(old, scores=(381, 420), reason="typo"))
    await page._prizes(state)
    assert len(caplog.records) == 1
    # a failure is logged once, not every second until the results change

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server, "event_prize_lists", broken)
    state.apply(msgspec.structs.replace(old, scores=(382, 420), reason="typo again"))
    await page._prizes(state)
    await page._prizes(state)
    assert [r.getMessage() for r in caplog.records][1:] == [
        "venue page: cannot make the prize lists"
    ]


def test_a_result_names_its_log_from_the_ledgers_folder(tmp_path: Path) -> None:
    # event results run from the folder above the event's: cup/tables/t1.sqlite would
    # not lead from the ledger's folder to the log, so the result names it whole
    folder = tmp_path / "cup"
    (folder / "tables").mkdir(parents=True)
    events = game_events(SEEDS[0], "naspa")
    names = replay_game(numbered(events))[0].players
    text = (
        'name = "Cup"\n[[division]]\nname = "A"\nrounds = 1\n'
        'plan = [{ rounds = "1", system = "swiss" }]\n'
        f'players = [{{ name = "{names[0]}", rating = 1500 }}, '
        f'{{ name = "{names[1]}", rating = 1400 }}]\n'
    )
    with EventLedger.create(folder / "cup.sqlite", text, "cup.toml") as ledger:
        ledger.append(Paired("A", 1, ((1, 2),)))
    with EventLog.open(folder / "tables" / "t1.sqlite") as gl:
        for ev in events:
            gl.append(ev)
    got = rackclock(
        "event", "results", "cup/cup.sqlite", "cup/tables/t1.sqlite", "--round", "1",
        "--unsigned", cwd=tmp_path,
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    whole = (folder / "tables" / "t1.sqlite").resolve()
    assert f"({whole} sha256:" in got.stdout
    with EventLedger.open(folder / "cup.sqlite", readonly=True) as ledger:
        (res,) = ledger.state.division("A").results[1].values()
    assert res.game.startswith(f"{whole} sha256:")
    shown = rackclock("event", "prizes", folder / "cup.sqlite", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"^most bingos +Cyd +4 bingo", shown.stdout, re.M), shown.stdout
