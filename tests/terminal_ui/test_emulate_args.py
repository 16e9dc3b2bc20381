"""``emulate-clock --mqtt URL`` without ``--table`` asks for one unless the URL's path
names the table, as the one broker URL parser reads it; a URL it refuses is refused
with its reason. Checked before any broker is reached."""

from __future__ import annotations

import pytest

from terminal_ui.cli import main


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mqtt://127.0.0.1:9", "rackclock emulate-clock: --mqtt needs --table\n"),
        ("mqtt://127.0.0.1:9/", "rackclock emulate-clock: --mqtt needs --table\n"),
        ("mqtt://127.0.0.1:9?keepalive=5", "rackclock emulate-clock: --mqtt needs --table\n"),
        (
            "ftp://127.0.0.1/club/t1",
            "rackclock emulate-clock: broker URL 'ftp://127.0.0.1/club/t1' must start with "
            "mqtt:// or mqtts://\n",
        ),
    ],
)
def test_a_url_without_its_table_is_refused_at_once(
    url: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["emulate-clock", "--mqtt", url]) == 2
    assert capsys.readouterr().err == said
