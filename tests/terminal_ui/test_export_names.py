"""``rackclock export tsh|naspa`` from the tables' game logs, run as a director runs
it, on a name no results file can hold (issue 24 §2): one line quoting the name as
typed, exit 1, nothing written (not even the folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal_ui.test_event import rackclock
from tests.terminal_ui.test_export_cli import game, log_of


@pytest.mark.parametrize(
    ("name", "fault"),
    [
        ("Ann\x07Lee", "has '\\x07', a control character"),
        ("Ann\u2028Lee", "has '\\u2028', a control character"),
        ("Ann\u202eLee", "has '\\u202e', an invisible format character"),
        ("   ", "has no letter"),
        ("A", "would be read by tsh as 'A 1800' rated 2"),
    ],
)
@pytest.mark.parametrize("kind", ["tsh", "naspa"])
def test_a_game_log_export_refuses_a_name_and_writes_nothing(
    tmp_path: Path, name: str, fault: str, kind: str
) -> None:
    log = log_of(tmp_path / "t1.sqlite", game(0, (name, "Ben Ray"), rnd=1))
    out = tmp_path / "out"
    done = rackclock("export", kind, log, "-o", out)
    if kind == "naspa" and name == "A":  # NASPA's file holds a one-letter name
        assert done.returncode == 0, done.stderr
        return
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"rackclock export {kind}: {name!r}")
    assert fault in done.stderr
    assert not out.exists()
