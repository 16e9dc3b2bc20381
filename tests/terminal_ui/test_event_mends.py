"""Bad input to the event layer found by a director's walk-through (issue 19 §2, §5).

Each command runs the CLI's ``main`` in-process: its exit code (2 for arguments
malformed or out of range, 1 for what the event refuses), its one line, and the
event's log (or the file given as one) unchanged by anything refused.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from clock.log.eventlog import EventLog, LogError
from clock.tournament.ledger import EventLedger, verify_ledger
from engine.events import ClockPressed, EndRacks, Event, GameStarted, Passed, Resigned, TilesPlaced
from engine.tournament.records import Result
from tests.helpers import BrokerFactory
from tests.terminal_ui.test_event import EVENT, new_event
from tests.terminal_ui.test_event_intake import refused, run


def not_sqlite(path: Path) -> Path:
    """3000 random bytes where an event's log should be."""
    path.write_bytes(random.Random(19).randbytes(3000))
    return path


# --- a file that is not SQLite ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("show",),
        ("verify",),
        ("verify", "--anchor", "1:0123456789abcdef"),
        ("pair",),
        ("standings",),
        ("result", "1", "Ann Able", "400", "Ben Baker", "380"),
        ("withdraw", "Ann Able", "--round", "2"),
        ("enter", "Zoe Zed", "1500", "--round", "2"),
        ("unpair", "--round", "1", "--reason", "typo"),
        ("results", "t1.sqlite"),
        ("publish", "--broker", "mqtt://127.0.0.1:9/club"),
    ],
)
def test_a_file_that_is_not_sqlite_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    bad = not_sqlite(tmp_path / "random.sqlite")
    before = bad.read_bytes()
    code, _, err = run(capsys, "event", args[0], bad, *args[1:])
    line = refused(code, err)
    assert code == 1, err
    assert f"{str(bad)!r} is not an event's ledger" in line, line
    assert "file is not a database" in line
    assert bad.read_bytes() == before


def test_export_naspa_of_a_file_that_is_not_sqlite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = not_sqlite(tmp_path / "random.sqlite")
    code, _, err = run(capsys, "event", "export", "naspa", bad, "-o", tmp_path / "r.txt")
    assert code == 1
    assert "is not an event's ledger" in refused(code, err)
    assert not (tmp_path / "r.txt").exists()


def test_an_append_sqlite_refuses_is_a_log_error_and_changes_nothing(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    before = verify_ledger(log)
    with EventLedger.open(log) as ledger:
        # someone altered the schema: a trigger of theirs refuses every new record
        conn = sqlite3.connect(log)
        conn.execute(
            "CREATE TRIGGER nope BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'nope'); END"
        )
        conn.commit()
        conn.close()
        with pytest.raises(LogError, match=r"cannot write .*: nope"):
            ledger.append(Result("A", 1, 1, 2, (400, 380)))
        assert ledger.anchor == before  # the state read back as the file holds it
        assert not ledger.state.division("A").results
    assert verify_ledger(log) == before


def test_the_console_refuses_an_event_log_that_is_not_sqlite_before_the_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = not_sqlite(tmp_path / "random.sqlite")
    table = tmp_path / "t1.sqlite"
    with EventLog.open(table) as glog:
        glog.append(GameStarted(t=0, variant="naspa", players=("Ann Able", "Ben Baker")))
    code, _, err = run(capsys, "director", "--log", table, "--event", bad)
    line = refused(code, err)
    assert code == 1
    assert line.startswith(f"rackclock director: --event {bad}: ")
    assert "is not an event's ledger" in line


def test_the_venue_page_refuses_an_event_log_that_is_not_sqlite_at_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = not_sqlite(tmp_path / "random.sqlite")
    args = ("venue", "--local", "--venue", "club", "--page", "9", "--data", tmp_path / "data")
    code, out, err = run(capsys, *args, "--event", bad)
    line = refused(code, err)
    assert code == 1
    assert line.startswith(f"rackclock venue: --event {bad}: ")
    assert "mosquitto" not in out  # refused before any broker is started


# --- arguments: exit 2 when malformed or out of range, 1 when the event refuses -------------


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    [
        (("results", "{log}", "t.sqlite", "--watch", "-1"), 2, "--watch -1.0: the seconds"),
        (("results", "{log}", "t.sqlite", "--watch", "0"), 2, "more than 0"),
        (("results", "{log}", "t.sqlite", "--watch", "nan"), 2, "more than 0"),
        (
            ("result", "{log}", "1", "Ann Able", "abc", "Ben Baker", "300"),
            2,
            "scores are whole numbers, got 'abc' and '300'",
        ),
        (
            ("result", "{log}", "1", "Ann Able", "5000", "Ben Baker", "300"),
            2,
            "Ann Able's score 5000 is not one a game can end with",
        ),
        (
            ("result", "{log}", "1", "Ann Able", "400", "Zed Zorn", "300"),
            1,
            "division 'A' has no player 'Zed Zorn'",
        ),
        (
            ("enter", "{log}", "Zoe Zed", "-5", "--round", "9"),
            2,
            "late entry: player 'Zoe Zed': rating -5: expected 0-3000",
        ),
        (
            ("enter", "{log}", "Zoe Zed", "1500", "--round", "9"),
            1,
            "Zoe Zed cannot enter from round 9: the division has rounds 1-2",
        ),
        (("enter", "{log}", "  ", "1500", "--round", "2"), 2, "player name '  ' is empty"),
        (("enter", "{log}", "Zoe\nZed", "1500", "--round", "2"), 2, "a control character"),
        (("enter", "{log}", "ann  ABLE", "1500", "--round", "2"), 1, "'ann ABLE' is already"),
        (("results", "{log}", "t.sqlite", "--division", "Z"), 1, "no division 'Z' (the event has"),
        (("verify", "{log}", "--anchor", "xyz"), 2, "'xyz' is not an anchor"),
        (("pair", "{log}", "--round", "3"), 1, "division 'A' has rounds 1-2, not 3"),
        (
            ("publish", "{log}", "--broker", "mqtt://127.0.0.1:9"),
            2,
            "the URL must name the venue (mqtt://host:port/VENUE)",
        ),
        (
            ("verify", "{log}", "--broker", "mqtt://127.0.0.1:9/"),
            2,
            "the URL must name the venue (mqtt://host:port/VENUE)",
        ),
    ],
)
def test_arguments_are_refused_with_one_line_and_the_conventional_code(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    code: int,
    expected: str,
) -> None:
    log = new_event(tmp_path)
    before = verify_ledger(log)
    got, _, err = run(capsys, "event", *(a.format(log=log) for a in args))
    line = refused(got, err)
    assert expected in line, line
    assert got == code, err
    assert verify_ledger(log) == before


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--rounds", "0"), "--rounds 0: expected 1-100"),
        (("--rounds", "100000000"), "--rounds 100000000: expected 1-100"),
        (("--system", "spiral"), "--system 'spiral': expected one of round-robin"),
    ],
)
def test_import_refuses_bad_arguments_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str
) -> None:
    tfile = tmp_path / "a.t"
    tfile.write_text("Able, Ann 1800\nBaker, Ben 1700\n", encoding="iso-8859-1")
    code, _, err = run(capsys, "event", "import", tmp_path / "e.sqlite", tfile, *args)
    assert expected in refused(code, err)
    assert code == 2
    assert not (tmp_path / "e.sqlite").exists()


