"""The director's console (``rackclock director``) driven with Textual's Pilot.

Offline: log files built from engine events (SQLite and JSON Lines), three
tables in different phases, a finished game for the timeline and the exports.
On a real Mosquitto: three table services with their publishers and emulated
MQTT clocks, one in overtime, one in a challenge, one neutralized too long;
the console shows each with its flag, sends a ruling the table logs, and
fetches a timeline over MQTT. Every wait is a bounded loop of short pauses.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from clock.log.eventlog import EventLog
from clock.log.log_files import load_log, log_files
from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import (
    Adjusted,
    Challenged,
    ClockPressed,
    Event,
    GameStarted,
    Neutralized,
    TilesPlaced,
    TimeChecked,
    encode_event,
)
from engine.gcg import check_record, read_gcg
from engine.rules.replay import replay, split_games
from engine.rules.state import GameState
from engine.rules.variant import load_variant
from firmware_bridge.device.firmware import ClockFirmware
from firmware_bridge.device.mqtt_device import MqttDevice
from firmware_bridge.host.mqtt_clock import MqttClock
from firmware_bridge.mqtt.connection import Backoff, parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.publisher import TablePublisher
from terminal_ui.cli import main
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.rows import Flag
from terminal_ui.director.rulings import parse_time_ms
from terminal_ui.director.screens.export import ExportScreen
from terminal_ui.director.screens.ruling import RulingScreen
from terminal_ui.director.screens.timeline import TimelineScreen
from tests.helpers import Broker, until
from tests.support.gamelog import numbered, random_log

SIZE = (150, 45)


# --- logs -------------------------------------------------------------------------------------


def write_sqlite(path: Path, events: Sequence[Event]) -> Path:
    with EventLog.open(path) as log:
        for ev in events:
            log.append(ev)
    return path


def write_jsonl(path: Path, events: Sequence[Event]) -> Path:
    path.write_bytes(b"".join(encode_event(ev) + b"\n" for ev in events))
    return path


def write_alive(log: Path, t: int) -> None:
    """A heartbeat sidecar, as a running service writes it: table time ``t`` now."""
    Path(f"{log}.alive").write_text(json.dumps({"t": t, "wall_ms": time.time_ns() // 1_000_000}))


def start(*players: str, **kw: object) -> GameStarted:
    return GameStarted(t=0, variant="nzasp", players=(players[0], players[1]), **kw)  # type: ignore[arg-type]


def three_tables(tmp_path: Path) -> list[Path]:
    """t1 in overtime, t2 in a challenge (after a drifting device press), t3 neutralized 90 s."""
    t1 = write_sqlite(tmp_path / "t1.sqlite", [start("Ann", "Ben"), TimeChecked(t=1_510_000)])
    t2 = write_jsonl(
        tmp_path / "t2.jsonl",
        [
            start("Cyd", "Dee"),
            TilesPlaced(t=1500, player=0, move="8D WINDY", score=32),
            ClockPressed(t=2500, player=0, device_remaining_ms=(1_490_000, 1_500_000)),
            Challenged(t=4000, player=1, words=("WINDY",)),
        ],
    )
    t3 = write_jsonl(
        tmp_path / "t3.jsonl",
        [start("Eli", "Fay"), Neutralized(t=10_000, by="director", reason="bag check")],
    )
    write_alive(t3, 100_000)  # its service was alive 90 s after the neutralization
    return [t1, t2, t3]


def config(tmp_path: Path, logs: Sequence[Path], **kw: object) -> DirectorConfig:
    cfg = DirectorConfig(logs=tuple(logs), name="Judge Dee", export_dir=tmp_path / "out")
    for key, value in kw.items():
        setattr(cfg, key, value)
    return cfg


# --- pilot helpers --------------------------------------------------------------------------------


def text_of(screen: object, selector: str) -> str:
    content = screen.query_one(selector, Static).content  # type: ignore[attr-defined]
    return " ".join(Text.from_markup(str(content)).plain.split())


def director(pilot: Pilot[int]) -> DirectorApp:
    app = pilot.app
    assert isinstance(app, DirectorApp)
    return app


async def select(pilot: Pilot[int], label: str) -> None:
    """Put the overview's cursor on the table ``label``."""
    app = director(pilot)
    index = [r.label for r in app.rows].index(label)
    app.query_one("#overview", DataTable).move_cursor(row=index)
    await pilot.pause()
    assert app.selected_key() == app.rows[index].key


