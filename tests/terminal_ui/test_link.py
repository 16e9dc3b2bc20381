"""The clock device's link on the table terminal: shown at all times, and an offline
clock is an alarm, never a quiet line (issue 12, "Show the link")."""

from __future__ import annotations

from pathlib import Path

from clock.table.service import Status, Update
from clock.timeline import FakeTimeline
from terminal_ui.shared.link_status import link_text
from terminal_ui.table.app import TableApp
from tests.helpers import T0, config, started, text_of, until


def test_each_state_of_the_link_reads_plainly() -> None:
    assert link_text(Status(attached=False), 0) == ("clock: none (the keys are the clock)", False)
    assert link_text(Status(), 0) == ("clock: connecting...", False)
    assert link_text(Status(True, "clock-7"), 0) == ("clock: connected (clock-7)", False)
    text, alarm = link_text(Status(False, "clock-7", "cable [unplugged]", 5_000), 65_000)
    assert alarm
    assert text.startswith("[b]CLOCK OFFLINE for 1:00[/b] (cable \\[unplugged]): reconnecting")


async def test_the_table_shows_its_clock_and_sounds_the_alarm_when_it_goes(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path)
    app = TableApp(cfg)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        await until(pilot, lambda: "connected (emulated)" in text_of(app, "#link"), "the link")
        assert not app.query_one("#link").has_class("alarm")
        assert isinstance(cfg.timeline, FakeTimeline)
        cfg.timeline.advance(42_000)
        gone = Status(False, "emulated", "cable unplugged", T0)
        app.on_update(Update(app.state, gone))
        await pilot.pause()
        await until(pilot, lambda: "OFFLINE" in text_of(app, "#link"), "the alarm")
        assert text_of(app, "#link").startswith("CLOCK OFFLINE for 0:42 (cable unplugged)")
        assert app.query_one("#link").has_class("alarm")
        app.on_update(Update(app.state, Status(True, "emulated")))
        await until(pilot, lambda: "connected" in text_of(app, "#link"), "back")
        assert not app.query_one("#link").has_class("alarm")


def test_the_director_reads_how_long_a_tables_clock_has_been_gone() -> None:
    from terminal_ui.director.rows import device_note

    gone = {"online": False, "id": "c7", "reason": "cable unplugged", "offline_since_ms": 5_000}
    # the state was published at table time 35 s and is 10 s old: gone for 40 s
    assert device_note(gone, 35_000, 10_000) == "clock offline 0:40 (cable unplugged)"
    assert device_note({"online": True, "offline_since_ms": None}, 35_000, 0) == ""
    assert device_note({**gone, "reason": ""}, None, 0) == "clock offline"
