"""The three disputes of issue 20, each settled from the director's console alone
(docs/director.md, "Settling a dispute from the console").

Each log is made by the real thing: the scorekeeper's screen or the table terminal
under Pilot (their table service in-process, on fake time), or a table service
running beside the console. The console (``rackclock director --log FILE``,
offline) then opens that log, the timeline is moved to the instant in dispute, and
the test reads the words a director reads there:

a. a lockout that would have turned a win into a tie: which entry went to which
   turn, and the TOR-8 refusal of a score for the locked-out turn;
b. a ruling that made a press vanish: the console refuses to write into a log a
   running table holds, saying who holds it, and the table's next press is in the
   timeline;
c. "he drew before I could challenge": the refused challenge, with its reason, rule
   and game time, after the draw.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from clock.log.lock import holder
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import ClockPressed, GameStarted, TurnScored
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.screens.timeline import TimelineScreen
from terminal_ui.table.app import TableApp
from tests.helpers import command, config, game, play, screen_text, settle, started, until
from tests.support.log_rows import log_rows
from tests.terminal_ui.test_director import SIZE, select, text_of
from tests.terminal_ui.test_director import config as console_config
from tests.terminal_ui.test_scorekeeper import make_app, press_clock, scored, type_entry
from tests.terminal_ui.test_scorekeeper import started as sheet_started
from tests.terminal_ui.test_timeline_refused import open_timeline


async def cursor_to(pilot: Pilot[int], screen: TimelineScreen, seq: int) -> None:
    """Step the timeline's cursor from the game's start to event ``seq`` (up/down)."""
    await pilot.press("home")
    for _ in range(seq - 1):
        await pilot.press("down")
    assert f"event {seq} (" in text_of(screen, "#when")


async def test_a_lockout_entry_stays_on_its_turn(tmp_path: Path) -> None:
    """Ann leads 40-10 when her clock passes -1:01; she presses anyway. The score typed
    for that press is sent and refused by the table with TOR-8 (as a plain entry and as
    a fix), so the log keeps both refusals; it never lands on Ben's turn, which would
    have made it 40-40."""
    tl = FakeTimeline()
    sheet = make_app(tmp_path, tl)
    async with sheet.run_test(size=(80, 24)) as pilot:
        await sheet_started(pilot)
        tl.advance(10_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "a40")
        tl.advance(5_000)
        await press_clock(pilot, 1)
        await type_entry(pilot, "b10")
        await scored(pilot, (1, 1))
        tl.advance(170_000 + 61_000)  # Ann's 2:50 left and -1:01 more (TOR-8)
        await until(pilot, lambda: sheet.state.locked[0], "the lockout")
        tl.advance(2_000)
        await press_clock(pilot, 0)
        await type_entry(pilot, "k30")  # the play she made: sent, and refused by the table
        await until(pilot, lambda: "enter - for it" in str(sheet.query_one("#feedback").render()))
        assert sheet.state.scored == (1, 1)
        await type_entry(pilot, "-")  # her press is a pass: it scores 0
        await scored(pilot, (2, 1))
        tl.advance(1_000)
        await type_entry(pilot, "fix 1:2 k30")  # the play she made: refused by the table
        await until(pilot, lambda: "TOR-8" in str(sheet.query_one("#feedback").render()))
        assert sheet.state.scores == (40, 10)
    log = tmp_path / "game.sqlite"
    app = DirectorApp(console_config(tmp_path, [log]))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_timeline(app, pilot)
        await cursor_to(pilot, screen, 9)
        events = text_of(screen, "#events")
        # which entry went to which turn: each names the player and the turn
        assert "3 +0:10.0 turn_scored Ann actor=scorekeeper score=40 first_letter=A turn=1" in (
            events
        )
        assert "5 +0:15.0 turn_scored Ben actor=scorekeeper score=10 first_letter=B turn=1" in (
            events
        )
        assert "7 +4:08.0 clock_pressed Ann" in events  # 4:08 - 0:10 = 3:58: past -1:01
        # the score typed for that press, sent and refused by the table with the rule
        assert (
            "8 +4:08.0 REFUSED turn_scored Ann actor=scorekeeper score=30 first_letter=K "
            "turn=2: Ann's turn 2 came after -1:01: no more plays, its play is taken off "
            "the board and the turn scores 0 [TOR-8: at -1:01 no more plays"
        ) in events
        assert "9 +4:08.0 turn_scored Ann actor=scorekeeper score=0 turn=2" in events
        await pilot.press("down")  # the pane shows the rows up to the cursor
        events = text_of(screen, "#events")
        # the fix for it, refused in its place with the rule; nothing after it
        assert (
            "> 10 +4:09.0 REFUSED turn_corrected Ann actor=scorekeeper turn=2 score=30 "
            "first_letter=K: Ann's turn 2 came after -1:01: no more plays, it scores 0 "
            "[TOR-8: at -1:01 no more plays"
        ) in events
        assert "turn_scored Ben actor=scorekeeper score=30" not in events
        # the scores as they stood, and Ann's clock past the cutoff with its penalty
        assert (
            "Ann 40 -1:03.0 penalty 63 (each started second costs 1) | Ben 10 2:54.0 running"
        ) in text_of(screen, "#clocks")


async def test_a_ruling_cannot_make_a_press_vanish(tmp_path: Path) -> None:
    """A table service runs on t1.sqlite; the console, offline on the same file, is
    refused an adjustment, saying who holds the log; the table's next press is in the
    log and in the timeline, and the scores are the table's."""
    log = tmp_path / "t1.sqlite"
    tl = FakeTimeline(1_000_000)
    start = GameStarted(variant="toronto-speed", players=("Ann", "Ben"))
    async with TableService(log, timeline=tl, heartbeat_ms=0) as svc:
        await svc.submit(start)
        tl.advance(10_000)
        await svc.submit(ClockPressed(player=0))
        await svc.submit(TurnScored(player=0, score=40, first_letter="A", turn=1))
        await settle(svc)
        held = holder(log)
        assert held is not None
        app = DirectorApp(console_config(tmp_path, [log]))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: len(app.rows) == 1, "the table")
            await select(pilot, "t1")
            before = log_rows(log)
            await pilot.press("a")  # adjust: refused before the dialog opens
            await until(pilot, lambda: "refused" in app.feedback, "the refusal")
            assert app.feedback == (
                f"t1: refused: t1.sqlite is held by {held}: rule from the console "
                "connected to the venue broker, or stop the table first"
            )
            assert log_rows(log) == before
            tl.advance(5_000)
            await svc.submit(ClockPressed(player=1))  # Ben's press lands
            await settle(svc)
            screen = await open_timeline(app, pilot)
            await pilot.press("u", "end")  # read the log again
            await until(pilot, lambda: "(4/4 of this game)" in text_of(screen, "#when"))
            assert "> 4 +0:15.0 clock_pressed Ben" in text_of(screen, "#events")
            assert screen.state.scores == svc.state.scores == (40, 0)


