"""The clock device's own display and buzzer: what the host sends and when
(clock/table/display.py; docs/clock-protocol.md). Fake time, no sleeping."""

from __future__ import annotations

from pathlib import Path

from clock.device.emulated import EmulatedClock
from clock.table.display import next_display_change
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import (
    ClockPressed,
    GameStarted,
    HoldCalled,
    HoldReleased,
    Neutralized,
    Resigned,
    Resumed,
    TilesPlaced,
)
from tests.helpers import settle

SPEED = GameStarted(variant="toronto-speed", players=("Ann", "Ben"))
NZASP = GameStarted(variant="nzasp", players=("Ann", "Ben"))


async def test_overtime_and_the_cutoff_show_on_the_clock_and_beep_once(tmp_path: Path) -> None:
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=180_000)
    async with TableService(tmp_path / "t.db", timeline=tl, heartbeat_ms=0, device=dev) as svc:
        await svc.submit(SPEED)
        await settle(svc)
        assert dev.text == ""
        assert dev.beeps == 0
        tl.advance(180_000)  # Ann's 3:00 run out: not yet over
        await settle(svc)
        assert dev.text == ""
        tl.advance(1)  # one millisecond over: overtime, one point (a second or part)
        await settle(svc)
        assert dev.text == "OVERTIME Ann -1 (1 per started s)"
        assert dev.beeps == 1
        tl.advance(30_000)
        await settle(svc)
        assert dev.text == "OVERTIME Ann -31 (1 per started s)"
        assert dev.beeps == 1  # the overtime beep sounds once
        tl.advance(31_000)  # -1:01.001: no more plays (TOR-8)
        await settle(svc)
        assert svc.state.locked[0]
        assert dev.text == "CUTOFF Ann"
        assert dev.beeps == 2


async def test_hold_neutral_and_the_result_show_on_the_clock(tmp_path: Path) -> None:
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=1_500_000)
    async with TableService(tmp_path / "t.db", timeline=tl, heartbeat_ms=0, device=dev) as svc:
        await svc.submit(NZASP)
        await svc.submit(TilesPlaced(player=0, move="8D WINDY", score=32))
        await svc.submit(ClockPressed(player=0))
        await svc.submit(HoldCalled(player=1))
        await settle(svc)
        assert dev.text == "HOLD"
        await svc.submit(HoldReleased(player=1))
        await settle(svc)
        assert dev.text == ""
        assert (await svc.submit(Neutralized(reason="dispute", by="director"), "director")).accepted
        await settle(svc)
        assert dev.text == "NEUTRAL (director)"
        assert (await svc.submit(Resumed(by="director", director=True), "director")).accepted
        await settle(svc)
        assert dev.text == ""
        assert (await svc.submit(Resigned(player=1))).accepted
        await settle(svc)
        assert svc.state.result is not None
        assert dev.text == "Ann wins: Ben resigned"
        assert dev.beeps == 0


def test_the_display_wakes_when_time_alone_changes_it() -> None:
    # Toronto: 1 point per second or part. Running with 10 s left: the next change is
    # at the first millisecond over; 2.5 s over: at 3 s and a millisecond.
    from engine import GameState, apply

    state = apply(GameState(), GameStarted(t=0, variant="toronto-speed", players=("A", "B")))
    assert state.clock.running == 0
    assert next_display_change(state, 170_000) == 180_001
    assert next_display_change(state, 182_500) == 183_001
    nz = apply(GameState(), GameStarted(t=0, variant="nzasp", players=("A", "B")))
    # NZASP: 10 points per minute or part: 30 s over, the next change at 1:00 and a bit
    assert next_display_change(nz, 1_530_000) == 1_560_001


async def test_the_pause_button_cannot_resume_a_directors_neutralization(tmp_path: Path) -> None:
    # docs/clock-protocol.md, Session 5: PAUSE resumes a clock the players stopped,
    # not one the director stopped.
    tl = FakeTimeline()
    dev = EmulatedClock(tl, initial_ms=1_500_000)
    async with TableService(tmp_path / "t.db", timeline=tl, heartbeat_ms=0, device=dev) as svc:
        await svc.submit(NZASP)
        dev.pause_button()
        await settle(svc)
        assert svc.state.clock.neutral is not None
        dev.pause_button()
        await settle(svc)
        assert svc.state.clock.neutral is None  # the players' own pause: resumed
        await svc.submit(Neutralized(reason="ruling", by="director"), "director")
        dev.pause_button()
        await settle(svc)
        assert svc.state.clock.neutral is not None  # the director's: still stopped
        assert dev.text == "NEUTRAL (director)"
