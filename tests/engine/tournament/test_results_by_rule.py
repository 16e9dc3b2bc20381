"""Results the rules decide, not the scores: resignations and forfeits (who won is
the record's, NZASP 10.2-10.3), withdrawals (only from a round not yet played), the
bye in rounds paired on standings (the manual, "Odd Number of Players"), and how
tsh and NASPA files write them (golden lines)."""

from __future__ import annotations

import msgspec
import pytest

from engine.events import (
    ClockPressed,
    Event,
    Forfeited,
    GameStarted,
    Passed,
    Resigned,
    TilesPlaced,
)
from engine.exports.results import game_result
from engine.rules.replay import replay as replay_game
from engine.tournament.errors import EventFileError, ResultError, TournamentError
from engine.tournament.intake import result_of_game
from engine.tournament.naspa import event_naspa_lines
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Created, Paired, Record, Result, Withdrew, decode_record
from engine.tournament.report import standings_lines
from engine.tournament.state import EventState, replay
from engine.tournament.tsh import division_lines, event_t_files, parse_t, records_from_t
from engine.tournament.typed_result import typed_result

KOTH = """
name = "Club night"
[[division]]
name = "A"
rounds = 3
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Ann Able", rating = 1800 },
  { name = "Ben Baker", rating = 1700 },
  { name = "Cid Cole", rating = 1600 },
  { name = "Dee Dunn", rating = 1500 },
]
"""
"""KOTH pairs 1-2 and 3-4 in round 1."""


def koth(*records: Record) -> EventState:
    return replay([Created(KOTH), Paired("A", 1, ((1, 2), (3, 4)), "koth"), *records])


def forfeit(first: int, second: int, scores: tuple[int, int], loser: int) -> Result:
    winner = second if loser == first else first
    return Result(
        "A", 1, first, second, scores, "forfeit", winner=winner, spread=50, cause="director"
    )


def test_a_forfeit_is_won_by_the_record_whatever_the_scores() -> None:
    # Ben Baker forfeits though ahead 400-300 (the scores typed): Ann Able wins by 50
    # (NZASP 10.2-10.3)
    state = koth(forfeit(1, 2, (300, 400), loser=2), Result("A", 1, 3, 4, (350, 340)))
    div = state.division("A")
    rows = {r.seed: (r.wins, r.losses, r.spread) for r in div.standings(1)}
    assert rows[1] == (1, 0, 50)
    assert rows[2] == (0, 1, -50)
    res = div.results[1][(1, 2)]
    assert (res.winner, res.loser, res.won(2), res.margin(2)) == (1, 2, 0.0, -50)
    assert div.ruling(res) == "Ben Baker forfeits: Ann Able wins, spread 50"
    lines = standings_lines(div, div.standings(1), 1)
    assert lines[1].split() == [
        "1",
        "1-0",
        "+50",
        "Ann",
        "Able",
        "(round",
        "1:",
        "won",
        "by",
        "forfeit)",
    ]
    assert lines[4].endswith("Ben Baker  (round 1: lost by forfeit)")
    assert not any("forfeit" in line for line in standings_lines(div, div.standings(0), 0))


def test_a_resignation_at_0_0_is_a_loss_and_one_when_ahead_too() -> None:
    state = koth()
    div = state.division("A")
    # round 1 table 2: Cid Cole v Dee Dunn at 0-0, Dee Dunn (not on turn) resigns
    zero: list[Event] = [
        GameStarted(t=0, variant="naspa", players=("Cid Cole", "Dee Dunn"), round=1),
        Passed(t=1_000, player=0),
        Passed(t=2_000, player=1),
        Resigned(t=3_000, player=1),
    ]
    # table 1: Ben Baker ahead 32-0 resigns (the case: the event recorded the
    # resigner as the winner, by the scores)
    ahead: list[Event] = [
        GameStarted(t=0, variant="naspa", players=("Ben Baker", "Ann Able"), round=1),
        TilesPlaced(t=1_000, player=0, move="8D WINDY"),
        ClockPressed(t=1_500, player=0),
        Resigned(t=3_000, player=0),
    ]
    results = []
    for events in (zero, ahead):
        game, refused = replay_game(list(enumerate(events, start=1)))
        assert not refused, refused
        results.append(result_of_game(div, game_result(game), "log"))
    at_zero, leading = results
    assert (at_zero.first, at_zero.second, at_zero.scores) == (3, 4, (0, 0))
    assert (at_zero.kind, at_zero.winner, at_zero.spread, at_zero.cause) == (
        "forfeit",
        3,
        50,
        "resigned",
    )
    assert (leading.first, leading.second, leading.scores) == (1, 2, (0, 32))
    assert (leading.winner, leading.loser) == (1, 2)
    for res in results:
        state.apply(res)
    rows = {r.seed: (r.wins, r.spread) for r in div.standings(1)}
    assert rows == {1: (1, 50), 2: (0, -50), 3: (1, 50), 4: (0, -50)}
    assert div.ruling(leading) == "Ben Baker resigned: Ann Able wins, spread 50"


