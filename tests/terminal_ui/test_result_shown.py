"""A finished game shows who won and why, the one way (``result_text``), on the
director's overview (its phase column) and on the venue page's table card (worded
by the page's model, the winner's seat named), never as the bare scores that read
the resigner's lead as a win."""

from __future__ import annotations

import json
import time

from engine.events import ClockPressed, Event, GameStarted, Resigned, TilesPlaced
from engine.rules.replay import replay, report
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.page.model import VenueModel
from terminal_ui.director.overview import row_cells
from terminal_ui.director.rows import summarize

# Ann Ames leads 32-0 and resigns: Ann Able wins by rule (the walk-through)
RESIGNED: list[Event] = [
    GameStarted(t=0, variant="naspa", players=("Ann Ames", "Ann Able")),
    TilesPlaced(t=1_000, player=0, move="8D WINDY"),
    ClockPressed(t=1_500, player=0),
    Resigned(t=3_000, player=0),
]
WORDS = (
    "game over: Ann Able wins: Ann Ames resigned (scores Ann Able 0, Ann Ames 32; "
    "spread 50 by rule)"
)


def finished() -> dict[str, object]:
    state, refused = replay(list(enumerate(RESIGNED, start=1)))
    assert not refused, refused
    return report(state, live=True)


def test_the_overview_says_who_won_a_resigned_game() -> None:
    rep = finished()
    assert rep["scores"] == [32, 0]  # the resigner ahead
    row = summarize("t1", "t1", rep)
    assert row_cells(row)[6] == WORDS


def test_the_page_card_says_who_won_a_resigned_game() -> None:
    model = VenueModel("club")
    doc = {
        "seq": 4,
        "published_at_ms": time.time_ns() // 1_000_000,
        "expires_s": 60,
        "state": finished(),
    }
    model.take(TableTopics("club", "t1").live, json.dumps(doc).encode())
    card = model.summary("t1")
    assert (card["phase_text"], card["winner"]) == (WORDS, 1)
    assert card["players"][card["winner"]] == "Ann Able"
