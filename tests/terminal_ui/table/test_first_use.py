"""The table terminal tried as a new player would (issue 25, section 3): the clocks
behind the start screen, the challenge picker's boxes, the overdraw ruling, hints that
fit the status line and follow the game, quitting before the signatures, and the next
game after a resumed log. Pilot, fake time, a real log on disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Digits, Static

from clock.timeline import FakeTimeline
from engine.events import GameStarted, Overdrawn, TilesDrawn, TilesPlaced
from engine.rules.machine import apply
from engine.rules.state import GameState, Phase
from engine.rules.variant import list_variants
from terminal_ui.shared.widgets import PlayerClock
from terminal_ui.table.app import TableApp
from terminal_ui.table.screens import ChallengeScreen, QuitScreen, StartScreen, SummaryScreen
from tests.helpers import (
    T0,
    command,
    config,
    game,
    play,
    rulings,
    screen_text,
    started,
    text_of,
    until,
)
from tests.support.tmux import squeeze

LONG_NAMES = ("Annabelle Whitcombe-Fairweather", "Benjamin Okonkwo-Hartley")
"""Names as long as a tournament's entry list holds: every hint names them."""


def phase_line(app: TableApp) -> str:
    """The status line's text (on the table, under any dialog), its words single-spaced."""
    line = app.screen_stack[0].query_one("#phase", Static)
    return squeeze(str(line.content))


def clock_reading(app: TableApp, seat: int) -> str:
    """What a player's big clock digits read now."""
    return app.query_one(f"#p{seat}", PlayerClock).query_one(Digits).value


# --- 1. the clocks behind the start screen ---------------------------------------------------


async def test_the_clocks_read_the_starting_time_behind_the_start_screen(tmp_path: Path) -> None:
    cfg = config(tmp_path, variant="toronto-speed", mode="board")
    tl = cfg.timeline
    assert isinstance(tl, FakeTimeline)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, TableApp)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert "Time    3:00 each" in screen_text(app)
        assert [clock_reading(app, s) for s in (0, 1)] == ["3:00", "3:00"]  # not 0:00
        await pilot.press("f1")
        await until(pilot, lambda: game(app).phase is Phase.PLAYING, "the game")
        await until(pilot, lambda: not isinstance(app.screen, StartScreen), "the table")
        tl.advance(65_000)  # Ann's clock runs: the game's own reading, no longer the start's
        await until(pilot, lambda: clock_reading(app, 0) == "1:55", "Ann's clock to run")
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the next start screen")
        # the next game's clocks, not the last game's 1:55
        assert [clock_reading(app, s) for s in (0, 1)] == ["3:00", "3:00"]


# --- 2. the challenge picker ---------------------------------------------------------------


def box_of(shown: str, word: str) -> str:
    """What the picker's box beside ``word`` holds."""
    found = re.search(rf"▐(.)▌ {word}\b", shown)
    assert found is not None, (word, shown)
    return found.group(1)


