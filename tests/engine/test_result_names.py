"""Names the results files cannot hold (issue 24 §2), against hand-checked golden
files under tests/data/tsh_names/, one folder per case: each file a writer writes
(``a.t``, ``results-naspa.txt``), or ``<file>.refused``, the one line it refuses the
name with, nothing written.

The tables' games (``rackclock export tsh|naspa``: names from game logs, checked by
the writers only): a newline that would forge a player's line, an ESC, a Unicode line
separator, tsh's ``;`` and ``#``, a name filed ending in a number tsh reads as the
rating, NASPA's ``/``, and a letter ISO-8859-1 cannot hold (refused, never ``?``;
written with UTF-8). An event's ledger made before the rule (its names not checked
again when it is read): written by the documented rule, each file by its format's
part (:func:`engine.exports.names.writable`). And each name the entry check
(:func:`engine.tournament.spec.results_name`) refuses is one the writers refuse: the
rule is one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.exports.results_files import NASPA_FILE, results_files
from engine.exports.gcg import player_names
from engine.exports.names import T_LINE, line_fault, naspa_fault, tsh_fault, writable
from engine.exports.results import GameResult, ResultsError
from engine.exports.roster import guess_filed, parse_roster
from engine.exports.tfile import t_file_bytes
from engine.tournament.errors import EventFileError
from engine.tournament.naspa import event_naspa_lines
from engine.tournament.records import Created, Paired, Result
from engine.tournament.spec import player_name, results_name
from engine.tournament.state import replay
from engine.tournament.tsh import event_t_files, parse_t

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "tsh_names"

TABLE_NAMES = {
    "newline": "Lee, Ann 1800 2; 400\nFox, Cy",
    "escape": "Ann\x1b[2JLee",
    "line_separator": "Ann Lee\u2028Fox",
    "semicolon": "Ann; Lee",
    "hash": "Ann #2 Lee",
    "trailing_number": "Lee, Ann 2",
    "slash": "Ann/Lee",
    "latin1_cannot_hold": "Łukasz Nowak",
    "blank": "   ",
    "punctuation_only": ". ,",
    "single_letter": "A",
    "format_character": "Ann\u202eLee",
    "no_ascii_form": "李 小龍",
}
"""Each case's first player, who beats Ben Ray 400-300 in round 1."""


def _written(name: str, encoding: str) -> dict[str, bytes]:
    """What each writer makes of a game of ``name``'s: its file, or its refusal."""
    out: dict[str, bytes] = {}
    games = [GameResult(1, (name, "Ben Ray"), (400, 300), 0, "out", 100, first=0)]
    for kind, file in (("tsh", "a.t"), ("naspa", NASPA_FILE)):
        try:
            out.update(results_files(games, encoding=encoding, kinds=(kind,)))
        except ResultsError as exc:
            out[f"{file}.refused"] = f"{exc}\n".encode()
    return out


def _golden(case: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((GOLDEN / case).iterdir())}


@pytest.mark.parametrize("case", sorted(TABLE_NAMES))
def test_a_tables_name_is_refused_or_written_as_the_golden_files_say(case: str) -> None:
    assert _written(TABLE_NAMES[case], "iso-8859-1") == _golden(case)


def test_a_name_iso_8859_1_cannot_hold_is_written_in_utf_8() -> None:
    assert _written(TABLE_NAMES["latin1_cannot_hold"], "utf-8") == _golden("latin1_utf8")


def test_no_written_t_file_forges_or_misreads_a_player() -> None:
    """Every ``.t`` file written reads back as two players, the first named as filed."""
    for case in (*TABLE_NAMES, "latin1_utf8"):
        for name, data in _golden(case).items():
            if name == "a.t":
                text = data.decode("utf-8")
                t = parse_t(text, name)
                assert [p.rating for p in t.players] == [0, 0], case
                # tsh's own pattern reads each line's whole name back, as filed
                filed = [T_LINE.match(line).group(1) for line in text.splitlines()]  # type: ignore[union-attr]
                assert [guess_filed(p.name) for p in t.players] == filed, case


