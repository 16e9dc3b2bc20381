"""The table terminal's command line: ``terminal_ui.table.commands.interpret``.

Pure tests: every state is built by replaying events through the engine, and
every command and every error message of the command line is checked.
"""

from __future__ import annotations

import pytest

from engine.events import (
    Accepted,
    Adjudicated,
    BlankDemanded,
    BlankDesignated,
    Challenged,
    ClockPressed,
    ClockRestarted,
    EndRacks,
    Event,
    Exchanged,
    GameStarted,
    HoldCalled,
    HoldReleased,
    Neutralized,
    Passed,
    Resigned,
    Resumed,
    ScoreDisputed,
    ScoreResolved,
    TilesDrawn,
    TilesPlaced,
)
from engine.rules.machine import apply
from engine.rules.replay import replay
from engine.rules.state import GameState, Phase
from terminal_ui.table.commands import HELP, CommandError, Preview, interpret

START = GameStarted(variant="nzasp", players=("Ann", "Ben"))
WINDY = (TilesPlaced(player=0, move="8D WINDY"), ClockPressed(player=0))
"""Ann plays 8D WINDY (32) and presses: Ben to play, Ann owes 5 tiles."""


def game(*events: Event, start: GameStarted = START) -> GameState:
    """The state after ``start`` and ``events``; every event must be accepted."""
    state, rejected = replay(enumerate((start, *events), start=1))
    assert not rejected, rejected
    return state


def refused(text: str, state: GameState) -> str:
    """The message of the CommandError that ``text`` raises in ``state``."""
    with pytest.raises(CommandError) as info:
        interpret(text, state)
    return str(info.value)


# --- errors common to every command ------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_line_says_what_to_type(text: str) -> None:
    assert refused(text, game()) == (
        "type a play (e.g. 8D WINDY) or a command (pass, hold, challenge...)"
    )


def test_nothing_before_the_game_starts() -> None:
    assert refused("pass", GameState()) == "the game has not started: a clock key starts it"
    assert refused("8D WINDY", GameState()) == "the game has not started: a clock key starts it"
    assert interpret("help", GameState()) is HELP  # help is there before the game too
    assert interpret("?", game()) is HELP


@pytest.mark.parametrize("text", ["zz", "8D", "hello there you all", "?? windy"])
def test_unknown_text(text: str) -> None:
    # what was wrong, what is expected, an example, and where the whole list is
    assert refused(text, game()) == (
        f"not a play or command: {text!r}. A play is a square and tiles (e.g. 8D WINDY); "
        "commands are e.g. pass, hold, challenge, draw 5 (F12 or ? lists them all)"
    )


# --- plays ---------------------------------------------------------------------------------


def test_play_preview_has_the_computed_score() -> None:
    result = interpret("8d windy", game())
    assert isinstance(result, Preview)
    assert result.event == TilesPlaced(player=0, move="8D WINDY", score=32)
    assert result.placement.words == ("WINDY",)
    assert result.placement.word_scores == (32,)
    assert result.placement.score == 32


def test_play_down_the_board_and_for_the_player_on_turn() -> None:
    result = interpret("H8 windy", game())
    assert isinstance(result, Preview)
    assert result.event.move == "H8 WINDY"
    ben = interpret("7c gale", game(*WINDY))
    assert isinstance(ben, Preview)
    assert ben.event == TilesPlaced(player=1, move="7C GALE", score=16)
    assert ben.placement.words == ("GALE", "AW", "LI", "EN")


def test_play_with_a_declared_score() -> None:
    result = interpret("8D WINDY 30", game())
    assert isinstance(result, Preview)
    assert result.event.score == 30
    assert result.placement.score == 32


def test_play_with_an_unnamed_blank_scores_it_zero() -> None:
    result = interpret("8d win?y", game())
    assert isinstance(result, Preview)
    assert result.event.move == "8D WIN?Y"
    assert result.placement.score == 28


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1A WINDY", "first play '1A WINDY' must cover the centre square 8H"),
        ("8M WINDY", "play '8M WINDY' runs off the board"),
        ("8D W1NDY", "bad tile '1' in play 'W1NDY'"),
        ("8D WINDY abc", "the declared score must be a number, e.g. '8D WINDY 30', not 'abc'"),
    ],
)
def test_bad_plays(text: str, message: str) -> None:
    assert refused(text, game()) == message


