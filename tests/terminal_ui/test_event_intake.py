"""What each way in for a result checks, and bad input to the event layer.

Each command runs the CLI's ``main`` in-process: its exit code, its one line, and
the event's log unchanged by anything refused. Table logs are real SQLite logs
(tampered with through SQLite where a test needs a broken chain) or JSON Lines
copies; the broker test runs the shipped ACL on a real mosquitto.
"""

from __future__ import annotations

import asyncio
import io
import os
import sqlite3
from pathlib import Path

import pytest
from msgspec.structs import replace

from clock.log.eventlog import export_jsonl
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from clock.tournament.ledger import EventLedger, verify_ledger
from engine.tournament.records import Result
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.venue.archive import Archive, foreign_game
from firmware_bridge.venue.publisher import TablePublisher
from terminal_ui.cli import main
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.event import EventDesk
from tests.helpers import BrokerFactory, wait_for
from tests.terminal_ui.test_event import EVENT, game, new_event, table_log

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto"
RACKS = ("AEIRSTT", "AEILNOU")


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``rackclock ARGS`` in-process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(code: int, err: str) -> str:
    """The one line a refusal says (never an internal error)."""
    assert code not in (0, 70), err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err
    assert "Traceback" not in err
    return lines[0]


def ann_v_ben(path: Path) -> Path:
    """Round 1's table-1 game, finished and signed."""
    return table_log(path, game(("Ann Able", "Ben Baker"), RACKS, rnd=1, sign=True))


# --- event results: one file, one line for what cannot be taken -----------------------------


def tampered(path: Path) -> Path:
    """Round 1's table-1 game with its second event rewritten in SQLite (the
    append-only trigger dropped and put back as it was: only the chain can tell)."""
    ann_v_ben(path)
    conn = sqlite3.connect(path)
    query = "SELECT sql FROM sqlite_master WHERE name = 'events_no_update'"
    (sql,) = conn.execute(query).fetchone()
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET body = replace(body, 'WINDY', 'WINDS') WHERE seq = 2")
    conn.execute(sql)
    conn.commit()
    conn.close()
    return path


def test_a_log_whose_chain_does_not_verify_is_refused_at_its_first_bad_seq(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)
    t1 = tampered(tmp_path / "t1.sqlite")
    before = verify_ledger(log)
    line = refused(*run(capsys, "event", "results", log, t1)[::2])
    assert str(t1) in line
    assert "hash chain does not verify at seq 2" in line
    assert verify_ledger(log) == before


def test_the_console_offline_refuses_a_broken_log_and_takes_an_intact_one(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    (tmp_path / "bad").mkdir()
    bad = tampered(tmp_path / "bad" / "t1.sqlite")
    good = ann_v_ben(tmp_path / "t1.sqlite")
    desk = EventDesk(log)
    try:
        desk.take_file(bad, "t1", "v1")
        assert desk.news == [
            f"not taken: {bad}: its hash chain does not verify at seq 2: "
            "hash mismatch: body, t or refused altered"
        ]
        assert not desk.state.division("A").results
        desk.take_file(good, "t1", "v2")
        assert desk.news[-1].startswith("round 1: Ann Able 25 to -7 Ben Baker (from t1)")
        assert list(desk.state.division("A").results[1]) == [(1, 2)]
    finally:
        desk.close()


def test_a_json_lines_copy_is_taken_when_every_line_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)
    copy = tmp_path / "t1.jsonl"
    with copy.open("w", encoding="utf-8") as f:
        export_jsonl(ann_v_ben(tmp_path / "t1.sqlite"), f)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(copy.read_text(encoding="utf-8") + "not an event\n", encoding="utf-8")
    line = refused(*run(capsys, "event", "results", log, bad)[::2])
    lines = len(copy.read_text(encoding="utf-8").splitlines())
    assert line.startswith(f"skipped {bad}: line {lines + 1}: ")
    code, out, err = run(capsys, "event", "results", log, copy)
    assert code == 0, err
    assert "round 1: Ann Able 25 to -7 Ben Baker" in out


