"""``rackclock replay`` speaks game time and shows every refused command in its place
(issue 20, §3 and §4): run in-process, as a user types it, on logs made by the
engine (a refused row is one the engine really refuses)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from clock.log.eventlog import EventLog, export_jsonl
from engine.clocktext import clock_text, parse_clock_text, penalty_rate
from engine.errors import Refusal
from engine.events import (
    ClockPressed,
    Event,
    GameStarted,
    Resigned,
    TilesDrawn,
    TilesPlaced,
    encode_event,
)
from engine.rules.machine import apply
from engine.rules.replay import replay
from engine.rules.variant import load_variant
from terminal_ui.cli import main

T0 = 3_850_200
"""The table's uptime when the game starts (64:10.2): game time is not table time."""


def accepted() -> list[Event]:
    return [
        GameStarted(t=T0, variant="nzasp", players=("Cyd", "Dee")),
        TilesPlaced(t=T0 + 1_500, player=0, move="8D WINDY", score=32),
        ClockPressed(t=T0 + 2_500, player=0),
        TilesDrawn(t=T0 + 3_000, player=0, count=5),
        TilesPlaced(t=T0 + 25_000, player=1, move="7C GALE", score=16),
        ClockPressed(t=T0 + 26_000, player=1),
    ]


def refusal(events: list[Event], command: Event) -> Refusal:
    """What the engine says to ``command`` after ``events``: it must refuse it."""
    state, rejected = replay(enumerate(events, start=1))
    assert not rejected
    with pytest.raises(Refusal) as info:
        apply(state, command, command.t or 0)
    return info.value


def write_log(path: Path) -> Path:
    """Events 1-5, Cyd's press refused twice (6 and 7) while Dee's clock runs, then 8."""
    events = accepted()
    late = [ClockPressed(t=T0 + 25_200, player=0), ClockPressed(t=T0 + 25_400, player=0)]
    with EventLog.open(path) as log:
        for ev in events[:5]:
            log.append(ev)
        for ev in late:
            log.append(ev, refused=refusal(events[:5], ev))
        log.append(events[5])
    return path


def rackclock(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("5:30", 330_000),
        ("0:25.0", 25_000),
        ("+0:25.0", 25_000),  # as the console shows it
        ("1:02:03.5", 3_723_500),
        ("64:10.2", 3_850_200),
        ("0:00.05", 50),
    ],
)
def test_game_time_reads_as_people_write_it(text: str, ms: int) -> None:
    assert parse_clock_text(text) == ms
    assert parse_clock_text(clock_text(ms, tenths=True, plus=True)) == ms - ms % 100


@pytest.mark.parametrize("text", ["25000", "x", "-0:05", "1:60", "1:60:00", "0:5", ":30", ""])
def test_what_is_not_a_time_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(ValueError, match="is not a time") as info:
        parse_clock_text(text)
    assert repr(text) in str(info.value)


def test_the_penalty_says_how_the_rule_counts_it() -> None:
    # TOR-7: a point a second or part: -0:03.4 reads -0:03 and costs 4
    assert penalty_rate(load_variant("toronto-speed")) == "each started second costs 1"
    assert penalty_rate(load_variant("nzasp")) == "each started minute costs 10"


def test_replay_shows_refused_commands_in_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "t.sqlite")
    code, out, err = rackclock(capsys, str(log))
    assert code == 0, err
    # game time, not the table's uptime (it said "at 64:36.2")
    assert "(at +0:26.0 game time, table time 3876200 ms)" in out
    events = out[out.index("events:") :].splitlines()[1:9]
    assert [line.split()[0] for line in events] == [str(n) for n in range(1, 9)]
    assert "+0:25.2  REFUSED clock_pressed Cyd" in events[5]
    assert "Cyd's clock is not running: it is Dee's turn (NZASP 6.3.3" in events[5]
    assert "+0:25.4  REFUSED clock_pressed Cyd" in events[6]
    assert "REFUSED" not in events[4] + events[7]
    assert "+0:26.0  clock_pressed Dee" in events[7]
    # never replayed: the state is the accepted events'
    assert "scores:  Cyd 32  Dee 16" in out
    assert "rulings:\n  +0:00.0  [NZASP 3.2, 3.3]" in out


def test_replay_json_marks_refused_rows_and_gives_game_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "t.sqlite")
    code, out, _ = rackclock(capsys, str(log), "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["game_started_ms"], doc["game_ms"], doc["at_ms"]) == (T0, 26_000, T0 + 26_000)
    rows = doc["events"]
    assert [(r["line"], r["refused"]) for r in rows] == [
        (1, False), (2, False), (3, False), (4, False), (5, False), (6, True), (7, True), (8, False)
    ]  # fmt: skip
    assert rows[5]["game_ms"] == 25_200
    assert rows[5]["rule"].startswith("NZASP 6.3.3")
    assert "Dee's turn" in rows[5]["reason"]
    assert rows[0]["reason"] is None
    plain = replay(enumerate(accepted(), start=1))[0]
    assert doc["scores"] == list(plain.scores)
    assert [h["game_ms"] for h in doc["history"]] == [2_500, 26_000]


def test_refused_rows_of_a_json_lines_export_are_shown_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "t.sqlite")
    out = io.StringIO()
    export_jsonl(log, out, include_refused=True)
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text(out.getvalue(), encoding="utf-8")
    code, text, err = rackclock(capsys, str(jsonl), "--json")
    assert code == 0, err
    rows = json.loads(text)["events"]
    assert [r["line"] for r in rows if r["refused"]] == [6, 7]


