"""The same events replayed under different variants: every documented difference.

Each test builds one event sequence with :mod:`engine.events`, replays it under
two or more variants (only ``game_started.variant`` changes) and checks the
outcome the rules give (tests/scenarios/README.md: expected values come from
the rules, worked out by hand in the comments).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import pytest

from engine.errors import Refusal
from engine.events import (
    Accepted,
    Adjudicated,
    Challenged,
    ClockPressed,
    ClockRestarted,
    Event,
    Exchanged,
    Forfeited,
    GameStarted,
    ScoreRecorded,
    TilesDrawn,
    TilesPlaced,
    TimeChecked,
)
from engine.rules.machine import apply
from engine.rules.replay import report
from engine.rules.state import GameState, Phase

Mode = Literal["board", "scoresheet"]
PLAYERS = ("Ann", "Ben")


def started(variant: str, mode: Mode | None = None) -> GameState:
    """A game under ``variant`` at t=0, Ann (player 0) to play first."""
    return apply(GameState(), GameStarted(t=0, variant=variant, players=PLAYERS, mode=mode))


def run(variant: str, events: Sequence[Event], mode: Mode | None = None) -> GameState:
    """Replay ``events`` after the start; any refusal fails the test."""
    state = started(variant, mode)
    for event in events:
        state = apply(state, event)
    return state


def refused(state: GameState, event: Event) -> Refusal:
    """The refusal ``event`` meets in ``state``."""
    with pytest.raises(Refusal) as info:
        apply(state, event)
    return info.value


# Ann: 8D WINDY = (W 4 x 2 on D8 + I 1 + N 1 + D 2 + Y 4) x 2 on H8 = 32, pressed at 31.5 s.
# Ben: 7C GALE = GALE (G 2 x 2 on C7 + 1 + 1 + 1 = 7) + AW 5 + LI 2 + EN 2 = 16, pressed at 41 s.
OPENING: tuple[Event, ...] = (
    TilesPlaced(t=31000, player=0, move="8D WINDY", score=32),
    ClockPressed(t=31500, player=0),
    ScoreRecorded(t=32500, player=0),
    TilesDrawn(t=33000, player=0, count=5),
    TilesPlaced(t=40000, player=1, move="7C GALE", score=16),
    ClockPressed(t=41000, player=1),
)

# Board plays with 1-point letters; every 7-tile play has the 50 bingo bonus.
# Play k is made by player (k-1) % 2, pressed at 10 s x k, and its tiles are replaced.
DRAIN: tuple[tuple[str, int], ...] = (
    ("H2 RESALES", 7),
    ("2A STRAINE.", 7),
    ("3H .LATIONS", 7),
    ("4A ORATION.", 7),
    ("5H .LTRUIST", 7),
    ("6A TUTORIA.", 7),
    ("7H .NTRAILS", 7),
    ("8A SENATOR.", 7),
    ("O7 .TRAINER", 7),
    ("12H NOTATIO.", 7),
)


def drain(plays: Sequence[tuple[str, int]]) -> list[Event]:
    """Place, press and draw for each play, alternating from Ann, 10 s per turn."""
    events: list[Event] = []
    for k, (move, tiles) in enumerate(plays, start=1):
        player = (k - 1) % 2
        events += [
            TilesPlaced(t=10000 * k - 1000, player=player, move=move),
            ClockPressed(t=10000 * k, player=player),
            TilesDrawn(t=10000 * k + 500, player=player, count=tiles),
        ]
    return events


# --- challenges ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "scores", "turn", "rule"),
    [
        # NZASP 6.17: 5 x 2 words to Ben; Ann keeps the turn.
        ("nzasp", (32, 26), 0, "NZASP 6.17"),
        # NASPA CSW divisions: the same 5 per word.
        ("naspa-csw", (32, 26), 0, "NASPA CSW"),
        # NASPA double challenge: Ann, the challenger, loses the turn; no points.
        ("naspa", (32, 16), 1, "NASPA double challenge"),
    ],
)
def test_unsuccessful_two_word_challenge(
    variant: str, scores: tuple[int, int], turn: int, rule: str
) -> None:
    events = [
        *OPENING,
        Challenged(t=42000, player=0, words=("GALE", "AW")),
        Adjudicated(t=52000, acceptable=True),
    ]
    state = run(variant, events)
    assert state.phase is Phase.PLAYING
    assert state.scores == scores
    assert state.turn == turn
    assert state.clock.running == turn
    assert state.clock.neutral is None
    # Ann used 31.5 s + 1 s before the challenge; Ben 9.5 s: the challenge time is nobody's.
    assert state.clock.remaining(0, 52000) == 1467500
    assert state.clock.remaining(1, 52000) == 1490500
    assert any(rule in r.rule for r in state.rulings)


def test_the_lost_turn_is_a_history_line_only_under_double_challenge() -> None:
    events = [
        *OPENING,
        Challenged(t=42000, player=0, words=("GALE", "AW")),
        Adjudicated(t=52000, acceptable=True),
    ]
    naspa = run("naspa", events)
    csw = run("naspa-csw", events)
    assert (naspa.history[-1].player, naspa.history[-1].kind) == (0, "lost_turn")
    assert (csw.history[-1].player, csw.history[-1].kind, csw.history[-1].score) == (1, "bonus", 10)


@pytest.mark.parametrize(
    ("variant", "mode", "rule"),
    [
        ("naspa", None, "NASPA IV.I.1"),
        ("nzasp", None, "NZASP 6.12.1.3"),
        ("toronto-speed", "board", None),
    ],
)
def test_challenge_after_the_draw(variant: str, mode: Mode | None, rule: str | None) -> None:
    """NASPA/NZASP: the draw accepts the play. TOR-6: open until the challenger's turn ends."""
    state = run(variant, OPENING[:4], mode)
    challenge = Challenged(t=35000, player=1, words=("WINDY",))
    if rule is not None:
        assert rule in refused(state, challenge).rule
        return
    after = apply(state, challenge)
    assert after.phase is Phase.CHALLENGE
    assert after.clock.running is None
    # Ann pressed at 31.5 s; Ben's clock ran 3.5 s before the challenge.
    assert after.clock.remaining(1, 35000) == 180000 - 3500


