"""The scorekeeper's clock box shows the penalty the result counts: after a resignation
in overtime, none, as the table's clock box, the report and the summary say
(engine's ``penalty_counted``). A Textual Pilot on the clock box alone, fed states the
engine made from a Toronto game (tests/scenarios/toronto-speed/resign_overtime.jsonl).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from engine import apply
from engine.events import GameStarted, Resigned
from engine.rules.state import GameState
from terminal_ui.scorekeeper.widgets import SheetClock

AT = 250_000
"""Ann's clock ran from the start: 3:00 gone and 1:10 over (TOR-7: 1 point a second)."""


class _Box(App[None]):
    def compose(self) -> ComposeResult:
        yield SheetClock(id="p0")


def _status(app: _Box) -> str:
    return str(app.query_one("#p0 .status", Static).render())


async def test_the_clock_box_counts_no_penalty_after_a_resignation() -> None:
    state = apply(GameState(), GameStarted(variant="toronto-speed", players=("Ann", "Ben"), t=0))
    app = _Box()
    async with app.run_test() as pilot:
        box = app.query_one(SheetClock)
        box.show(state, 0, AT)
        await pilot.pause()
        assert "penalty -70" in _status(app)  # the game on: the penalty so far
        over = apply(state, Resigned(player=1, t=AT))
        assert over.result is not None
        assert over.result.penalties == (0, 0)
        box.show(over, 0, AT)
        await pilot.pause()
        assert "penalty -0" in _status(app)  # the result counts none