@pytest.mark.parametrize(
    ("what", "expected"),
    [
        ("random bytes", "not UTF-8"),
        ("an empty file", "no game in it (an empty log)"),
        ("a game not paired", "Ann Able v Cid Cole was not paired"),
        ("an unknown player", "has no player 'Zed Zee'"),
        ("another table's game", "round 1 table t1 is Ann Able v Ben Baker"),
        ("a table not in the round", "round 1 has no table 't7'"),
    ],
)
def test_a_file_that_yields_nothing_fails_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, expected: str
) -> None:
    log = new_event(tmp_path)
    path = tmp_path / "t.jsonl"
    if what == "random bytes":
        path.write_bytes(b"\x89\xff\xfe\x00junk" * 10)
    elif what == "an empty file":
        path.write_bytes(b"")
    else:
        players, table = {
            "a game not paired": (("Ann Able", "Cid Cole"), None),
            "an unknown player": (("Ann Able", "Zed Zee"), None),
            "another table's game": (("Cid Cole", "Dee Dunn"), "t1"),
            "a table not in the round": (("Ann Able", "Ben Baker"), "t7"),
        }[what]
        path = table_log(tmp_path / "t.sqlite", game(players, RACKS, rnd=1, sign=True, table=table))
    before = verify_ledger(log)
    line = refused(*run(capsys, "event", "results", log, path)[::2])
    assert str(path) in line
    assert expected in line, line
    assert verify_ledger(log) == before


def test_a_folder_scan_names_each_file_and_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)
    tables = tmp_path / "tables"
    tables.mkdir()
    ann_v_ben(tables / "t1.sqlite")
    (tables / "junk.sqlite").write_bytes(os.urandom(64))
    code, out, err = run(capsys, "event", "results", log, tables)
    assert code == 0, err
    assert f"{tables / 't1.sqlite'} sha256:" in out
    assert err.startswith(f"skipped {tables / 'junk.sqlite'}: "), err


def test_the_same_signed_result_taken_twice_is_a_no_op(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)
    t1 = ann_v_ben(tmp_path / "t1.sqlite")
    assert run(capsys, "event", "results", log, t1)[0] == 0
    once = verify_ledger(log)
    code, out, err = run(capsys, "event", "results", log, t1)
    assert (code, out, err) == (0, "", "")
    assert verify_ledger(log) == once
    with EventLedger.open(log) as ledger:
        assert ledger.state.division("A").results[1][(1, 2)].scores == (25, -7)


