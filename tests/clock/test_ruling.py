"""A director's ruling made offline goes through the log's one writer and its hash chain,
also when the log is a JSON Lines file."""

from __future__ import annotations

from pathlib import Path

from clock.log.eventlog import EventLog, verify
from clock.log.log_files import load_log
from clock.log.ruling import append_ruling, chain_path
from engine.events import Adjusted, Event, GameStarted, Neutralized, Resumed, encode_event

START = GameStarted(t=1_000, variant="nzasp", players=("Ann", "Ben"))


def jsonl(path: Path, events: list[Event]) -> Path:
    path.write_text("".join(encode_event(e).decode() + "\n" for e in events), encoding="utf-8")
    return path


def test_a_ruling_on_a_sqlite_log_extends_its_chain(tmp_path: Path) -> None:
    path = tmp_path / "t1.sqlite"
    with EventLog.open(path) as log:
        log.append(START)
    ok, text = append_ruling(path, Adjusted(by="Dee", player=0, score_delta=-10), 5_000)
    assert ok, text
    assert text == f"accepted: Adjusted (#2), appended to {path}"
    assert verify(path).ok
    events, _ = load_log(path)
    assert events[-1][1] == Adjusted(t=1_000, by="Dee", player=0, score_delta=-10, actor="director")


def test_a_ruling_on_json_lines_goes_into_the_chain_beside_it(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "t3.jsonl", [START, Neutralized(t=2_000, by="Ann", reason="toilet")])
    ok, text = append_ruling(path, Resumed(by="Dee", director=True), 0)
    assert ok, text
    assert "accepted: Resumed (#3)" in text
    chain = chain_path(path)
    assert verify(chain).ok
    with EventLog.open(chain, create=False) as log:
        assert [type(e).__name__ for _, e in log.events()] == [
            "GameStarted",
            "Neutralized",
            "Resumed",
        ]
    # the file is the chain's export: every reader of the file sees the ruling
    events, bad = load_log(path)
    assert not bad
    assert events[-1][1] == Resumed(t=2_000, by="Dee", director=True, actor="director")
    # a second ruling extends the same chain
    ok, text = append_ruling(path, Adjusted(by="Dee", player=1, score_delta=5), 0)
    assert ok, text
    assert "(#4)" in text
    assert verify(chain).ok
    assert not list(tmp_path.glob("*.stale-*"))


def test_a_refused_ruling_writes_nothing(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "t4.jsonl", [START])
    before = path.read_bytes()
    ok, text = append_ruling(path, Resumed(by="Dee", director=True), 0)
    assert not ok
    assert text.startswith("refused: ")
    assert path.read_bytes() == before
    assert not chain_path(path).exists()


def test_a_file_that_no_longer_matches_its_chain_gets_a_new_one(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "t5.jsonl", [START])
    assert append_ruling(path, Adjusted(by="Dee", player=0, score_delta=-1), 0)[0]
    # the hub fetches the table's log again: the file changes under the chain
    jsonl(path, [START, Neutralized(t=3_000, by="Ben", reason="dispute")])
    ok, text = append_ruling(path, Resumed(by="Dee", director=True), 0)
    assert ok, text
    assert (tmp_path / "t5.jsonl.chain.stale-1").exists()
    assert verify(chain_path(path)).ok
    assert [type(e).__name__ for _, e in load_log(path)[0]] == [
        "GameStarted",
        "Neutralized",
        "Resumed",
    ]
