"""``rackclock event standings`` in each federation's terms, and ``--report`` (NZASP
11.4), run as the director runs it, on an event's log on disk."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from clock.tournament.ledger import verify_ledger

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")

EVENT = """
name = "Nationals"
[[division]]
name = "A"
variant = "nzasp"
rounds = 2
plan = [{ rounds = "1-2", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800, club = "Kapiti" },
  { name = "Ben Baker", rating = 1700, club = "Mt Albert" },
  { name = "Cid Cole", rating = 1600 },
]
[[division]]
name = "Speed"
variant = "toronto-speed"
rounds = 1
plan = [{ rounds = "1", system = "koth" }]
players = [
  { name = "Dee Dunn", rating = 1500 },
  { name = "Eve Eng", rating = 1400 },
  { name = "Fay Fox", rating = 1300 },
  { name = "Gil Gray", rating = 1200 },
]
"""


def rackclock(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RACKCLOCK, *map(str, args)], capture_output=True, text=True, timeout=60, check=False
    )


def test_standings_and_the_results_report_from_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "nats.toml").write_text(EVENT, encoding="utf-8")
    assert rackclock("event", "new", tmp_path / "nats.toml").returncode == 0
    log = tmp_path / "nats.sqlite"
    paired = rackclock("event", "pair", log)
    assert paired.returncode == 0, paired.stderr
    assert "bye: Cid Cole" in paired.stdout  # the lowest rated has the first bye
    for args in (
        ("1", "Ann Able", "400", "Ben Baker", "350", "--division", "A"),
        ("1", "Dee Dunn", "300", "Eve Eng", "250", "--division", "Speed"),
        ("1", "Fay Fox", "301", "Gil Gray", "300", "--division", "Speed"),
    ):
        done = rackclock("event", "result", log, *args)
        assert done.returncode == 0, done.stderr
    shown = rackclock("event", "standings", log).stdout.splitlines()
    # NZASP 9.2: byes unequal, so Cid's counts: a win, +50 (no game yet: average 0).
    assert shown[:5] == [
        "division A after round 1:",
        "  rank  W-L        spread  player",
        "     1  1-0           +50  Ann Able",
        "     2  1-0           +50  Cid Cole  (round 1: bye)",
        "     3  0-1           -50  Ben Baker",
    ]
    # TOR-11: match points, no spread, and level players share the place.
    assert shown[6:] == [
        "  rank  MP         player",
        "    1=  1          Dee Dunn",
        "    1=  1          Fay Fox",
        "    3=  0          Eve Eng",
        "    3=  0          Gil Gray",
    ]
    report = rackclock("event", "standings", log, "--report", "--division", "A")
    assert report.returncode == 0, report.stderr
    lines = report.stdout.splitlines()
    assert lines[0] == "Nationals: results (NZASP 11.4)"
    assert lines[3].split() == ["place", "name", "club", "wins", "spread", "average"]
    assert lines[4].split() == ["1", "Ann", "Able", "Kapiti", "1", "+50", "400.0"]
    assert lines[5].split() == ["2", "Cid", "Cole", "1", "+50", "0.0"]
    assert "  unrated (byes and forfeits, NZASP 9.3, 10.4): Cid Cole 1" in lines
    assert "  round 1: Cid Cole bye; Ann Able 400 to 350 Ben Baker" in lines
    before_play = rackclock("event", "standings", log, "--report", "--round", "1").stdout
    assert "grade A after round 1" in before_play
    speed = rackclock("event", "standings", log, "--report", "--division", "Speed").stdout
    assert speed.splitlines()[3].split() == ["place", "name", "club", "MP", "average"]
    assert speed.splitlines()[4].split() == ["1=", "Dee", "Dunn", "1", "300.0"]
    before = verify_ledger(log)
    wrong = rackclock("event", "standings", log, "--report", "--division", "Z")
    assert wrong.returncode == 1
    assert wrong.stderr.splitlines() == [
        "rackclock event standings: no division 'Z' (the event has 'A', 'Speed')"
    ]
    assert verify_ledger(log) == before


def test_a_divisions_variant_file_gives_its_event_rules(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    # a club's event under NZASP rules that counts victory points
    club.write_text('extends = "nzasp"\n[event]\npoints = "vp"\n', encoding="utf-8")
    text = EVENT.split('[[division]]\nname = "Speed"')[0].replace('"nzasp"', f'"{club}"')
    (tmp_path / "club-night.toml").write_text(text, encoding="utf-8")
    assert rackclock("event", "new", tmp_path / "club-night.toml").returncode == 0
    log = tmp_path / "club-night.sqlite"
    assert rackclock("event", "pair", log).returncode == 0  # each command reads the file
    done = rackclock("event", "result", log, "1", "Ann Able", "400", "Ben Baker", "350")
    assert done.returncode == 0, done.stderr
    shown = rackclock("event", "standings", log)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1:3] == [
        "  rank  VP         margin  player",
        "     1  1             +50  Ann Able",
    ]
    club.write_text("extends = \n", encoding="utf-8")
    broken = rackclock("event", "standings", log)
    assert broken.returncode == 1
    assert len(broken.stderr.splitlines()) == 1
    assert f"variant {str(club)!r}" in broken.stderr
