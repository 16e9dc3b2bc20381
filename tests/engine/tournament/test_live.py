"""Standings while a round is played (``engine.tournament.live``): a game over counts
by its table's ruling (winner and spread), signed or not; a game in play at its
scores now. An unsigned resignation by the player ahead is his loss at once."""

from __future__ import annotations

from engine.events import ClockPressed, Event, GameStarted, Resigned, TilesPlaced
from engine.rules.replay import replay as replay_game
from engine.rules.replay import report
from engine.tournament.live import TableGame, standings_now
from engine.tournament.pairing.draw import draw
from engine.tournament.records import Created
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
    rnd, rows, provisional = standings_now(div, lambda a, b: games.get(frozenset((a, b))))
    assert (rnd, provisional) == (1, True)
    got = {div.name(r.seed): (r.wins, r.losses, r.spread) for r in rows}
    assert got == {
        # by the table's ruling: the resigner loses by the forfeit spread (NZASP 10.2)
        "Ann Able": (1, 0, 50),
        "Ben Baker": (0, 1, -50),
        # in play: at the scores it has now
        "Dee Dunn": (1, 0, 32),
        "Cid Cole": (0, 1, -32),
    }
