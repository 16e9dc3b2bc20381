"""The event log's anchor on the command line: ``event pair``, ``show`` and the exports
give the head (COUNT:HASH); ``event verify --anchor`` finds a log cut short or
rewritten as a whole, which the chain alone cannot; a bad anchor is one line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from terminal_ui.cli import main
from tests.terminal_ui.test_event import EVENT

ANCHOR = re.compile(r"anchor (\d+:[0-9a-f]{16})")


def run(capsys: pytest.CaptureFixture[str], *args: str | int | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_anchor_goes_with_the_log_and_verify_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "club.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "club.sqlite"
    run(capsys, "event", "new", tmp_path / "club.toml", "-o", log)
    code, out, _ = run(capsys, "event", "pair", log)
    assert code == 0
    m = ANCHOR.search(out)
    assert m is not None
    assert m[1].startswith("2:")  # the event file and the pairing
    early = tmp_path / "early.sqlite"
    shutil.copy(log, early)  # the writer closed: the whole log is in the main file
    run(capsys, "event", "result", log, 1, "Ann Able", 400, "Ben Baker", 300)
    code, out, _ = run(capsys, "event", "show", log)
    anchor = ANCHOR.findall(out)[-1]
    assert anchor.startswith("3:")
    # the exports carry it: a comment in the .t file, next to the NASPA file
    run(capsys, "event", "export", "tsh", log, "-o", tmp_path / "tsh")
    assert (
        (tmp_path / "tsh" / "a.t")
        .read_text(encoding="iso-8859-1")
        .startswith(f"# rackclock event ledger anchor {anchor}\n")
    )
    code, out, _ = run(capsys, "event", "export", "naspa", log, "-o", tmp_path / "a.naspa")
    assert code == 0
    sidecar = (tmp_path / "a.naspa.anchor").read_text(encoding="ascii")
    assert sidecar == f"rackclock event ledger anchor {anchor}\n"
    # verify: intact, and still holding what was anchored earlier
    code, out, _ = run(capsys, "event", "verify", log, "--anchor", m[1])
    assert code == 0
    assert "records 1..2 are as anchored by --anchor; records after 2" in out
    # the earlier copy passes verify alone, and fails against the later anchor
    code, out, _ = run(capsys, "event", "verify", early)
    assert code == 0
    assert "a ledger cut short as a whole cannot be told" in out
    code, out, err = run(capsys, "event", "verify", early, "--anchor", anchor)
    assert code == 1
    assert err.splitlines() == [
        f"rackclock event verify: {str(early)!r} ends at record 2 but the anchor {anchor} "
        f"names record 3: records 3..3 are missing"
    ]


@pytest.mark.parametrize("bad", ["3", "3:zz", "x:0123456789ab", "0:0123456789ab"])
def test_a_bad_anchor_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    (tmp_path / "club.toml").write_text(EVENT, encoding="utf-8")
    log = tmp_path / "club.sqlite"
    run(capsys, "event", "new", tmp_path / "club.toml", "-o", log)
    before = log.read_bytes()
    code, _, err = run(capsys, "event", "verify", log, "--anchor", bad)
    assert code == 2  # a malformed argument (docs/tournament.md: exit codes)
    assert err.splitlines() == [
        f"rackclock event verify: {bad!r} is not an anchor: expected COUNT:HASH as event "
        "pair prints it (e.g. 12:9f2c4e7a01b3d5c6, at least 12 hex digits)"
    ]
    assert log.read_bytes() == before