def test_a_second_withdrawal_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = new_event(tmp_path)
    code, _, err = run(capsys, "event", "withdraw", log, "Dee Dunn", "--round", "2")
    assert code == 0, err
    before = verify_ledger(log)
    for rnd in ("2", "1"):  # neither the same round again nor another
        code, _, err = run(capsys, "event", "withdraw", log, "dee dunn", "--round", rnd)
        assert (
            refused(code, err) == "rackclock event withdraw: Dee Dunn already withdrew from round 2"
        )
        assert code == 1
    assert verify_ledger(log) == before
    code, out, _ = run(capsys, "event", "show", log)
    assert "Dee Dunn 1500 (withdrew from round 2)" in out


# --- the event file -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('"Ann Able"', '""', "player name '' is empty"),
        ('"Ann Able"', '"   "', "player name '   ' is empty"),
        ('"Ben Baker"', '"ann  ABLE"', "player 'ann ABLE' is entered twice (also as 'Ann Able')"),
        ('"Ann Able"', '"Ann\\nAble"', "player name 'Ann\\nAble' has '\\n', a control character"),
        ('"Ann Able"', '"Ann\\tAble"', "player name 'Ann\\tAble' has '\\t', a control character"),
        ("1800", "-99999999999", "player 'Ann Able': rating -99999999999: expected 0-3000"),
        ("1800", "3001", "player 'Ann Able': rating 3001: expected 0-3000"),
        ("1800", "99999999999999999999999", "rating 99999999999999999999999: expected 0-3000"),
        ("rounds = 2", "rounds = 100000000", "rounds = 100000000: expected 1-100"),
        ('rounds = "1-2"', 'rounds = "1-100000000"', "rounds 1-100000000 are not among"),
    ],
)
def test_a_bad_player_or_rounds_in_the_event_file_is_refused_at_new(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    expected: str,
) -> None:
    assert old in EVENT
    toml = tmp_path / "e.toml"
    toml.write_text(EVENT.replace(old, new, 1), encoding="utf-8")
    code, _, err = run(capsys, "event", "new", toml)
    line = refused(code, err)
    assert code == 1
    assert expected in line, line
    assert "division 'A'" in line, line
    assert not (tmp_path / "e.sqlite").exists()


def test_a_name_is_kept_with_single_spaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "e.toml"
    toml.write_text(EVENT.replace('"Ann Able"', '"  Ann   Able "'), encoding="utf-8")
    assert run(capsys, "event", "new", toml)[0] == 0
    code, out, err = run(capsys, "event", "show", tmp_path / "e.sqlite")
    assert code == 0, err
    assert "  1 Ann Able 1800" in out
    code, _, err = run(
        capsys, "event", "withdraw", tmp_path / "e.sqlite", "Ann  Able", "--round", "1"
    )
    assert code == 0, err


