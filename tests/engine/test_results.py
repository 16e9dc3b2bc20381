"""Tournament results files (engine.exports.results): the NASPA format with scores and tsh's ``.t``.

The expected lines are worked out by hand from the formats as the NASPA
Director's Manual describes them ("Tournament Data Submission Formats"):

- NASPA: ``<n> <LAST FIRST>/<cumulative spread>: <W|L|T><opponent>-<score> ... B``,
  players numbered straight through the file when there are several divisions;
- tsh: ``<Last, First> <rating> <opponent per round ...>; <score per round ...>``,
  one ``#division`` line before each division, opponents numbered within the
  division, 0 for a bye or forfeit, whose "score" is the player's spread.

Players are numbered in the alphabetical order of their names as given.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.events import Bye, Event, Forfeited, GameStarted
from engine.exports.results import GameResult, ResultsError, game_result, naspa_lines, tsh_lines
from engine.rules.replay import replay

# Division A, four players, three rounds. Numbers: Sarah Smith 1, Terry Tiles 2,
# Wilma Flintstone 3, Xavier Xylem 4 ("sarah..." < "terry..." < "wilma..." < "xavier...").
DIV_A = [
    GameResult(1, ("Sarah Smith", "Xavier Xylem"), (423, 380), 0, "out", 43, "A"),
    GameResult(1, ("Terry Tiles", "Wilma Flintstone"), (350, 350), None, "out", 0, "A"),
    # Terry forfeits to Sarah: no scores, spread 50 to the winner
    GameResult(2, ("Sarah Smith", "Terry Tiles"), (0, 0), 0, "forfeit", 50, "A"),
    GameResult(2, ("Wilma Flintstone", "Xavier Xylem"), (395, 410), 1, "cutoff", 15, "A"),
    GameResult(3, ("Wilma Flintstone", "Sarah Smith"), (402, 388), 0, "out", 14, "A"),
    GameResult(3, ("Xavier Xylem", "Terry Tiles"), (376, 377), 1, "scoreless", 1, "A"),
]
# Division B, three players, two rounds, a bye each round. Numbers within B:
# Bruce Willis 1, Jon Stewart 2, Sally Fields 3; straight through the file: 5, 6, 7.
DIV_B = [
    GameResult(1, ("Bruce Willis", "Jon Stewart"), (300, 400), 1, "out", 100, "B"),
    GameResult(1, ("Sally Fields", ""), (0, 0), 0, "bye", 50, "B"),
    GameResult(2, ("Jon Stewart", "Sally Fields"), (333, 333), None, "out", 0, "B"),
    GameResult(2, ("Bruce Willis", ""), (0, 0), 0, "bye", 50, "B"),
]

# Spreads: Sarah +43 +50 -14 = 79; Terry 0 -50 +1 = -49; Wilma 0 -15 +14 = -1;
# Xavier -43 +15 -1 = -29 (the four sum to 0); Bruce -100 +50 = -50; Jon +100 0 = 100;
# Sally +50 0 = 50. A bye is a bare B; so is a forfeit, on both sides: the format's
# only unrated entry (a W or L is rated), its spread in the total.
NASPA = [
    "1 SMITH SARAH/79: W4-423 B L3-388",
    "2 TILES TERRY/-49: T3-350 B W4-377",
    "3 FLINTSTONE WILMA/-1: T2-350 L4-395 W1-402",
    "4 XYLEM XAVIER/-29: L1-380 W3-410 L2-376",
    "5 WILLIS BRUCE/-50: L6-300 B",
    "6 STEWART JON/100: W5-400 T7-333",
    "7 FIELDS SALLY/50: B T6-333",
]
TSH = [
    "#division A",
    "Smith, Sarah 0 4 0 3; 423 50 388",
    "Tiles, Terry 0 3 0 4; 350 -50 377",
    "Flintstone, Wilma 0 2 4 1; 350 395 402",
    "Xylem, Xavier 0 1 3 2; 380 410 376",
    "#division B",
    "Willis, Bruce 0 2 0; 300 50",
    "Stewart, Jon 0 1 3; 400 333",
    "Fields, Sally 0 0 2; 50 333",
]


def test_naspa_lines_two_divisions_numbered_straight_through() -> None:
    assert naspa_lines(DIV_A + DIV_B) == NASPA


def test_tsh_lines_two_divisions() -> None:
    assert tsh_lines(DIV_A + DIV_B) == TSH


def test_the_order_of_the_games_does_not_matter() -> None:
    games = list(reversed(DIV_B)) + list(reversed(DIV_A))
    assert naspa_lines(games) == NASPA
    assert tsh_lines(games) == TSH


def test_one_division_without_a_name_has_no_division_line() -> None:
    games = [
        GameResult(1, ("Ann Lee", "Ben Ray"), (400, 350), 0, "out", 50),
        GameResult(2, ("Ben Ray", "Ann Lee"), (380, 380), None, "out", 0),
    ]
    assert naspa_lines(games) == ["1 LEE ANN/50: W2-400 T2-380", "2 RAY BEN/-50: L1-350 T1-380"]
    assert tsh_lines(games) == ["Lee, Ann 0 2 2; 400 380", "Ray, Ben 0 1 1; 350 380"]


def test_names_last_name_first_without_punctuation() -> None:
    games = [GameResult(1, ("J. R. Ewing", "Smith, Sarah"), (390, 410), 1, "out", 20)]
    assert naspa_lines(games) == ["1 EWING J R/-20: L2-390", "2 SMITH SARAH/20: W1-410"]
    assert tsh_lines(games) == ["Ewing, J. R. 0 2; 390", "Smith, Sarah 0 1; 410"]


def test_tsh_writes_who_went_first_when_every_game_says() -> None:
    # one .t writer for table logs and the event's ledger: p12 as the ledger writes it
    # (1 went first, 2 second, 0 no opponent); a game that does not say leaves it out
    games = [
        GameResult(1, ("Ben Ray", "Ann Lee"), (350, 400), 1, "out", 50, first=1),
        GameResult(2, ("Ann Lee", "Cyd Oh"), (0, 0), 0, "forfeit", 50, first=0),
        GameResult(2, ("Ben Ray", ""), (0, 0), 0, "bye", 50),
        GameResult(1, ("Cyd Oh", ""), (0, 0), 0, "bye", 50),
    ]
    assert tsh_lines(games) == [
        "Lee, Ann 0 2 0; 400 50; p12 1 0",
        "Ray, Ben 0 1 0; 350 50; p12 2 0",
        "Oh, Cyd 0 0 0; 50 -50; p12 0 0",
    ]
    assert tsh_lines([replace(games[0], first=None)]) == ["Lee, Ann 0 2; 400", "Ray, Ben 0 1; 350"]


def test_a_missing_round_or_a_double_booking_is_refused() -> None:
    with pytest.raises(ResultsError, match=r"Sarah Smith has no game in round\(s\) \[3\]"):
        naspa_lines([g for g in DIV_A if g.players[0] != "Wilma Flintstone" or g.round != 3])
    twice = GameResult(1, ("Sarah Smith", "Terry Tiles"), (400, 300), 0, "out", 100, "A")
    with pytest.raises(ResultsError, match="two games in round 1"):
        tsh_lines([*DIV_A, twice])


def _finished(*events: Event) -> GameResult:
    state, rejected = replay(list(enumerate(events, start=1)))
    assert not rejected
    return game_result(state)


def test_game_result_of_engine_games_forfeit_and_bye() -> None:
    start = GameStarted(t=0, variant="nzasp", players=("Ann Lee", "Ben Ray"), round=2)
    forfeit = _finished(start, Forfeited(t=5, player=1, reason="absent"))
    assert forfeit == GameResult(2, ("Ann Lee", "Ben Ray"), (0, 0), 0, "forfeit", 50)
    bye = _finished(
        GameStarted(t=0, variant="nzasp", players=("Cyd Fox", "no opponent"), round=1),
        Bye(t=5, player=0),
    )
    assert bye == GameResult(1, ("Cyd Fox", ""), (0, 0), 0, "bye", 50)
    unnumbered = GameStarted(t=0, variant="nzasp", players=("A", "B"))
    over, _ = replay([(1, unnumbered), (2, Forfeited(t=5, player=0))])
    with pytest.raises(ResultsError, match="no round"):
        game_result(over)
    assert game_result(over, 4).round == 4
    with pytest.raises(ResultsError, match="not over"):
        game_result(replay([(1, unnumbered)])[0], 1)
