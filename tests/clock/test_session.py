"""One way to bring up a table: the session's clock, and its one rule for when a game starts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from clock.device.clock_spec import CLOCKS, ClockContext, ClockSpec, Transport
from clock.table.session import SessionError, TableSession, TableSpec, starts_a_game
from clock.timeline import FakeTimeline
from engine import GameState, Phase
from engine.events import Resigned, Signed


def spec(tmp_path: Path, **kw: Any) -> TableSpec:
    base = TableSpec(log=tmp_path / "t.sqlite", variant="toronto-speed", heartbeat_ms=0)
    return replace(base, **kw)


async def test_a_new_log_starts_a_game_on_an_emulated_clock_at_the_variants_time(
    tmp_path: Path,
) -> None:
    async with TableSession(spec(tmp_path), timeline=FakeTimeline(1_000)) as session:
        assert session.started is not None
        assert session.started.accepted
        assert session.service.state.phase is Phase.PLAYING
        assert session.emulated is not None
        assert session.emulated.initial_ms == 180_000  # Toronto: 3:00, not a default 25:00


async def test_a_finished_game_is_shown_and_a_new_one_starts_only_when_asked(
    tmp_path: Path,
) -> None:
    async with TableSession(spec(tmp_path), timeline=FakeTimeline(1_000)) as session:
        for event in (Resigned(player=1), Signed(player=0), Signed(player=1)):
            assert (await session.service.submit(event)).accepted
    async with TableSession(spec(tmp_path), timeline=FakeTimeline(5_000)) as again:
        assert again.started is None
        assert again.service.state.phase is Phase.OVER
        assert again.service.state.games == 1
    asked = spec(tmp_path, new_game=True, players=("Ben", "Ann"))
    async with TableSession(asked, timeline=FakeTimeline(9_000)) as third:
        assert third.started is not None
        assert third.started.accepted
        assert third.service.state.games == 2
        assert third.service.state.players == ("Ben", "Ann")


async def test_a_game_in_progress_is_resumed_not_restarted(tmp_path: Path) -> None:
    async with TableSession(spec(tmp_path), timeline=FakeTimeline(1_000)):
        pass
    async with TableSession(spec(tmp_path, new_game=True), timeline=FakeTimeline(3_000)) as s:
        assert s.started is None  # new_game never abandons a game in progress
        assert s.service.state.games == 1


def test_the_rule_itself() -> None:
    assert starts_a_game(GameState(), new_game=False)
    over = GameState(phase=Phase.OVER)
    assert not starts_a_game(over, new_game=False)
    assert starts_a_game(over, new_game=True)
    assert not starts_a_game(GameState(phase=Phase.PLAYING), new_game=True)


def test_a_clock_nobody_can_open_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="cannot open clock 'usb:7'"):
        TableSession(spec(tmp_path, clock="usb:7"))

    def opener(spec: ClockSpec, context: ClockContext) -> None:
        raise ValueError("no good")

    def parse(text: str) -> ClockSpec | None:
        return ClockSpec(text) if text.startswith("serial:") else None

    serial = Transport("serial", "serial:PATH", "a serial clock", ClockSpec, parse, opener)
    bad = spec(tmp_path, clock="serial:x,speed=9")
    with pytest.raises(SessionError, match="cannot open clock 'serial:x,speed=9': no good"):
        TableSession(bad, clocks=CLOCKS.with_(serial))


@pytest.mark.parametrize(
    ("clock", "url"),
    [
        ("mqtt://venue:1883/club/t7", "mqtt://venue:1883/club/t7"),
        ("mqtts://venue/club/t7", "mqtts://venue/club/t7"),
        ("mqtt:mqtt://venue/club/t7", "mqtt://venue/club/t7"),
        ("serial:/dev/ttyACM0", None),
        ("emulated", None),
        ("none", None),
    ],
)
def test_a_clock_on_the_broker_is_named_by_its_plain_url(clock: str, url: str | None) -> None:
    from firmware_bridge.host.transports import TRANSPORTS, MqttSpec

    parsed = TRANSPORTS.parse(clock)
    assert (parsed.url if isinstance(parsed, MqttSpec) else None) == url