def test_neither_player_came_is_a_loss_for_both() -> None:
    state = koth()
    div = state.division("A")
    events: list[Event] = [
        GameStarted(t=0, variant="naspa", players=("Cid Cole", "Dee Dunn"), round=1),
        Forfeited(t=1_000, player=0, both=True),
    ]
    game, refused = replay_game(list(enumerate(events, start=1)))
    assert not refused, refused
    res = result_of_game(div, game_result(game), "log")
    assert (res.kind, res.winner, res.scores, res.cause) == ("absent", None, (0, 0), "absent")
    state.apply(res)
    state.apply(Result("A", 1, 1, 2, (400, 300)))
    rows = {r.seed: (r.wins, r.losses, r.spread) for r in div.standings(1)}
    assert rows[3] == rows[4] == (0, 1, 0)
    assert div.ruling(res) == "neither player came: both lose"
    assert event_naspa_lines(state)[2:] == ["3 COLE CID/0: B", "4 DUNN DEE/0: B"]


def test_a_forfeit_logged_before_results_named_the_winner_reads_as_then() -> None:
    old = (
        b'{"type":"result","division":"A","round":1,"first":1,"second":2,'
        b'"scores":[50,0],"kind":"forfeit"}'
    )
    res = decode_record(old)
    assert isinstance(res, Result)
    assert (res.winner, res.spread, res.won(1), res.margin(2)) == (None, None, 1.0, -50)
    state = koth(res)
    assert state.division("A").ruling(res) == "forfeit"
    assert msgspec.json.decode(msgspec.json.encode(res))["kind"] == "forfeit"


def test_a_winner_by_rule_is_one_of_the_two_players_of_a_forfeit() -> None:
    bad = [
        Result("A", 1, 1, 2, (300, 400), "forfeit", winner=3),
        Result("A", 1, 1, 2, (300, 400), "game", winner=1),
        Result("A", 1, 1, 2, (300, 400), "forfeit", winner=1, spread=-50),
    ]
    for res in bad:
        state = koth()
        with pytest.raises(ResultError, match="round 1: a"):
            state.apply(res)
        assert not state.division("A").results


def test_a_withdrawal_only_from_a_round_without_a_result() -> None:
    state = koth(Result("A", 1, 1, 2, (400, 300)), Result("A", 1, 3, 4, (350, 340)))
    with pytest.raises(TournamentError, match=r"Dee Dunn has a result in round 1: .* from round 2"):
        state.apply(Withdrew("A", 4, 1))
    with pytest.raises(TournamentError, match="round 4: the division has rounds 1-3"):
        state.apply(Withdrew("A", 4, 4))
    state.apply(Withdrew("A", 4, 2))
    div = state.division("A")
    assert div.left == {4: 2}
    paired = draw(div, 2)
    assert 4 not in {s for pair in paired.pairs for s in pair}
    state.apply(paired)
    # the games played stay in the standings
    row = next(r for r in div.standings(2) if r.seed == 4)
    assert (row.games, row.wins, row.spread) == (1, 0, -10)


def test_in_a_round_paired_on_standings_the_last_placed_has_the_bye() -> None:
    # Dee Dunn, the lowest rated, leads after round 1; Ben Baker withdraws: three to pair in
    # KOTH round 2. The bye goes to last place (Cid Cole), not to the lowest rated.
    state = koth(
        Result("A", 1, 1, 2, (400, 380)),
        Result("A", 1, 3, 4, (300, 500)),
        Withdrew("A", 2, 2),
    )
    paired = draw(state.division("A"), 2)
    assert (3, 0) in paired.pairs
    assert {1, 4} in [set(p) for p in paired.pairs]