# --- exchange -------------------------------------------------------------------


@pytest.mark.parametrize("bag", [10, 9, 8])
@pytest.mark.parametrize(("variant", "allowed"), [("nzasp", True), ("indonesia-open", False)])
def test_exchange_with_8_to_10_in_the_bag(variant: str, allowed: bool, bag: int) -> None:
    """NZASP 6.7: 7 in the bag suffice. IDN Play-7: no exchange with 10 or fewer."""
    # Ten 7-tile plays leave 86 - 70 = 16; then 6 tiles (bag 10), 7 (bag 9),
    # or 7 and a 1-tile play (bag 8).
    plays = list(DRAIN)
    if bag == 10:
        plays.append(("14I ETAINE.", 6))
    else:
        plays.append(("14H RETAINE.", 7))
    if bag == 8:
        plays.append(("A8 .E", 1))
    state = run(variant, drain(plays))
    assert state.bag == bag
    player = len(plays) % 2
    exchange = Exchanged(t=10000 * len(plays) + 5000, player=player, count=7)
    if allowed:
        after = apply(state, exchange)
        assert after.turn == 1 - player
        assert after.bag == bag
        assert after.history[-1].kind == "exchange"
    else:
        assert "IDN Play-7" in refused(state, exchange).rule


# --- time -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "initial_ms", "points"),
    [
        ("nzasp", 1500000, 20),  # NZASP 8.4: 10 per minute or part: 1:01 is 2 minutes
        ("naspa", 1500000, 20),  # NASPA: -1:01 costs 20
        ("toronto-speed", 180000, 61),  # TOR-7: 1 point per second
    ],
)
def test_the_same_61_s_of_overtime(variant: str, initial_ms: int, points: int) -> None:
    state = started(variant)
    at = initial_ms + 61000
    clock = report(state, at)["clocks"][0]
    assert clock["remaining_ms"] == -61000
    assert clock["overtime_ms"] == 61000
    assert clock["penalty"] == points