def test_no_plays_in_scoresheet_mode() -> None:
    sheet = game(start=GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet"))
    assert refused("8D WINDY", sheet) == (
        "scoresheet mode has no board: type the play's first letter and score, e.g. Q24"
    )


# --- answering the last play -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("ok", Accepted(player=1)),
        ("accept", Accepted(player=1)),
        ("hold", HoldCalled(player=1)),
        ("demand", BlankDemanded(player=1)),
        ("dispute", ScoreDisputed(by=1)),
        ("challenge", Challenged(player=1)),
        ("ch windy", Challenged(player=1, words=("WINDY",))),
        ("challenge aw li", Challenged(player=1, words=("AW", "LI"))),
    ],
)
def test_the_opponent_answers_the_last_play(text: str, event: Event) -> None:
    assert interpret(text, game(*WINDY)) == event


def test_without_a_last_play_the_player_on_turn_answers() -> None:
    # The engine refuses these with its own reason; the command line only names the player.
    assert interpret("hold", game()) == HoldCalled(player=0)
    assert interpret("ok", game()) == Accepted(player=0)


def test_release_a_hold() -> None:
    held = game(*WINDY, HoldCalled(player=1))
    assert held.phase is Phase.HOLD
    assert interpret("release", held) == HoldReleased(player=1)


@pytest.mark.parametrize(
    ("text", "acceptable"),
    [("valid", True), ("acceptable", True), ("invalid", False), ("unacceptable", False)],
)
def test_verdicts(text: str, acceptable: bool) -> None:
    challenged = game(*WINDY, Challenged(player=1))
    assert interpret(text, challenged) == Adjudicated(acceptable=acceptable, by="adjudicator")
    assert interpret(text, challenged, by="judge") == Adjudicated(
        acceptable=acceptable, by="word judge"
    )


def test_settle_a_score_dispute() -> None:
    disputed = game(*WINDY, ScoreDisputed(by=1))
    assert disputed.phase is Phase.SCORE_DISPUTE
    assert interpret("dispute 30", disputed) == ScoreResolved(score=30, by="players")
    assert interpret("dispute 30", disputed, by="director") == ScoreResolved(
        score=30, by="director"
    )
    message = "settle the dispute with the agreed score, e.g. 'dispute 32'"
    assert refused("dispute", disputed) == message
    assert refused("dispute thirty", disputed) == message


# --- turns without a play, draws, blanks -----------------------------------------------------


@pytest.mark.parametrize("text", ["exchange 3", "x 3", "X 3"])
def test_exchange(text: str) -> None:
    assert interpret(text, game()) == Exchanged(player=0, count=3)
    assert interpret(text, game(*WINDY)) == Exchanged(player=1, count=3)


@pytest.mark.parametrize("text", ["x aei", "exchange AEI", "X Ae?"])
def test_an_exchange_may_name_the_tiles_put_back(text: str) -> None:
    named = text.split()[1].upper()
    assert interpret(text, game()) == Exchanged(player=0, count=3, tiles=named)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "an exchange needs a number, e.g. 'x 3'"),
        ("x 0", "an exchange needs a number, e.g. 'x 3'"),
        ("exchange three", "an exchange needs a number, e.g. 'exchange 3'"),
        ("exchange 3 4", "an exchange needs a number, e.g. 'exchange 3'"),
        ("x AE1", "an exchange names tiles (e.g. 'x AEI', ? a blank): 'AE1'"),
        ("draw", "a draw needs a number, e.g. 'draw 3'"),
        ("draw -1", "a draw needs a number, e.g. 'draw 3'"),
    ],
)
def test_counts_must_be_numbers(text: str, message: str) -> None:
    assert refused(text, game(*WINDY)) == message


def test_pass() -> None:
    assert interpret("pass", game()) == Passed(player=0)
    assert interpret("PASS", game(*WINDY)) == Passed(player=1)


def test_draw_is_by_the_player_who_owes_tiles() -> None:
    pressed = game(*WINDY)
    assert interpret("draw 5", pressed) == TilesDrawn(player=0, count=5)
    # Ben lays a play before Ann has drawn: the draw is still Ann's.
    composing = game(*WINDY, TilesPlaced(player=1, move="7C GALE"))
    assert interpret("draw 5", composing) == TilesDrawn(player=0, count=5)


