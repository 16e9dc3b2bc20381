"""The console on the broker asks a table for its log once per signed game, keyed on
the game's identity (its round, division and table, the log's game count), not on
its players and result: a KOTH rematch at the same table with the same result in a
later round is fetched and taken too (a real mosquitto; the console under Pilot)."""

from __future__ import annotations

from pathlib import Path

from clock.table.service import TableService
from clock.timeline import FakeTimeline
from clock.tournament.ledger import EventLedger
from engine.events import Event, GameStarted, Resigned, Signed
from engine.tournament.pairing.pair_round import draw
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.venue.publisher import TablePublisher
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from tests.helpers import Broker

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 2
plan = [{ rounds = "1-2", system = "koth" }]
players = [{ name = "Ann Able", rating = 1800 }, { name = "Ben Baker", rating = 1700 }]
"""


def resigned_at_0_0(rnd: int) -> list[Event]:
    """Ann Able v Ben Baker at t1 in round ``rnd``: Ben resigns at 0-0, both sign (the
    same result every time: Ann wins by the forfeit spread)."""
    players = ("Ann Able", "Ben Baker")
    start = GameStarted(variant="naspa", players=players, round=rnd, division="A", table="t1")
    return [start, Resigned(player=1), Signed(player=0), Signed(player=1)]


async def test_a_rematch_with_the_same_result_is_taken_in_its_round(
    tmp_path: Path, mosquitto: Broker
) -> None:
    log = tmp_path / "club.sqlite"
    with EventLedger.create(log, EVENT, "club.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
    svc = TableService(tmp_path / "t1.sqlite", timeline=FakeTimeline(1_000_000), heartbeat_ms=0)
    settings = parse_url(mosquitto.url("/club/t1"))
    async with svc, TablePublisher(svc, settings, expiry_s=10, refresh_s=0.2):
        app = DirectorApp(DirectorConfig(broker=mosquitto.url(), desk="test-desk", event=log))
        async with app.run_test(size=(120, 40)) as pilot:

            async def taken(rnd: int) -> None:
                for _ in range(200):
                    if app.desk is not None and rnd in app.desk.state.division("A").results:
                        return
                    await pilot.pause(0.05)
                raise AssertionError(
                    f"round {rnd}'s result not taken: {app.desk and app.desk.news}"
                )

            for ev in resigned_at_0_0(1):
                assert (await svc.submit(ev, "test")).accepted
            await taken(1)
            assert app.desk is not None
            app.desk.ledger.append(draw(app.desk.state.division("A"), 2))  # the rematch
            for ev in resigned_at_0_0(2):
                assert (await svc.submit(ev, "test")).accepted
            await taken(2)
            results = app.desk.state.division("A").results
            [first], [second] = results[1].values(), results[2].values()
            assert first.game.startswith("club/t1 ")
            assert second.game.startswith("club/t1 ")
            assert first.game != second.game  # two games, two digests
