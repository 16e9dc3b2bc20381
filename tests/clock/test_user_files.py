"""The files a user names (clock.user_files): the engine never opens them, the edge
reads them, builds them with the engine's parsers and registers them under the
name a game uses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clock import user_files as files
from clock.log.log_files import load_log
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.errors import DataFileError
from engine.events import Event, GameStarted, Passed, encode_event
from engine.rules import variant as engine_variants
from engine.rules.machine import apply
from engine.rules.replay import replay
from engine.rules.state import GameState, Phase
from terminal_ui.cli import main as cli_main
from tests.helpers import BAD, GOOD

TINY_TILES = """\
name = "tiny"
rack_size = 3
[tiles]
A = [20, 1]
B = [10, 3]
"?" = [2, 0]
"""

SMALL_LAYOUT = """\
T...T
.t...
..*..
...d.
T...T
"""


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_engine_does_not_open_a_users_file(tmp_path: Path) -> None:
    name = write(tmp_path / "club.toml", 'extends = "nzasp"\n[params]\ninitial_ms = 60000\n')
    with pytest.raises(DataFileError, match="no variant named"):
        engine_variants.load_variant(name)
    assert files.load_variant(name).initial_ms == 60000
    # Read at the edge, it is registered: the engine now resolves the name.
    assert engine_variants.load_variant(name).initial_ms == 60000


def test_a_variant_file_extends_another_and_names_equipment_files(tmp_path: Path) -> None:
    tiles = write(tmp_path / "tiny.toml", TINY_TILES)
    layout = write(tmp_path / "small.txt", SMALL_LAYOUT)
    base = write(
        tmp_path / "club-base.toml",
        f'extends = "nzasp"\n[params]\ntile_set = "{tiles}"\nlayout = "{layout}"\n',
    )
    name = write(
        tmp_path / "club.toml",
        f'name = "club"\ntitle = "Club"\nextends = "{base}"\n[params]\ninitial_ms = 600000\n',
    )
    v = files.load_variant(name)
    assert (v.name, v.title, v.initial_ms, v.tile_set, v.layout) == (
        "club",
        "Club",
        600000,
        tiles,
        layout,
    )
    assert v.params["tile_set"].defined_in == "club-base"
    assert v.params["initial_ms"].source == "club (director's override)"
    assert v.params["challenge_points"].defined_in == "nzasp"
    # A game started by that name plays on the registered equipment.
    st = apply(GameState(), GameStarted(t=0, variant=name, players=("Ann", "Ben")))
    assert st.board is not None
    assert (st.board.layout.rows, st.board.layout.cols) == (5, 5)
    assert st.bag == 32 - 2 * 3


def test_a_variant_that_extends_itself_is_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    write(a, f'extends = "{b}"\n')
    write(b, f'extends = "{a}"\n')
    with pytest.raises(DataFileError, match="extends itself"):
        files.load_variant(str(a))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('extends = "nzasp"\n[params]\nmode = "paper"\n', "expected one of board, scoresheet"),
        ('extends = "nzasp"\n[params]\ninitial_ms = "soon"\n', "must be a whole number >= 0"),
        ('extends = "nzasp"\n[params]\nbye_spread = -50\n', "must be a whole number >= 0"),
        ('extends = "nzasp"\n[params]\nhold_allowed = 1\n', "must be true or false"),
        ('extends = "nzasp"\n[params]\nend_rule = 3\n', "must be a string"),
        ('extends = "nzasp"\n[params]\ninitial_ms = 0\n', "initial_ms must be at least 1"),
        ('extends = "nzasp"\n[params]\nspeed = 1\n', "unknown parameter 'speed'"),
        ('extends = "nzasp"\nspeed = 1\n', "unknown key(s) speed"),
        ('extends = "klingon"\n', "no variant named 'klingon'"),
        ("[params]\ninitial_ms = 1\n", "leaves unset"),
        ("extends = \n", "variant '"),
    ],
)
def test_a_bad_variant_file_says_why(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "bad.toml", text)
    with pytest.raises(DataFileError) as info:
        files.load_variant(path)
    assert message in str(info.value)


def test_a_variant_naming_a_missing_tile_set_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "v.toml", 'extends = "nzasp"\n[params]\ntile_set = "klingon"\n')
    with pytest.raises(DataFileError, match="no tile named 'klingon'"):
        files.load_variant(path)


def _jsonl(path: Path, variant: str) -> Path:
    events: list[Event] = [
        GameStarted(t=0, variant=variant, players=("Ann", "Ben")),
        Passed(t=1000, player=0),
    ]
    path.write_bytes(b"".join(encode_event(e) + b"\n" for e in events))
    return path


def test_a_log_naming_a_variant_file_replays(tmp_path: Path) -> None:
    variant = write(tmp_path / "slow.toml", 'extends = "nzasp"\n[params]\ninitial_ms = 3600000\n')
    events, bad = load_log(_jsonl(tmp_path / "game.jsonl", variant))
    state, rejected = replay(events)
    assert (bad, rejected) == ([], [])
    assert state.variant is not None
    assert state.variant.initial_ms == 3_600_000
    assert state.phase is Phase.PLAYING
    assert state.turn == 1


def test_a_log_naming_a_broken_variant_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    variant = write(tmp_path / "broken.toml", "extends = \n")
    files.register_variant_files([GameStarted(variant=variant, players=("Ann", "Ben"))])
    state, rejected = replay([(1, GameStarted(t=0, variant=variant, players=("Ann", "Ben")))])
    assert state.phase is Phase.NOT_STARTED
    [refused] = rejected
    assert refused.reason.startswith(f"unknown variant {variant!r}: variant {variant!r}: ")


async def test_the_service_reads_the_variant_file_of_a_log_it_resumes(tmp_path: Path) -> None:
    variant = write(tmp_path / "slow.toml", 'extends = "nzasp"\n[params]\ninitial_ms = 3600000\n')
    log = tmp_path / "t.db"
    timeline = FakeTimeline()
    async with TableService(log, timeline=timeline, heartbeat_ms=0) as svc:
        ack = await svc.submit(GameStarted(variant=variant, players=("Ann", "Ben")))
        assert ack.accepted, ack.reason
    engine_variants.register_variant(variant, DataFileError("forgotten"))  # a new process
    async with TableService(log, timeline=timeline, heartbeat_ms=0) as svc:
        assert svc.rejected_on_load == []
        assert svc.state.variant is not None
        assert svc.state.variant.initial_ms == 3_600_000


def test_gcg_check_takes_the_rules_from_a_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = GOOD / "six_scoreless.gcg"
    assert cli_main(["gcg", "check", "--json", str(game)]) == 0
    assert json.loads(capsys.readouterr().out)["complete"] is True
    five = write(tmp_path / "five.toml", 'extends = "nzasp"\n[params]\nscoreless_turns = 5\n')
    assert cli_main(["gcg", "check", "--json", "--variant", five, str(game)]) == 1
    messages = [e["message"] for e in json.loads(capsys.readouterr().out)["errors"]]
    assert "pass by ben after the game ended (5 scoreless turns)" in messages

    low = BAD / "exchange_low_bag.gcg"
    needed = "at least 7 needed"
    assert cli_main(["gcg", "check", "--json", str(low)]) == 1
    assert any(needed in e["message"] for e in json.loads(capsys.readouterr().out)["errors"])
    one = write(tmp_path / "one.toml", 'extends = "nzasp"\n[params]\nexchange_min_bag = 1\n')
    cli_main(["gcg", "check", "--json", "--variant", one, str(low)])
    assert not any(needed in e["message"] for e in json.loads(capsys.readouterr().out)["errors"])


def test_gcg_check_refuses_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["gcg", "check", "--variant", "klingon", str(GOOD / "six_scoreless.gcg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rackclock gcg check: no variant named 'klingon'")
