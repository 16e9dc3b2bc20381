"""The scorekeeper's screen (``rackclock scorekeeper``), driven with Textual's Pilot.

Time never passes by itself: the app runs on a :class:`FakeTimeline` that the
tests move, so overtime and the no-more-plays cutoff (TOR-7, TOR-8) are reached
without sleeping. Every game is logged to a real SQLite file in ``tmp_path``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Digits, Input, Static

from clock.log.eventlog import EventLog
from clock.timeline import FakeTimeline
from engine.events import TurnCorrected, TurnScored
from engine.rules.state import GameState, Phase
from terminal_ui.cli import build_parser
from terminal_ui.scorekeeper.app import ScorekeeperApp
from terminal_ui.scorekeeper.config import ScorekeeperConfig
from terminal_ui.scorekeeper.entry import Entry, parse_entry
from terminal_ui.scorekeeper.widgets import ResultScreen, SheetClock
from terminal_ui.shared.start import QuitScreen, StartScreen
from tests.helpers import until

SIZE = (80, 24)


def make_app(tmp_path: Path, tl: FakeTimeline | None = None, **kw: Any) -> ScorekeeperApp:
    """A scorekeeper for Ann (left, starts) and Ben on a fake timeline."""
    cfg = ScorekeeperConfig(
        log=tmp_path / "game.sqlite",
        players=("Ann", "Ben"),
        timeline=tl or FakeTimeline(),
        heartbeat_ms=0,
        **kw,
    )
    return ScorekeeperApp(cfg)


def text(app: ScorekeeperApp, selector: str) -> str:
    """The plain text a Static shows."""
    return str(app.query_one(selector, Static).render())


def status(app: ScorekeeperApp, seat: int) -> str:
    """The status line under a player's clock."""
    return str(app.query_one(f"#p{seat} .status", Static).render())


def digits(app: ScorekeeperApp, seat: int) -> str:
    """The time shown in large digits."""
    return app.query_one(f"#p{seat} Digits", Digits).value


async def started(pilot: Pilot[Any]) -> ScorekeeperApp:
    """The game once started from its start screen with the left clock key, as at the
    table (a resumed game has no start screen)."""
    app = pilot.app
    assert isinstance(app, ScorekeeperApp)
    await until(
        pilot,
        lambda: app.state.variant is not None or isinstance(app.screen, StartScreen),
        "the start screen or the game",
    )
    if isinstance(app.screen, StartScreen):
        await pilot.press("f1")
    await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the start")
    await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the game screen")
    return app


async def type_entry(pilot: Pilot[Any], entry: str) -> None:
    """Type ``entry`` on the entry line and press Enter."""
    await pilot.press(*entry, "enter")


async def press_clock(pilot: Pilot[Any], seat: int, *, via: str = "bracket") -> None:
    """A player's clock key; waits for the press to be committed."""
    app = pilot.app
    assert isinstance(app, ScorekeeperApp)
    before = app.state.presses[seat]
    key = {
        ("bracket", 0): "left_square_bracket",
        ("bracket", 1): "right_square_bracket",
        ("f", 0): "f1",
        ("f", 1): "f2",
    }[(via, seat)]
    await pilot.press(key)
    await until(pilot, lambda: app.state.presses[seat] == before + 1, f"press of seat {seat}")


async def scored(pilot: Pilot[Any], n: tuple[int, int]) -> GameState:
    """Wait until ``n`` turns of each player are scored."""
    app = pilot.app
    assert isinstance(app, ScorekeeperApp)
    await until(pilot, lambda: app.state.scored == n, f"scored == {n}")
    return app.state


def logged_scores(path: Path) -> list[TurnScored]:
    """The turn_scored events in the log."""
    with EventLog.open(path, create=False) as log:
        return [ev for _, ev in log.events() if isinstance(ev, TurnScored)]