def test_draw_before_the_press_is_the_composing_players_flash_draw() -> None:
    # At the first play there is no last play: the draw is the composer's.
    assert interpret("draw 5", game(TilesPlaced(player=0, move="8D WINDY"))) == TilesDrawn(
        player=0, count=5
    )
    # Later the last play (Ben's, fully drawn) is still there; Ann lays 9C AX and draws.
    state = game(
        *WINDY,
        TilesDrawn(player=0, count=5),
        TilesPlaced(player=1, move="7C GALE"),
        ClockPressed(player=1),
        TilesDrawn(player=1, count=4),
        TilesPlaced(player=0, move="9C AX"),
    )
    event = interpret("draw 2", state)
    assert event == TilesDrawn(player=0, count=2)
    # The engine takes it as Ann drawing without pressing, not as an overdraw by Ben:
    # the draw completes her turn (NZASP 6.3.7) and does not accept AX (6.5.1).
    after = apply(state, event)
    assert after.phase is Phase.PLAYING
    assert after.composing is None
    assert after.turn == 1
    assert after.last is not None
    assert (after.last.move, after.last.flash, after.last.window_open) == ("9C AX", True, True)


def test_draw_with_nothing_owed_or_laid() -> None:
    # After a pass there is no last play: the player on turn is named.
    assert interpret("draw 2", game(Passed(player=0))) == TilesDrawn(player=1, count=2)
    # Ann drew all 5 already: a further draw is hers (the engine rules it an overdraw).
    drawn = game(*WINDY, TilesDrawn(player=0, count=5))
    assert interpret("draw 1", drawn) == TilesDrawn(player=0, count=1)


def test_name_the_blank_of_the_play_on_the_board() -> None:
    composing = game(TilesPlaced(player=0, move="8D WIN?Y"))
    assert interpret("blank D", composing) == BlankDesignated(player=0, letters="d")


def test_name_the_blank_after_the_press() -> None:
    pressed = game(TilesPlaced(player=0, move="8D WIN?Y"), ClockPressed(player=0))
    assert pressed.last is not None
    assert pressed.last.unnamed == 1
    assert interpret("blank d", pressed) == BlankDesignated(player=0, letters="d")
    # Two blanks are named in order.
    assert interpret("blank ER", pressed) == BlankDesignated(player=0, letters="er")


@pytest.mark.parametrize("text", ["blank", "blank 1", "blank e f", "blank e?"])
def test_blank_needs_letters(text: str) -> None:
    assert refused(text, game()) == "name the blank(s) with letters, e.g. 'blank e'"


# --- the clock -----------------------------------------------------------------------------


@pytest.mark.parametrize("head", ["neutral", "neutralize"])
def test_neutralize_with_a_reason(head: str) -> None:
    assert interpret(f"{head} toilet  break", game()) == Neutralized(
        by="players", reason="toilet break"
    )
    assert interpret(f"{head} spill", game(), by="director") == Neutralized(
        by="director", reason="spill"
    )


@pytest.mark.parametrize("text", ["neutral", "neutralize   "])
def test_neutralize_needs_a_reason(text: str) -> None:
    assert refused(text, game()) == "say why, e.g. 'neutral score dispute'"


def test_resume() -> None:
    stopped = game(Neutralized(by="players", reason="spill"))
    assert interpret("resume", stopped) == Resumed(by="players")
    assert interpret("resume", stopped, by="director") == Resumed(by="director")


def test_restart_is_by_the_player_who_went_out() -> None:
    assert interpret("restart", game(*WINDY)) == ClockRestarted(player=0)
    assert interpret("restart", game()) == ClockRestarted(player=0)


# --- the end -------------------------------------------------------------------------------


def test_end_racks() -> None:
    over = game(*[Passed(player=i % 2) for i in range(6)])
    assert over.phase is Phase.END_RACKS
    assert interpret("racks aei -", over) == EndRacks(racks=("AEI", ""))
    assert interpret("racks - qz", over) == EndRacks(racks=("", "QZ"))


@pytest.mark.parametrize("text", ["racks", "racks AEI", "racks A B C"])
def test_end_racks_needs_both(text: str) -> None:
    assert refused(text, game()) == "give both racks, '-' for an empty one, e.g. 'racks AEI -'"


def test_resign_is_by_the_player_on_turn() -> None:
    assert interpret("resign", game()) == Resigned(player=0)
    assert interpret("resign", game(*WINDY)) == Resigned(player=1)


def test_either_player_resigns_by_naming_the_side() -> None:
    # the player not on turn may resign too: the side says who
    assert interpret("resign right", game()) == Resigned(player=1)
    assert interpret("RESIGN Left", game(*WINDY)) == Resigned(player=0)
    for bad in ("resign up", "resign left right"):
        assert refused(bad, game()) == (
            f"say who resigns: 'resign left' or 'resign right', not {bad!r}"
        )