async def test_only_the_words_chosen_show_an_x(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        await play(pilot, app, "7c galey", "]")
        await command(pilot, "challenge", lambda: isinstance(app.screen, ChallengeScreen))
        shown = screen_text(app)
        assert [box_of(shown, w) for w in ("GALEY", "AW", "YD")] == ["X", "X", "X"]
        await pilot.press("space")  # GALEY (highlighted) left out
        await pilot.pause()
        shown = screen_text(app)
        assert box_of(shown, "GALEY") == " "  # an empty box, not a dim X
        assert [box_of(shown, w) for w in ("AW", "LI", "EN", "YD")] == ["X"] * 4
        await pilot.press("space")  # chosen again
        await pilot.pause()
        assert box_of(screen_text(app), "GALEY") == "X"


# --- 3. the overdraw ruling ----------------------------------------------------------------


async def test_the_overdraw_ruling_says_once_who_chooses(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(100, 30)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        await command(pilot, "overdraw 1", lambda: game(app).phase is Phase.OVERDRAW)
        newest = game(app).rulings[-1]
        said = f"{newest.rule}: {newest.text}"
        # NZASP 6.1.3.4: the one who finds the tiles (Ben) chooses from Ann's rack
        assert said.startswith("NZASP 6.1.3.4")
        assert "Ann turns the rack to Ben, who chooses 1 tile to return to the bag" in said
        assert said.count("choose") == 1, said
        await until(pilot, lambda: "Ben, who chooses" in rulings(app), "the ruling shown")


def overdrawn(variant: str, *, on_rack: bool) -> str:
    """The ruling (rule: text) when Ann, who played 8D WINDY, holds a tile too many:
    found on her rack, or drawn one too many."""
    st = apply(GameState(), GameStarted(variant=variant, players=("Ann", "Ben"), mode="board"), 0)
    st = apply(st, TilesPlaced(player=0, move="8D WINDY"), 1_000)
    if on_rack:
        st = apply(st, Overdrawn(player=0, extra=1, on_rack=True), 2_000)
    else:
        st = apply(st, TilesDrawn(player=0, count=6), 2_000)
    assert st.phase is Phase.OVERDRAW, st.describe_phase()
    ruling = st.rulings[-1]
    return f"{ruling.rule}: {ruling.text}"


@pytest.mark.parametrize("on_rack", [True, False], ids=["found on the rack", "drawn"])
@pytest.mark.parametrize("variant", list_variants())
def test_every_variants_overdraw_names_the_chooser_once(variant: str, *, on_rack: bool) -> None:
    said = overdrawn(variant, on_rack=on_rack)
    choosing = re.findall(r"\b(choose|chooses|picks|pick)\b", said)
    assert len(choosing) == 1, said  # who chooses, said once
    assert "Ben, who chooses" in said or "Ben picks" in said, said  # Ann's opponent
    # named, not "the opponent" or "the player", which the rule's own words use the
    # other way round (NZASP 6.1.3.4: "the player" finds the tiles)
    assert "opponent" not in said, said
    assert "the player" not in said, said


# --- 4. hints that fit -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_every_hint_fits_the_status_line(tmp_path: Path, size: tuple[int, int]) -> None:
    async with TableApp(config(tmp_path, players=LONG_NAMES)).run_test(size=size) as pilot:
        app = await started(pilot)

        async def shown_whole(what: str) -> None:
            hint = phase_line(app)
            assert what in hint, hint
            await until(pilot, lambda: hint in squeeze(screen_text(app)), f"{hint!r} whole")

        await play(pilot, app, "8d windy", "[")
        await command(pilot, "neutral lighting", lambda: game(app).clock.neutral is not None)
        await shown_whole("type resume to restart the clock")
        await command(pilot, "resume", lambda: game(app).clock.neutral is None)
        await command(pilot, "dispute", lambda: game(app).phase is Phase.SCORE_DISPUTE)
        await shown_whole("type dispute N with the agreed score")
        await command(pilot, "dispute 32", lambda: game(app).phase is Phase.PLAYING)
        for n in range(6):
            await command(pilot, "pass", lambda n=n: len(game(app).history) > n + 1)  # type: ignore[misc]
        await until(pilot, lambda: game(app).phase is Phase.END_RACKS, "the end")
        await shown_whole("type racks AEI -")


# --- 5. hints that follow the game ---------------------------------------------------------------


async def test_the_hints_follow_the_signatures_and_a_resignation(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8d windy", "[")
        assert "8D WINDY may be challenged" in phase_line(app)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)  # Ben resigns
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        assert "may be challenged" not in phase_line(app)  # the game is over
        assert "each player signs with their clock key" in phase_line(app)
        assert "Each player confirms with their clock key" in text_of(app, "#how")
        await pilot.press("f2")
        await until(pilot, lambda: game(app).signed == (False, True), "Ben's signature")
        await until(pilot, lambda: "Ann signs with their clock key" in phase_line(app), "Ann")
        await pilot.press("f1")
        await until(pilot, lambda: game(app).signed == (True, True), "Ann's signature")
        await until(pilot, lambda: "both have signed" in phase_line(app), "both")
        assert "signs with" not in phase_line(app)
        assert "ctrl+N" in phase_line(app)
        # the summary, still up, follows the signatures too
        await until(pilot, lambda: "Both players have signed" in text_of(app, "#how"), "it")
        assert "confirms" not in text_of(app, "#how")


# --- 6. quitting before the signatures ---------------------------------------------------------


async def test_quitting_a_finished_unsigned_game_asks_first(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    async with TableApp(cfg).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        assert "Quit before both players have signed?" in screen_text(app)
        assert f"rackclock table --log {cfg.log}" in text_of(app, "#quit-resume")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "back to the summary")
        assert app.is_running
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
        await pilot.press("ctrl+q")  # signed: nothing is left to keep, it quits at once
        await until(pilot, lambda: not app.is_running, "the app to quit")


# --- 7. the next game after a resumed log -------------------------------------------------------


async def test_the_next_game_after_a_resumed_log_keeps_its_players_and_rules(
    tmp_path: Path,
) -> None:
    first = config(tmp_path, variant="toronto-speed", mode="board")
    async with TableApp(first).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
    # reopened as `rackclock table --log FILE` would: the command line's own defaults
    resumed = config(tmp_path, players=("Player 1", "Player 2"), timeline=FakeTimeline(T0 + 9))
    assert resumed.variant == "nzasp"
    async with TableApp(resumed).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the next start screen")
        shown = screen_text(app)
        facts = ("Left    Ben", "Right   Ann", "Toronto speed play", "3:00 each", "Starts  Ben")
        for fact in facts:
            assert fact in shown, (fact, shown)
        assert "Player" not in shown
        assert [clock_reading(app, s) for s in (0, 1)] == ["3:00", "3:00"]
        await pilot.press("f1")
        await until(pilot, lambda: game(app).games == 2, "the next game")
        assert game(app).players == ("Ben", "Ann")
        variant = game(app).variant
        assert variant is not None
        assert variant.name == "toronto-speed"


def header(app: TableApp) -> str:
    """The header's line as shown (title and sub-title), its words single-spaced."""
    return squeeze(screen_text(app).splitlines()[0])


async def test_a_resumed_logs_header_names_its_rules_not_the_command_lines(
    tmp_path: Path,
) -> None:
    """The header names the rules the log's game is played under, by the variant's
    name: a variant file's own name, not its path; the command line's default
    ``nzasp`` nowhere, before ctrl+N or after."""
    variant = tmp_path / "club-night.toml"
    variant.write_text(
        'name = "club-night"\ntitle = "Club night"\nextends = "toronto-speed"\n', encoding="utf-8"
    )
    first = config(tmp_path, variant=str(variant), mode="board")
    async with TableApp(first).run_test(size=(120, 30)) as pilot:
        app = await started(pilot)
        assert "rackclock — club-night | log " in header(app), header(app)
        await command(pilot, "resign", lambda: game(app).phase is Phase.OVER)
    resumed = config(tmp_path, timeline=FakeTimeline(T0 + 9))
    assert resumed.variant == "nzasp"
    async with TableApp(resumed).run_test(size=(120, 30)) as pilot:
        app = await started(pilot)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        assert app.sub_title == f"club-night | log {resumed.log}"
        assert "club-night | log" in header(app)
        assert "nzasp" not in header(app)
        await pilot.press("f1", "f2")
        await until(pilot, lambda: game(app).signed == (True, True), "both signatures")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the next start screen")
        assert "Rules   Club night" in screen_text(app)
        assert app.sub_title.startswith("club-night | ")
        await pilot.press("f1")
        await until(pilot, lambda: game(app).games == 2, "the next game")
        assert app.sub_title.startswith("club-night | ")
        assert "toml" not in app.sub_title