def test_a_result_the_director_corrected_stands_when_the_log_is_taken_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log that differs from a result typed by hand is refused (the director must
    decide); once the director corrects it with a reason, the correction stands and
    taking the table's log again (its next game, the folder scanned again) is not
    refused for it."""
    log = new_event(tmp_path)
    t1 = ann_v_ben(tmp_path / "t1.sqlite")  # 25 to -7 at the table
    assert run(capsys, "event", "result", log, "1", "Ann Able", "400", "Ben Baker", "410")[0] == 0
    typed = verify_ledger(log)
    line = refused(*run(capsys, "event", "results", log, t1)[::2])
    assert "the event has 400 to 410 for this game, the log says 25 to -7" in line
    assert verify_ledger(log) == typed
    fix = ("event", "result", log, "1", "Ann Able", "401", "Ben Baker", "410")
    assert run(capsys, *fix, "--reason", "scoresheet recount")[0] == 0
    corrected = verify_ledger(log)
    code, out, err = run(capsys, "event", "results", log, t1)
    assert (code, out) == (0, ""), err
    assert err == (
        f"{t1} game 1: the log says 25 to -7, the event keeps the director's correction "
        "401 to 410 (scoresheet recount)\n"
    )
    assert verify_ledger(log) == corrected


# --- bad input to the event layer -------------------------------------------------------------


def test_an_unknown_variant_is_refused_at_event_new_with_the_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "e.toml"
    toml.write_text(EVENT.replace("rounds = 2", 'rounds = 2\nvariant = "spiral"'), encoding="utf-8")
    line = refused(*run(capsys, "event", "new", toml)[::2])
    assert "division 'A': variant 'spiral'" in line
    assert "naspa, naspa-csw, nzasp" in line
    assert not (tmp_path / "e.sqlite").exists()


def test_a_non_utf8_event_file_says_which_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "e.toml"
    toml.write_bytes(EVENT.replace("Dee Dunn", "Dée Dunn").encode("iso-8859-1"))
    line = refused(*run(capsys, "event", "new", toml)[::2])
    assert "not UTF-8" in line
    assert "save it as UTF-8" in line
    assert not (tmp_path / "e.sqlite").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("pair", "{log}", "--round", "0"), "--round 0: rounds are numbered from 1"),
        (("standings", "{log}", "--round", "2"), "--round 2: division A: rounds 1-1 have results"),
        (
            ("result", "{log}", "1", "Ann Able", "2500", "Ben Baker", "300"),
            "Ann Able's score 2500 is not one a game can end with",
        ),
        (
            ("result", "{log}", "1", "Ann Able", "400", "Ben Baker", "-900"),
            "Ben Baker's score -900 is not one a game can end with",
        ),
        (
            ("publish", "{log}", "--broker", "http://localhost/club"),
            "--broker: broker URL 'http://localhost/club' must start with mqtt:// or mqtts://",
        ),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str
) -> None:
    log = new_event(tmp_path)
    with EventLedger.open(log) as ledger:
        ledger.append(Result("A", 1, 1, 2, (400, 380)))
    before = verify_ledger(log)
    line = refused(*run(capsys, "event", *(a.format(log=log) for a in args))[::2])
    assert expected in line, line
    assert verify_ledger(log) == before


def test_a_negative_score_reads_unambiguously(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)
    code, out, err = run(capsys, "event", "result", log, "1", "Ann Able", "25", "Ben Baker", "-12")
    assert code == 0, err
    assert out.startswith("round 1: Ann Able 25 to -12 Ben Baker"), out
    code, out, _ = run(capsys, "event", "show", log)
    assert "Ann Able (first) v Ben Baker  25 to -12" in out, out


# --- the hub and the broker: a table delivers only its own game ---------------------------------


def test_the_hub_does_not_archive_another_tables_game_as_its_own() -> None:
    from engine.events import encode_event

    def text(table: str | None) -> str:
        evs = game(("Cid Cole", "Dee Dunn"), RACKS, rnd=1, sign=True, table=table)
        return "".join(encode_event(ev).decode() + "\n" for ev in evs)

    assert foreign_game(text("t2"), "t2") == ""
    assert foreign_game(text(None), "t1") == ""  # a game started by hand names no table
    assert "game 1 names table 't2'" in foreign_game(text("t2"), "t1")


async def test_t1s_login_cannot_deliver_t2s_game(
    tmp_path: Path, mosquitto_factory: BrokerFactory
) -> None:
    broker = mosquitto_factory(
        password_file=DEPLOY / "passwd.example", acl_file=DEPLOY / "acl.example"
    )
    log = new_event(tmp_path)
    t1 = parse_url(broker.url("/club/t1", user="table-club-t1", password="table-club-t1-example"))
    svc = TableService(tmp_path / "t1.sqlite", timeline=FakeTimeline(1_000_000), heartbeat_ms=0)
    async with svc, TablePublisher(svc, t1, expiry_s=10, refresh_s=0.2):
        # t1's table plays round 1's table-2 game (Cid v Dee) and says so
        played = game(("Cid Cole", "Dee Dunn"), RACKS, rnd=1, sign=True, table="t2")
        for ev in played:
            ack = await svc.submit(replace(ev, t=None), "test")
            assert ack.accepted, ack.reason
        url = broker.url(user="director", password="director-example")
        app = DirectorApp(DirectorConfig(broker=url, desk="desk-1", event=log))
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                if app.desk is not None and any("not taken" in n for n in app.desk.news):
                    break
                await pilot.pause(0.05)
            assert app.desk is not None
            news = [n for n in app.desk.news if "not taken" in n]
            assert news == [
                "not taken: club/t1 game 1: the game names table 't2' but came from table "
                "'t1': a table delivers only the game assigned to it"
            ], app.desk.news
            assert not app.desk.state.division("A").results
    with EventLedger.open(log) as ledger:
        assert not ledger.state.division("A").results


async def test_the_hub_keeps_no_copy_of_another_tables_game(
    tmp_path: Path, mosquitto_factory: BrokerFactory
) -> None:
    broker = mosquitto_factory()
    t1 = parse_url(broker.url("/club/t1"))
    out = io.StringIO()
    svc = TableService(tmp_path / "t1.sqlite", timeline=FakeTimeline(1_000_000), heartbeat_ms=0)
    async with svc, TablePublisher(svc, t1, expiry_s=10, refresh_s=0.2):
        for ev in game(("Cid Cole", "Dee Dunn"), RACKS, rnd=1, sign=True, table="t2"):
            ack = await svc.submit(replace(ev, t=None), "test")
            assert ack.accepted, ack.reason
        archive = Archive(broker.url(), tmp_path / "archive", out=out, flush_s=0.05)
        task = asyncio.create_task(archive.run())
        try:
            await wait_for(lambda: "not archived" in out.getvalue(), "the hub's refusal")
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    assert "table club/t1: log not archived: game 1 names table 't2'" in out.getvalue()
    assert not archive.paths("club", "t1")[1].exists()
    assert archive.logs_archived == 0