async def test_he_drew_before_i_could_challenge(tmp_path: Path) -> None:
    """NZASP 6.12.1.3: a play is accepted unless held or challenged before a replacement
    tile is drawn. Ann plays, records her score and draws; 1.5 s later Ben challenges.
    The refused challenge is in the timeline after the draw, with its reason, rule and
    game time."""
    cfg = config(tmp_path)
    tl = cfg.timeline
    assert isinstance(tl, FakeTimeline)
    async with TableApp(cfg).run_test(size=(100, 30)) as pilot:
        table = await started(pilot)
        tl.advance(20_000)
        await play(pilot, table, "8d windy", "[")
        tl.advance(2_000)
        await command(
            pilot, "written", lambda: (last := game(table).last) is not None and last.recorded
        )
        tl.advance(1_000)
        await command(pilot, "draw 5", lambda: game(table).owed[0] == 0)
        tl.advance(1_500)
        await command(pilot, "challenge windy", lambda: "refused" in screen_text(table))
    app = DirectorApp(console_config(tmp_path, [cfg.log]))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_timeline(app, pilot)
        await cursor_to(pilot, screen, 6)
        assert "event 6 (6/6 of this game)" in text_of(screen, "#when")
        assert "at +0:24.5 game time" in text_of(screen, "#when")
        events = text_of(screen, "#events")
        assert "5 +0:23.0 tiles_drawn Ann actor=player0 count=5" in events
        assert (
            "> 6 +0:24.5 REFUSED challenged Ben actor=player1 words=['WINDY']: the right to "
            "challenge 8D WINDY has lapsed [NZASP 6.12.1.3: accepted unless hold or challenge "
            "before a replacement tile is drawn]"
        ) in events
        # the state shown is the accepted events': the play stands
        assert screen.state.scores == (32, 0)
