"""Results from paper slips at the director's console (key I) and at the command line
(``rackclock event slips``): a whole 100-game round of a 200-player division typed
from slips, the keystrokes counted and the standings checked after; undo and
correction kept in the ledger with who made them; ``event missing``; and ``event
result`` naming players by number or prefix."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import RichLog

from clock.tournament.ledger import EventLedger
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Paired, Result, Retracted
from engine.tournament.state import EventState
from terminal_ui.cli import main
from terminal_ui.director.app import DirectorApp
from terminal_ui.director.config import DirectorConfig
from terminal_ui.director.screens.slips import SlipLine, SlipsScreen
from tests.helpers import until

FIRST = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
FIRST += ["Kim", "Lee", "Max", "Ned", "Oli", "Pam", "Quin", "Rex", "Sue", "Tom"]
LAST = ["Able", "Baker", "Cole", "Dunn", "Ely", "Fox", "Gray", "Hall", "Ives", "Jones"]


def big_event(tmp_path: Path, players: int = 200) -> Path:
    """A one-division event of ``players`` players, round 1 paired; its ledger."""
    names = [f"{first} {last}" for last in LAST for first in FIRST]  # 200 names
    rows = ",\n".join(
        f'  {{ name = "{names[i]}", rating = {2000 - i * 5} }}' for i in range(players)
    )
    text = (
        'name = "Big Saturday"\n[[division]]\nname = "A"\nrounds = 7\n'
        'plan = [{ rounds = "1-7", system = "swiss" }]\n'
        f"players = [\n{rows}\n]\n"
    )
    log = tmp_path / "big.sqlite"
    with EventLedger.create(log, text, "big.toml") as ledger:
        ledger.append(draw(ledger.state.division("A"), 1))
    return log


def slips(log: Path, seed: int = 23) -> tuple[list[str], dict[int, tuple[int, int]]]:
    """A slip line per game of round 1 (players in either order, as slips come), and
    what each player should have after it: (wins, spread)."""
    rng = random.Random(seed)
    with EventLedger.open(log, readonly=True) as ledger:
        pairs = ledger.state.division("A").pairings[1].pairs
    lines, want = [], {}
    for a, b in pairs:
        sa, sb = rng.randint(280, 520), rng.randint(280, 520)
        if sa == sb:
            sb += 1
        want[a] = (int(sa > sb), sa - sb)
        want[b] = (int(sb > sa), sb - sa)
        lines.append(f"{a} {sa} {b} {sb}" if rng.random() < 0.5 else f"{b} {sb} {a} {sa}")
    rng.shuffle(lines)  # slips arrive in any order
    return lines, want


_NAMES = {" ": "space", "-": "minus", ",": "comma"}


def keys_of(line: str) -> list[str]:
    """The keys that type ``line`` and enter it."""
    return [_NAMES.get(c, c) for c in line] + ["enter"]


async def type_line(pilot: Pilot[int], line: str) -> int:
    """Type ``line`` and Enter as the terminal delivers keys: each a Key event to the
    app, as ``Pilot.press`` sends them, but without its wait for the process to go
    idle after every key (80 ms a key on a busy machine: a round would take minutes);
    once after the line, as a director who looks at the echo. The keys it took."""
    keys = keys_of(line)
    chars = {v: k for k, v in _NAMES.items()}
    for key in keys:
        char = chars.get(key, key if len(key) == 1 else None)
        pilot.app.post_message(events.Key(key, "\r" if key == "enter" else char))
    await pilot.pause()
    return len(keys)


def check_standings(state: EventState, want: dict[int, tuple[int, int]]) -> None:
    """Round 1 complete, each player's wins and spread as ``want`` says. ``state``: the
    console's own while it runs (one writer opens the ledger: never a second open)."""
    div = state.division("A")
    assert div.missing(1) == []
    got = {row.seed: (row.wins, row.spread) for row in div.standings(1)}
    assert got == {s: (float(w), sp) for s, (w, sp) in want.items()}


def ledger_state(log: Path) -> EventState:
    """The event as its ledger has it, read once the console has closed it."""
    with EventLedger.open(log, readonly=True) as ledger:
        return ledger.state


