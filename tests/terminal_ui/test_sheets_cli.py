"""``rackclock event sheets`` as a director runs it: the folder (the hand-checked
golden files of tests/data/sheets/, written whole, again over an old one), one
sheet shown on the terminal, and bad requests refused with one line, the folder
untouched."""

from __future__ import annotations

from pathlib import Path

from clock.tournament.ledger import EventLedger
from engine.tournament.records import Paired, Result
from tests.engine.tournament.test_sheets import EVENT, GOLDEN, RECORDS
from tests.terminal_ui.test_event import rackclock


def harbour_cup(tmp_path: Path, event: str = EVENT) -> Path:
    """The Harbour Cup's ledger on disk (the golden files' event)."""
    log = tmp_path / "cup.sqlite"
    with EventLedger.create(log, event, "cup.toml") as ledger:
        for record in RECORDS:
            ledger.append(record)
    return log


def test_the_sheets_folder_is_the_golden_one_and_is_rewritten_whole(tmp_path: Path) -> None:
    log = harbour_cup(tmp_path)
    out = tmp_path / "web"
    done = rackclock("event", "sheets", log, "-o", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote 11 files in {out}: open {out / 'index.html'}\n"
    golden = {p.name: p.read_text(encoding="utf-8") for p in GOLDEN.iterdir()}
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()} == golden
    # again, after round 1: each file replaced whole, no temporary file left behind
    again = rackclock("event", "sheets", log, "-o", out, "--round", "1")
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(golden)
    assert (
        (out / "A-pairings.txt")
        .read_text(encoding="utf-8")
        .startswith("Harbour Cup, division A: pairings, round 2\n")
    )
    assert "standings after round 1" in (out / "A-standings.html").read_text(encoding="utf-8")


def test_one_sheet_on_the_terminal(tmp_path: Path) -> None:
    log = harbour_cup(tmp_path)
    wall = rackclock("event", "sheets", log, "--show", "wallchart")
    assert wall.returncode == 0, wall.stderr
    assert wall.stdout == (GOLDEN / "A-wallchart.txt").read_text(encoding="utf-8")
    card = rackclock("event", "sheets", log, "--show", "scorecard", "4", "--round", "2")
    assert card.returncode == 0, card.stderr
    assert card.stdout.splitlines()[3] == "#4 Dee Dunn (1500)"
    assert "    2      2  Cid Cole (#3)  first   forfeit loss" in card.stdout
    assert "round 3" not in card.stdout.split("\n", 1)[1]
    by_name = rackclock("event", "sheets", log, "--show", "scorecard", "Hal Hunt")
    assert "    3                         bye                    +50  1-0    +50" in by_name.stdout


def test_bad_requests_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    log = harbour_cup(tmp_path)
    out = tmp_path / "web"
    refused = {
        ("-o", out, "--round", "4"): (1, "--round 4: division A: rounds 1-3 have results"),
        ("-o", out, "--round", "-1"): (2, "--round -1: after round 0 (before round 1)"),
        ("--show", "wall"): (2, "--show 'wall': expected one of pairings, standings, scorecard"),
        ("--show", "standings", "3"): (2, "only scorecard takes one player"),
        ("--show", "scorecard", "9"): (1, "no player #9 in division A (1-8)"),
        ("--show", "scorecard", "Zed"): (1, "has no player 'Zed'"),
        ("--show", "standings", "--division", "Z"): (1, "no division 'Z'"),
        ("-o", out, "--show", "standings"): (2, "give -o DIR (the folder) or --show SHEET"),
        ("--show", "standings", "--games", out): (2, "--games is for the prize sheet"),
    }
    for args, (code, said) in refused.items():
        done = rackclock("event", "sheets", log, *args)
        assert done.returncode == code, (args, done.stderr)
        assert done.stderr.startswith("rackclock event sheets: "), args
        assert said in done.stderr, (args, done.stderr)
        assert done.stderr.count("\n") == 1, done.stderr
        assert not out.exists()


def test_two_divisions_have_their_own_files(tmp_path: Path) -> None:
    second = EVENT.replace('[[division]]\nname = "A"', '[[division]]\nname = "B"', 1)
    event = EVENT + second.split("\n", 2)[2].replace('name = "Harbour Cup"\n', "")
    log = harbour_cup(tmp_path, event)
    with EventLedger.open(log) as ledger:
        ledger.append(Paired("B", 1, ((1, 2), (3, 4), (5, 6), (7, 0))))
        ledger.append(Result("B", 1, 1, 2, (500, 300)))
    out = tmp_path / "web"
    done = rackclock("event", "sheets", log, "-o", out)
    assert done.returncode == 0, done.stderr
    assert (out / "A-standings.txt").read_text(encoding="utf-8") == (
        GOLDEN / "A-standings.txt"
    ).read_text(encoding="utf-8")
    b = (out / "B-pairings.txt").read_text(encoding="utf-8")
    assert b.startswith("Harbour Cup, division B: pairings, round 1\n")  # round 1 not complete
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "division A, after round 3" in index
    assert "division B, before round 1" in index
    mixed = rackclock("event", "sheets", log, "--show", "scorecard", "1")
    assert mixed.returncode == 1
    assert "several divisions (A, B): give --division" in mixed.stderr


