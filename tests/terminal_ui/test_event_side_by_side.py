"""The director's console and the command line on one event at once: what the shell
records (results, a new round's pairing, a withdrawal) shows on the console's event
screen at its next one-second refresh, and the console then takes the new round's
games (before, it kept the event it had read at start and refused round 2).

The console's refresh is driven by hand here (the callbacks its one-second timers
run), so the test does not sleep.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.tournament.ledger import EventLedger, verify_ledger
from engine.tournament.assignment import round_assignments
from terminal_ui.cli import main
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.event import EventScreen
from tests.terminal_ui.test_event import game, new_event, table_log


def shell(capsys: pytest.CaptureFixture[str], *args: str | int | Path) -> str:
    """``rackclock event ARGS`` in-process, as the director types it in another window."""
    code = main(["event", *map(str, args)])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


async def test_the_console_sees_what_the_shell_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = new_event(tmp_path)  # round 1 paired: Ann v Ben at t1, Cid v Dee at t2
    app = DirectorApp(DirectorConfig(logs=(), export_dir=tmp_path, event=log))
    assert app.config.refresh_s <= 1.0  # the tick that takes what others appended

    def tick() -> str:
        app.refresh_overview()  # the console's timer
        assert isinstance(app.screen, EventScreen)
        app.screen.redraw()  # the screen's timer
        return app.screen.shown

    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert "round 1 of 2" in tick()
        shell(capsys, "result", log, 1, "Ann Able", 420, "Ben Baker", 380)
        shell(capsys, "result", log, 1, "Cid Cole", 400, "Dee Dunn", 350)
        shown = tick()
        assert "Ann Able (first) v Ben Baker: 420 to 380  result in" in shown
        assert "Standings after round 1\n" in shown
        shell(capsys, "pair", log)  # round 2 from the shell
        shown = tick()
        assert "Division A, round 2 of 2 (koth)" in shown
        assert "Standings after round 1\n" in shown  # the complete rounds only
        assert "Standings with round 2 as it stands (0 of 2 results in, " in shown
        # the console takes round 2's games now (it refused them before)
        assert app.desk is not None
        t1 = next(a for a in round_assignments(app.desk.state, 2) if a.table == 1)
        path = table_log(
            tmp_path / "r2-t1.sqlite", game(t1.players, ("AEIRSTT", "AEILNOU"), rnd=2, sign=True)
        )
        app.desk.take_file(path, "r2-t1", "v1")
        shown = tick()
        assert f"{t1.players[0]} (first) v {t1.players[1]}: 25 to -7  result in" in shown
        await pilot.press("escape")
    # and the shell sees the console's result
    out = shell(capsys, "show", log)
    assert f"{t1.players[0]} (first) v {t1.players[1]}  25 to -7" in out
    with EventLedger.open(log, readonly=True) as ledger:
        assert ledger.state.division("A").results[2]
    assert verify_ledger(log).count == 6  # event, pairing, 2 results, pairing, result