# --- the entry line (pure) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "entry"),
    [
        ("q24", Entry(None, "Q", 24)),
        ("Q 24", Entry(None, "Q", 24)),
        ("24", Entry(None, "", 24)),
        ("-", Entry(None, "", 0)),
        ("0", Entry(None, "", 0)),
        ("2:b12", Entry(1, "B", 12)),
        ("1: -", Entry(0, "", 0)),
        ("hold", None),
        ("racks AEI -", None),
        ("qu24", None),
    ],
)
def test_parse_entry(typed: str, entry: Entry | None) -> None:
    assert parse_entry(typed) == entry


def test_cli_registers_scorekeeper() -> None:
    args = build_parser().parse_args(["scorekeeper", "--players", "Ann,Ben"])
    assert args.variant == "toronto-speed"
    assert args.clock == "emulated"
    assert args.log is None
    assert callable(args.handler)


# --- flows ---------------------------------------------------------------------------------


async def test_start_shows_three_minutes_each(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        st = app.state
        assert st.mode == "scoresheet"
        assert st.variant is not None
        assert st.variant.name == "toronto-speed"
        app.draw_clocks()
        assert digits(app, 0) == "3:00"
        assert digits(app, 1) == "3:00"
        assert "running" in status(app, 0)
        assert app.query_one("#p0", SheetClock).has_class("-running")
        assert "Ann to play" in text(app, "#phase")
        assert "TOR-3" in text(app, "#rulings")
        assert app.focused is app.query_one("#entry", Input)


async def test_presses_from_keys_even_while_typing(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("w", "3")  # half-typed entry: the clock keys still work
        tl.advance(12_000)
        await press_clock(pilot, 0)
        assert app.query_one("#entry", Input).value == "w3"
        tl.advance(8_000)
        await press_clock(pilot, 1, via="f")
        st = app.state
        assert st.turn == 0
        assert st.clock.remaining(0, tl.now_ms()) == 168_000
        assert st.clock.remaining(1, tl.now_ms()) == 172_000
        app.draw_clocks()
        assert digits(app, 0) == "2:48"
        assert digits(app, 1) == "2:52"
        # A press out of turn is refused with its rule.
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert "NASPA" in text(app, "#feedback")


async def test_entries_are_quick_and_cumulative(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(5_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "q24")
        await scored(pilot, (1, 0))
        tl.advance(5_000)
        await press_clock(pilot, 1)
        await type_entry(pilot, "b10")
        await scored(pilot, (1, 1))
        tl.advance(5_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "z 31")
        st = await scored(pilot, (2, 1))
        assert st.scores == (55, 10)
        assert app.query_one("#entry", Input).value == ""
        sheet = text(app, "#sheet0")
        assert "1 Q   +24    24" in sheet
        assert "2 Z   +31    55" in sheet
        assert "1 B   +10    10" in text(app, "#sheet1")
        assert "Ann  55" in text(app, "#p0 .name")
        events = logged_scores(tmp_path / "game.sqlite")
        assert [(e.player, e.first_letter, e.score) for e in events] == [
            (0, "Q", 24),
            (1, "B", 10),
            (0, "Z", 31),
        ]


async def test_lagging_scorekeeper_scores_the_oldest_turn_first(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(12_000)
        await press_clock(pilot, 0)
        tl.advance(8_000)
        await press_clock(pilot, 1)
        # Two turns ended, none scored: Ann's is the oldest.
        await until(pilot, lambda: "scoring 1 Ann turn 1" in text(app, "#target"))
        assert "then Ben 1" in text(app, "#target")
        assert "unscored" in text(app, "#sheet0")
        await type_entry(pilot, "w32")
        await scored(pilot, (1, 0))
        await until(pilot, lambda: "scoring 2 Ben turn 1" in text(app, "#target"))
        await type_entry(pilot, "g16")
        st = await scored(pilot, (1, 1))
        assert st.scores == (32, 16)
        # Nothing pending: the turn being played (Ann's second) is next.
        await until(pilot, lambda: "Ann turn 2 (in play)" in text(app, "#target"))


async def test_tab_and_prefix_score_a_chosen_player(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await press_clock(pilot, 1)
        await pilot.press("tab")
        await until(pilot, lambda: "scoring 2 Ben turn 1" in text(app, "#target"))
        await type_entry(pilot, "g16")
        await scored(pilot, (0, 1))
        assert app.chosen is None  # back to the oldest turn after an entry
        await type_entry(pilot, "1:w32")
        st = await scored(pilot, (1, 1))
        assert st.scores == (32, 16)


async def test_pass_records_a_scoreless_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "-")  # Ann's turn was scoreless
        await scored(pilot, (1, 0))
        await pilot.press("f8")  # Ben passes: the turn ends and scores 0 by itself
        st = await scored(pilot, (1, 1))
        assert st.turn == 0
        assert st.scores == (0, 0)
        assert st.scoreless == 1
        assert "  1      +0     0" in text(app, "#sheet1")  # no "-": a minus only


async def test_hold_and_release(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(12_000)
        await press_clock(pilot, 0)
        tl.advance(2_000)
        await pilot.press("f3")
        await until(pilot, lambda: app.state.phase is Phase.HOLD, "the hold")
        assert "hold called by Ben" in text(app, "#phase")
        assert "may draw provisional tiles" in text(app, "#rulings")
        # The held play may be scored; Ben's clock keeps running; Ben may not press.
        await type_entry(pilot, "h24")
        await scored(pilot, (1, 0))
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: "release the hold" in text(app, "#feedback"))
        tl.advance(6_000)
        await pilot.press("f4")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the release")
        st = app.state
        assert st.scores == (24, 0)
        assert st.clock.running == 1
        assert st.clock.remaining(1, tl.now_ms()) == 172_000
        assert "hold released" in text(app, "#rulings")


async def test_typed_hold_and_release(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "hold")
        await until(pilot, lambda: app.state.phase is Phase.HOLD, "the hold")
        await type_entry(pilot, "release")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the release")


async def test_challenged_play_withdrawn_scores_zero(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(12_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "w32")
        await scored(pilot, (1, 0))
        tl.advance(3_000)
        await pilot.press("f5")
        await until(pilot, lambda: app.state.phase is Phase.CHALLENGE, "the challenge")
        assert "challenge: awaiting verdict" in text(app, "#phase")
        assert app.state.clock.neutral == "challenge"
        await pilot.press("f7")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the verdict")
        st = app.state
        assert st.scores == (0, 0)
        assert st.turn == 1
        assert "unacceptable" in text(app, "#rulings")
        assert "void" in text(app, "#sheet0")
        # Ben plays; Ann challenges before the scorekeeper wrote Ben's play.
        tl.advance(5_000)
        await press_clock(pilot, 1)
        await type_entry(pilot, "challenge")
        await until(pilot, lambda: app.state.phase is Phase.CHALLENGE, "the second challenge")
        await type_entry(pilot, "invalid")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the second verdict")
        await until(pilot, lambda: "withdrawn: scores 0" in text(app, "#target"))
        await type_entry(pilot, "j20")
        st = await scored(pilot, (1, 1))
        assert st.scores == (0, 0)
        assert "was withdrawn: it scores 0" in text(app, "#rulings")


async def test_challenged_play_valid_challenger_loses_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "w32")
        await pilot.press("f5")
        await until(pilot, lambda: app.state.phase is Phase.CHALLENGE, "the challenge")
        await pilot.press("f6")
        await until(pilot, lambda: app.state.phase is Phase.PLAYING, "the verdict")
        st = app.state
        assert st.scores == (32, 0)
        assert st.turn == 0  # double challenge: Ben loses his turn
        assert "lost" in text(app, "#sheet1")


async def test_pause_and_resume(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(10_000)
        await pilot.press("f9")
        await until(pilot, lambda: app.state.clock.neutral is not None, "the pause")
        tl.advance(50_000)
        await pilot.press("f9")
        await until(pilot, lambda: app.state.clock.neutral is None, "the resume")
        assert app.state.clock.remaining(0, tl.now_ms()) == 170_000


async def test_overtime_penalty_preview_and_lockout(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(1_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "a30")
        tl.advance(1_000)
        await press_clock(pilot, 1)
        await type_entry(pilot, "b10")
        await scored(pilot, (1, 1))
        # Ann has 179 s left; 3:30 later she is 31 s into overtime.
        tl.advance(210_000)
        await until(pilot, lambda: "penalty -31" in status(app, 0), "the penalty preview")
        assert digits(app, 0) == "-0:31"
        assert "OVERTIME" in status(app, 0)
        clock = app.query_one("#p0", SheetClock)
        assert clock.has_class("-overtime")
        assert not app.state.locked[0]
        # At -1:01 she may make no more plays (TOR-8); Ben is behind and plays on (TOR-9).
        tl.advance(30_000)
        await until(pilot, lambda: app.state.locked[0], "the lockout")
        await until(pilot, lambda: "NO MORE PLAYS" in status(app, 0), "the lockout shown")
        assert clock.has_class("-locked")
        assert "penalty -61" in status(app, 0)
        assert "TOR-8" in text(app, "#rulings")
        assert "no more plays" in text(app, "#rulings")
        assert app.state.phase is Phase.PLAYING
        # said in full where the scorekeeper looks: who, the rule, what a press does
        assert (
            "Ann LOCKED OUT (TOR-8): no more plays; a play on the board comes off, "
            "the turn scores 0"
        ) in text(app, "#phase")
        # Ann's press is a pass (TOR-8). To the scorekeeper it looks like a play: the
        # next entry is for it. Its score is refused with the rule, never moved onto
        # Ben's turn (the bug: Ann's k30 was credited to Ben), and - records its 0.
        await press_clock(pilot, 0)
        await type_entry(pilot, "k30")
        await until(pilot, lambda: "TOR-8" in text(app, "#feedback"), "the refusal")
        assert "Ann's turn 2 came after -1:01" in text(app, "#feedback")
        assert "enter - for it" in text(app, "#feedback")
        assert app.state.scored == (1, 1)
        assert app.state.scores == (30, 10)
        app.query_one("#entry", Input).value = ""  # a refused entry stays on the line
        await type_entry(pilot, "-")
        st = await scored(pilot, (2, 1))
        assert st.scores == (30, 10)
        assert "  2      +0    30" in text(app, "#sheet0")  # '-' is only a minus sign
        # Ben passes while Ann may not play: the game ends (TOR-9); racks, then the result.
        await pilot.press("f8")
        await until(pilot, lambda: app.state.phase is Phase.END_RACKS, "the end")
        assert "enter the tiles left on the racks" in text(app, "#phase")
        await type_entry(pilot, "racks AEI BCD")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the result")
        res = app.state.result
        assert res is not None
        assert res.penalties == (61, 0)
        assert res.scores == (30 - 3 - 61, 10 - 8)
        assert res.winner == 1
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the summary")
        summary = str(app.screen.query_one("#result", Static).render())
        assert "Ben wins 2 to -34, spread 36 (the overtime cutoff)" in summary
        assert "Ben wins" in summary
        assert "-61" in summary
        assert "not recorded" in summary
        # The players confirm with their clock keys.
        await pilot.press("left_square_bracket")
        await pilot.press("f2")
        await until(pilot, lambda: all(app.state.signed), "the signatures")


async def test_cutoff_ends_the_game_when_the_other_is_ahead(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(100_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "a20")
        tl.advance(50_000)
        await press_clock(pilot, 1)
        await type_entry(pilot, "b30")
        await scored(pilot, (1, 1))
        # Ann: 80 s left; at -1:01 she may not play, and Ben is ahead: the game ends (TOR-9).
        tl.advance(141_000)
        await until(pilot, lambda: app.state.phase is Phase.END_RACKS, "the cutoff")
        assert app.state.locked == (True, False)
        await until(pilot, lambda: "NO MORE PLAYS" in status(app, 0), "the lockout shown")
        assert "is not behind: the game ends" in text(app, "#rulings")
        # A press now is refused, with the rule.
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert "enter the tiles left on the racks" in text(app, "#feedback")
        await type_entry(pilot, "racks AEI BCD")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the result")
        res = app.state.result
        assert res is not None
        assert res.scores == (20 - 3 - 61, 30 - 8)
        assert res.reason == "cutoff"


async def test_racks_wait_for_every_turn_to_be_scored(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "racks - AEI")
        await until(pilot, lambda: "score every turn" in text(app, "#feedback"))
        assert app.state.phase is Phase.PLAYING
        await type_entry(pilot, "q50")
        await scored(pilot, (1, 0))
        await type_entry(pilot, "end - AEI")  # Ann went out: twice Ben's tiles
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the result")
        res = app.state.result
        assert res is not None
        assert res.scores == (56, 0)
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the summary")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ResultScreen), "closed")
        assert "game over: Ann wins 56 to 0, spread 56" in text(app, "#phase")
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: app.state.signed == (True, False), "Ann's signature")
        assert "Ann confirms the result" in text(app, "#rulings")


async def test_resume_keeps_the_order_of_unscored_turns(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        tl.advance(1_000)
        await press_clock(pilot, 0)
        tl.advance(1_000)
        await pilot.press("f8")  # Ben passes while Ann's play is not yet scored
        await until(pilot, lambda: app.state.presses == (1, 1), "the pass")
        await pilot.press("ctrl+q")
    again = make_app(tmp_path, tl)
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: again.state.variant is not None, "the resume")
        assert again.state.players == ("Ann", "Ben")
        await until(pilot, lambda: "scoring 1 Ann turn 1" in text(again, "#target"))
        await type_entry(pilot, "r12")
        # Ben's pass follows by itself once Ann's play is scored.
        st = await scored(pilot, (1, 1))
        assert st.scores == (12, 0)


async def test_high_contrast_toggle(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("ctrl+t")
        assert app.theme == "rackclock-high-contrast"
        await pilot.press("ctrl+t")
        assert app.theme != "rackclock-high-contrast"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_fits_the_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        for selector in ("#p0", "#p1", "#phase", "#target", "#entry", "#feedback", "#keys"):
            region = app.query_one(selector).region
            assert region.height > 0, selector
            assert region.bottom <= size[1], selector
        assert app.query_one("#sheet0").region.height >= 4


# --- snapshots (plain def: snap_compare runs its own event loop) ------------------------


def _snapshot_game(
    tmp_path: Path,
) -> tuple[ScorekeeperApp, Callable[[Pilot[Any]], Awaitable[None]]]:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)

    async def run_before(pilot: Pilot[Any]) -> None:
        await started(pilot)
        pilot.app.query_one("#entry", Input).cursor_blink = False
        tl.advance(12_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "w32")
        await scored(pilot, (1, 0))
        tl.advance(20_000)
        await press_clock(pilot, 1)
        tl.advance(9_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "g16")
        await scored(pilot, (1, 1))
        tl.advance(200_000)  # Ben: 160 s left, now 40 s into overtime
        await until(pilot, lambda: "penalty -40" in status(app, 1), "the overtime")
        await pilot.press("q", "2", "4")
        await pilot.pause()

    return app, run_before


def test_snapshot_overtime_with_lag(snap_compare: Any, tmp_path: Path) -> None:
    app, run_before = _snapshot_game(tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_result(snap_compare: Any, tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)

    async def run_before(pilot: Pilot[Any]) -> None:
        await started(pilot)
        pilot.app.query_one("#entry", Input).cursor_blink = False
        tl.advance(20_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "q50")
        await scored(pilot, (1, 0))
        await type_entry(pilot, "end - AEI")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the summary")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_a_finished_game_reopens_with_its_result(tmp_path: Path) -> None:
    tl = FakeTimeline()
    app = make_app(tmp_path, tl)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await type_entry(pilot, "resign")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the resignation")
        await pilot.press("ctrl+q")  # not signed yet: it asks first
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    again = make_app(tmp_path, tl)
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ResultScreen), "the result")
        assert again.state.phase is Phase.OVER
        assert again.state.games == 1  # no new game unless asked
        shown = str(again.screen.query_one("#result", Static).render())
        assert "Ben wins" in shown or "Ann" in shown
    third = make_app(tmp_path, tl, new_game=True)
    async with third.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(third.screen, StartScreen), "the start screen")
        assert third.state.games == 1  # the new game starts at a clock key
        await started(pilot)
        assert third.state.games == 2


def test_snapshot_high_contrast(snap_compare: Any, tmp_path: Path) -> None:
    app, run_before = _snapshot_game(tmp_path)
    app.config.high_contrast = True
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_undo_and_fix_until_signed(tmp_path: Path) -> None:
    """The scorekeeper takes back the last entry and corrects an earlier one, each
    logged as a correction; once a player has signed, the sheet is closed."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await press_clock(pilot, 0)
        await type_entry(pilot, "q24")
        await press_clock(pilot, 1)
        await type_entry(pilot, "b12")
        await scored(pilot, (1, 1))
        await type_entry(pilot, "undo")  # Ben's b12 was a slip: his turn is unscored again
        st = await scored(pilot, (1, 0))
        assert st.scores == (24, 0)
        assert "Ben turn 1: entry taken back" in text(app, "#feedback")
        await type_entry(pilot, "b21")
        await scored(pilot, (1, 1))
        await until(pilot, lambda: "undo" in text(app, "#sheet1"), "the sheet")
        assert " 2 B" not in text(app, "#sheet1")  # b21 is turn 1 again, not turn 2
        await type_entry(pilot, "fix 1:1 q42")  # Ann's turn 1 was Q 42
        await until(pilot, lambda: app.state.scores == (42, 21), "the correction")
        assert "Ann's turn 1 corrected: Q 24 -> Q 42" in text(app, "#rulings")
        await type_entry(pilot, "fix 1 q42")
        await until(pilot, lambda: "not a correction" in text(app, "#feedback"), "the help")
        app.query_one("#entry", Input).value = ""
        await type_entry(pilot, "end - AEI")
        await until(pilot, lambda: app.state.phase is Phase.OVER, "the result")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the summary")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ResultScreen), "closed")
        await type_entry(pilot, "fix 2:1 b20")  # before signing: the result follows
        await until(pilot, lambda: app.state.scores[1] == 20, "the late correction")
        res = app.state.result
        assert res is not None
        assert res.scores == (42 + 6, 20)
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: app.state.signed == (True, False), "Ann's signature")
        await type_entry(pilot, "fix 2:1 b30")
        await until(pilot, lambda: "refused" in text(app, "#feedback"), "the refusal")
        assert "the result is signed" in text(app, "#feedback")
        assert app.state.scores[1] == 20
    kinds = [type(ev).__name__ for ev in logged_corrections(tmp_path / "game.sqlite")]
    assert kinds == ["TurnCorrected"] * 3


def logged_corrections(path: Path) -> list[TurnCorrected]:
    """The turn_corrected events in the log (refused commands are not among them)."""
    with EventLog.open(path, create=False) as log:
        return [ev for _, ev in log.events() if isinstance(ev, TurnCorrected)]
