"""Each way a name enters an event refuses one its results files could not hold, as
a director runs it: ``event new`` (the event file), ``event enter`` (a late entry)
and ``event import`` (tsh ``.t`` files): one line naming the input and what is wrong,
the exit code of its kind, nothing written (issue 24 §2). And an event's export
writes what entered as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal_ui.test_event import rackclock

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 2
plan = [{ rounds = "1-2", system = "koth" }]
players = [
  { name = "NAME", rating = 1800 },
  { name = "Ben Ray", rating = 1700 },
]
"""


@pytest.mark.parametrize(
    ("name", "fault"),
    [
        ("Ann; Lee", "has ';', tsh's field separator"),
        ("Lee, Ann 2", "ends in 2, which tsh would read as the rating"),
        ("Ann/Lee", "has '/', where a name ends in NASPA's results file"),
        (",", "has no letter"),
        ("...", "has no letter"),
        ("1234", "has no letter"),
        ("X", "would be read by tsh as 'X 1800' rated 2"),
        ("Ann\u202eLee", "has '\\u202e', an invisible format character"),
        ("Ann\u200bLee", "has '\\u200b', an invisible format character"),
        ("A" * 61, "is 61 characters long, over 60"),
    ],
)
def test_event_new_refuses_a_name_the_results_files_cannot_hold(
    tmp_path: Path, name: str, fault: str
) -> None:
    (tmp_path / "club.toml").write_text(EVENT.replace("NAME", name), encoding="utf-8")
    done = rackclock("event", "new", tmp_path / "club.toml", "-o", tmp_path / "club.sqlite")
    assert done.returncode == 1, done.stderr
    rule = "a name must fit tsh's and NASPA's results files"
    if fault.endswith("character"):  # one_line's refusal, before the results files'
        rule = "a name is one line of printable text"
    assert done.stderr == (
        f"rackclock event new: {tmp_path / 'club.toml'}: division 'A': player name "
        f"{name!r} {fault}: {rule}\n"
    )
    assert not (tmp_path / "club.sqlite").exists()


def test_event_new_keeps_a_combining_mark_composed(tmp_path: Path) -> None:
    """'Zoe' and U+0308 enter as 'Zoë' (NFC), which the ISO-8859-1 .t file holds."""
    (tmp_path / "club.toml").write_text(EVENT.replace("NAME", "Zoe\u0308 Lee"), encoding="utf-8")
    ledger = tmp_path / "club.sqlite"
    done = rackclock("event", "new", tmp_path / "club.toml", "-o", ledger)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "tsh"
    done = rackclock("event", "export", "tsh", ledger, "-o", out)
    assert done.returncode == 0, done.stderr
    assert (out / "a.t").read_text("iso-8859-1").splitlines()[1].startswith("Lee, Zoë 1800")


def test_event_enter_refuses_such_a_name_before_the_ledger_is_read(tmp_path: Path) -> None:
    (tmp_path / "club.toml").write_text(EVENT.replace("NAME", "Ann Lee"), encoding="utf-8")
    ledger = tmp_path / "club.sqlite"
    assert rackclock("event", "new", tmp_path / "club.toml", "-o", ledger).returncode == 0
    before = ledger.read_bytes()
    done = rackclock("event", "enter", ledger, "Cy #1 Oh", "1500", "--round", "2")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "rackclock event enter: late entry: player name 'Cy #1 Oh' has '#', tsh's comment "
        "mark: a name must fit tsh's and NASPA's results files\n"
    )
    assert ledger.read_bytes() == before
    done = rackclock("event", "enter", ledger, "X", "1500", "--round", "2")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "rackclock event enter: late entry: player name 'X' would be read by tsh as "
        "'X 1800' rated 2: a name must fit tsh's and NASPA's results files\n"
    )
    assert ledger.read_bytes() == before
    # the same player, named as the files can hold, is entered (and said) as the event
    # keeps the name, and exported as entered
    done = rackclock("event", "enter", ledger, "  Cy   Oh ", "1500", "--round", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Cy Oh entered in A from round 2 as #3\n"
    out = tmp_path / "tsh"
    assert rackclock("event", "export", "tsh", ledger, "-o", out).returncode == 0
    names = [line.split(" 1")[0] for line in (out / "a.t").read_text("iso-8859-1").splitlines()]
    assert names[1:] == ["Lee, Ann", "Ray, Ben", "Oh, Cy"]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Lee #2, Ann 1800 2; 400", "player name 'Ann Lee #2' has '#', tsh's comment mark: "
         "a name must fit tsh's and NASPA's results files"),
        ("Lee, A\x1bnn 1800 2; 400", "player name 'A\\x1bnn Lee' has '\\x1b', a "
         "control character: a name is one line of printable text"),
    ],
)  # fmt: skip
def test_event_import_refuses_such_a_name_naming_the_file_and_player(
    tmp_path: Path, line: str, said: str
) -> None:
    tfile = tmp_path / "a.t"
    tfile.write_bytes(f"{line}\nRay, Ben 1700 1; 300\n".encode("iso-8859-1"))
    done = rackclock("event", "import", tmp_path / "club.sqlite", tfile)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"rackclock event import: {tfile}: player 1: {said}\n"
    assert not (tmp_path / "club.sqlite").exists()


def test_event_import_reads_a_t_file_written_in_utf_8(tmp_path: Path) -> None:
    """``export tsh --encoding utf-8`` writes what ``event import`` reads back."""
    tfile = tmp_path / "a.t"
    tfile.write_bytes("Nowak, Łukasz 1800 2; 400\nRay, Ben 1700 1; 300\n".encode())
    ledger = tmp_path / "club.sqlite"
    done = rackclock("event", "import", ledger, tfile)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "tsh"
    done = rackclock("event", "export", "tsh", ledger, "-o", out, "--encoding", "utf-8")
    assert done.returncode == 0, done.stderr
    assert (out / "a.t").read_text("utf-8").splitlines()[1].startswith("Nowak, Łukasz 1800 2")
