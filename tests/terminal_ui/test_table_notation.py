"""The table terminal checks a tile written on the board (issue 20 §5): ``H7 A(J)``
where H8 holds O is refused with the square and the letter there, never scored.
Driven with Textual's Pilot on a FakeTimeline, the log in ``tmp_path``."""

from __future__ import annotations

from pathlib import Path

from terminal_ui.table.app import TableApp
from tests.helpers import config, game, play, started, text_of, type_text


async def test_a_wrong_letter_in_parentheses_is_refused_with_the_square(tmp_path: Path) -> None:
    async with TableApp(config(tmp_path)).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8G NO", "[")  # O on 8H
        await type_text(pilot, "h7 a(j)")
        assert "'H7 A(J)' names 'J' on 8H, which holds 'O'" in text_of(app, "#feedback")
        await pilot.press("enter")  # refused at once: nothing is laid
        await pilot.pause()
        assert game(app).composing is None
        await pilot.press("ctrl+u")
        await type_text(pilot, "h7 a(o)")  # the tile that is there: played through
        assert "H7 A.: AO 2 = 2" in text_of(app, "#feedback")


async def test_a_play_over_a_tile_without_parentheses_says_how_to_write_it(
    tmp_path: Path,
) -> None:
    async with TableApp(config(tmp_path, variant="naspa")).run_test(size=(80, 24)) as pilot:
        app = await started(pilot)
        await play(pilot, app, "8H XI", "[")  # X on 8H
        await type_text(pilot, "h7 aj")
        said = "play 'H7 AJ' puts 'J' on 8H, which already holds 'X': write it as A(X) or A."
        assert text_of(app, "#feedback") == said  # live, as it is typed
        plays = len(game(app).history)
        await pilot.press("enter")  # refused at once: nothing is laid, nothing logged
        await pilot.pause()
        assert text_of(app, "#feedback") == said
        assert game(app).composing is None
        assert len(game(app).history) == plays
        await pilot.press("ctrl+u")
        await type_text(pilot, "h7 a(x)")  # as it says: played through
        assert "H7 A.: AX" in text_of(app, "#feedback")