# --- verify --broker: what the broker's anchor covers ---------------------------------------------


def cut_last(log: Path) -> None:
    """Cut the last record and set the head back to the one before, as one who knows
    the format would (the triggers dropped and put back)."""
    conn = sqlite3.connect(log)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    (last,) = conn.execute("SELECT max(seq) FROM records").fetchone()
    conn.execute("DELETE FROM records WHERE seq = ?", (last,))
    (digest,) = conn.execute("SELECT hash FROM records WHERE seq = ?", (last - 1,)).fetchone()
    conn.execute("UPDATE head SET count = ?, hash = ?", (last - 1, digest))
    for _, sql in triggers:
        conn.execute(sql)
    conn.commit()
    conn.close()


def test_verify_on_the_broker_says_what_its_anchor_does_not_cover(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mosquitto_factory: BrokerFactory
) -> None:
    log = new_event(tmp_path)
    url = mosquitto_factory().url("/club")
    code, out, err = run(capsys, "event", "publish", log, "--broker", url)
    assert code == 0, err
    published = verify_ledger(log)
    code, _, err = run(capsys, "event", "result", log, "1", "Ann Able", "400", "Ben Baker", "380")
    assert code == 0, err
    cut_last(log)
    assert verify_ledger(log) == published  # the cut cannot be told from the file
    code, out, err = run(capsys, "event", "verify", log, "--broker", url)
    assert code == 0, err
    n = published.count
    assert out.splitlines()[1] == (
        f"records 1..{n} are as anchored on the broker; records after {n} (this ledger has {n}) "
        "are not covered by that anchor: check them against the anchor an export or "
        "`event show` printed"
    )
    assert "nothing cut" not in out


# --- export gcg: a log of several games names each file by its game -------------------------


def test_gcg_files_keep_their_game_numbers_when_some_games_have_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def resigned(t: int) -> list[Event]:  # before any move: no GCG record
        return [
            GameStarted(t=t, variant="nzasp", players=("Cid Cole", "Dee Dunn")),
            Resigned(t=t + 1_000, player=0),
        ]

    played: list[Event] = [
        GameStarted(t=60_000, variant="nzasp", players=("Ann Able", "Ben Baker")),
        TilesPlaced(t=61_000, player=0, move="8D WINDY", score=32),
        ClockPressed(t=61_500, player=0),
        *(Passed(t=62_000 + i, player=(i + 1) % 2) for i in range(6)),
        EndRacks(t=69_000, racks=("AEIRSTT", "AEILNOU")),
    ]
    log = tmp_path / "t1.sqlite"
    with EventLog.open(log) as glog:
        for ev in [*resigned(0), *played, *resigned(120_000)]:
            glog.append(ev)
    code, _, err = run(capsys, "export", "gcg", log)
    assert code == 1
    assert "holds 3 games: give -o FILE" in err
    code, _, err = run(capsys, "export", "gcg", log, "-o", tmp_path / "g1")
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("g1")) == ["g1-2.gcg"]
    assert "#player1 Ann" in (tmp_path / "g1-2.gcg").read_text(encoding="utf-8")
    assert "t1 game 1: no GCG" in err
    assert "t1 game 3: no GCG" in err


# --- a file of the other kind: a game log for the ledger, the ledger for a game log -------------


def game_log(path: Path) -> Path:
    """A table's game log: one game started."""
    with EventLog.open(path) as glog:
        glog.append(GameStarted(t=0, variant="naspa", players=("Ann Able", "Ben Baker")))
    return path


@pytest.mark.parametrize("args", [("standings",), ("show",), ("verify",), ("pair",)])
def test_a_game_log_given_as_the_ledger_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    t1 = game_log(tmp_path / "t1.sqlite")
    before = t1.read_bytes()
    code, _, err = run(capsys, "event", args[0], t1, *args[1:])
    line = refused(code, err)
    assert code == 1, err
    assert line == (
        f"rackclock event {args[0]}: {str(t1)!r} is a table's game log; give the event's ledger"
    )
    assert t1.read_bytes() == before
    with pytest.raises(LogError, match="is a table's game log; give the event's ledger"):
        EventLedger.open(t1)


def test_the_ledger_given_as_a_game_log_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = new_event(tmp_path)
    wrong = f"{str(ledger)!r} is an event's ledger; give a table's game log"
    code, _, err = run(capsys, "event", "results", ledger, ledger)
    assert code == 1
    assert err.splitlines() == [f"skipped {ledger}: {wrong}"]
    for args in (("log", "verify", ledger), ("export", "gcg", ledger), ("replay", ledger)):
        code, out, err = run(capsys, *args)
        assert code != 0, (args, out, err)
        assert wrong in out + err, (args, out, err)
    with pytest.raises(LogError, match="is an event's ledger; give a table's game log"):
        EventLog.open_readonly(ledger)
