"""The console's title and banner name the broker it follows, never a password given in
its URL."""

from __future__ import annotations

import doctest

from terminal_ui.director import app as director_app
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from tests.helpers import Broker, screen_text, until


def test_doctests() -> None:
    assert doctest.testmod(director_app).failed == 0


async def test_the_title_leaves_the_password_out(mosquitto: Broker) -> None:
    url = f"mqtt://director:hunter2-secret@{mosquitto.host}:{mosquitto.port}"
    app = DirectorApp(DirectorConfig(broker=url, name="Judge Dee", desk="test-desk"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert app.sub_title == f"Judge Dee | broker mqtt://director@127.0.0.1:{mosquitto.port}"
        assert "hunter2" not in app.title + app.sub_title
        assert "hunter2" not in str(app.screen.query_one("Header").render())


async def test_the_banner_leaves_the_password_out(mosquitto: Broker) -> None:
    url = f"mqtt://director:hunter2-secret@{mosquitto.host}:{mosquitto.port}"
    app = DirectorApp(DirectorConfig(broker=url, name="Judge Dee", desk="test-desk"))
    async with app.run_test(size=(160, 30)) as pilot:
        shown = f"broker mqtt://director@127.0.0.1:{mosquitto.port}: connected"
        await until(pilot, lambda: shown in screen_text(app), "the banner")  # type: ignore[arg-type]
        assert "hunter2" not in screen_text(app)  # type: ignore[arg-type]
