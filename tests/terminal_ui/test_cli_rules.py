"""The rules commands, run as a user runs them: the installed ``rackclock`` script."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")

GAME = """\
{"t":0,"type":"game_started","variant":"nzasp","players":["Ann","Ben"],"first":0}
{"t":31000,"type":"tiles_placed","player":0,"move":"8D WINDY","score":32}
{"t":31500,"type":"clock_pressed","player":0}
{"t":33000,"type":"tiles_drawn","player":0,"count":5}
{"t":40000,"type":"tiles_placed","player":1,"move":"7C GALE","score":16}
{"t":41000,"type":"clock_pressed","player":1}
{"t":42000,"type":"challenged","player":0,"words":["GALE","AW"]}
{"t":52000,"type":"adjudicated","acceptable":true}
{"t":53000,"type":"exchanged","player":0,"count":3}
{"t":54000,"type":"clock_pressed","player":0}
not json at all
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RACKCLOCK, *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_variants_lists_every_parameter_with_its_source() -> None:
    out = run("variants", "--json")
    assert out.returncode == 0
    docs = [json.loads(line) for line in out.stdout.splitlines()]
    names = {d["name"] for d in docs}
    assert names == {"nzasp", "wespa", "naspa", "naspa-csw", "toronto-speed", "indonesia-open"}
    nz = next(d for d in docs if d["name"] == "nzasp")
    assert nz["params"]["challenge_points"] == {
        "value": 5,
        "source": "NZASP 6.17: 5 points for each word challenged, to the player",
        "assumed": False,
        "defined_in": "nzasp",
    }
    for d in docs:
        for p in d["params"].values():
            assert p["source"], d["name"]
    human = run("variants", "toronto-speed")
    assert "TOR-7" in human.stdout
    assert "(assumed)" in human.stdout


def test_variants_reports_a_bad_file_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "nzasp"\n[params]\ninitial_ms = "soon"\n', encoding="utf-8")
    out = run("variants", str(bad))
    assert out.returncode == 1
    assert "initial_ms" in out.stderr
    assert "Traceback" not in out.stderr


def test_replay_json_reports_state_rulings_and_refused_lines(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(GAME, encoding="utf-8")
    out = run("replay", str(log), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["variant"] == "nzasp"
    assert doc["scores"] == [32, 26]  # 16 + 5 x 2 words (NZASP 6.17)
    assert doc["turn"] == 1
    assert doc["result"] is None
    assert [r["line"] for r in doc["rejected"]] == [10, 11]  # a press out of turn; not JSON
    assert any("NZASP 6.17" in r["rule"] for r in doc["rulings"])
    for key in ("remaining_ms", "overtime_ms", "penalty", "running"):
        assert key in doc["clocks"][0]


def test_replay_at_an_instant_shows_the_challenge_pending(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(GAME, encoding="utf-8")
    doc = json.loads(run("replay", str(log), "--at", "0:45", "--json").stdout)
    assert doc["phase"] == "challenge"
    assert doc["scores"] == [32, 16]
    assert doc["neutralized"] == "challenge"
    # Ann: 31.5 s, then 41.0 -> 42.0 before the challenge neutralized the clock.
    assert doc["clocks"][0]["remaining_ms"] == 1_500_000 - 32_500
    human = run("replay", str(log), "--at-ms", "45000").stdout
    assert "challenge: awaiting verdict" in human


def test_log_import_verify_replay_export_round_trip(tmp_path: Path) -> None:
    jsonl = tmp_path / "game.jsonl"
    jsonl.write_text("".join(GAME.splitlines(keepends=True)[:9]), encoding="utf-8")
    db = tmp_path / "game.sqlite"
    assert run("log", "import", str(jsonl), "-o", str(db)).returncode == 0
    ok = run("log", "verify", str(db))
    assert ok.returncode == 0
    assert ok.stdout.startswith("OK")
    from_db = json.loads(run("replay", str(db), "--json").stdout)
    from_jsonl = json.loads(run("replay", str(jsonl), "--json").stdout)
    assert from_db["scores"] == from_jsonl["scores"] == [32, 26]
    exported = run("log", "export", str(db)).stdout.splitlines()
    assert len(exported) == 9
    assert json.loads(exported[1]) == {
        "type": "tiles_placed",
        "t": 31000,
        "player": 0,
        "move": "8D WINDY",
        "score": 32,
    }


def _altered_log(tmp_path: Path) -> Path:
    """The game imported to SQLite, then its first play's score changed behind the chain."""
    jsonl = tmp_path / "game.jsonl"
    jsonl.write_text("".join(GAME.splitlines(keepends=True)[:9]), encoding="utf-8")
    db = tmp_path / "game.sqlite"
    assert run("log", "import", str(jsonl), "-o", str(db)).returncode == 0
    con = sqlite3.connect(db)
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        con.execute(f'DROP TRIGGER "{name}"')
    con.execute(
        "UPDATE events SET body = replace(body, '\"score\":32', '\"score\":42') WHERE seq=2"
    )
    con.commit()
    con.close()
    return db


def test_log_verify_detects_an_altered_score(tmp_path: Path) -> None:
    out = run("log", "verify", str(_altered_log(tmp_path)), "--json")
    assert out.returncode == 1
    doc = json.loads(out.stdout)
    assert not doc["ok"]
    assert any(p["seq"] == 2 for p in doc["problems"])


def test_replay_of_a_broken_chain_warns_and_fails_unless_forced(tmp_path: Path) -> None:
    db = _altered_log(tmp_path)
    out = run("replay", str(db), "--json")
    assert out.returncode == 1
    assert out.stdout == ""
    assert "hash chain is broken (seq 2" in out.stderr
    assert "--force" in out.stderr
    forced = run("replay", str(db), "--json", "--force")
    assert forced.returncode == 0
    assert "replaying anyway (--force)" in forced.stderr
    assert json.loads(forced.stdout)["scores"][0] == 42


def test_log_verify_on_json_lines_checks_what_it_can_and_says_what_it_cannot(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text("".join(GAME.splitlines(keepends=True)[:9]), encoding="utf-8")
    out = run("log", "verify", str(good))
    assert out.returncode == 0
    assert out.stdout.startswith(f"OK    {good}  (9 events)")
    assert "carries no hash chain" in out.stderr
    doc = json.loads(run("log", "verify", str(good), "--json").stdout)
    assert doc["ok"]
    assert doc["chain"] is False
    bad = tmp_path / "bad.jsonl"
    bad.write_text(GAME, encoding="utf-8")
    out = run("log", "verify", str(bad))
    assert out.returncode == 1
    assert "line 11:" in out.stdout
    assert "Traceback" not in out.stderr


def test_replay_of_a_missing_or_garbage_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    out = run("replay", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    garbage = tmp_path / "g.jsonl"
    garbage.write_bytes(b"\xff\xfe\x00garbage")
    out = run("replay", str(garbage), "--json")
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert "holds no game" in out.stderr
    assert "line 1:" in out.stderr
    assert out.stdout == ""
    out = run("replay", str(tmp_path))
    assert out.returncode == 1
    assert "a folder, not a log file" in out.stderr