def test_toronto_61_s_is_also_the_cutoff() -> None:
    """TOR-8: at -1:01 no more plays; Ben is not behind (0-0), so the game ends (TOR-9)."""
    state = run("toronto-speed", [TimeChecked(t=180000 + 61000)])
    assert state.phase is Phase.END_RACKS
    assert state.locked[0]
    for variant in ("naspa", "nzasp"):
        other = run(variant, [TimeChecked(t=1500000 + 61000)])
        assert other.phase is Phase.PLAYING
        assert not other.locked[0]


@pytest.mark.parametrize(("variant", "ends"), [("naspa", True), ("wespa", True), ("nzasp", False)])
def test_minus_ten_minutes(variant: str, ends: bool) -> None:
    """NASPA/WESPA: the game ends at -10:00, no rack deductions, penalty 100. NZASP: no cutoff."""
    cutoff = 1500000 + 600000
    state = run(variant, [TimeChecked(t=cutoff)])
    if ends:
        assert state.phase is Phase.OVER
        assert state.result is not None
        assert state.result.reason == "cutoff"
        assert state.result.penalties == (100, 0)
        assert state.result.rack_adjustments == (0, 0)
        assert state.result.scores == (-100, 0)
        assert state.result.winner == 1
    else:
        assert state.phase is Phase.PLAYING
        assert state.clock.running == 0
        # Ten more minutes: still no cutoff; the preview keeps growing (20 minutes = 200).
        later = apply(state, TimeChecked(t=cutoff + 600000))
        assert later.phase is Phase.PLAYING
        assert report(later)["clocks"][0]["penalty"] == 200


# --- out-play -----------------------------------------------------------------------


def out_play_events() -> list[Event]:
    """Eleven 7-tile plays (bag 9), Ben SEAT (3, bag 6), Ann NOTATION (7, draws the last 6),
    then Ben plays his 7 tiles out at 140 s."""
    # The second number is the replacement draw: Ann's 7-tile NOTATION draws the last 6.
    plays = [*DRAIN, ("14H RETAINE.", 7), ("A8 .EAT", 3), ("C8 .OTATION", 6)]
    events = drain(plays)
    events += [
        TilesPlaced(t=139000, player=1, move="E8 .UTORIAL"),
        ClockPressed(t=140000, player=1),
    ]
    return events


def test_nzasp_out_play_restart_after_five_seconds() -> None:
    """NZASP 8.2, 8.2.1: the clock is neutralized; after about 5 s unanswered the player may
    restart the opponent's clock."""
    state = run("nzasp", out_play_events())
    assert state.bag == 0
    assert state.phase is Phase.OUT_PLAY
    assert state.clock.running is None
    assert state.clock.neutral is not None
    assert "NZASP 8.2.1" in refused(state, ClockRestarted(t=144999, player=1)).rule
    after = apply(state, ClockRestarted(t=145000, player=1))
    assert after.clock.running == 0
    # Ann used 7 x 10 s; her clock runs again from 145 s.
    assert after.clock.remaining(0, 155000) == 1500000 - 70000 - 10000


def test_naspa_out_play_neutralized_without_restart() -> None:
    """NASPA V.E (assumed): neutralized, but no restart right."""
    state = run("naspa", out_play_events())
    assert state.phase is Phase.OUT_PLAY
    assert state.clock.running is None
    assert state.clock.neutral is not None
    assert "NASPA V.E" in refused(state, ClockRestarted(t=150000, player=1)).rule
    over = apply(state, Accepted(t=150000, player=0))
    assert over.phase is Phase.END_RACKS
    assert over.clock.remaining(0, 150000) == 1430000


# --- forfeits -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "spread"),
    [
        ("wespa", 75),  # WESPA 2.3.3-2.3.6 (summary): +75
        ("indonesia-open", 150),  # IDN Gen: a win by lateness is +150
        ("nzasp", 50),  # NZASP 4.1: a forfeit, +50 (10.2)
    ],
)
def test_lateness_forfeit_spread(variant: str, spread: int) -> None:
    state = run(variant, [Forfeited(t=900000, player=1, reason="late", lateness=True)])
    assert state.phase is Phase.OVER
    assert state.result is not None
    assert state.result.winner == 0
    assert state.result.reason == "lateness"
    assert state.result.spread == spread
