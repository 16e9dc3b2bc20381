"""``rackclock gcg check``, run as the installed console script in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import (
    BAD,
    BAD_EXPECTED,
    BAD_FILES,
    GOOD,
    GOOD_EXPECTED,
    GOOD_FILES,
    REAL_FILES,
    REAL_SCORES,
)

RACKCLOCK = Path(sys.executable).parent / "rackclock"
JSON_KEYS = {"file", "ok", "complete", "errors", "final_scores", "warnings"}


def gcg_check(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``rackclock gcg check ARGS...`` and capture its output as UTF-8 text."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [str(RACKCLOCK), "gcg", "check", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def json_lines(stdout: str) -> list[dict[str, Any]]:
    """Parse ``--json`` output: exactly one JSON object per line."""
    out: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        obj = json.loads(line)
        assert isinstance(obj, dict)
        out.append(obj)
    return out


def assert_json_shape(obj: dict[str, Any]) -> None:
    assert set(obj) == JSON_KEYS
    assert isinstance(obj["file"], str)
    assert isinstance(obj["ok"], bool)
    assert isinstance(obj["complete"], bool)
    assert isinstance(obj["final_scores"], dict)
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in obj["final_scores"].items())
    assert isinstance(obj["errors"], list)
    for err in obj["errors"]:
        assert set(err) == {"line", "message"}
        assert isinstance(err["line"], int)
        assert isinstance(err["message"], str)


def test_console_script_is_installed() -> None:
    assert RACKCLOCK.is_file(), f"{RACKCLOCK} missing; install the project into the venv"


def test_good_files_exit_0_and_print_ok() -> None:
    files = GOOD_FILES + REAL_FILES
    proc = gcg_check(*files)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == len(files)
    for path, line in zip(files, lines, strict=True):
        assert line.startswith(f"OK    {path}  ("), line
        assert "complete" in line


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.name)
def test_bad_file_exits_1_and_prints_the_line(path: Path) -> None:
    expected = BAD_EXPECTED[path.name]
    proc = gcg_check(path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0] == f"FAIL  {path}"
    assert any(
        line.startswith(f"  line {expected['line']}: ") and expected["contains"] in line
        for line in lines[1:]
    ), proc.stdout


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.name)
def test_bad_file_json_has_no_traceback(path: Path) -> None:
    proc = gcg_check("--json", path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    [obj] = json_lines(proc.stdout)
    assert_json_shape(obj)
    assert obj["ok"] is False
    assert obj["file"] == str(path)
    expected = BAD_EXPECTED[path.name]
    assert any(
        e["line"] == expected["line"] and expected["contains"] in e["message"]
        for e in obj["errors"]
    ), obj["errors"]


def test_json_one_object_per_file_good_and_bad_mixed() -> None:
    files = GOOD_FILES + REAL_FILES + BAD_FILES
    proc = gcg_check("--json", *files)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    objs = json_lines(proc.stdout)
    assert [o["file"] for o in objs] == [str(p) for p in files]
    for path, obj in zip(files, objs, strict=True):
        assert_json_shape(obj)
        if path.parent == GOOD:
            exp = GOOD_EXPECTED[path.name]
            assert obj["ok"] is exp["ok"]
            assert obj["complete"] is exp["complete"]
            assert obj["final_scores"] == exp["final_scores"]
            assert obj["errors"] == []
        elif path.parent == BAD:
            assert obj["ok"] is False
            assert obj["errors"]
        else:
            assert obj["ok"] is True
            assert obj["complete"] is True
            if path.name in REAL_SCORES:
                assert obj["final_scores"] == REAL_SCORES[path.name]


def test_json_keeps_non_ascii_names() -> None:
    proc = gcg_check("--json", GOOD / "utf8_incomplete.gcg", GOOD / "latin1_stops.gcg")
    assert proc.returncode == 0
    utf8, latin1 = json_lines(proc.stdout)
    assert utf8["final_scores"] == {"josé": 41, "zoë": 77}
    assert utf8["complete"] is False
    assert latin1["final_scores"] == {"rene": 28, "ines": 27}


def test_mix_of_good_and_bad_exits_1() -> None:
    good, bad = GOOD / "six_scoreless.gcg", BAD / "bad_cumulative.gcg"
    proc = gcg_check(good, bad)
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        f"OK    {good}  (complete; ann 6, ben 8)",
        f"FAIL  {bad}",
        "  line 4: ben's total 16 should be 0 +15 = 15",
    ]


def test_missing_file_is_reported_not_raised(tmp_path: Path) -> None:
    missing = tmp_path / "no_such_game.gcg"
    good = GOOD / "six_scoreless.gcg"
    proc = gcg_check(missing, good)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"FAIL  {missing}"
    assert lines[1].startswith("  file: cannot read")
    assert lines[2].startswith(f"OK    {good}")

    proc = gcg_check("--json", missing)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    [obj] = json_lines(proc.stdout)
    assert_json_shape(obj)
    assert obj["file"] == str(missing)
    assert obj["ok"] is False
    assert obj["complete"] is False
    assert [e["line"] for e in obj["errors"]] == [0]
    assert "cannot read" in obj["errors"][0]["message"]


def test_directory_is_reported_not_raised(tmp_path: Path) -> None:
    proc = gcg_check(tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stdout.startswith(f"FAIL  {tmp_path}\n  file: cannot read")


def test_one_malformed_record_never_stops_the_batch() -> None:
    # Records that once crashed the checker (a player number given twice, a move before
    # the second player is named, one nickname for both) come first; the good record
    # after them is still checked.
    bad = [BAD / n for n in ("player1_twice.gcg", "move_before_player2.gcg", "duplicate_nick.gcg")]
    good = GOOD_FILES[0]
    proc = gcg_check(*bad, good)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert [ln.split()[0] for ln in lines if not ln.startswith(" ")] == ["FAIL"] * 3 + ["OK"]


def test_a_warning_passes_unless_strict() -> None:
    path = Path(__file__).resolve().parents[1] / "data" / "gcg" / "warn" / "rack_lacks_kept.gcg"
    lenient = gcg_check(path)
    assert lenient.returncode == 0
    assert "line 5: warning: rack 'GIIQVVW' lacks 'U' kept from" in lenient.stdout
    doc = json.loads(gcg_check("--json", path).stdout)
    assert doc["ok"] is True
    assert [w["line"] for w in doc["warnings"]] == [5]
    assert lenient.stdout.startswith(f"OK with warnings {path}  (")
    strict = gcg_check("--strict", path)
    assert strict.returncode == 1
    # the verdict printed is the exit status's: never OK then exit 1
    assert strict.stdout.startswith(f"FAIL  (warnings, --strict) {path}  (")
