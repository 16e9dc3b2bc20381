"""Every GCG rackclock writes loads in a strict reader and passes our own check.

The strict reader is :mod:`tests.strict_gcg`, MAGPIE's rules as read in its source. It
is first shown to accept the three real published records, to refuse each pitfall our
exports once had, and to refuse each file of ``tests/data/magpie/`` with the error
number MAGPIE itself gave it (and load the forms MAGPIE loaded); then every export
(each scenario that ends, random games of every variant) must load, with every rack in
the bag as the reader replays it, and check ``ok`` with our reader. An exchange the
table only counted is written as a pass with the tiles known after it and a
``#rackclock-exchange N`` pragma; a pass whose rack nothing shows gets one stand-in
tile and ``#rackclock-rack-unknown`` (docs/gcg.md). Strict readers load both; ours
reads them back as they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.equipment.tiles import load_tile_set
from engine.events import (
    ClockPressed,
    EndRacks,
    Event,
    Exchanged,
    GameStarted,
    Passed,
    TilesPlaced,
)
from engine.exports.gcg import to_gcg
from engine.gcg import check_record, parse_gcg, write_gcg
from engine.rules.replay import replay
from engine.rules.state import GameState
from engine.rules.variant import load_variant
from tests.helpers import REAL, SCENARIOS, scenario_events
from tests.strict_gcg import strict_read
from tests.support.gamelog import BOARD_VARIANTS, game_events, numbered, random_log

ENGLISH = load_tile_set("english").counts


def _gcg(state: GameState) -> str:
    return write_gcg(to_gcg(state, title="t"))


@pytest.mark.parametrize("path", sorted(REAL.glob("*.gcg")), ids=lambda p: p.name)
def test_the_strict_reader_loads_real_records(path: Path) -> None:
    assert strict_read(path.read_bytes().decode("latin-1"), ENGLISH) is None


HEAD = "#player1 ann Ann Archer\n#player2 ben Ben Baker\n"


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        (HEAD + "#note rules: NZASP\n>ann: WINDY 8D WINDY +32 32\n", "note before any game event"),
        (HEAD + ">ann:  8D WINDY +32 32\n", "unrecognized GCG token"),
        (HEAD + ">ann: WINDY 8D WINDY +32 32\n>ben: ABC -3 +0 0\n", "are not tiles"),
        (HEAD + "#incomplete\n>ann: WINDY 8D WINDY +32 32\n", "unrecognized GCG token"),
        (HEAD + ">ann: WIND? 8D WIND? +24 24\n", "a blank without a letter"),
        (HEAD + ">ann: WINDY 8D WINDY +32 32\n#rackclock-settled 22\n", "unrecognized"),
        (HEAD + ">ann: WINDY 8D WINDY +32 32\n>ben: AB (AC) -4 -4\n", "penalty letters"),
    ],
)
def test_the_strict_reader_refuses_each_pitfall(text: str, refusal: str) -> None:
    found = strict_read(text)
    assert found is not None
    assert refusal in found.message


MAGPIE = Path(__file__).parents[1] / "data" / "magpie"
"""Small files MAGPIE itself (183bebc) refused, each with its error number in the file
name and its message in the ``#description``; ``loads/`` holds forms it loaded."""


@pytest.mark.parametrize("path", sorted(MAGPIE.glob("e*.gcg")), ids=lambda p: p.stem)
def test_the_strict_reader_refuses_what_magpie_refused_with_its_error_number(
    path: Path,
) -> None:
    text = path.read_text(encoding="latin-1")
    code = int(path.stem[1:4])
    assert f"MAGPIE 183bebc refuses this file: (error {code})" in text
    found = strict_read(text, ENGLISH)
    assert found is not None, path.name
    assert found.code == code, found


@pytest.mark.parametrize("path", sorted((MAGPIE / "loads").glob("*.gcg")), ids=lambda p: p.stem)
def test_the_strict_reader_loads_what_magpie_loaded(path: Path) -> None:
    assert strict_read(path.read_text(encoding="latin-1"), ENGLISH) is None


def _check(text: str, variant: str) -> None:
    """Strict readers load ``text`` (its racks drawn from the tile set, as MAGPIE
    replays them), ours reads it without an error and our checker finds it ``ok``: the
    scores, totals and placements the model of MAGPIE leaves to it."""
    tiles = load_tile_set(load_variant(variant).tile_set).counts
    assert strict_read(text, tiles) is None, text
    parsed = parse_gcg(text)
    assert not parsed.errors, parsed.errors
    check = check_record(parsed.record, load_variant(variant))
    assert check.ok, (check.errors, text)