async def rule(pilot: Pilot[int], key: str, **fields: str) -> None:
    """Open a ruling dialog with ``key``, fill its fields, press Enter."""
    app = director(pilot)
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, RulingScreen), "the ruling dialog")
    for name, value in fields.items():
        app.screen.query_one(f"#{name}", Input).value = value
    await pilot.press("enter")


def flags(app: DirectorApp) -> dict[str, tuple[Flag, ...]]:
    return {r.label: r.flags for r in app.rows}


# --- offline ------------------------------------------------------------------------------------


async def test_overview_sorts_by_attention_with_flags(tmp_path: Path) -> None:
    app = DirectorApp(config(tmp_path, three_tables(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        assert [r.label for r in app.rows] == ["t3", "t2", "t1"]
        assert flags(app) == {
            "t3": (Flag.NEUTRAL,),
            "t2": (Flag.CHALLENGE, Flag.DRIFT),
            "t1": (Flag.OVERTIME,),
        }
        by = {r.label: r for r in app.rows}
        assert by["t1"].remaining_ms[0] == -10_000
        assert by["t1"].running == 0
        assert by["t3"].neutral_ms is not None
        assert by["t3"].neutral_ms >= 90_000
        assert by["t2"].scores == (32, 0)
        assert by["t2"].remaining_ms == (1_490_000, 1_498_500)  # the device's time stood
        grid = app.query_one("#overview", DataTable)
        assert grid.get_row_at(0)[0] == "NEUTRAL"
        assert grid.get_row_at(1)[0] == "CHALLENGE DRIFT"
        assert "Ann v Ben" in grid.get_row_at(2)
        assert grid.get_row_at(2)[4] == "-0:10.0*  25:00.0"  # to the tenth (issue 20 §4)
        assert grid.get_row_at(1)[4] == "24:50.0  24:58.5"
        assert "files no running table holds" in text_of(app.screen, "#banner")
    # a higher threshold: the neutralization is no longer an alert
    calm = DirectorApp(config(tmp_path, three_tables(tmp_path), neutral_alert_s=120))
    async with calm.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(calm.rows) == 3, "three rows")
        assert flags(calm)["t3"] == ()
        assert [r.label for r in calm.rows] == ["t2", "t1", "t3"]


async def test_timeline_scrubs_to_any_instant(tmp_path: Path) -> None:
    logs = three_tables(tmp_path)
    app = DirectorApp(config(tmp_path, logs))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        await select(pilot, "t2")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
        screen = app.screen
        assert isinstance(screen, TimelineScreen)
        await until(pilot, lambda: screen.state.variant is not None, "the game")
        assert "challenge: awaiting verdict" in text_of(screen, "#phase")
        await pilot.press("home")
        assert screen.at == 0
        assert screen.state.board is not None
        assert screen.state.board.render().count("W") == 0
        assert "racks: not tracked" in text_of(screen, "#racks")
        await pilot.press("down", "down")  # tiles placed, then the press
        assert screen.at == 2500
        assert screen.state.scores == (32, 0)
        assert "W" in screen.state.board.render()
        assert "Cyd 32 24:50.0" in text_of(screen, "#clocks")
        assert "> 3 +0:02.5 clock_pressed Cyd" in text_of(screen, "#events")
        await pilot.press("left")  # a second before the press: laid on the board, not scored
        assert screen.at == 1500
        assert screen.state.scores == (0, 0)
        assert screen.state.composing is not None
        await pilot.press("right", "right")  # between the press and the challenge
        assert screen.at == 3500
        assert screen.state == replay(app.tables[str(logs[1])].events, at=3500)[0]
        assert "Dee 0 24:59.0 running" in text_of(screen, "#clocks")
        assert "> 3 " in text_of(screen, "#events")
        await pilot.press("up")  # back to the event shown
        assert screen.at == 2500
        await pilot.press("end")
        assert screen.at == 4000
        await pilot.press("right")  # the log ends there
        assert screen.at == 4000
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TimelineScreen), "the overview")


