"""GCG records on disk: hand-made good and bad files, the real records, golden JSON, round trip.

Every good file under ``data/gcg/good`` has its verdict and final scores, worked
out by hand, in ``data/gcg/expected.json``; every bad file under
``data/gcg/bad`` has the line and a piece of the message it must be reported
with in ``data/gcg/bad/expected.json``.

Golden files: each good file, read and turned into plain JSON by
:func:`record_json`, must equal ``data/gcg/golden/<name>.json``. Run with
``UPDATE_GOLDEN=1`` to (re)write the golden files instead, then read the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clock.user_files import check_file
from engine.gcg import (
    Event,
    GameRecord,
    Pragma,
    check_record,
    parse_gcg,
    read_gcg,
    write_gcg,
)
from engine.rules.variant import load_variant
from tests.helpers import (
    BAD_EXPECTED,
    BAD_FILES,
    GOLDEN,
    GOOD_EXPECTED,
    GOOD_FILES,
    REAL,
    REAL_FILES,
    REAL_SCORES,
    UPDATE_GOLDEN,
    file_id,
    gcg_files,
)

NZASP = load_variant("nzasp")
"""The rules ``rackclock gcg check`` checks by default."""

# --- the stable JSON form of a record --------------------------------------------


def pragma_json(pragma: Pragma) -> dict[str, str]:
    """A pragma as JSON; its line number takes no part, as in equality."""
    return {"name": pragma.name, "value": pragma.value}


def event_json(ev: Event) -> dict[str, Any]:
    """An event as JSON, every field but the line number."""
    move: dict[str, Any] | None = None
    if ev.move is not None:
        pos = ev.move.position
        move = {
            "position": pos.gcg(),
            "row": pos.row,
            "col": pos.col,
            "across": pos.across,
            "tiles": ev.move.tiles,
        }
    return {
        "kind": ev.kind.value,
        "nick": ev.nick,
        "rack": ev.rack,
        "score": ev.score,
        "cumulative": ev.cumulative,
        "move": move,
        "exchanged": ev.exchanged,
        "exchange_count": ev.exchange_count,
        "end_rack": ev.end_rack,
        "annotation": ev.annotation,
        "pragmas": [pragma_json(p) for p in ev.pragmas],
    }


def record_json(record: GameRecord) -> dict[str, Any]:
    """A whole record as plain JSON, in a stable form for golden files."""
    return {
        "encoding": record.encoding,
        "players": [{"nick": p.nick, "name": p.name} for p in record.players],
        "header": [pragma_json(p) for p in record.header],
        "events": [event_json(ev) for ev in record.events],
    }


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# --- the data files are all accounted for ------------------------------------------


def test_every_good_file_has_an_expectation() -> None:
    assert sorted(p.name for p in GOOD_FILES) == sorted(GOOD_EXPECTED)


def test_every_bad_file_has_an_expectation() -> None:
    assert sorted(p.name for p in BAD_FILES) == sorted(BAD_EXPECTED)


def test_every_good_file_has_a_golden_file() -> None:
    if UPDATE_GOLDEN:
        pytest.skip("golden files are being rewritten")
    goldens = sorted(p.name for p in GOLDEN.glob("*.json"))
    assert goldens == sorted(p.stem + ".json" for p in GOOD_FILES)


# --- verdicts ----------------------------------------------------------------------


@pytest.mark.parametrize("path", GOOD_FILES, ids=lambda p: p.name)
def test_good_file(path: Path) -> None:
    expected = GOOD_EXPECTED[path.name]
    result = check_file(path, NZASP)
    assert [(p.line, p.message) for p in result.errors] == []
    assert result.ok is expected["ok"]
    assert result.complete is expected["complete"]
    assert result.final_scores == expected["final_scores"]


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.name)
def test_bad_file(path: Path) -> None:
    expected = BAD_EXPECTED[path.name]
    result = check_file(path, NZASP)
    assert result.ok is False
    found = [(p.line, p.message) for p in result.errors]
    assert any(
        line == expected["line"] and expected["contains"] in message for line, message in found
    ), f"no error at line {expected['line']} containing {expected['contains']!r}: {found}"


@pytest.mark.parametrize("path", REAL_FILES, ids=file_id)
def test_real_record(path: Path) -> None:
    result = check_file(path, NZASP)
    assert [(p.line, p.message) for p in result.errors] == []
    assert result.ok is True
    assert result.complete is True
    if path.name in REAL_SCORES:
        assert result.final_scores == REAL_SCORES[path.name]


def test_real_records_are_all_there() -> None:
    assert sorted(p.name for p in gcg_files(REAL)) == sorted(REAL_SCORES)


# --- golden files ------------------------------------------------------------------


@pytest.mark.parametrize("path", GOOD_FILES, ids=lambda p: p.name)
def test_golden(path: Path) -> None:
    parsed = parse_gcg(path.read_bytes())
    assert [(e.line, e.message) for e in parsed.errors] == []
    actual = record_json(parsed.record)
    golden = GOLDEN / f"{path.stem}.json"
    if UPDATE_GOLDEN:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        golden.write_text(_dump(actual), encoding="utf-8")
        return
    assert golden.is_file(), f"no golden file {golden}; run with UPDATE_GOLDEN=1"
    assert _dump(actual) == golden.read_text(encoding="utf-8")


# --- write, then read again --------------------------------------------------------


@pytest.mark.parametrize("path", GOOD_FILES + REAL_FILES, ids=file_id)
def test_write_then_read_gives_the_same_record(path: Path) -> None:
    record = read_gcg(path.read_bytes())
    text = write_gcg(record)
    again = read_gcg(text.encode(record.encoding))
    assert again == record
    assert record_json(again) == record_json(record)
    # The rewritten record replays to the same verdict as the file.
    before, after = check_file(path, NZASP), check_record(again, NZASP, label=str(path))
    assert (after.ok, after.complete, after.final_scores) == (
        before.ok,
        before.complete,
        before.final_scores,
    )
