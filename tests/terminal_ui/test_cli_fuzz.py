"""No traceback reaches a user: every subcommand, fed malformed arguments and files,
exits non-zero with a clear line, and writes nothing to an existing log.

The command line runs in-process (:func:`terminal_ui.cli.main`), each invocation
built from pieces of which at least one is bad: a missing file, a folder, garbage,
a truncated or random "SQLite" file, a JSON Lines file where a log is wanted, an
unknown variant, a bad clock or broker URL, a malformed option value. The good
log among the pieces must be byte for byte the same afterwards.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from clock.log.eventlog import EventLog
from engine.events import GameStarted, Passed
from terminal_ui.cli import main


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("fuzz")
    (d / "garbage.txt").write_text("not a log\n\x00\x01 ???\n", encoding="latin-1")
    (d / "random.sqlite").write_bytes(bytes(range(256)) * 8)
    (d / "truncated.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 40)
    (d / "events.jsonl").write_text('{"type":"passed","player":0}\n', encoding="utf-8")
    (d / "empty.gcg").write_text("", encoding="utf-8")
    (d / "binary.gcg").write_bytes(b"\xff\xfe#player1 a A\n\x00")
    (d / "bad.toml").write_text("name = \n[params\n", encoding="utf-8")
    (d / "a folder").mkdir()
    good = d / "good.sqlite"
    with EventLog.open(good) as log:
        log.append(GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")))
        log.append(Passed(t=1000, player=0))
    return {
        "missing": d / "missing.sqlite",
        "nofolder": d / "no" / "such" / "log.sqlite",
        "garbage": d / "garbage.txt",
        "random": d / "random.sqlite",
        "truncated": d / "truncated.sqlite",
        "jsonl": d / "events.jsonl",
        "folder": d / "a folder",
        "emptygcg": d / "empty.gcg",
        "binarygcg": d / "binary.gcg",
        "badtoml": d / "bad.toml",
        "good": good,
    }


BAD_FILES = ["missing", "nofolder", "garbage", "random", "truncated", "folder", "binarygcg"]
BAD_LOGS = [*BAD_FILES, "jsonl"]
# A missing file in an existing folder is a new log to the commands that run a table.
BAD_TABLE_LOGS = [name for name in BAD_LOGS if name != "missing"]
BAD_VARIANTS = ["klingon", "badtoml", "", "../../etc/passwd"]
BAD_CLOCKS = ["usb:7", "serial:", "serial:/dev/x,speed=fast", "mqtt:", "mqtt://", "mqtts://:0/"]
BAD_URLS = ["http://x", "mqtt://", "mqtt://host:notaport/v/t", "nonsense"]
JUNK = ["--at", "--json", "-x", "--players", "Ann", "--first", "7", "", "\u00e9\u0000"]


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    for p in (path, Path(f"{path}-wal")):
        if p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()


@st.composite
def bad_invocation(draw: st.DrawFn) -> list[str]:
    """A command line with at least one bad piece; file pieces are names in ``files``."""
    log = draw(st.sampled_from(BAD_LOGS))
    table_log = draw(st.sampled_from(BAD_TABLE_LOGS))
    anyfile = draw(st.sampled_from([*BAD_FILES, "good", "jsonl", "emptygcg"]))
    variant = draw(st.sampled_from(BAD_VARIANTS))
    clock = draw(st.sampled_from(BAD_CLOCKS))
    url = draw(st.sampled_from(BAD_URLS))
    junk = draw(st.lists(st.sampled_from(JUNK), max_size=3))
    nowhere = draw(st.sampled_from(["folder", "nofolder"]))
    which = draw(
        st.sampled_from(
            [
                ["replay", f"@{log}", *junk],
                ["replay", f"@{log}", "--at", draw(st.sampled_from(["x", "-1e9", "9" * 30]))],
                ["log", "verify", f"@{log}"],
                ["log", "export", f"@{log}"],
                ["log", "export", "@good", "-o", f"@{nowhere}"],
                ["log", "import", f"@{anyfile}", "@good"],
                ["gcg", "check", f"@{anyfile}", f"@{log}"],
                ["export", "gcg", f"@{log}", *junk],
                ["export", draw(st.sampled_from(["naspa", "tsh"])), f"@{log}", "--round", "1"],
                ["export", "tsh", "@good", "--roster", f"@{anyfile}"],
                ["export", "naspa", "@good", "--round", draw(st.sampled_from(["x", "0", "-3"]))],
                ["gcg", "check", "@emptygcg", "--variant", variant or "klingon"],
                ["variants", variant or "klingon", *junk],
                ["serve", "--variant", "nzasp", "--log", f"@{table_log}"],
                ["serve", "--variant", variant or "klingon", "--log", "@good"],
                ["serve", "--variant", "nzasp", "--log", "@good", "--clock", clock],
                ["serve", "--variant", "nzasp", "--log", "@good", "--players", "Ann"],
                ["table", "--log", f"@{table_log}"],
                ["table", "--log", "@good", "--variant", variant or "klingon"],
                ["table", "--log", "@good", "--words", f"@{draw(st.sampled_from(BAD_FILES))}"],
                ["scorekeeper", "--log", f"@{table_log}"],
                ["scorekeeper", "--log", "@good", "--variant", variant or "klingon"],
                ["director", "--log", f"@{draw(st.sampled_from(['missing', 'folder']))}"],
                ["director", "--broker", url],
                ["venue", "--broker", url],
                ["gateway", "--serial", "/dev/x", "--mqtt", url],
                ["emulate-clock", "--mqtt", url, "--table", "t1"],
                ["emulate-clock", "--serial", "/dev/x", "--script", f"@{log}"],
                ["no-such-command", *junk],
                [*junk],
            ]
        )
    )
    return which


def _resolve(argv: list[str], files: dict[str, Path]) -> list[str]:
    return [str(files[a[1:]]) if a.startswith("@") else a for a in argv]


@pytest.fixture
def quiet_data(tmp_path: Path) -> Iterator[None]:
    """Keep crash reports and new logs out of the user's data folder."""
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path / "data")
    yield
    if old is None:
        del os.environ["XDG_DATA_HOME"]
    else:
        os.environ["XDG_DATA_HOME"] = old


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(argv=bad_invocation())
def test_bad_input_gets_one_clear_line_and_changes_nothing(
    argv: list[str],
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    quiet_data: None,
) -> None:
    before = _digest(files["good"])
    args = _resolve(argv, files)
    try:
        status = main(args)
    except SystemExit as exc:  # argparse: usage line and status 2
        status = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text, (args, text)
    assert "internal error" not in text, (args, text)
    assert status != 0, (args, text)
    assert (out.err or out.out).strip(), (args, "no message at all")
    assert _digest(files["good"]) == before, (args, "the good log changed")