def finished(
    seed: int, players: tuple[str, str], round_: int | None = None
) -> tuple[list[Event], GameState]:
    """A generated finished game with these names (and round), and its end."""
    events = random_log(seed, "nzasp")
    start = events[0]
    assert isinstance(start, GameStarted)
    events[0] = replace(start, players=players, round=round_)
    state, rejected = replay(numbered(events))
    assert not rejected
    assert state.result is not None
    return events, state


def letter(mine: int, theirs: int) -> str:
    return "W" if mine > theirs else "L" if mine < theirs else "T"


async def test_timeline_shows_end_racks_of_a_finished_game(tmp_path: Path) -> None:
    events, end = finished(0, ("Jo", "Hal"))
    assert end.result is not None
    log = write_sqlite(tmp_path / "final.sqlite", events)
    app = DirectorApp(config(tmp_path, [log]))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 1, "the row")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
        screen = app.screen
        assert isinstance(screen, TimelineScreen)
        await until(pilot, lambda: screen.state.result is not None, "the end of the game")
        assert text_of(screen, "#racks").startswith("end racks: Jo ")
        res = end.result
        assert (res.scores, res.winner, res.reason) == ((461, 277), 0, "out")
        # the one wording: the winner, the winner's score first, the spread
        assert "result: Jo wins 461 to 277, spread 184" in text_of(screen, "#phase")
        await pilot.press("home", "pagedown")
        middle = replay(numbered(events), at=60_000)[0]
        assert screen.state == middle
        assert "racks: not tracked" in text_of(screen, "#racks")


async def test_offline_adjustment_is_checked_appended_and_shown(tmp_path: Path) -> None:
    logs = three_tables(tmp_path)
    app = DirectorApp(config(tmp_path, logs))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        await select(pilot, "t1")
        await rule(pilot, "a", player="1", score="-10", time="+1:00", reason="slow clock")
        await until(pilot, lambda: "accepted" in app.feedback, "the answer")
        assert app.feedback == f"t1: Adjusted: accepted: Adjusted (#3), appended to {logs[0]}"
        with EventLog.open(logs[0], create=False) as log:
            last = list(log.events())[-1][1]
        assert last == Adjusted(
            t=1_510_000, by="Judge Dee", player=0, score_delta=-10, time_delta_ms=60_000,
            reason="slow clock", actor="director",
        )  # fmt: skip
        await until(pilot, lambda: flags(app)["t1"] == (), "t1 out of overtime")
        row = next(r for r in app.rows if r.label == "t1")
        assert row.scores == (-10, 0)
        assert row.remaining_ms[0] == 50_000
        assert "accepted" in text_of(app.screen, "#feedback")
        # a ruling the rules refuse is not appended
        await rule(pilot, "r")
        await until(pilot, lambda: "refused" in app.feedback, "the refusal")
        assert "the clock is not neutralized" in app.feedback
        with EventLog.open(logs[0], create=False) as log:
            assert log.head()[0] == 3
        # resume the neutralized table (JSON Lines): appended at its heartbeat's time
        await select(pilot, "t3")
        await rule(pilot, "r")
        await until(pilot, lambda: "Resumed" in app.feedback, "the answer")
        assert "accepted: Resumed (#3)" in app.feedback
        tail = json.loads(logs[2].read_text().splitlines()[-1])
        assert tail["type"] == "resumed"
        assert tail["by"] == "Judge Dee"
        assert tail["t"] >= 100_000
        await until(pilot, lambda: flags(app)["t3"] == (), "t3 running again")