def test_divisions_whose_names_make_the_same_file_name_keep_their_own_files(
    tmp_path: Path,
) -> None:
    # "A/B" and "A_B" both make A_B: each gets its place in the event added
    event = EVENT.replace('name = "A"\n', 'name = "A/B"\n', 1)
    event += event.split("\n", 2)[2].replace('name = "Harbour Cup"\n', "").replace("A/B", "A_B")
    log = tmp_path / "cup.sqlite"
    with EventLedger.create(log, event, "cup.toml") as ledger:
        ledger.append(Paired("A/B", 1, ((1, 2), (3, 4), (5, 6), (7, 0))))
        ledger.append(Paired("A_B", 1, ((1, 3), (2, 4), (5, 6), (7, 0))))
    out = tmp_path / "web"
    done = rackclock("event", "sheets", log, "-o", out)
    assert done.returncode == 0, done.stderr
    first = (out / "A_B_1-pairings.txt").read_text(encoding="utf-8")
    second = (out / "A_B_2-pairings.txt").read_text(encoding="utf-8")
    assert first.startswith("Harbour Cup, division A/B: pairings, round 1\n")
    assert second.startswith("Harbour Cup, division A_B: pairings, round 1\n")
    assert not (out / "A_B-pairings.txt").exists()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.count('href="A_B_1-pairings.html"') == 1
    assert index.count('href="A_B_2-pairings.html"') == 1
    # one division asked: the same names, the other division's files left alone
    alone = rackclock("event", "sheets", log, "-o", out, "--division", "A_B")
    assert alone.returncode == 0, alone.stderr
    assert (out / "A_B_2-pairings.txt").read_text(encoding="utf-8") == second
    assert (out / "A_B_1-pairings.txt").read_text(encoding="utf-8") == first


def test_an_earlier_round_removes_only_our_own_stale_sheets(tmp_path: Path) -> None:
    log = harbour_cup(tmp_path)
    out = tmp_path / "web"
    assert rackclock("event", "sheets", log, "-o", out).returncode == 0
    theirs = ["notes.txt", "A-prizes.pdf", "B-prizes.txt", "A-photo.html"]
    for name in theirs:
        (out / name).write_text("the director's own\n", encoding="utf-8")
    done = rackclock("event", "sheets", log, "-o", out, "--round", "0")
    assert done.returncode == 0, done.stderr
    kinds = ("pairings", "standings", "scorecards", "wallchart")
    ours = [f"A-{k}.{ext}" for k in kinds for ext in ("txt", "html")]
    assert sorted(p.name for p in out.iterdir()) == sorted([*ours, "index.html", *theirs])
    assert "A-prizes" not in (out / "index.html").read_text(encoding="utf-8")


def test_the_prize_sheet_reads_the_games_given(tmp_path: Path) -> None:
    from tests.terminal_ui.test_event_prizes import day

    log = day(tmp_path)
    moved = tmp_path / "archive"
    (tmp_path / "tables").rename(moved)  # the logs the results name are gone
    (moved / "junk.sqlite").write_bytes(b"not a game log" * 8)
    out = tmp_path / "web"
    bare = rackclock("event", "sheets", log, "-o", out)
    assert bare.returncode == 0, bare.stderr
    lines = (out / "A-prizes.txt").read_text(encoding="utf-8").splitlines()
    assert not any(line.startswith("high play") and "Hal" in line for line in lines)
    done = rackclock("event", "sheets", log, "-o", out, "--games", moved)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("rackclock event sheets: ")  # the log passed over, said
    assert str(moved / "junk.sqlite") in done.stderr
    assert done.stderr.count("\n") == 1
    sheet = (out / "A-prizes.txt").read_text(encoding="utf-8")
    prizes = rackclock("event", "prizes", log, "--games", moved)
    assert sheet == prizes.stdout  # the folder's prizes are event prizes --games'
    assert any(line.startswith("high play") and "Hal" in line for line in sheet.splitlines())
    shown = rackclock("event", "sheets", log, "--show", "prizes", "--games", moved)
    assert shown.stdout == sheet
