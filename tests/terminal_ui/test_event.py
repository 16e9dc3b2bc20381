"""The event as a director meets it: ``rackclock event`` on files on disk, the event's
log (refusals leave it unchanged, tampering is found), tsh files both ways, results
from signed table logs, the table's assignment, and the director console's event
screen (Pilot)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from msgspec.structs import replace

from clock.log.eventlog import EventLog, LogError
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from clock.tournament.ledger import EventLedger, verify_ledger
from engine.events import ClockPressed, EndRacks, Event, GameStarted, Passed, Signed, TilesPlaced
from engine.tournament.errors import EventFileError, PairingError
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Entered, Result, Withdrew
from engine.tournament.spec import Player, parse_event
from engine.tournament.tsh import division_lines, parse_t, records_from_t
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.venue.assignment_feed import AssignmentError, load_assignment
from firmware_bridge.venue.publisher import TablePublisher
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.event import EventScreen
from terminal_ui.scorekeeper.app import ScorekeeperApp
from terminal_ui.scorekeeper.config import ScorekeeperConfig
from terminal_ui.shared.start import StartScreen
from terminal_ui.table.app import TableApp
from terminal_ui.table.config import TableConfig
from tests.helpers import Broker, until
from tests.terminal_ui.test_scorekeeper import started as sk_started

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 2
plan = [{ rounds = "1-2", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
]
"""


