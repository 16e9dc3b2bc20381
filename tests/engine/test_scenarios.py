"""Runs every scenario under tests/scenarios/ (format: tests/scenarios/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.errors import Refusal
from engine.events import decode_event
from engine.rules.machine import apply
from engine.rules.replay import report
from engine.rules.state import GameState
from tests.helpers import SCENARIOS

ROOT = SCENARIOS
FILES = sorted(ROOT.glob("*/*.jsonl"))


def _matches(actual: Any, expected: Any, path: str) -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(_matches(actual[key], value, f"{path}.{key}"))
        return out
    if isinstance(expected, list) and expected and isinstance(expected[0], dict):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {actual!r}"]
        out = []
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            out.extend(_matches(a, e, f"{path}[{i}]"))
        return out
    return [] if actual == expected else [f"{path}: expected {expected!r}, got {actual!r}"]


def run_scenario(path: Path) -> list[str]:
    """Run one scenario file; returns every failure as 'line N: ...'."""
    state = GameState()
    failures: list[str] = []
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        doc = json.loads(raw)
        if "comment" in doc and len(doc) == 1:
            continue
        if "expect" in doc:
            rep = report(state, doc.get("at"))
            failures += [f"line {lineno}: {m}" for m in _matches(rep, doc["expect"], "")]
            continue
        if "expect_ruling" in doc:
            if not any(doc["expect_ruling"] in r.rule for r in state.rulings):
                rules = [r.rule for r in state.rulings]
                failures.append(f"line {lineno}: no ruling cites {doc['expect_ruling']!r}: {rules}")
            continue
        if "expect_ruling_text" in doc:
            if not any(doc["expect_ruling_text"] in r.text for r in state.rulings):
                texts = [r.text for r in state.rulings]
                failures.append(
                    f"line {lineno}: no ruling says {doc['expect_ruling_text']!r}: {texts}"
                )
            continue
        try:
            event = decode_event(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            failures.append(f"line {lineno}: unreadable event: {exc}")
            continue
        refused_rule = doc.get("expect_refused")
        try:
            new = apply(state, event)
        except Refusal as exc:
            if refused_rule is None:
                failures.append(f"line {lineno}: refused: {exc}")
            elif refused_rule not in exc.rule:
                failures.append(f"line {lineno}: refused under {exc.rule!r}, not {refused_rule!r}")
            continue
        if refused_rule is not None:
            failures.append(f"line {lineno}: accepted, but should be refused ({refused_rule})")
        state = new
    return failures


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    failures = run_scenario(path)
    assert not failures, "\n".join(failures)


def test_runner_catches_a_wrong_expectation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"t":0,"type":"game_started","variant":"nzasp","players":["Ann","Ben"]}\n'
        '{"expect":{"scores":[1,0]}}\n'
        '{"t":5,"type":"passed","player":1,"expect_refused":"NZASP"}\n'
        '{"t":6,"type":"passed","player":0,"expect_refused":"NZASP"}\n',
        encoding="utf-8",
    )
    failures = run_scenario(bad)
    assert len(failures) == 2
    assert "scores" in failures[0]
    assert "accepted, but should be refused" in failures[1]
