"""Standings while a round is played (``engine.tournament.live``): a game over counts
by its table's ruling (winner and spread), signed or not; a game in play at its
scores now. An unsigned resignation by the player ahead is his loss at once."""

from __future__ import annotations

from engine.events import ClockPressed, Event, GameStarted, Resigned, TilesPlaced
from engine.rules.game_report import LiveReport
from engine.rules.replay import replay as replay_game
from engine.rules.replay import report
from engine.tournament.assignment import Assignment
from engine.tournament.live import TableGame, assigned_game, round_standings, standings_label
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Created, Paired, Result
from engine.tournament.state import replay

KOTH = """
name = "Club night"
[[division]]
name = "A"
rounds = 2
plan = [{ rounds = "1-2", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
]
"""


def table_game(events: list[Event]) -> TableGame:
    """The game as its table reports it (the report the broker and the console carry)."""
    state, refused = replay_game(list(enumerate(events, start=1)))
    assert not refused, refused
    got = TableGame.of(report(state, live=True))
    assert got is not None
    return got


def test_an_unsigned_resignation_counts_as_ruled_and_a_game_in_play_as_it_stands() -> None:
    event = replay([Created(KOTH)])
    event.apply(draw(event.division("A"), 1))
    div = event.division("A")
    assert div.pairings[1].pairs == ((1, 2), (3, 4))
    opening: list[Event] = [
        TilesPlaced(t=1_000, player=0, move="8D WINDY"),
        ClockPressed(t=1_500, player=0),
    ]
    # t1: Ben Baker, ahead 32-0 and in the second seat of the pairing, resigns; not signed
    resigned = table_game(
        [
            GameStarted(t=0, variant="naspa", players=("Ben Baker", "Ann Able"), round=1),
            *opening,
            Resigned(t=3_000, player=0),
        ]
    )
    assert resigned.over
    assert resigned.signed == (False, False)
    assert resigned.scores == (32, 0)
    # t2: Dee Dunn leads Cid Cole 32-0, still playing
    playing = table_game(
        [
            GameStarted(t=0, variant="naspa", players=("Dee Dunn", "Cid Cole"), round=1),
            *opening,
        ]
    )
    assert not playing.over
    games = {frozenset(g.players): g for g in (resigned, playing)}
    now = round_standings(div, lambda _rnd, p: games.get(frozenset(map(div.name, p))))
    assert (now.complete, now.label) == (0, "before round 1")
    assert now.in_play is not None
    assert (now.in_play.round, now.in_play.results, now.in_play.games) == (1, 0, 2)
    assert now.in_play.standings is not None
    assert all(r.wins == 0 and r.spread == 0 for r in now.standings)  # no round complete
    got = {div.name(r.seed): (r.wins, r.losses, r.spread) for r in now.in_play.standings}
    assert got == {
        # by the table's ruling: the resigner loses by the forfeit spread (NZASP 10.2)
        "Ann Able": (1, 0, 50),
        "Ben Baker": (0, 1, -50),
        # in play: at the scores it has now
        "Dee Dunn": (1, 0, 32),
        "Cid Cole": (0, 1, -32),
    }


EVE = '  { name = "Eve Eng", rating = 1400 },\n'
FIVE = KOTH.removesuffix("]\n") + EVE + "]\n"


def test_after_round_n_is_the_complete_rounds_and_a_bye_is_no_result_to_wait_for() -> None:
    event = replay(
        [
            Created(FIVE),
            Paired("A", 1, ((1, 2), (3, 4), (5, 0))),
            Result("A", 1, 1, 2, (400, 300)),
            Result("A", 1, 3, 4, (350, 340)),
            Paired("A", 2, ((1, 3), (2, 5), (4, 0))),
            Result("A", 2, 1, 3, (420, 300)),
        ]
    )
    div = event.division("A")
    now = round_standings(div)  # the CLI's: no tables
    assert (now.complete, now.label) == (1, "after round 1")
    assert now.standings == div.standings(1)  # round 2's result in is not counted
    assert now.in_play is not None
    assert now.in_play.text == "round 2 in play: 1 of 2 results in"  # the bye is no game
    assert now.in_play.standings is None
    assert standings_label(div, 1) == "after round 1"
    assert standings_label(div, 2) == (
        "through round 2, the results in so far (round 2 in play: 1 of 2 results in)"
    )
    # the console's and the page's: the same block, and the round in play apart
    live = round_standings(div, lambda _rnd, _pair: None)
    assert (live.complete, live.standings) == (1, now.standings)
    assert live.in_play is not None
    assert live.in_play.standings == div.standings(2)
    event.apply(Result("A", 2, 2, 5, (300, 310)))
    done = round_standings(div)
    assert (done.label, done.in_play) == ("after round 2", None)


def test_a_table_shows_its_assigned_game_only() -> None:
    """Live standings find a game by its table and assignment: a report naming other
    players, or another round or division, is not that table's assigned game."""
    at = Assignment(table=1, division="A", round=2, players=("Ann", "Ben"), variant="naspa")
    mine = LiveReport(players=("Ben", "Ann"), scores=(30, 12), round=2, division="A")
    game = assigned_game(mine, at)
    assert game is not None
    assert (game.players, game.scores) == (("Ben", "Ann"), (30, 12))
    assert assigned_game(LiveReport(players=("Ben", "Ann")), at) is not None  # says no round
    for other in (
        LiveReport(players=("Cyd", "Dee")),
        LiveReport(players=("Ann", "Ann")),
        LiveReport(players=("Ann", "Ben"), round=1),
        LiveReport(players=("Ann", "Ben"), division="B"),
    ):
        assert assigned_game(other, at) is None
