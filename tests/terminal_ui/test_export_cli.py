"""``rackclock export gcg|naspa|tsh``, run as a director runs it from a script: the
installed command on logs on disk (SQLite and JSON Lines)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from clock.log.eventlog import EventLog
from engine.equipment.tiles import load_tile_set
from engine.events import ClockPressed, EndRacks, Event, GameStarted, Passed, Resigned, TilesPlaced
from engine.gcg import check_bytes
from engine.rules.variant import load_variant
from tests.strict_gcg import strict_read

ENGLISH = load_tile_set("english").counts
"""nzasp's tile set: strict_read checks each rack against it (110, 101)."""

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RACKCLOCK, "export", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )


def game(t: int, players: tuple[str, str], *, resign: bool = False, rnd: int | None = None):  # type: ignore[no-untyped-def]
    out: list[Event] = [
        GameStarted(t=t, variant="nzasp", players=players, round=rnd),
        TilesPlaced(t=t + 1_000, player=0, move="8D WINDY", score=32),
        ClockPressed(t=t + 1_500, player=0),
    ]
    if resign:
        return [*out, Resigned(t=t + 2_000, player=1)]
    return [
        *out,
        *(Passed(t=t + 2_000 + i, player=(i + 1) % 2) for i in range(6)),
        EndRacks(t=t + 9_000, racks=("AEIRSTT", "AEILNOU")),
    ]


def log_of(path: Path, *games: list[Event]) -> Path:
    with EventLog.open(path) as log:
        for g in games:
            for ev in g:
                log.append(ev)
    return path


def test_gcg_of_a_log_with_two_games(tmp_path: Path) -> None:
    log = log_of(
        tmp_path / "t1.sqlite", game(0, ("Ann Lee", "Ben Ray")), game(60_000, ("Cyd Oh", "Dee Fox"))
    )
    refused = run("gcg", log)
    assert refused.returncode == 1
    assert "holds 2 games: give -o FILE" in refused.stderr
    done = run("gcg", log, "-o", tmp_path / "t1.gcg")
    assert done.returncode == 0, done.stderr
    for n, first in ((1, "Ann Lee"), (2, "Cyd Oh")):
        data = (tmp_path / f"t1-{n}.gcg").read_bytes()
        assert f"#player1 {first.split()[0]}{first.split()[1]} {first}" in data.decode()
        assert strict_read(data.decode("latin-1"), ENGLISH) is None
        assert check_bytes(data, "x", load_variant("nzasp")).ok


def test_gcg_to_stdout_from_json_lines(tmp_path: Path) -> None:
    log = log_of(tmp_path / "t.sqlite", game(0, ("Ann", "Ben")))
    subprocess.run([RACKCLOCK, "log", "export", log, "-o", tmp_path / "t.jsonl"], check=True)
    out = run("gcg", tmp_path / "t.jsonl")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[4].startswith(">Ann: DINWY 8D WINDY +32 32 @")


def test_results_from_several_logs_with_a_round_and_a_roster(tmp_path: Path) -> None:
    t1 = log_of(tmp_path / "t1.sqlite", game(0, ("Ann Lee", "Ben Ray")))
    t2 = log_of(tmp_path / "t2.sqlite", game(0, ("Cyd Oh", "Zoë Fox"), resign=True))
    missing = run("naspa", t1, t2)
    assert missing.returncode == 1
    assert "no round number" in missing.stderr
    assert "give --round N" in missing.stderr
    naspa = run("naspa", t1, t2, "--round", "1")
    assert naspa.returncode == 0, naspa.stderr
    # Ann 32 - 7 (AEIRSTT) = 25, Ben 0 - 7 (AEILNOU); Zoë resigned: a forfeit, B, +-50
    assert naspa.stdout.splitlines() == [
        "1 LEE ANN/32: W2-25",
        "2 RAY BEN/-32: L1--7",
        "3 OH CYD/50: B",
        "4 FOX ZOE/-50: B",
    ]
    assert "'Zoë Fox' written 'FOX ZOE' in the NASPA file (ASCII only)" in naspa.stderr
    roster = tmp_path / "roster.csv"
    roster.write_text("last,first,rating\nLee,Ann,1500\nRay,Ben,1400\n", encoding="utf-8")
    tsh = run("tsh", t1, t2, "--round", "1", "--roster", roster, "-o", tmp_path / "out")
    assert tsh.returncode == 0, tsh.stderr
    text = (tmp_path / "out" / "a.t").read_bytes().decode("iso-8859-1")
    assert "Lee, Ann 1500 2;" in text
    # who went first, from each log's game_started, as event export tsh writes it
    assert "Lee, Ann 1500 2; 25; p12 1" in text
    assert "Ray, Ben 1400 1; -7; p12 2" in text
    assert "Fox, Zoë 0 0; -50" in text
    assert "Zoë Fox is not on the roster: rating 0" in tsh.stderr