def test_lines_not_replayed_are_not_called_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused command the table kept (lines 6, 7) and a line of the file that cannot
    be replayed (9: not JSON) are two things, named apart in text and JSON."""
    log = write_log(tmp_path / "t.sqlite")
    out = io.StringIO()
    export_jsonl(log, out, include_refused=True)
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text(out.getvalue() + "not json\n", encoding="utf-8")
    code, text, _ = rackclock(capsys, str(jsonl), "--json")
    assert code == 0
    doc = json.loads(text)
    assert [r["line"] for r in doc["rejected"]] == [9]
    assert [r["line"] for r in doc["events"] if r["refused"]] == [6, 7]
    code, text, _ = rackclock(capsys, str(jsonl))
    assert code == 0
    assert "refused lines" not in text
    heading = "lines not replayed (unreadable, or against the rules where they stand):"
    tail = text.split(heading + "\n", 1)[1].splitlines()
    assert tail[0].startswith("  line 9: ")
    assert text.count("REFUSED") == 2


def test_at_takes_game_time_and_at_ms_table_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "t.sqlite")
    code, out, _ = rackclock(capsys, str(log), "--at", "0:25.3", "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["at_ms"], doc["game_ms"]) == (T0 + 25_300, 25_300)
    assert doc["phase"] == "playing"
    assert [r["line"] for r in doc["events"]] == [1, 2, 3, 4, 5, 6]  # 7 comes at 25.4
    code, same, _ = rackclock(capsys, str(log), "--at-ms", str(T0 + 25_300), "--json")
    assert code == 0
    assert json.loads(same) == doc
    code, human, _ = rackclock(capsys, str(log), "--at", "0:25.3")
    assert "(at +0:25.3 game time, table time 3875500 ms)" in human
    # each clock to the tenth: Cyd used 2.5 s, Dee 22.8 s since
    assert "clocks:  Cyd 24:57.5 | Dee 24:37.2 running" in human


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        # the console's +0:25.0 typed as milliseconds used to print "None:  vs ..."
        (["--at", "25000"], 2, "'25000' is not a time"),
        (["--at", "5:00"], 1, "--at 5:00 is outside game 1: it runs from +0:00.0 to +0:26.0 "
         "game time (table time 3850200 to 3876200 ms)"),
        (["--at-ms", "25000"], 1, "--at-ms 25000 is outside game 1"),
        (["--game", "2"], 1, "--game 2: the log holds 1 game(s)"),
        (["--game", "0"], 2, "--game: '0' is not a game number"),
        (["--at", "0:01", "--at-ms", "5"], 2, "give --at (game time) or --at-ms"),
        (["--at-ms", "soon"], 2, "--at-ms: 'soon' is not a whole number"),
        # a time before the start, written so argparse does not take it for an option
        (["--at=-0:01"], 1, "--at -0:01 is outside game 1: it runs from +0:00.0"),
    ],
)  # fmt: skip
def test_an_instant_outside_the_game_is_refused_with_its_span(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int, words: str
) -> None:
    log = write_log(tmp_path / "t.sqlite")
    before = log.read_bytes()
    got, _, err = rackclock(capsys, str(log), *args)
    assert got == code
    assert words in err
    # one line, as every argument error of rackclock: no argparse usage block
    assert err.count("\n") == 1, err
    assert err.startswith("rackclock replay: ")
    assert log.read_bytes() == before


def test_game_n_of_a_log_with_two_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "two.jsonl"
    first = [*accepted(), Resigned(t=T0 + 30_000, player=1)]
    second: list[Event] = [
        GameStarted(t=T0 + 600_000, variant="nzasp", players=("Dee", "Cyd")),
        TilesPlaced(t=T0 + 610_000, player=0, move="8H ZO", score=22),
    ]
    log.write_bytes(b"".join(encode_event(ev) + b"\n" for ev in [*first, *second]))
    code, out, _ = rackclock(capsys, str(log), "--json")
    assert (code, json.loads(out)["players"], json.loads(out)["game"]) == (0, ["Dee", "Cyd"], 2)
    code, out, _ = rackclock(capsys, str(log), "--game", "1", "--json")
    assert (json.loads(out)["players"], json.loads(out)["game_ms"]) == (["Cyd", "Dee"], 30_000)
    code, out, _ = rackclock(capsys, str(log), "--game", "1", "--at", "0:10", "--json")
    doc = json.loads(out)
    assert (doc["players"], doc["game_ms"], doc["scores"]) == (["Cyd", "Dee"], 10_000, [32, 0])
    code, out, _ = rackclock(capsys, str(log), "--at-ms", str(T0 + 605_000), "--json")
    assert (json.loads(out)["game"], json.loads(out)["game_ms"]) == (2, 5_000)
