"""The table terminal (``rackclock table``) driven with Textual's Pilot, at 80x24.

Each test runs :class:`TableApp` with its in-process clock service and the
emulated clock on a :class:`FakeTimeline` (the clocks move only when a test
moves them), with the log in ``tmp_path``. Keys are pressed as players press
them; what the screen shows is read back as text. Waiting on the service is a
bounded loop of short pauses, never a fixed sleep.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Digits, SelectionList

from clock.log.eventlog import EventLog
from clock.timeline import FakeTimeline
from engine.events import Signed
from engine.play.lexicon import WordList
from engine.rules.state import Phase
from terminal_ui.shared.command_input import CommandInput
from terminal_ui.shared.theme import HIGH_CONTRAST
from terminal_ui.shared.widgets import BoardView, PlayerClock
from terminal_ui.table.app import TableApp
from terminal_ui.table.screens import AdjudicationScreen, ChallengeScreen, SummaryScreen
from tests.helpers import (
    command,
    config,
    game,
    logged,
    owed,
    play,
    rulings,
    screen_text,
    started,
    text_of,
    type_text,
    unnamed,
    until,
)

# --- plays and the clock --------------------------------------------------------------


async def test_live_validation_shows_the_score_before_the_press(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await type_text(pilot, "8d windy")
        assert "8D WINDY: WINDY 32 = 32 (Enter lays it, then press your clock)" in text_of(
            app, "#feedback"
        )
        assert "8D WINDY: WINDY 32 = 32" in screen_text(app)
        assert game(app).composing is None  # nothing is laid until Enter
        await type_text(pilot, "x")  # 8d windyx: another play, scored as typed
        assert "8D WINDYX: WINDYX 48 = 48" in screen_text(app)
        await pilot.press("ctrl+u")  # clear the line
        await type_text(pilot, "1a windy")
        assert "first play '1A WINDY' must cover the centre square 8H" in screen_text(app)
        await pilot.press("enter")  # refused at once, nothing is sent
        await pilot.pause()
        assert game(app).composing is None
        assert len(game(app).history) == 0


async def test_lay_then_press_with_the_bracket_while_typing(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "8d windy", lambda: game(app).composing is not None)
        assert "on the board: 8D WINDY (32)" in text_of(app, "#phase")
        command_line = app.query_one(CommandInput)
        assert app.focused is command_line
        await pilot.press("[")
        await until(pilot, lambda: game(app).scores == (32, 0), "the press")
        assert command_line.value == ""  # '[' pressed the clock, it was not typed
        assert game(app).turn == 1
        assert game(app).clock.running == 1
        await until(pilot, lambda: "Ben to play" in screen_text(app), "Ben's turn")
        shown = screen_text(app)
        assert "Ann  32" in shown
        assert "Ann 8D WINDY +32 32" in text_of(app, "#moves")
        assert "8D WINDY may be challenged" in shown
        assert app.query_one("#p1", PlayerClock).has_class("-running")
        # Ben answers with ']' (and F2 is the same key).
        await type_text(pilot, "7c gale")
        assert "7C GALE: GALE 7, AW 5, LI 2, EN 2 = 16" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: game(app).composing is not None, "Ben's play")
        await pilot.press("]")
        await until(pilot, lambda: game(app).scores == (32, 16), "Ben's press")
    assert logged(tmp_path / "table.sqlite").scores == (32, 16)


async def test_a_refused_command_shows_the_reason_and_the_rule(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await type_text(pilot, "x 9")
        await pilot.press("enter")
        await until(pilot, lambda: app.last_ack is not None, "the answer")
        assert app.last_ack is not None
        assert not app.last_ack.accepted
        shown = screen_text(app)
        assert "refused: cannot exchange 9 tiles from a rack of 7 (NZASP 6.7)" in shown
        # A clock press with no play on the board is refused too, with its rule.
        await pilot.press("[")
        await until(pilot, lambda: "no play on the board" in screen_text(app), "the refusal")
        assert (
            "refused: Ann has no play on the board; place tiles, pass or exchange (NZASP 6.3.3"
            in (text_of(app, "#feedback"))
        )
        assert game(app).turn == 0


async def test_hold_called_by_the_opponent_and_released(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        await command(pilot, "hold", lambda: game(app).phase is Phase.HOLD)
        await until(pilot, lambda: "hold called by Ben" in screen_text(app), "the hold")
        assert "hold called by Ben | 8D WINDY may be challenged" in screen_text(app)
        assert "NZASP 6.12.1.2.2: hold called by Ben on 8D WINDY" in rulings(app)
        # Ann may not draw during the hold: the refusal says so, with the rule.
        await command(pilot, "draw 5", lambda: "may not draw" in text_of(app, "#feedback"))
        assert "refused: hold called: Ann may not draw until it is released (NZASP" in (
            text_of(app, "#feedback")
        )
        await command(pilot, "release", lambda: game(app).phase is Phase.PLAYING)
        await until(pilot, lambda: "hold released" in screen_text(app), "the release")
        assert "hold called" not in text_of(app, "#phase")
        assert "8D WINDY may be challenged" not in text_of(app, "#phase")


async def test_draw_count_closes_the_challenge_window(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        last = game(app).last
        assert last is not None
        assert app.state.owed[last.player] == 5
        # NZASP 6.3.4: the score is written before the draw; then the draw accepts.
        await command(pilot, "written", lambda: getattr(game(app).last, "recorded", False))
        await command(pilot, "draw 5", lambda: owed(app) == 0)
        await until(pilot, lambda: "Ann drew: 8D WINDY is accepted" in rulings(app), "ruling")
        # the newest ruling is in view, its citation whole (wrapped, not cut)
        assert "drew: 8D WINDY is accepted" in screen_text(app)
        assert (
            "NZASP 6.12.1.3: accepted unless hold or challenge before a replacement tile is drawn"
            in rulings(app)
        )
        assert "may be challenged" not in text_of(app, "#phase")


async def test_a_draw_before_the_score_is_written_is_a_flash_draw(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        await command(pilot, "draw 5", lambda: owed(app) == 0)
        await until(pilot, lambda: "a flash draw" in rulings(app), "the flash-draw ruling")
        assert "may be challenged" in text_of(app, "#phase")  # NZASP 6.5.1


async def test_exchange_and_pass(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "x 3", lambda: game(app).turn == 1)
        await command(pilot, "pass", lambda: game(app).turn == 0)
        await until(pilot, lambda: "Ben -" in text_of(app, "#moves"), "the moves")
        assert "Ann -3" in text_of(app, "#moves")
        assert "NZASP 6.7: Ann exchanges 3" in rulings(app)
        assert game(app).scoreless == 2


async def test_neutralize_with_a_reason_then_resume(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        assert isinstance(cfg.timeline, FakeTimeline)
        cfg.timeline.advance(61_000)
        await command(pilot, "neutral spilt drink", lambda: bool(game(app).clock.neutral))
        cfg.timeline.advance(300_000)  # no one's time runs meanwhile
        left = app.query_one("#p0", PlayerClock)
        await until(pilot, lambda: left.has_class("-neutral"), "the neutral style")
        shown = screen_text(app)
        assert shown.count("neutralized: spilt drink (players)") >= 2  # on both clocks
        assert "Ann to play (neutralized: spilt drink (players))" in shown
        assert str(left.query_one(Digits).value) == "23:59"
        await command(pilot, "resume", lambda: not game(app).clock.neutral)
        await until(pilot, lambda: not left.has_class("-neutral"), "the clock to run")
        assert left.has_class("-running")
        await until(pilot, lambda: "resumed by players" in screen_text(app), "the newest ruling")


async def test_overtime_is_shown_in_its_own_style(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        left = app.query_one("#p0", PlayerClock)
        assert isinstance(cfg.timeline, FakeTimeline)
        cfg.timeline.advance(1_500_000 + 5_000)
        await until(pilot, lambda: left.has_class("-overtime"), "overtime")
        assert str(left.query_one(Digits).value) == "-0:05"
        assert "OVERTIME, penalty 10" in screen_text(app)
        assert not app.query_one("#p1", PlayerClock).has_class("-overtime")


async def test_blank_is_named_after_laying(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await type_text(pilot, "8D WIN?Y")
        assert "8D WIN?Y: WIN?Y 28 = 28" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: unnamed(app) == 1, "the play on the board")
        await command(pilot, "blank d", lambda: unnamed(app) == 0)
        await until(pilot, lambda: "8D WINdY (28)" in text_of(app, "#phase"), "the named blank")
        await pilot.press("[")
        await until(pilot, lambda: game(app).scores == (28, 0), "the press")
        board = game(app).board
        assert board is not None
        assert " 8 T . . W I N d Y" in board.render()


async def test_blank_named_after_the_press(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d win?y", "[")
        assert "must name the blank first" not in screen_text(app)
        await command(pilot, "blank d", lambda: unnamed(app) == 0)
        await until(pilot, lambda: "Ann names the blank: 8D WINdY" in rulings(app), "ruling")


# --- challenges ----------------------------------------------------------------------------


async def challenge_galey(pilot: Pilot[int], app: TableApp) -> ChallengeScreen:
    """Ann plays 8D WINDY, Ben 7C GALEY; Ann types 'challenge'."""
    await play(pilot, app, "8d windy", "[")
    await play(pilot, app, "7c galey", "]")
    await command(pilot, "challenge", lambda: isinstance(app.screen, ChallengeScreen))
    screen = app.screen
    assert isinstance(screen, ChallengeScreen)
    return screen


async def test_challenge_some_words_and_the_word_list_judges_the_play(tmp_path: Path) -> None:
    words = WordList.from_lines("test list", ["windy", "aw", "li", "en", "yd"])
    async with TableApp(config(tmp_path, words=words)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        screen = await challenge_galey(pilot, app)
        picker = screen.query_one(SelectionList)
        assert list(picker.selected) == ["GALEY", "AW", "LI", "EN", "YD"]
        await pilot.press("space")  # the first word is highlighted: leave GALEY out
        await pilot.pause()
        assert list(picker.selected) == ["AW", "LI", "EN", "YD"]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen), "adjudication")
        assert game(app).phase is Phase.CHALLENGE
        last = game(app).last
        assert last is not None
        assert last.challenged == ("AW", "LI", "EN", "YD")
        shown = screen_text(app)
        assert "AW  LI  EN  YD" in shown  # both players check the words typed
        assert "Word list: test list. Press j to judge the play." in shown
        await pilot.press("j")
        await pilot.pause()
        verdict = text_of(app, "#verdict")
        assert "THE PLAY IS ACCEPTABLE" in verdict
        assert game(app).phase is Phase.CHALLENGE  # shown first, recorded on Enter
        await pilot.press("enter")
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the verdict")
        assert not isinstance(app.screen, AdjudicationScreen)
        assert game(app).scores == (32, 34 + 4 * 5)  # NZASP 6.17: 5 per word challenged
        await until(
            pilot,
            lambda: "7C GALEY is acceptable (word judge): Ben gets 20" in rulings(app),
            "the ruling",
        )


async def test_the_word_list_verdict_names_no_word(tmp_path: Path) -> None:
    words = WordList.from_lines("test list", ["windy", "aw", "li", "en", "yd"])
    async with TableApp(config(tmp_path, words=words)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await challenge_galey(pilot, app)
        await pilot.press("enter")  # all five words
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen), "adjudication")
        assert "GALEY  AW  LI  EN  YD" in screen_text(app)
        await pilot.press("j")
        await pilot.pause()
        verdict = text_of(app, "#verdict")
        assert "THE PLAY IS UNACCEPTABLE" in verdict
        for word in ("GALEY", "AW", "LI", "EN", "YD"):
            assert word not in verdict
        await pilot.press("enter")
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the verdict")
        assert game(app).scores == (32, 0)
        assert game(app).turn == 0
        await until(pilot, lambda: "Ben --" in text_of(app, "#moves"), "the withdrawal")
        assert "7C GALEY is unacceptable (word judge)" in rulings(app)


async def test_without_a_word_list_the_adjudicator_rules(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await challenge_galey(pilot, app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen), "adjudication")
        assert "No word list: the adjudicator rules" in screen_text(app)
        await pilot.press("j")
        await pilot.pause()
        assert "no word list loaded: press v or i" in text_of(app, "#verdict")
        await pilot.press("i")
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the verdict")
        assert game(app).scores == (32, 0)
        assert "7C GALEY is unacceptable (adjudicator)" in rulings(app)


async def test_the_adjudicator_accepts_with_v(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await challenge_galey(pilot, app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen), "adjudication")
        await pilot.press("v")
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the verdict")
        assert game(app).scores == (32, 34 + 5 * 5)
        assert game(app).turn == 0


async def test_escape_cancels_the_challenge(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await challenge_galey(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ChallengeScreen), "cancel")
        await pilot.pause()
        assert game(app).phase is Phase.PLAYING
        last = game(app).last
        assert last is not None
        assert last.window_open


# --- the end of the game ----------------------------------------------------------------------


def scoreless_turns(app: TableApp, n: int) -> Callable[[], bool]:
    """A condition: ``n`` consecutive scoreless turns (or the end they bring)."""
    return lambda: game(app).scoreless == n or game(app).phase is Phase.END_RACKS


async def test_scoreless_end_racks_summary_and_both_sign(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        for n, text in enumerate(["pass", "x 7", "pass", "pass", "x 2", "pass"], start=1):
            await command(pilot, text, scoreless_turns(app, n))
        assert game(app).phase is Phase.END_RACKS
        await until(
            pilot,
            lambda: "game over: enter the tiles left on the racks" in screen_text(app),
            "the end",
        )
        assert "NZASP 8.1.3: 6 consecutive scoreless turns: the game ends" in rulings(app)
        await command(pilot, "racks aeeiouu qzxjkae", lambda: game(app).phase is Phase.OVER)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        shown = screen_text(app)
        assert "Ann wins -7 to -43, spread 36 (the scoreless turns)" in shown
        assert "racks -7 / -43" in shown
        assert "Ann: not yet   Ben: not yet" in shown
        await pilot.press("[")
        await until(pilot, lambda: game(app).signed == (True, False), "Ann's signature")
        await until(pilot, lambda: "Ann: signed   Ben: not yet" in screen_text(app), "shown")
        await pilot.press("]")
        await until(pilot, lambda: game(app).signed == (True, True), "Ben's signature")
        await until(pilot, lambda: "Ann: signed   Ben: signed" in screen_text(app), "shown")
    with EventLog.open(tmp_path / "table.sqlite", create=False) as log:
        signed = [ev for _, ev in log.events() if isinstance(ev, Signed)]
    assert [ev.player for ev in signed] == [0, 1]
    assert logged(tmp_path / "table.sqlite").signed == (True, True)


async def test_reopening_an_unsigned_game_asks_for_the_signatures(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        assert "Ben wins: Ann resigned (scores Ben 0, Ann 0; spread 50 by rule)" in screen_text(app)
        assert game(app).games == 1  # no new game over the unsigned one
        await pilot.press("f1")
        await until(pilot, lambda: game(app).signed == (True, False), "Ann's signature")


# --- views -------------------------------------------------------------------------------------


async def test_board_view_shows_the_tiles(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "8d windy", lambda: game(app).composing is not None)
        board = app.query_one(BoardView)
        assert not board.display
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert board.display
        shown = screen_text(app)
        assert "A B C D E F G H I J K L M N O" in shown
        # tiles are letters, premium squares symbols: the tile D never looks like a
        # double-word square in plain text
        assert "  8 # · · W I N D Y · · · ' · · #" in shown  # laid, not pressed: highlighted
        assert '  2 · = · · · " · · · " · · · = ·' in shown
        assert " 15 # · · ' · · · #" in shown  # all 15 rows fit at 80x24
        assert "# triple word  = double word" in shown  # the legend
        assert app.focused is app.query_one(CommandInput)
        await pilot.press("[")
        await until(pilot, lambda: game(app).scores == (32, 0), "the press")
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert not board.display
        assert "W I N D Y" not in screen_text(app)


async def test_high_contrast_theme(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        assert app.theme != HIGH_CONTRAST.name
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme == HIGH_CONTRAST.name
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme != HIGH_CONTRAST.name
    async with TableApp(config(tmp_path, high_contrast=True)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        assert app.theme == HIGH_CONTRAST.name


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_clocks_render_at_any_size(tmp_path: Path, size: tuple[int, int]) -> None:
    async with TableApp(config(tmp_path)).run_test(size=size) as pilot:
        app = await started(pilot)
        await until(pilot, lambda: "Ann  0" in screen_text(app), "the clocks")
        shown = screen_text(app)
        assert "Ann  0   (clock key [ / F1)" in shown
        assert "Ben  0   (clock key ] / F2)" in shown
        assert "Ann to play" in shown
        for seat in (0, 1):
            clock = app.query_one(f"#p{seat}", PlayerClock)
            digits = clock.query_one(Digits)
            assert str(digits.value) == "25:00"
            assert digits.region.height == 3  # the large digits, not a line of text
            assert digits.region.width >= 12
            assert clock.region.right <= size[0]
        assert app.query_one("#p0", PlayerClock).region.width >= size[0] // 2 - 1


# --- a resumed game -------------------------------------------------------------------------


async def test_a_resumed_game_comes_back_neutralized_with_the_gap(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        assert isinstance(cfg.timeline, FakeTimeline)
        down_at = max(cfg.timeline.now_ms(), game(app).t)
    # The service is down 7 s; the table comes back on the same log.
    later = config(tmp_path)
    later.timeline = FakeTimeline(down_at + 7_000)
    async with TableApp(later).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        assert game(app).scores == (32, 0)
        # clock time, never raw milliseconds
        assert game(app).clock.neutral == "service restarted (down 0:07.0)"
        await until(pilot, lambda: "down 0:07.0" in screen_text(app), "the neutral clocks")
        assert "Ben to play (neutralized: service restarted (down 0:07.0))" in screen_text(app)
        assert "service restarted: the service was down 0:07.0" in rulings(app)
        assert "ms down" not in screen_text(app)
        assert game(app).games == 1
        await command(pilot, "resume", lambda: not game(app).clock.neutral)
        assert game(app).clock.running == 1
        right = app.query_one("#p1", PlayerClock)
        await until(pilot, lambda: right.has_class("-running"), "Ben's clock to run")


async def test_a_finished_signed_game_is_shown_and_a_new_one_starts_when_asked(
    tmp_path: Path,
) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        assert game(app).phase is Phase.OVER
        assert game(app).games == 1
        assert "game over" in text_of(app, "#phase")
    async with TableApp(config(tmp_path, new_game=True)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await until(pilot, lambda: game(app).games == 2, "the new game, as asked")
        assert game(app).phase is Phase.PLAYING