ENDED = [
    p
    for p in sorted(SCENARIOS.glob("*/*.jsonl"))
    if (s := replay(list(enumerate(scenario_events(p), start=1)))[0]).result is not None
    and s.mode == "board"
    and any(h.kind != "adjusted" for h in s.history)
]


@pytest.mark.parametrize("path", ENDED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_scenario_that_ends_exports_for_strict_readers(path: Path) -> None:
    state, _ = replay(list(enumerate(scenario_events(path), start=1)))
    assert state.variant is not None
    _check(_gcg(state), state.variant.name)


@pytest.mark.parametrize("variant", BOARD_VARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_random_games_export_for_strict_readers(seed: int, variant: str) -> None:
    state, rejected = replay(numbered(random_log(seed, variant)))
    assert not rejected
    _check(_gcg(state), variant)


START = GameStarted(t=0, variant="nzasp", players=("Ann", "Ben"))
WINDY = (TilesPlaced(t=1_000, player=0, move="8D WINDY", score=32), ClockPressed(t=1_500, player=0))


def _ended(*middle: Event, first_to_pass: int) -> GameState:
    """Ann and Ben's game: ``middle``, then six passes and the racks counted."""
    passes = (Passed(t=6_000 + i, player=(first_to_pass + i) % 2) for i in range(6))
    end = EndRacks(t=9_000, racks=("AEIRSTT", "AEILNOU"))
    state, rejected = replay(numbered([START, *middle, *passes, end]))
    assert not rejected, rejected
    return state


def test_a_named_exchange_and_a_pass_carry_the_tiles_known() -> None:
    state = _ended(
        *WINDY,
        Exchanged(t=2_000, player=1, count=3, tiles="QVV"),
        Passed(t=3_000, player=0),
        TilesPlaced(t=4_000, player=1, move="D6 ZO.", score=15),
        ClockPressed(t=4_500, player=1),
        TilesPlaced(t=5_000, player=0, move="9E AX", score=20),
        ClockPressed(t=5_500, player=0),
        first_to_pass=1,
    )
    # the table shows the count only: the opponent must not learn the tiles put back
    assert [(h.text, h.rack) for h in state.history if h.kind == "exchange"] == [("-3", "QVV")]
    text = _gcg(state)
    assert strict_read(text, ENGLISH) is None, text
    lines = text.splitlines()
    assert any(ln.startswith(">Ben: QVV -QVV +0 0") for ln in lines), text
    # Ann's pass: her rack was the one she played AX from next
    assert any(ln.startswith(">Ann: AX - +0 32") for ln in lines), text
    assert any(ln.startswith(">Ann: AX 9E AX +20 52") for ln in lines), text
    assert lines[3].startswith("#description rackclock; rules: ")
    _check(text, "nzasp")


def test_a_blank_never_named_is_written_with_a_letter_and_a_note() -> None:
    state = _ended(
        TilesPlaced(t=1_000, player=0, move="8D WIND?", score=24),
        ClockPressed(t=1_500, player=0),
        first_to_pass=1,
    )
    text = _gcg(state)
    assert ">Ann: DINW? 8D WINDa +24 24" in text
    assert "#note a blank was not named at the table; written as 'a'" in text
    assert strict_read(text, ENGLISH) is None, text
    _check(text, "nzasp")


def test_an_exchange_only_counted_loads_as_a_pass_and_reads_back_as_the_exchange() -> None:
    state = _ended(
        *WINDY,
        Exchanged(t=2_000, player=1, count=3),
        TilesPlaced(t=3_000, player=0, move="D6 ZO.", score=15),
        ClockPressed(t=3_500, player=0),
        TilesPlaced(t=4_000, player=1, move="9E AX", score=20),
        ClockPressed(t=4_500, player=1),
        first_to_pass=0,
    )
    text = _gcg(state)
    assert strict_read(text, ENGLISH) is None, text
    lines = text.splitlines()
    at = lines.index(next(ln for ln in lines if ln.startswith(">Ben: AX - +0 0")))
    assert lines[at + 1 : at + 3] == [
        "#note exchanged 3 (the tiles were not recorded at the table)",
        "#rackclock-exchange 3",
    ]
    parsed = parse_gcg(text)
    check = check_record(parsed.record, load_variant("nzasp"))
    assert check.ok, check.errors
    # the checker takes the line as the exchange: nine tiles cannot go back from seven
    nine = parse_gcg(text.replace("#rackclock-exchange 3", "#rackclock-exchange 9")).record
    errors = check_record(nine, load_variant("nzasp")).errors
    assert [e.message for e in errors] == ["cannot exchange 9 tiles from a rack of 7"]


def test_a_pass_whose_rack_nothing_shows_gets_a_stand_in_that_reads_back_unknown() -> None:
    # Ann passes, then exchanges 7 tiles the table only counted: nothing ever shows
    # the rack she passed with.
    state = _ended(
        *WINDY,
        TilesPlaced(t=2_000, player=1, move="D6 ZO.", score=15),
        ClockPressed(t=2_500, player=1),
        Passed(t=3_000, player=0),
        TilesPlaced(t=3_500, player=1, move="9E AX", score=20),
        ClockPressed(t=3_800, player=1),
        Exchanged(t=4_000, player=0, count=7),
        TilesPlaced(t=4_500, player=1, move="10F OF", score=19),
        ClockPressed(t=4_800, player=1),
        first_to_pass=0,
    )
    text = _gcg(state)
    lines = text.splitlines()
    at = lines.index(next(ln for ln in lines if ln.startswith(">Ann: E - +0 32")))
    # E: the commonest tile neither on the board nor on Ben's last rack
    assert lines[at + 1 : at + 3] == [
        "#note rack not seen at the table: E stands in for it",
        "#rackclock-rack-unknown E",
    ]
    assert strict_read(text, ENGLISH) is None, text
    check = check_record(parse_gcg(text).record, load_variant("nzasp"))
    assert check.ok, check.errors
    # read back as unknown: no rack continuity warning from the stand-in
    assert not check.warnings, check.warnings


def test_the_strict_reader_refuses_a_rack_not_in_the_bag() -> None:
    # Three Zs: the English set has one (MAGPIE: "rack of ... not in bag").
    text = HEAD + ">ann: ZZZ - +0 0\n"
    assert strict_read(text) is None
    found = strict_read(text, ENGLISH)
    assert found is not None
    assert "not in bag" in found.message
    # a tile on the board cannot be on a rack: ann laid the only Z
    # (MAGPIE refuses it at ann's play: it draws ben's next rack after each move)
    found = strict_read(HEAD + ">ann: AZ 8H ZA +22 22\n>ben: Z - +0 0\n", ENGLISH)
    assert found is not None
    assert found.line == 3


def test_a_one_tile_play_is_written_in_the_direction_of_its_word() -> None:
    # Entered across at 7J, the T stands alone that way: MAGPIE scores it as a word of
    # one letter (error 113). Down, it makes TP (docs/gcg.md).
    state, rejected = replay(
        numbered(
            [
                START,
                TilesPlaced(t=1_000, player=0, move="8H lDP", score=10),
                ClockPressed(t=1_500, player=0),
                TilesPlaced(t=2_000, player=1, move="7J T", score=4),
                ClockPressed(t=2_500, player=1),
            ]
        )
    )
    assert not rejected, rejected
    text = _gcg(state)
    assert ">Ben: T J7 T. +4 4" in text
    assert strict_read(text, ENGLISH) is None


def test_a_blank_left_against_an_out_play_gets_its_zero_line() -> None:
    # The engine writes no line for a rack worth nothing; without `(?) +0` a reader
    # that replays the racks takes Ben's last play for going out (MAGPIE error 110).
    state, rejected = replay(numbered(game_events(28, "nzasp")))
    assert not rejected
    assert state.result is not None
    assert state.result.reason == "out"
    text = _gcg(state)
    assert ">Eli:  (?) +0 613" in text
    _check(text, "nzasp")


def test_a_game_stopped_at_the_cutoff_is_written_unfinished_with_its_result() -> None:
    path = SCENARIOS / "indonesia-open" / "end_time.jsonl"
    state, _ = replay(list(enumerate(scenario_events(path), start=1)))
    assert state.result is not None
    assert state.result.reason == "cutoff"
    text = _gcg(state)
    # No end-rack line (MAGPIE: "end rack penalty event before the game ended"); the
    # deductions are in the stated result, the (time) lines at the end.
    assert not any(
        line.endswith(")") or " (" in line
        for line in text.splitlines()
        if line.startswith(">") and "(time)" not in line
    )
    assert "#rackclock-result cutoff " in text
    assert "end racks deducted:" in text
    assert strict_read(text, ENGLISH) is None


def test_a_counted_exchange_after_a_withdrawn_play_is_written_with_stand_ins() -> None:
    # Cyd's play taken back leaves its tiles "known" on her rack for a replaying reader
    # until played or exchanged; her later exchange, only counted, written as a pass
    # would keep them there, and MAGPIE refused the record when Jo played the C
    # ("rack of C ... not in bag"). Written as an exchange of stand-ins, it loads, and
    # our reader takes it back as the exchange counted.
    state, rejected = replay(numbered(game_events(165, "naspa")))
    assert not rejected
    text = _gcg(state)
    assert "stand in for the tiles exchanged, which were not seen" in text
    assert "#rackclock-exchange" in text
    _check(text, "naspa")