def test_every_t_reader_reads_a_line_as_tshs_pattern_does() -> None:
    """parse_t, the roster and the export's refusal read a line's name and rating
    by one pattern, tsh's: '-5' is no rating to tsh, so it is part of the name."""
    line = "Lee, Ann -5 1800 0; 50"
    read = T_LINE.match(line)
    assert read is not None
    assert read.groups()[:2] == ("Lee, Ann -5", "1800")
    t = parse_t(line, "a.t")
    assert (guess_filed(t.players[0].name), t.players[0].rating) == ("Lee, Ann -5", 1800)
    assert parse_roster(line, "r.t").filed("Ann -5 Lee") == "Lee, Ann -5"
    with pytest.raises(ResultsError, match=r"^a\.t: 'Lee, Łu -5' has 'Ł'"):
        t_file_bytes("a.t", [line.replace("Ann", "Łu")])


OLDER_EVENT = """
name = "Before the rule"
[[division]]
name = "A"
rounds = 1
plan = [{ rounds = "1", system = "koth" }]
players = [
  { name = "Ann; Lee", rating = 1800 },
  { name = "Lee, Cy 2", rating = 1700 },
  { name = "Dee/Fox", rating = 1600 },
  { name = "Eve #1 Ng", rating = 1500 },
]
"""


def test_an_older_ledgers_names_are_written_by_the_documented_rule() -> None:
    """A ledger made before the rule still opens, and its files hold each name as
    :func:`writable` makes it for that file: in the ``.t`` file ``;`` and ``#``
    spaces and a trailing number in parentheses, in NASPA's ``/`` a space."""
    state = replay(
        [
            Created(OLDER_EVENT, "old.toml", "older"),
            Paired("A", 1, ((1, 2), (3, 4))),
            Result("A", 1, 1, 2, (400, 300)),
            Result("A", 1, 3, 4, (350, 360)),
        ]
    )
    files = {name: t_file_bytes(name, lines) for name, lines in event_t_files(state).items()}
    files[NASPA_FILE] = ("\n".join(event_naspa_lines(state)) + "\n").encode("ascii")
    assert files == _golden("older_ledger")
    t = parse_t(files["a.t"].decode("iso-8859-1"), "a.t")
    assert [p.rating for p in t.players] == [1800, 1700, 1600, 1500]


@pytest.mark.parametrize(
    "case",
    sorted(set(TABLE_NAMES) - {"latin1_cannot_hold", "no_ascii_form"}),  # the writers'
)
def test_what_the_event_refuses_at_entry_a_writer_refuses(case: str) -> None:
    """The entry check and the writers hold one rule: a name entry refuses (one line,
    quoting it) a writer refuses too, and :func:`writable` makes it one entry takes."""
    name = TABLE_NAMES[case]
    with pytest.raises(EventFileError, match=r"^x: player name ") as refused:
        results_name(player_name(name, "x"), "x")
    assert "\n" not in str(refused.value)
    assert any(k.endswith(".refused") for k in _written(name, "utf-8"))
    assert tsh_fault(guess_filed(writable(name, "tsh"))) is None
    assert naspa_fault(writable(name, "naspa")) is None


def test_a_name_entry_takes_every_writer_writes() -> None:
    """A number may end a name typed first name first: it is filed ``2, Ann Lee``."""
    for name in ("Ann Lee 2", "Zoë O'Brien-Smith", "Ann 2nd Lee"):
        assert results_name(player_name(name, "x"), "x") == name
        assert writable(name, "tsh") == writable(name, "naspa") == name
        assert not any(k.endswith(".refused") for k in _written(name, "utf-8"))


def test_an_older_ledgers_name_with_no_letter_or_one_letter_is_written_so_tsh_reads_it() -> None:
    """Entered before the rule: no letter is ``(unnamed)``, one letter ``(A)`` in the
    ``.t`` file (tsh's pattern reads two characters at least), ``A`` in NASPA's."""
    assert writable("   ", "tsh") == writable(". ,", "naspa") == "(unnamed)"
    assert (writable("A", "tsh"), writable("A", "naspa")) == ("(A)", "A")
    for name in ("   ", ". ,", "A", "1234"):
        assert tsh_fault(guess_filed(writable(name, "tsh"))) is None, name
        assert naspa_fault(writable(name, "naspa")) is None, name


@pytest.mark.parametrize(
    "name",
    ["Ann\u200cLee", "Ann\u200dLee", "Ann\u202eLee", "Ann\u200bLee", "Ann\ue000Lee", "Ann\nLee"],
)
def test_a_gcg_header_and_the_results_files_clean_a_name_by_one_rule(name: str) -> None:
    written, _ = player_names((name, "Ben"))
    # what the entry rule refuses the GCG writer turns to a space; what it keeps, it keeps
    assert (written == name) == (line_fault(name) is None)
    assert line_fault(written) is None
