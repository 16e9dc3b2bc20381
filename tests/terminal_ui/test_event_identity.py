"""A table's game belongs to one event: the assignment names the event (its name and
identity, the digest of the event log's first record), the table's game carries them,
and ``event results`` refuses a game of another event, even with the same players,
round and table. A game started by hand (naming no event) is matched as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.log.eventlog import EventLog
from clock.table.session import TableSession, TableSpec, assigned
from clock.timeline import FakeTimeline
from clock.tournament.ledger import EventLedger, read_ledger, verify_ledger
from engine.events import GameStarted, Resigned, Signed
from engine.tournament.pairing.pair_round import draw
from firmware_bridge.venue.assignment_feed import load_assignment
from tests.terminal_ui.test_event import EVENT, new_event
from tests.terminal_ui.test_event_intake import refused, run


def other_event(tmp_path: Path) -> Path:
    """Another event, "Other", with the same players, round 1 paired the same way."""
    text = EVENT.replace('name = "Club night"', 'name = "Other"')
    log = tmp_path / "other.sqlite"
    with EventLedger.create(log, text, "other.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
    return log


async def played(path: Path, source: str) -> Path:
    """Round 1's game at the table ``source`` assigns, resigned and signed (as
    ``rackclock serve --assignment SOURCE`` starts it)."""
    game = load_assignment(source)
    spec = assigned(TableSpec(log=path, variant=game.variant, heartbeat_ms=0), game)
    async with TableSession(spec, timeline=FakeTimeline(1_000)) as session:
        for event in (Resigned(player=1), Signed(player=0), Signed(player=1)):
            assert (await session.service.submit(event)).accepted
    return path


async def test_a_game_of_another_event_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    walk = new_event(tmp_path)
    other = other_event(tmp_path)
    assert read_ledger(other).id != read_ledger(walk).id
    game = load_assignment(f"{other}@t1")
    assert (game.event, game.event_id) == ("Other", read_ledger(other).id)
    t1 = await played(tmp_path / "other_t1.sqlite", f"{other}@t1")
    with EventLog.open_readonly(t1) as log:
        start = next(ev for _, ev in log.events() if isinstance(ev, GameStarted))
    assert (start.event, start.event_id) == ("Other", game.event_id)
    before = verify_ledger(walk)
    line = refused(*run(capsys, "event", "results", walk, t1)[::2])
    assert line.endswith(f"{t1} game 1: a game of event 'Other', not of 'Club night'"), line
    assert verify_ledger(walk) == before
    # the event it belongs to takes it
    code, out, err = run(capsys, "event", "results", other, t1)
    assert code == 0, err
    assert "Ann Able" in out


async def test_a_game_started_by_hand_names_no_event_and_is_matched_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    walk = new_event(tmp_path)
    game = load_assignment(f"{walk}@t1")
    t1 = await played(tmp_path / "t1.sqlite", f"{walk}@t1")
    assert game.event == "Club night"
    # by hand: the same game's fields without the event
    spec = TableSpec(
        log=tmp_path / "hand.sqlite",
        variant=game.variant,
        players=game.players,
        round=1,
        division="A",
        table="t1",
        heartbeat_ms=0,
    )
    async with TableSession(spec, timeline=FakeTimeline(1_000)) as session:
        for event in (Resigned(player=1), Signed(player=0), Signed(player=1)):
            assert (await session.service.submit(event)).accepted
    code, _, err = run(capsys, "event", "results", walk, tmp_path / "hand.sqlite")
    assert code == 0, err
    code, _, err = run(capsys, "event", "results", walk, t1)  # the same result: a no-op
    assert code == 0, err


async def test_another_event_of_the_same_name_is_told_by_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    walk = new_event(tmp_path)
    (tmp_path / "again").mkdir()
    twin = new_event(tmp_path / "again")  # the same file made into a log again: a new id
    assert read_ledger(twin).id != read_ledger(walk).id
    t1 = await played(tmp_path / "twin_t1.sqlite", f"{twin}@t1")
    line = refused(*run(capsys, "event", "results", walk, t1)[::2])
    assert f"a game of another event named 'Club night' (id {read_ledger(twin).id};" in line