async def test_the_director_decides_an_appeal_and_ends_a_game(tmp_path: Path) -> None:
    logs = three_tables(tmp_path)
    app = DirectorApp(config(tmp_path, logs))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        # t2 awaits a verdict: nothing to appeal yet
        await select(pilot, "t2")
        await rule(pilot, "p", verdict="valid")
        await until(pilot, lambda: "refused" in app.feedback, "the refusal")
        assert "no verdict to appeal" in app.feedback
        # the director ends t2 with a stated result, whatever phase it is in
        await rule(pilot, "e", scores="350-312", reason="the bag was lost")
        await until(pilot, lambda: "ResultDeclared" in app.feedback, "the answer")
        assert "accepted" in app.feedback
        events, _ = load_log(logs[1])
        state, _ = replay(events)
        assert state.result is not None
        assert (state.result.scores, state.result.reason) == ((350, 312), "declared")
        assert events[-1][1].actor == "director"


async def test_ruling_dialog_checks_its_fields(tmp_path: Path) -> None:
    app = DirectorApp(config(tmp_path, three_tables(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        await select(pilot, "t1")
        await rule(pilot, "a", player="Ann", score="", time="", reason="nothing")
        screen = app.screen
        assert isinstance(screen, RulingScreen)
        assert "changes the score or the time" in text_of(screen, "#error")
        assert "no table service holds it" in text_of(screen, "#note")
        screen.query_one("#player", Input).value = "Zed"
        screen.query_one("#score", Input).value = "5"
        await pilot.press("enter")
        assert "player: 1 or 2" in text_of(screen, "#error")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RulingScreen), "the overview")
        assert app.feedback == ""
    assert parse_time_ms("-0:30") == -30_000
    assert parse_time_ms("2:05.5") == 125_500


async def test_exports_gcg_log_and_results(tmp_path: Path) -> None:
    first, end_a = finished(0, ("Jo", "Hal"), 1)  # round 1 in the log
    second, end_b = finished(1, ("Cyd", "Gus"))  # no round
    a = write_sqlite(tmp_path / "a.sqlite", first)
    b = write_jsonl(tmp_path / "b.jsonl", second)
    c = three_tables(tmp_path)[1]  # a game in progress: not in the results
    app = DirectorApp(config(tmp_path, [a, b, c]))
    out = tmp_path / "out"
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        await select(pilot, "a")
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export dialog")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        await until(pilot, lambda: bool(screen.query("#round-0")), "the round field")
        assert "1 without a round number" in text_of(screen, "#games")
        await pilot.press("enter")  # no round yet: the results are not written
        assert screen.report is not None
        assert screen.report.problems == [
            "no round number for b game 1: Cyd v Gus (give it here, or --round): "
            "no results file written"
        ]
        screen.query_one("#round-0", Input).value = "1"
        await pilot.press("enter")
        report = screen.report
        assert report is not None
        assert report.problems == []
        assert report.paths == [
            out / "a.jsonl", out / "a.gcg", out / "results-naspa.txt", out / "a.t",
        ]  # fmt: skip
        assert "no roster: every rating written as 0 (give --roster FILE)" in report.notes
        shown = text_of(screen, "#paths")
        assert all(f"wrote {p}" in shown for p in report.paths)
    gcg = read_gcg((out / "a.gcg").read_bytes())
    check = check_record(gcg, load_variant("nzasp"))
    assert check.ok
    assert check.complete
    first_mover = next(h.player for h in end_a.history if h.kind != "adjusted")
    assert gcg.players[0].name == end_a.players[first_mover]
    assert end_a.result is not None
    assert end_b.result is not None
    notes = [0, 0]  # the director's adjustments are notes, not in the totals
    for ev in first:
        if isinstance(ev, Adjusted):
            notes[ev.player] += ev.score_delta
    j, h = (end_a.result.scores[p] - notes[p] for p in (0, 1))
    assert check.final_scores == {"Jo": j, "Hal": h}
    assert all(ev.annotation.startswith("@") for ev in gcg.events if ev.move is not None)
    lines = (out / "a.jsonl").read_text().splitlines()
    assert [json.loads(x)["type"] for x in (lines[0], lines[-1])] == ["game_started", "end_racks"]
    assert len(lines) == len(first)
    # numbered by name: Cyd 1, Gus 2, Hal 3, Jo 4; rated games, so each line has the score
    cyd, gus = end_b.result.scores
    jo, hal = end_a.result.scores
    assert (out / "results-naspa.txt").read_text().splitlines() == [
        f"1 CYD/{cyd - gus}: {letter(cyd, gus)}2-{cyd}",
        f"2 GUS/{gus - cyd}: {letter(gus, cyd)}1-{gus}",
        f"3 HAL/{hal - jo}: {letter(hal, jo)}4-{hal}",
        f"4 JO/{jo - hal}: {letter(jo, hal)}3-{jo}",
    ]
    # tsh's p12 (1 went first, 2 second) from each log's game_started, as event export
    # tsh writes it: the one .t writer
    went = {
        name: 1 if seat == ev.first else 2
        for ev in (first[0], second[0])
        if isinstance(ev, GameStarted)
        for seat, name in enumerate(ev.players)
    }
    assert len(went) == 4
    assert (out / "a.t").read_text(encoding="iso-8859-1").splitlines() == [
        f"Cyd 0 2; {cyd}; p12 {went['Cyd']}",
        f"Gus 0 1; {gus}; p12 {went['Gus']}",
        f"Hal 0 4; {hal}; p12 {went['Hal']}",
        f"Jo 0 3; {jo}; p12 {went['Jo']}",
    ]


async def test_export_of_a_scoresheet_game_says_why_there_is_no_gcg(tmp_path: Path) -> None:
    log = write_jsonl(
        tmp_path / "speed.jsonl",
        [GameStarted(t=0, variant="toronto-speed", players=("Ann", "Ben"), round=2)],
    )
    app = DirectorApp(config(tmp_path, [log], round=3))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(app.rows) == 1, "the row")
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export dialog")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        await until(pilot, lambda: "finished game" in text_of(screen, "#games"), "the games")
        await pilot.press("enter")
        assert screen.report is not None
        assert screen.report.paths == [tmp_path / "out" / "speed.jsonl"]
        assert screen.report.problems == [
            "speed game 1: no GCG: a scoresheet game has no board positions; "
            "export the log instead",
            "no finished game: no results file",
        ]


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = three_tables(tmp_path)
    (tmp_path / "notes.txt").write_text("not a log")
    assert log_files([tmp_path]) == sorted(logs)
    assert main(["director", "--log", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["director", "--broker", "http://nowhere"]) == 2
    assert "mqtt://" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["director"])  # --broker or --log