async def test_a_100_game_round_from_slips_at_the_console(tmp_path: Path) -> None:
    log = big_event(tmp_path)
    lines, want = slips(log)
    assert len(lines) == 100
    app = DirectorApp(DirectorConfig(logs=(), export_dir=tmp_path, event=log, name="kim"))
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, SlipsScreen), "the slip screen")
        screen = app.screen
        assert isinstance(screen, SlipsScreen)
        assert screen.where() == "Slips for Big Saturday: division A round 1, as kim"
        typed = 0
        started = time.perf_counter()
        for line in lines:
            typed += await type_line(pilot, line)
        took = time.perf_counter() - started
        await until(pilot, lambda: len(screen.said) == 100, "every echo")
        assert all(not s.startswith("refused") for s in screen.said), screen.said
        assert screen.said[0].startswith("R1 T")
        # "3 410 7 385" and Enter: 12 keys; two- and three-digit numbers make it 12 to 16
        assert len(keys_of("3 410 7 385")) == 12
        assert typed / len(lines) <= 15, typed / len(lines)
        print(f"\n100 results typed at the console: {typed} keys, {took:.1f} s")
        assert app.desk is not None
        check_standings(app.desk.state, want)
        # a slip typed twice, a typo, then undo and a correction: logged with who
        await type_line(pilot, lines[0])
        assert screen.said[-1].startswith("refused: already in as typed")
        await type_line(pilot, "m")
        assert screen.said[-1] == "division A round 1: every result is in"
        await type_line(pilot, "u")
        assert screen.said[-1].endswith("(no result again)")
        await type_line(pilot, "m")
        assert screen.said[-1].startswith("division A round 1: 1 game(s) without a result")
        a, sa, b, sb = lines[-1].split()
        await type_line(pilot, f"{a} {int(sa) + 10} {b} {sb}")
        await type_line(pilot, f"c {lines[-1]} --reason slip misread")
        assert screen.said[-1].startswith("corrected: R1 T")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SlipsScreen), "the overview")
    state = ledger_state(log)
    check_standings(state, want)
    assert state.records == 1 + 1 + 100 + 3  # created, paired, 100 results, undo, retyped, fix
    made = [r for r in ledger_records(log) if isinstance(r, Result | Retracted)]
    assert {r.by for r in made} == {"kim"}
    assert [(type(r).__name__, r.reason) for r in made[-3:]] == [
        ("Retracted", "undo"),
        ("Result", ""),
        ("Result", "slip misread"),
    ]


def ledger_records(log: Path) -> list[object]:
    """The ledger's records as written, in order (read-only: never a second writer)."""
    import sqlite3

    from engine.tournament.records import decode_record

    conn = sqlite3.connect(f"file:{log}?mode=ro", uri=True)
    try:
        return [decode_record(body) for (body,) in conn.execute("SELECT body FROM records")]
    finally:
        conn.close()


def test_slips_piped_to_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = big_event(tmp_path, players=20)
    lines, want = slips(log)
    import io

    bad = ["1 410 1 300", lines[0]]  # refused lines change nothing
    text = "\n".join([*lines[:5], "u", *lines[4:], *bad, "q", "never read"]) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["event", "slips", str(log), "--by", "lee"]) == 1  # two lines refused
    out = capsys.readouterr()
    assert out.out.count("\nR1 T") + out.out.startswith("R1 T") == 11
    assert "undone: R1 T" in out.out
    assert out.out.endswith("bye\n")
    assert out.err.splitlines() == [
        "line 13: refused: both players are #1 Ann Able",
        f"line 14: refused: already in as typed: {out.out.splitlines()[0]}",
    ]
    check_standings(ledger_state(log), want)
    assert main(["event", "missing", str(log)]) == 0
    assert capsys.readouterr().out == "division A round 1: every result is in\n"
    assert {r.by for r in ledger_records(log) if isinstance(r, Result | Retracted)} == {"lee"}


