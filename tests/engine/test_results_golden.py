"""The results writers against hand-checked golden files, one folder per case under
tests/data/results/: ``naspa.txt``, one ``.t`` per division (ISO-8859-1 unless the case
says UTF-8) and ``notes.txt``, what the director is told.

Cases: a round robin with a forfeit, byes, an accented name (with and without a
roster), two divisions, and surname particles from a roster.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.exports.results_files import results_files
from engine.exports.results import GameResult, ResultsError
from engine.exports.roster import parse_roster

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "results"

ROUND_ROBIN = [
    # Ann 1, Ben 2, Cyd 3 (alphabetical), one sitting out each round (a bye, as a
    # three-player round robin has); Cyd forfeits round 3 to Ann (spread 50).
    GameResult(1, ("Ann Lee", "Ben Ray"), (410, 380), 0, "out", 30),
    GameResult(1, ("Cyd Oh", ""), (0, 0), 0, "bye", 50),
    GameResult(2, ("Ben Ray", "Cyd Oh"), (355, 402), 1, "out", 47),
    GameResult(2, ("Ann Lee", ""), (0, 0), 0, "bye", 50),
    GameResult(3, ("Cyd Oh", "Ann Lee"), (0, 0), 1, "forfeit", 50),
    GameResult(3, ("Ben Ray", ""), (0, 0), 0, "bye", 50),
]
# Four players, a bye each of two rounds (Dee 4).
BYES = [
    GameResult(1, ("Ann Lee", "Ben Ray"), (400, 400), None, "out", 0),
    GameResult(1, ("Cyd Oh", "Dee Fox"), (390, 420), 1, "scoreless", 30),
    GameResult(2, ("Ann Lee", "Cyd Oh"), (377, 350), 0, "cutoff", 27),
    GameResult(2, ("Ben Ray", ""), (0, 0), 0, "bye", 50),
    GameResult(2, ("Dee Fox", ""), (0, 0), 0, "bye", 50),
    GameResult(1, ("Eve Ng", ""), (0, 0), 0, "bye", 50),
    GameResult(2, ("Eve Ng", ""), (0, 0), 0, "bye", 50),
]
ACCENTED = [
    GameResult(1, ("Zoë Ångström", "Ben Ray"), (431, 345), 0, "out", 86),
]
TWO_DIVISIONS = [
    GameResult(1, ("Ann Lee", "Ben Ray"), (410, 380), 0, "out", 30, "A"),
    GameResult(1, ("Cyd Oh", "Dee Fox"), (300, 500), 1, "resigned", 50, "B"),
]
PARTICLES = [
    GameResult(1, ("Cesar Del Solar", "Ann van der Berg"), (420, 390), 0, "out", 30),
]
ROSTER = """\
Del Solar, Cesar 1850
van der Berg, Ann 1720
"""

CASES = {
    "round_robin_forfeit": (ROUND_ROBIN, None, "iso-8859-1"),
    "byes": (BYES, None, "iso-8859-1"),
    "accented_latin1": (ACCENTED, None, "iso-8859-1"),
    "accented_utf8": (ACCENTED, None, "utf-8"),
    "two_divisions": (TWO_DIVISIONS, None, "iso-8859-1"),
    "particles_roster": (PARTICLES, ROSTER, "iso-8859-1"),
    "particles_guessed": (PARTICLES, None, "iso-8859-1"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_results_match_the_golden_files(case: str) -> None:
    games, roster_text, encoding = CASES[case]
    roster = parse_roster(roster_text, "roster.t") if roster_text else None
    notes: list[str] = []
    files = results_files(games, roster=roster, encoding=encoding, notes=notes)
    folder = GOLDEN / case
    expected = {p.name: p.read_bytes() for p in folder.iterdir() if p.name != "notes.txt"}
    assert files == expected
    assert notes == (folder / "notes.txt").read_text(encoding="utf-8").splitlines()


def test_a_name_tsh_cannot_encode_is_refused_not_garbled() -> None:
    games = [GameResult(1, ("Łukasz Nowak", "Ben Ray"), (400, 300), 0, "out", 100)]
    with pytest.raises(ResultsError, match=r"iso-8859-1 cannot hold: use --encoding utf-8"):
        results_files(games, encoding="iso-8859-1", kinds=("tsh",))
    files = results_files(games, encoding="utf-8", kinds=("tsh",))
    assert "Nowak, Łukasz 0 1; 400" in files["a.t"].decode("utf-8").splitlines()


def test_a_name_with_no_ascii_form_is_refused_for_naspa() -> None:
    games = [GameResult(1, ("李 小龍", "Ben Ray"), (400, 300), 0, "out", 100)]
    with pytest.raises(ResultsError, match="no ASCII form"):
        results_files(games, encoding="utf-8")


def _read_t(text: str) -> list[tuple[str, int, list[int], list[int]]]:
    """A ``.t`` file read as the NASPA manual describes it, and nothing more: per
    line ``Last, First RATING OPP...; SCORE...``; the players of one division on
    consecutive lines; a pairing number n is the n-th player listed, 0 a bye or
    forfeit whose score is the spread."""
    players = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        head, sep, tail = line.partition(";")
        assert sep, f"line {number}: no ';' in {line!r}"
        name, comma, rest = head.partition(",")
        assert comma, f"line {number}: no 'Last, First' in {line!r}"
        words = rest.split()
        at = next(i for i, w in enumerate(words) if w.lstrip("-").isdigit())
        assert at >= 1, f"line {number}: no first name in {line!r}"
        rating, *opps = (int(w) for w in words[at:])
        scores = [int(w) for w in tail.split(";")[0].split()]
        assert len(opps) == len(scores), f"line {number}: {len(opps)} rounds, {len(scores)} scores"
        players.append((f"{name}, {' '.join(words[:at])}", rating, opps, scores))
    return players


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_t_file_reads_back_as_the_manual_describes(case: str) -> None:
    games, _, encoding = CASES[case]
    for name, data in results_files(games, encoding=encoding, kinds=("tsh",)).items():
        players = _read_t(data.decode(encoding))
        for i, (who, _, opps, scores) in enumerate(players, start=1):
            for rnd, opp in enumerate(opps):
                if opp == 0:
                    assert abs(scores[rnd]) in (0, 50), (name, who, rnd)
                    continue
                # the pairing is the same seen from the other side
                assert players[opp - 1][2][rnd] == i, (name, who, rnd + 1)