def test_doctests() -> None:
    import doctest

    from terminal_ui.director import rulings

    assert doctest.testmod(rulings).failed == 0


def test_split_games_of_a_log_with_two_games() -> None:
    events = numbered(random_log(3, "nzasp", games=2))
    games = split_games(events)
    assert len(games) == 2
    assert sum(map(len, games)) == len(events)
    assert all(isinstance(g[0][1], GameStarted) for g in games)


# --- on a real broker -----------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def mqtt_table(
    broker: Broker, tmp_path: Path, name: str, players: tuple[str, str], timeline: FakeTimeline
) -> AsyncIterator[TableService]:
    """A table service on a fake timeline, publishing, with an emulated MQTT clock."""
    settings = parse_url(broker.url(f"/club/{name}"))
    clock = MqttClock(settings)
    clock.session.backoff = Backoff(initial_s=0.05, cap_s=0.3)
    fw = MqttDevice(ClockFirmware(f"emu-{name}"), settings, identifier=f"test-clock-{name}")
    svc = TableService(tmp_path / f"{name}.sqlite", timeline=timeline, device=clock, heartbeat_ms=0)
    async with svc, TablePublisher(svc, settings, expiry_s=10, refresh_s=0.2):
        fw.start()
        ack = await svc.submit(GameStarted(variant="nzasp", players=players))
        assert ack.accepted
        try:
            yield svc
        finally:
            await fw.close()


async def submit_all(svc: TableService, *events: Event) -> None:
    for ev in events:
        ack = await svc.submit(ev, "test")
        assert ack.accepted, ack.reason