def test_bad_input_is_one_line_and_exit_1(tmp_path: Path) -> None:
    bad_roster = tmp_path / "r.csv"
    bad_roster.write_text("name,rating\nAnn Lee,high\n", encoding="utf-8")
    log = log_of(tmp_path / "t.sqlite", game(0, ("Ann", "Ben"), rnd=1))
    for args, says in [
        (("gcg", tmp_path / "none.sqlite"), "No such file"),
        (("gcg", tmp_path), "a folder, not a log file"),
        (("naspa", log, "--round", "0"), "rounds count from 1"),
        (("tsh", log, "--roster", bad_roster), "r.csv line 2: rating 'high' is not a whole number"),
        (("tsh", log, "--roster", tmp_path / "nope.csv"), "cannot read the roster"),
    ]:
        out = run(*args, cwd=tmp_path)
        assert out.returncode == 1, (args, out.stderr)
        assert says in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr


def test_a_pass_with_no_rack_known_is_named_for_the_director() -> None:
    from clock.exports.game_records import gcg_files
    from tests.helpers import SCENARIOS, scenario_events

    events = list(enumerate(scenario_events(SCENARIOS / "naspa" / "end_time.jsonl"), start=1))
    files, problems = gcg_files("t1", events)
    assert not problems
    (game,) = files
    assert strict_read(game.data.decode("latin-1"), ENGLISH) is None
    assert game.notes
    assert all("is written with the stand-in tile" in note for note in game.notes)
    # each note names the line of the file that holds the stand-in (a withdrawn play
    # once made a count of moves name another)
    lines = game.data.decode("latin-1").split("\n")
    for note in game.notes:
        number = int(note.split(" line ")[1].split(":")[0])
        nick = lines[number - 1].split(":")[0].lstrip(">")
        assert note.split(": ", 1)[1].startswith(f"{nick}'s "), (note, lines[number - 1])


def test_names_with_control_characters_or_alike_are_written_cleaned(tmp_path: Path) -> None:
    # A newline in a name once stopped `export gcg` with an internal error; two equal
    # names are refused by MAGPIE ("duplicate player name"). docs/gcg.md, "Player names".
    log = log_of(tmp_path / "t.sqlite", game(0, ("Ann\nLee\x07", "Ann Lee")))
    out = run("gcg", log)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:2] == [
        "#player1 AnnLee Ann Lee",
        "#player2 AnnLee(2) Ann Lee (2)",
    ]
    assert strict_read(out.stdout, ENGLISH) is None
    assert check_bytes(out.stdout.encode(), "x", load_variant("nzasp")).ok


def test_a_log_named_with_letters_latin_1_lacks_is_written_in_utf_8(tmp_path: Path) -> None:
    # The title is the log's name: the encoding was once chosen from the players'
    # names only, and `Łódź.jsonl` stopped with an internal error (issue 24 §1).
    log = log_of(tmp_path / "t.sqlite", game(0, ("Ann", "Ben")))
    subprocess.run([RACKCLOCK, "log", "export", log, "-o", tmp_path / "Łódź.jsonl"], check=True)
    out = run("gcg", tmp_path / "Łódź.jsonl", "-o", tmp_path / "out.gcg")
    assert out.returncode == 0, out.stderr
    data = (tmp_path / "out.gcg").read_bytes()
    assert data.startswith(b"#character-encoding UTF-8\n")
    assert "#title Łódź game 1\n" in data.decode()
    assert strict_read(data.decode(), ENGLISH) is None


def test_a_log_named_with_a_newline_is_titled_on_one_line(tmp_path: Path) -> None:
    log = log_of(tmp_path / "two\nlines \t.sqlite", game(0, ("Ann", "Ben")))
    out = run("gcg", log)
    assert out.returncode == 0, out.stderr
    assert "#title two lines game 1\n" in out.stdout
    assert strict_read(out.stdout, ENGLISH) is None


def test_names_equal_but_for_case_pass_the_strict_check(tmp_path: Path) -> None:
    log = log_of(tmp_path / "t.sqlite", game(0, ("ann lee", "Ann Lee")))
    out = run("gcg", log)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == "#player2 AnnLee(2) Ann Lee (2)"
    result = check_bytes(out.stdout.encode(), "x", load_variant("nzasp"))
    assert result.ok, result
    assert not result.warnings, result


def test_a_log_exported_as_json_lines_reads_back_with_line_separators_in_a_name(
    tmp_path: Path,
) -> None:
    # JSON writes U+0085, U+2028 and U+2029 unescaped: a reader splitting lines at them
    # once cut the game's first line in two (issue 24 §1).
    log = log_of(tmp_path / "t.sqlite", game(0, ("Ann\u2028Lee", "Ben\x85Ray\u2029")))
    subprocess.run([RACKCLOCK, "log", "export", log, "-o", tmp_path / "t.jsonl"], check=True)
    out = run("gcg", tmp_path / "t.jsonl")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:2] == ["#player1 AnnLee Ann Lee", "#player2 BenRay Ben Ray"]
