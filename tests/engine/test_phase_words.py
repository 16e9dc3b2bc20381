"""One phase-to-words mapping (``GameState.describe_phase``, its long form and the
clock line's short form side by side, and ``game_over_words`` for a game over with
its result): the report's readers word a table's phase the same from the typed
report the page and the console read as from one as JSON gives it (read once into
the struct), and the clock's line says the short form."""

from __future__ import annotations

from clock.table.display import display_text
from engine.events import ClockPressed, Event, GameStarted, HoldCalled, Resigned, TilesPlaced
from engine.rules.machine import apply
from engine.rules.replay import live_report, replay, report
from engine.rules.state import GameState, Phase
from engine.tournament.live import TableGame, phase_words, result_words
from tests.support.gamelog import random_log

RESIGNED: list[Event] = [
    GameStarted(t=0, variant="naspa", players=("Ann Ames", "Ann Able")),
    TilesPlaced(t=1_000, player=0, move="8D WINDY"),
    ClockPressed(t=1_500, player=0),
    Resigned(t=3_000, player=0),
]


def states(events: list[Event]) -> list[GameState]:
    out, st = [], GameState()
    for ev in events:
        st = apply(st, ev, ev.t if ev.t is not None else st.t)
        out.append(st)
    return out


def test_the_typed_and_the_plain_report_are_worded_alike() -> None:
    seen: set[Phase] = set()
    for seed, variant in ((1, "nzasp"), (2, "naspa"), (3, "toronto-speed")):
        for st in [*states(random_log(seed, variant)), *states(RESIGNED)]:
            seen.add(st.phase)
            typed, plain = live_report(st), report(st, live=True)
            assert phase_words(typed) == phase_words(plain)
            assert TableGame.of(typed) == TableGame.of(plain)
            if st.phase is Phase.OVER and st.result is not None:
                assert phase_words(typed).startswith("game over: ")
            else:
                assert phase_words(typed) == st.describe_phase()
    assert {Phase.PLAYING, Phase.OVER} <= seen


def test_the_clock_line_says_the_short_form() -> None:
    over, _ = replay(list(enumerate(RESIGNED, start=1)))
    assert display_text(over, over.t) == over.describe_phase(short=True)
    assert over.describe_phase(short=True) == "Ann Able wins: Ann Ames resigned"
    held = states([*RESIGNED[:3], HoldCalled(t=2_000, player=1)])[-1]
    assert held.phase is Phase.HOLD
    assert (held.describe_phase(), held.describe_phase(short=True)) == (
        "hold called by Ann Able",
        "HOLD",
    )
    assert display_text(held, held.t) == "HOLD"
    playing = states(RESIGNED[:3])[-1]
    assert playing.describe_phase(short=True) == ""


def test_a_result_is_worded_as_the_game_over_says_it() -> None:
    """The director's event screen words an unsigned result as the overview's
    ``game over: ...`` does (a resignation names the resigner's lead as a loss)."""
    for seed, variant in ((1, "nzasp"), (2, "naspa"), (3, "toronto-speed")):
        for st in [*states(random_log(seed, variant)), *states(RESIGNED)]:
            plain = report(st, live=True)
            game = TableGame.of(plain)
            if game is None or game.result is None:
                continue
            assert phase_words(plain) == f"game over: {result_words(game.players, game.result)}"
    over = report(states(RESIGNED)[-1], live=True)
    game = TableGame.of(over)
    assert game is not None
    assert game.result is not None
    assert result_words(game.players, game.result).startswith("Ann Able wins: Ann Ames resigned")