async def test_director_on_a_real_broker(mosquitto: Broker, tmp_path: Path) -> None:
    times = {n: FakeTimeline(5_000_000) for n in ("late", "chal", "wait")}
    async with (
        mqtt_table(mosquitto, tmp_path, "late", ("Ann", "Ben"), times["late"]) as late,
        mqtt_table(mosquitto, tmp_path, "chal", ("Cyd", "Dee"), times["chal"]) as chal,
        mqtt_table(mosquitto, tmp_path, "wait", ("Eli", "Fay"), times["wait"]) as wait,
    ):
        times["late"].advance(1_500_000 + 5_000)  # Ann 5 s into overtime
        await submit_all(
            chal,
            TilesPlaced(player=0, move="8D WINDY", score=32),
            ClockPressed(player=0),
            Challenged(player=1, words=("WINDY",)),
        )
        late_press = await chal.submit(ClockPressed(player=0), "test")  # kept, refused
        assert not late_press.accepted
        await submit_all(wait, Neutralized(by="director", reason="bag check"))
        times["wait"].advance(90_000)
        cfg = DirectorConfig(broker=mosquitto.url(), name="Judge Dee", desk="test-desk")
        app = DirectorApp(cfg)
        async with app.run_test(size=SIZE) as pilot:

            def settled() -> bool:
                f = flags(app)
                return len(f) == 3 and Flag.OVERTIME in f.get("club/late", ())

            await until(pilot, settled, "three tables with their flags")
            assert [r.label for r in app.rows] == ["club/wait", "club/chal", "club/late"]
            assert flags(app) == {
                "club/wait": (Flag.NEUTRAL,),
                "club/chal": (Flag.CHALLENGE,),
                "club/late": (Flag.OVERTIME,),
            }
            assert all(svc.status.device_online for svc in (late, chal, wait))
            assert app.link is not None
            doc = app.link.tables[TableTopics("club", "wait")].doc
            assert doc is not None
            assert doc["now_ms"] - doc["neutralized_since_ms"] == 90_000
            assert "connected" in text_of(app.screen, "#banner")
            # a ruling: one more minute for Ann; the table logs it and answers
            await select(pilot, "club/late")
            await rule(pilot, "a", player="1", time="+1:00", reason="clock fault")
            await until(pilot, lambda: "accepted" in app.feedback, "the table's answer")
            assert app.feedback.startswith("club/late: Adjusted: accepted: Adjusted (#")
            with EventLog.open(tmp_path / "late.sqlite", create=False) as log:
                logged = [ev for _, ev in log.events() if isinstance(ev, Adjusted)]
            assert [(a.by, a.player, a.time_delta_ms, a.reason) for a in logged] == [
                ("Judge Dee", 0, 60_000, "clock fault")
            ]
            await until(pilot, lambda: flags(app)["club/late"] == (), "Ann out of overtime")
            # a refused ruling shows the rule
            await rule(pilot, "r")
            await until(pilot, lambda: "refused" in app.feedback, "the refusal")
            assert "the clock is not neutralized" in app.feedback
            # the timeline of the challenged table, fetched over MQTT
            await select(pilot, "club/chal")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
            screen = app.screen
            assert isinstance(screen, TimelineScreen)
            await until(pilot, lambda: screen.table.has_log, "the log from the table")
            assert [type(ev).__name__ for _, ev in screen.table.events] == [
                "GameStarted", "TilesPlaced", "ClockPressed", "Challenged",
            ]  # fmt: skip
            await until(pilot, lambda: screen.state.variant is not None, "the game drawn")
            assert "challenge: awaiting verdict" in text_of(screen, "#phase")
            # the refused press came with the log, in its place (never replayed)
            assert "5 +0:00.0 REFUSED clock_pressed Cyd" in text_of(screen, "#events")
            await pilot.press("home", "down", "down")
            assert screen.state.scores == (32, 0)
            assert "Cyd 32" in text_of(screen, "#clocks")


def test_snapshot_high_contrast(snap_compare: Any, tmp_path: Path) -> None:
    app = DirectorApp(config(tmp_path, three_tables(tmp_path), high_contrast=True))

    async def run_before(pilot: Pilot[int]) -> None:
        await until(pilot, lambda: len(app.rows) == 3, "three rows")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
