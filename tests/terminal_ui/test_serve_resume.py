"""``rackclock serve --log EXISTING`` resumes the log's game under its own rules,
without ``--variant`` (its help says it resumes): the variant is in the log's
``game_started``. Run as a user runs it, on a real SQLite log."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from clock.log.eventlog import EventLog
from engine.events import ClockPressed, GameStarted
from engine.rules.replay import replay

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")


def serve(*args: str, stdin: str = "state\nquit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RACKCLOCK, "serve", "--clock", "none", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_an_existing_log_resumes_its_own_game_without_variant(tmp_path: Path) -> None:
    log = tmp_path / "t1.sqlite"
    with EventLog.open(log) as el:
        el.append(GameStarted(t=1_000, variant="toronto-speed", players=("Ann", "Ben")))
        el.append(ClockPressed(t=3_000, player=0))
    out = serve("--log", str(log))
    assert out.returncode == 0, out.stderr
    states = [json.loads(line)["state"] for line in out.stdout.splitlines() if '"state"' in line]
    assert states[0]["variant"] == "toronto-speed"
    assert states[0]["players"] == ["Ann", "Ben"]
    assert states[0]["turn"] == 1  # Ann's press is kept: the game goes on, Ben to play
    with EventLog.open_readonly(log) as el:
        events = list(el.events())
    assert sum(isinstance(ev, GameStarted) for _, ev in events) == 1  # no new game
    variant = replay(events)[0].variant
    assert variant is not None
    assert variant.name == "toronto-speed"


def test_a_log_without_a_game_still_needs_a_variant(tmp_path: Path) -> None:
    empty = tmp_path / "new.sqlite"
    EventLog.open(empty).close()
    out = serve("--log", str(empty))
    assert out.returncode == 2
    assert out.stderr == (
        f"rackclock serve: {empty} holds no game to resume: give --variant "
        "(or --assignment) for a new one\n"
    )
    missing = tmp_path / "none.sqlite"
    out = serve("--log", str(missing))
    assert out.returncode == 2
    assert "holds no game to resume" in out.stderr
    assert not missing.exists()