def test_tsh_and_naspa_lines_of_a_forfeit_and_a_withdrawal() -> None:
    state = koth(forfeit(1, 2, (300, 400), loser=2), Result("A", 1, 3, 4, (350, 340)))
    state.apply(Withdrew("A", 4, 2))
    div = state.division("A")
    state.apply(draw(div, 2))
    assert div.pairings[2].pairs == ((2, 0), (1, 3))
    state.apply(Result("A", 2, 1, 3, (410, 390)))
    # tsh: the forfeit is opponent 0 with the spread (the manual: "typically +50 or
    # -50"); the withdrawn player is tsh's inactive one (off 0: opponent 0, score 0)
    assert division_lines(div) == [
        "Able, Ann 1800 0 3; 50 410; p12 0 1",
        "Baker, Ben 1700 0 0; -50 50; p12 0 0",
        "Cole, Cid 1600 4 1; 350 390; p12 1 2",
        "Dunn, Dee 1500 3 0; 340 0; p12 2 0; off 0",
    ]
    # NASPA: forfeits and byes are B with their spread in the total; the withdrawn
    # player's line ends with the games played
    notes: list[str] = []
    assert event_naspa_lines(state, notes) == [
        "1 ABLE ANN/70: B W3-410",
        "2 BAKER BEN/0: B B",
        "3 COLE CID/-10: W4-350 L1-390",
        "4 DUNN DEE/-10: L3-340",
    ]
    assert "round 1: Ben Baker: a forfeit, written as B (unrated), spread -50 in the total" in notes


def test_a_withdrawal_goes_through_tsh_and_back() -> None:
    state = koth(Result("A", 1, 1, 2, (400, 300)), Result("A", 1, 3, 4, (350, 340)))
    state.apply(Withdrew("A", 4, 2))
    div = state.division("A")
    state.apply(draw(div, 2))
    t = parse_t("\n".join(division_lines(div)), "a.t")
    assert t.off == [False, False, False, True]
    back = replay([Created(KOTH), *records_from_t(t, "A")])
    bdiv = back.division("A")
    assert bdiv.left == {4: 2}
    assert set(bdiv.pairings[2].pairs) == set(div.pairings[2].pairs)  # in tsh's line order
    assert division_lines(bdiv) == division_lines(div)


def test_a_typed_forfeit_is_the_record_event_result_forfeit_appends() -> None:
    # the names typed in either order: the record is in the pairing's order, and the
    # player who forfeits loses by the variant's spread whatever the scores typed
    state = koth()
    div = state.division("A")
    res = typed_result(div, 1, ("Ben Baker", 400), ("Ann Able", 300), forfeit="Ben Baker")
    assert res == forfeit(1, 2, (300, 400), loser=2)
    plain = typed_result(div, 1, ("Dee Dunn", 340), ("Cid Cole", 350), reason="typo")
    assert (plain.first, plain.second, plain.scores, plain.reason) == (3, 4, (350, 340), "typo")
    with pytest.raises(ResultError, match="--forfeit 'Cid Cole': name the player who forfeits"):
        typed_result(div, 1, ("Ann Able", 300), ("Ben Baker", 400), forfeit="Cid Cole")


def test_the_event_t_files_carry_the_comment_and_refuse_two_divisions_in_one_file() -> None:
    state = koth(Result("A", 1, 1, 2, (400, 300)), Result("A", 1, 3, 4, (350, 340)))
    files = event_t_files(state, "rackclock event ledger anchor 3:0123456789abcdef")
    assert list(files) == ["a.t"]
    assert files["a.t"] == [
        "# rackclock event ledger anchor 3:0123456789abcdef",
        *division_lines(state.division("A")),
    ]
    division = KOTH.split("[[division]]")[1]
    two = "\n".join(
        [
            'name = "Two opens"',
            "[[division]]" + division.replace('name = "A"', 'name = "Open 2"'),
            "[[division]]" + division.replace('name = "A"', 'name = "open-2"'),
        ]
    )
    with pytest.raises(EventFileError, match=r"'Open 2' and 'open-2' would share open-2\.t"):
        event_t_files(replay([Created(two)]))