def test_event_missing_and_result_by_number_or_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = big_event(tmp_path, players=6)
    with EventLedger.open(log, readonly=True) as ledger:
        pairs = ledger.state.division("A").pairings[1].pairs
        div = ledger.state.division("A")
        a, b = pairs[0]
        first, second = div.name(a).split()[0], div.name(b)
    assert main(["event", "missing", str(log)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[0] == "division A round 1: 3 game(s) without a result"
    assert shown[1] == f"  R1 T1  #{a} {div.name(a)} v #{b} {second}"
    code = main(
        ["event", "result", str(log), "1", first.lower(), "400", str(b), "350", "--by", "ref"]
    )
    assert code == 0
    assert capsys.readouterr().out == f"round 1: {div.name(a)} 400 to 350 {second}\n"
    assert [r.by for r in ledger_records(log) if isinstance(r, Result)] == ["ref"]
    assert main(["event", "missing", str(log), "--round", "1"]) == 0
    assert capsys.readouterr().out.startswith("division A round 1: 2 game(s) without")
    assert main(["event", "result", str(log), "1", "a", "400", str(b), "350"]) == 1
    assert "'a' fits several players" in capsys.readouterr().err
    assert main(["event", "missing", str(log), "--round", "0"]) == 2
    assert "--round 0: rounds are numbered from 1" in capsys.readouterr().err
    assert main(["event", "missing", str(log), "--round", "2"]) == 1  # not paired: refused
    assert capsys.readouterr().err == (
        "rackclock event missing: round 2 is not paired in division A\n"
    )


LONG = """
name = "Long Names Open"
[[division]]
name = "A"
rounds = 3
plan = [{ rounds = "1-3", system = "swiss" }]
players = [
  { name = "Maximiliana Bartholomew-Featherstonehaugh", rating = 1900 },
  { name = "Konstantinos Papadopoulos-Vandenberghe", rating = 1800 },
  { name = "Fay Fox", rating = 1700 },
  { name = "Wes Wren", rating = 1600 },
  { name = "Sid Sax", rating = 1500 },
  { name = "Pip Rex", rating = 1400 },
]
"""


def on_screen(screen: SlipsScreen, width: int) -> str:
    """The slip log as shown, its lines joined with no spaces (a wrap breaks at a
    space), after checking every line fits the log and the log the terminal."""
    log = screen.query_one("#echo", RichLog)
    assert log.region.right <= width, (log.region, width)
    inner = log.scrollable_content_region.width
    assert all(line.cell_length <= inner for line in log.lines), (
        inner,
        [(line.cell_length, line.text) for line in log.lines],
    )
    return "".join("".join(line.text.split()) for line in log.lines)


@pytest.mark.parametrize("width", [80, 120])
async def test_the_slip_screen_wraps_long_answers_and_keeps_letters_in_the_line(
    tmp_path: Path, width: int
) -> None:
    log = tmp_path / "long.sqlite"
    with EventLedger.create(log, LONG, "long.toml") as ledger:
        ledger.append(Paired("A", 1, ((1, 2), (3, 4), (5, 6))))
    app = DirectorApp(DirectorConfig(logs=(), export_dir=tmp_path, event=log, name="kim"))
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, SlipsScreen), "the slip screen")
        screen = app.screen
        assert isinstance(screen, SlipsScreen)
        # letters that are console keys elsewhere (a r f n e p x s w i) stay in the line
        await type_line(pilot, "fay f")
        await type_line(pilot, "maximiliana 410 konstantinos papa 385")
        await type_line(pilot, "maximiliana 400 fay 300")  # refused: a long reason
        assert screen.said == [
            "R1 T2  #4 Wes Wren wins: #3 Fay Fox forfeits  (+50)",
            "R1 T1  #1 Maximiliana Bartholomew-Featherstonehaugh 410 - "
            "#2 Konstantinos Papadopoulos-Vandenberghe 385  (+25)",
            "refused: #1 Maximiliana Bartholomew-Featherstonehaugh and #3 Fay Fox are not "
            "paired together in round 1: #1 Maximiliana Bartholomew-Featherstonehaugh plays "
            "#2 Konstantinos Papadopoulos-Vandenberghe at T1; #3 Fay Fox plays #4 Wes Wren at T2",
        ]
        assert len(screen.said[-1]) > 100
        shown = on_screen(screen, width)
        for said in screen.said:
            assert "".join(said.split()) in shown
        # pasted lines are entered one by one, as typed
        screen.query_one(SlipLine).post_message(events.Paste("sid 300 pip 280\nm\n"))
        await until(pilot, lambda: len(screen.said) == 5, "the pasted lines")
        assert screen.said[3].startswith("R1 T3  #5 Sid Sax 300 - #6 Pip Rex 280")
        assert screen.said[4] == "division A round 1: every result is in"
        # closed and opened again, u still undoes the last entry
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SlipsScreen), "the overview")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, SlipsScreen), "the slip screen")
        again = app.screen
        assert isinstance(again, SlipsScreen)
        await type_line(pilot, "u")
        assert again.said == [
            "undone: R1 T3  #5 Sid Sax 300 - #6 Pip Rex 280  (+20)  (no result again)"
        ]
        assert app.desk is not None
        assert app.desk.state.division("A").missing(1) == [(5, 6)]


def test_event_result_reads_as_a_slip_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "long.sqlite"
    with EventLedger.create(log, LONG, "long.toml") as ledger:
        ledger.append(Paired("A", 1, ((1, 2), (3, 4), (5, 6))))

    def result(*args: str) -> tuple[int, str]:
        code = main(["event", "result", str(log), "1", *args, "--by", "ref"])
        out = capsys.readouterr()
        return code, (out.out + out.err).strip()

    assert result("3", "400", "4", "300") == (0, "round 1: Fay Fox 400 to 300 Wes Wren")
    fix = ("3", "410", "4", "300", "--reason", "typo")
    assert result(*fix) == (0, "round 1: Fay Fox 410 to 300 Wes Wren")
    code, said = result(*fix)  # the same correction again: not written twice
    assert (code, said) == (
        1,
        "rackclock event result: already in as typed: R1 T2  #3 Fay Fox 410 - #4 Wes Wren 300"
        "  (+110)",
    )
    code, said = result("5", "400", "fay", "300")
    assert code == 1
    assert said.endswith("#5 Sid Sax plays #6 Pip Rex at T3; #3 Fay Fox plays #4 Wes Wren at T2")
    code, said = result("5", "0", "6", "0", "--forfeit", "3")
    assert (code, said) == (
        1,
        "rackclock event result: --forfeit '3': name the player who forfeits, "
        "#5 Sid Sax or #6 Pip Rex",
    )
    assert result("1", "2000", "2", "300")[1].startswith(
        "rackclock event result: player 1's score 2000 is not one a game can end with"
    )
    records = [r for r in ledger_records(log) if isinstance(r, Result)]
    assert [(r.scores, r.by, r.reason) for r in records] == [
        ((400, 300), "ref", ""),
        ((410, 300), "ref", "typo"),
    ]