def rackclock(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``rackclock ARGS`` run to its end (in ``cwd``, if given)."""
    return subprocess.run(
        [RACKCLOCK, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )


def new_event(tmp_path: Path) -> Path:
    (tmp_path / "club.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "club.sqlite"
    with EventLedger.create(log, EVENT, "club.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
    return log


def game(
    players: tuple[str, str],
    racks: tuple[str, str],
    *,
    rnd: int,
    sign: bool,
    table: str | None = "t1",
) -> list[Event]:
    out: list[Event] = [
        GameStarted(t=0, variant="naspa", players=players, round=rnd, division="A", table=table),
        TilesPlaced(t=1_000, player=0, move="8D WINDY"),
        ClockPressed(t=1_500, player=0),
        *(Passed(t=2_000 + i, player=(i + 1) % 2) for i in range(6)),
        EndRacks(t=9_000, racks=racks),
    ]
    if sign:
        out += [Signed(t=9_500, player=0), Signed(t=9_600, player=1)]
    return out


def table_log(path: Path, events: list[Event]) -> Path:
    with EventLog.open(path) as log:
        for ev in events:
            log.append(ev)
    return path


# --- the event file and the command line -----------------------------------------------------


def test_a_bad_event_file_is_refused_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[[division]]\nname = \n', encoding="utf-8")
    done = rackclock("event", "new", bad)
    assert done.returncode == 1
    assert "line 3" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "bad.sqlite").exists()
    with pytest.raises(EventFileError, match="system 'spiral'"):
        parse_event(EVENT.replace('"koth"', '"spiral"'), "e.toml")
    with pytest.raises(EventFileError, match="exactly once"):
        parse_event(EVENT.replace('"1-2"', '"1"'), "e.toml")


def test_result_usage_names_two_players_and_their_scores() -> None:
    shown = rackclock("event", "result", "--help")
    assert shown.returncode == 0, shown.stderr
    usage = " ".join(shown.stdout.split())
    assert "[--reason REASON] LEDGER ROUND NAME SCORE NAME SCORE record (or" in usage
    short = rackclock("event", "result", "e.sqlite", "1", "Ann", "400", "Ben")
    assert short.returncode == 2
    assert short.stderr.splitlines()[-1].endswith("the following arguments are required: SCORE")


def test_pair_result_correct_and_standings_from_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "club.toml").write_text(EVENT, encoding="utf-8")
    assert rackclock("event", "new", tmp_path / "club.toml").returncode == 0
    log = tmp_path / "club.sqlite"
    paired = rackclock("event", "pair", log)
    assert "Ann Able (first) v Ben Baker" in paired.stdout  # KOTH: 1-2, 3-4
    assert (
        rackclock("event", "result", log, "1", "Ann Able", "400", "Ben Baker", "380").returncode
        == 0
    )
    # a second result for the same game is a correction: it needs a reason
    again = rackclock("event", "result", log, "1", "Ann Able", "390", "Ben Baker", "380")
    assert again.returncode == 1
    assert "a correction needs a reason" in again.stderr
    before = verify_ledger(log)
    assert rackclock("event", "result", log, "1", "Ann", "1", "Ben", "2").returncode == 1
    assert verify_ledger(log) == before  # refused: the log is unchanged
    fixed = rackclock(
        "event", "result", log, "1", "Ann Able", "390", "Ben Baker", "380", "--reason", "addition"
    )
    assert fixed.returncode == 0
    rackclock("event", "result", log, "1", "Dee Dunn", "350", "Cid Cole", "300")
    standings = rackclock("event", "standings", log).stdout
    assert standings.splitlines()[2].split() == ["1", "1-0", "+50", "Dee", "Dunn"]
    assert "+10  Ann Able" in standings
    with EventLedger.open(log) as ledger:
        div = ledger.state.division("A")
        assert div.results[1][(1, 2)].scores == (390, 380)
        assert div.results[1][(1, 2)].reason == "addition"


def test_a_tampered_event_log_is_found(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    conn = sqlite3.connect(log)
    conn.execute("DROP TRIGGER records_append_only_u")
    conn.execute("UPDATE records SET body = replace(body, '1800', '1900') WHERE seq = 1")
    conn.commit()
    conn.close()
    with pytest.raises(LogError, match="chain breaks at record 1"):
        verify_ledger(log)
    done = rackclock("event", "verify", log)
    assert done.returncode == 1
    assert "altered" in done.stderr


def test_late_entry_and_withdrawal(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    with EventLedger.open(log) as ledger:
        with pytest.raises(PairingError, match="already paired"):
            ledger.append(Entered("A", Player("Eve Eng", 1400), 1))
        ledger.append(Entered("A", Player("Eve Eng", 1400), 2))
        ledger.append(Withdrew("A", 2, 2, "ill"))
        div = ledger.state.division("A")
        for a, b in div.pairings[1].pairs:
            ledger.append(Result("A", 1, a, b, (400, 300)))
        paired = draw(div, 2)
        seen = sorted(s for p in paired.pairs for s in p if s)
        assert seen == [1, 3, 4, 5]


# --- tsh -------------------------------------------------------------------------------------


def test_tsh_files_round_trip_with_pairings_ahead_of_scores(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    with EventLedger.open(log) as ledger:
        div = ledger.state.division("A")
        ledger.append(Result("A", 1, 1, 2, (400, 380)))
        lines = division_lines(div)
    assert lines[0] == "Able, Ann 1800 2; 400; p12 1"
    assert lines[2] == "Cole, Cid 1600 4; ; p12 1"  # paired, not played yet
    t = parse_t("\n".join(lines), "a.t")
    records = records_from_t(t, "A")
    assert [type(r).__name__ for r in records] == ["Paired", "Result"]
    assert records[0].pairs == ((1, 2), (3, 4))  # type: ignore[union-attr]
    done = rackclock("event", "import", tmp_path / "back.sqlite", _write(tmp_path / "a.t", lines))
    assert done.returncode == 0, done.stderr
    with EventLedger.open(tmp_path / "back.sqlite") as back:
        assert division_lines(back.state.division("A")) == lines


def test_a_bad_t_line_is_reported_with_its_number(tmp_path: Path) -> None:
    bad = _write(tmp_path / "a.t", ["Able, Ann 1800 2; 400", "Baker, Ben 1700 3; 380"])
    done = rackclock("event", "import", tmp_path / "x.sqlite", bad)
    assert done.returncode == 1
    assert "does not play them back" in done.stderr
    with pytest.raises(EventFileError, match="line 2"):
        parse_t("Able, Ann 1800 2; 400\nno rating here", "a.t")


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="iso-8859-1")
    return path


# --- results from the tables -------------------------------------------------------------------


def test_results_are_taken_once_both_have_signed(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    tables = tmp_path / "tables"
    tables.mkdir()
    table_log(
        tables / "t1.sqlite",
        game(("Ann Able", "Ben Baker"), ("AEIRSTT", "AEILNOU"), rnd=1, sign=True),
    )
    table_log(
        tables / "t2.sqlite",
        game(("Cid Cole", "Dee Dunn"), ("AEIRSTT", "AEILNOU"), rnd=1, sign=False, table="t2"),
    )
    done = rackclock("event", "results", log, tables)
    assert done.returncode == 0, done.stderr
    assert "round 1: Ann Able 25 to -7 Ben Baker (" in done.stdout
    assert "tables/t1.sqlite sha256:" in done.stdout
    assert "t2.sqlite game 1: finished, waiting for both signatures" in done.stderr
    again = rackclock("event", "results", log, tables)  # the same logs again: nothing new
    assert "round 1" not in again.stdout
    with EventLedger.open(log) as ledger:
        res = ledger.state.division("A").results[1]
        assert list(res) == [(1, 2)]
        assert res[(1, 2)].by == "table"


def test_the_table_takes_its_assignment_from_the_event_log(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    got = load_assignment(f"{log}@t2")
    assert (got.players, got.round, got.division, got.variant) == (
        ("Cid Cole", "Dee Dunn"),
        1,
        "A",
        "naspa",
    )
    with pytest.raises(AssignmentError, match="no table 't9'"):
        load_assignment(f"{log}@t9")
    with pytest.raises(AssignmentError, match="LEDGER@TABLE"):
        load_assignment(str(log))


async def test_the_table_terminal_starts_with_the_assignment(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    game_ = load_assignment(f"{log}@t1")
    cfg = TableConfig(
        log=tmp_path / "t1.sqlite",
        variant=game_.variant,
        players=game_.players,
        round=game_.round,
        division=game_.division,
        table=game_.table_name,
    )
    app = TableApp(cfg)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        assert isinstance(start, StartScreen)
        text = " ".join(str(line) for line in start.lines)
        assert "round 1, division A, table t1" in text
        assert "Ann Able" in text
        await pilot.press("f1")
        await until(pilot, lambda: app.state.variant is not None, "the game to start")
        await pilot.press("ctrl+q")
        await pilot.press("y")
    with EventLog.open(tmp_path / "t1.sqlite", create=False) as glog:
        first = next(ev for _, ev in glog.events())
    assert isinstance(first, GameStarted)
    assert (first.round, first.division, first.table) == (1, "A", "t1")


async def test_the_director_takes_signed_results_and_shows_the_standings(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    t1 = table_log(
        tmp_path / "t1.sqlite",
        game(("Ann Able", "Ben Baker"), ("AEIRSTT", "AEILNOU"), rnd=1, sign=True),
    )
    t2 = table_log(
        tmp_path / "t2.sqlite",
        game(("Cid Cole", "Dee Dunn"), ("QZXJKVE", "AEILNOU"), rnd=1, sign=False, table="t2")[:4],
    )
    app = DirectorApp(DirectorConfig(logs=(t1, t2), export_dir=tmp_path, event=log))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(
            pilot,
            lambda: app.desk is not None and bool(app.desk.state.division("A").results),
            "the signed result taken",
        )
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, EventScreen), "the event screen")
        assert isinstance(app.screen, EventScreen)
        shown = app.screen.shown
        assert "Division A, round 1 of 2 (koth)" in shown
        assert "Ann Able (first) v Ben Baker: 25 to -7  result in" in shown
        assert "Cid Cole (first) v Dee Dunn: 32 to 0" in shown  # in play, as it stands
        assert "Standings before round 1\n" in shown
        assert "Standings with round 1 as it stands (1 of 2 results in, " in shown
        await pilot.press("escape")
    with EventLedger.open(log) as ledger:
        assert list(ledger.state.division("A").results[1]) == [(1, 2)]


async def test_the_director_on_the_broker_takes_a_signed_result(
    tmp_path: Path, mosquitto: Broker
) -> None:
    log = new_event(tmp_path)
    settings = parse_url(mosquitto.url("/club/t1"))
    svc = TableService(tmp_path / "t1.sqlite", timeline=FakeTimeline(1_000_000), heartbeat_ms=0)
    async with svc, TablePublisher(svc, settings, expiry_s=10, refresh_s=0.2):
        played = game(("Ann Able", "Ben Baker"), ("AEIRSTT", "AEILNOU"), rnd=1, sign=True)
        for ev in played:
            ack = await svc.submit(replace(ev, t=None), "test")
            assert ack.accepted, ack.reason
        cfg = DirectorConfig(broker=mosquitto.url(), desk="test-desk", event=log)
        app = DirectorApp(cfg)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                if app.desk is not None and app.desk.state.division("A").results:
                    break
                await pilot.pause(0.05)
            assert app.desk is not None
            res = app.desk.state.division("A").results[1][(1, 2)]
            assert (res.scores, res.by) == ((25, -7), "table")
            assert res.game.startswith("club/t1 sha256:")
    with EventLedger.open(log) as ledger:
        assert list(ledger.state.division("A").results[1]) == [(1, 2)]


async def test_the_scorekeeper_starts_with_the_assignment(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    got = load_assignment(f"{log}@t2")
    cfg = ScorekeeperConfig(
        log=tmp_path / "sk.sqlite",
        variant="toronto-speed",
        players=got.players,
        round=got.round,
        division=got.division,
        table=got.table_name,
        timeline=FakeTimeline(),
        heartbeat_ms=0,
    )
    app = ScorekeeperApp(cfg)
    async with app.run_test(size=(80, 24)) as pilot:
        await sk_started(pilot)  # from its start screen, at a clock key
        assert app.state.players == ("Cid Cole", "Dee Dunn")
    with EventLog.open(tmp_path / "sk.sqlite", create=False) as glog:
        first = next(ev for _, ev in glog.events())
    assert isinstance(first, GameStarted)
    assert (first.round, first.division, first.table) == (1, "A", "t2")


def test_a_bad_assignment_is_refused_before_the_screen(tmp_path: Path) -> None:
    for command in ("table", "scorekeeper", "serve"):
        done = rackclock(
            command, "--assignment", tmp_path / "nothing.sqlite", "--log", tmp_path / "x.sqlite"
        )
        assert done.returncode == 2, (command, done.stderr)
        assert "LEDGER@TABLE" in done.stderr
        assert "Traceback" not in done.stderr
