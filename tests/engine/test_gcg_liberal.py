"""Reading what the world writes: liberal in layout and in what annotators record,
strict in arithmetic (docs/gcg.md, "What is accepted, and what is warned about")."""

from __future__ import annotations

import re

from engine.events import ClockPressed, Event, GameStarted, TilesPlaced
from engine.gcg import check_bytes
from engine.rules.replay import replay
from engine.rules.variant import load_variant
from tests.helpers import DATA

NZASP = load_variant("nzasp")
HEAD = "#player1 ann Ann Archer\n#player2 ben Ben Baker\n"
WREATH = ">ann: AEHRTUW 8D WREATH +32 32\n"


def check(text: str):  # type: ignore[no-untyped-def]
    return check_bytes(text.encode(), "t.gcg", NZASP)


def test_played_through_tiles_written_as_letters_or_in_parentheses() -> None:
    # I8 HOAX through the H of WREATH on 8I: the H written as a letter (older Quackle
    # files) or in parentheses reads as I8 .OAX, scored the same.
    dotted = check(HEAD + WREATH + ">ben: ADEIOTX I8 .OAX +15 15\n")
    assert dotted.ok, dotted.errors
    for form in ("I8 HOAX", "I8 (H)OAX", "i8 (h)oax".replace("oax", "OAX")):
        result = check(HEAD + WREATH + f">ben: ADEIOTX {form} +15 15\n")
        assert result.ok, (form, result.errors)
        assert result.final_scores == dotted.final_scores


def test_a_letter_that_differs_from_the_board_is_still_an_error() -> None:
    result = check(HEAD + WREATH + ">ben: ADEIOTX I8 DOAX +15 15\n")
    assert [(p.line, "already holds 'H'" in p.message) for p in result.errors] == [(4, True)]


def test_a_pass_accepting_the_out_play_is_accepted() -> None:
    # Woogles records the opponent's acceptance of an out-play as a pass before the
    # end-of-game line.
    good = (DATA / "gcg" / "good" / "six_scoreless.gcg").read_text()
    assert check(good).ok
    out = (DATA / "real" / "doug_v_emely.gcg").read_text(encoding="latin-1").splitlines()
    end = next(i for i, ln in enumerate(out) if re.match(r">\S+:\s+\(", ln))
    mover = out[end].split(":")[0]
    other = next(ln.split(":")[0] for ln in out if ln.startswith(">") and ln.split(":")[0] != mover)
    total = next(ln.split()[-1] for ln in reversed(out[:end]) if ln.startswith(other + ":"))
    out.insert(end, f"{other}: EGOP - +0 {total}")
    result = check("\n".join(out) + "\n")
    assert result.ok, result.errors
    assert result.complete


def test_rack_continuity_is_a_warning_and_strict_makes_it_fail() -> None:
    path = DATA / "gcg" / "warn" / "rack_lacks_kept.gcg"
    result = check_bytes(path.read_bytes(), path.name, NZASP)
    assert result.ok
    assert [(w.line, "lacks 'U' kept from" in w.message) for w in result.warnings] == [(5, True)]


def test_a_withdrawn_play_from_another_rack_is_an_error() -> None:
    text = HEAD + WREATH + ">ben: ADEIOTX I8 .OAX +15 15\n>ben: ADEIOTZ -- -15 0\n"
    result = check(text)
    assert [p.line for p in result.errors] == [5]
    assert "not the rack it was played from" in result.errors[0].message
    same = check(HEAD + WREATH + ">ben: ADEIOTX I8 .OAX +15 15\n>ben: ADEIOTX -- -15 0\n")
    assert same.ok, same.errors


def test_one_misplaced_play_is_reported_once() -> None:
    # WREATH written off the centre (8I): Ben's play through its W would fail too
    # ("I8 is empty") if the misplaced tiles were not laid all the same.
    text = (
        HEAD
        + ">ann: AEHRTUW 8I WREATH +32 32\n"
        + ">ben: ADEIOTX I8 .OAX +15 15\n"
        + ">ann: GIIQVVW -GIIQ +0 32\n"
    )
    result = check(text)
    assert [p.line for p in result.errors] == [3], result.errors


def test_the_table_takes_a_played_through_tile_in_parentheses() -> None:
    events: list[Event] = [
        GameStarted(t=0, variant="nzasp", players=("Ann", "Ben")),
        TilesPlaced(t=1_000, player=0, move="8D WINDY", score=32),
        ClockPressed(t=1_500, player=0),
        TilesPlaced(t=2_000, player=1, move="D7 A(W)", score=7),
        ClockPressed(t=2_500, player=1),
    ]
    state, rejected = replay(list(enumerate(events, start=1)))
    assert not rejected, rejected
    assert [h.text for h in state.history if h.kind == "play"] == ["8D WINDY", "D7 A."]
