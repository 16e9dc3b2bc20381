"""Results from paper slips (engine.tournament.slips, slips_session): every form a
line takes, every refusal, and undo and correction kept in the ledger with who."""

from __future__ import annotations

import pytest

from engine.tournament.errors import ResultError
from engine.tournament.records import Created, Paired, Record, Result, Retracted
from engine.tournament.slips import (
    find_player,
    missing_lines,
    missing_report,
    read_slip,
    slip_round,
    slip_where,
)
from engine.tournament.slips_session import SlipSession
from engine.tournament.state import EventState, replay

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 3
plan = [{ rounds = "1-3", system = "koth" }]
players = [
  { name = "Gus Gray", rating = 1800 },
  { name = "Dan Doe", rating = 1700 },
  { name = "Dana Fox", rating = 1600 },
  { name = "Ann Able", rating = 1500 },
  { name = "Ben Baker", rating = 1400 },
  { name = "Gail Green", rating = 1300 },
  { name = "Cid Cole", rating = 1200 },
]
[[division]]
name = "B"
rounds = 1
plan = [{ rounds = "1", system = "koth" }]
players = [{ name = "Zed Zane", rating = 1000 }, { name = "Yul Young", rating = 900 }]
"""
ROUND_1 = ((1, 2), (3, 4), (5, 6), (7, 0))


class Book:
    """The event's ledger in memory: a record is checked, then kept."""

    def __init__(self, *records: Record) -> None:
        self.records: list[Record] = [Created(EVENT)]
        self.state: EventState = replay(self.records)
        for record in records:
            self.append(record)

    def append(self, record: Record) -> EventState:
        self.state.apply(record)
        self.records.append(record)
        return self.state

    def refresh(self) -> bool:
        return False


def book() -> Book:
    return Book(Paired("A", 1, ROUND_1), Paired("B", 1, ((1, 2),)))


def read(b: Book, line: str, **kw: object) -> str:
    return read_slip(b.state, line, division="A", **kw).echo  # type: ignore[arg-type]


def test_numbers_names_prefixes_and_last_first_read_the_same_game() -> None:
    b = book()
    want = "R1 T1  #1 Gus Gray 410 - #2 Dan Doe 385  (+25)"
    for line in (
        "1 410 2 385",
        "gus 410 dan 385",  # "dan" is Dan Doe's whole first name: not Dana Fox
        "GUS GRAY 410 dan doe 385",
        "Gray, Gus 410 Doe, Dan 385",
        "gray 410 doe 385",
        "g gray 410 2 385",
        "r1 1 410 2 385",
    ):
        assert read(b, line) == want, line
    # typed the other way round: echoed as typed, the record in the pairing's order
    slip = read_slip(b.state, "2 385 1 410", division="A")
    assert slip.echo == "R1 T1  #2 Dan Doe 385 - #1 Gus Gray 410  (-25)"
    assert (slip.result.first, slip.result.second, slip.result.scores) == (1, 2, (410, 385))
    assert read(b, "1 -5 2 12") == "R1 T1  #1 Gus Gray -5 - #2 Dan Doe 12  (-17)"


def test_a_player_by_prefix_or_number_and_the_refusals() -> None:
    div = book().state.division("A")
    assert find_player(div, "dana") == 3
    assert find_player(div, "cole, c") == 7
    assert find_player(div, "7") == 7
    with pytest.raises(ResultError, match=r"'g' fits several players: #1 Gus Gray, #6 Gail"):
        find_player(div, "g")
    with pytest.raises(ResultError, match=r"no player #9 in division A \(1-7\)"):
        find_player(div, "9")
    with pytest.raises(ResultError, match="division 'A' has no player 'zed'"):
        find_player(div, "zed")


def test_a_forfeit_and_a_bye() -> None:
    b = book()
    slip = read_slip(b.state, "3 f", division="A")
    assert slip.echo == "R1 T2  #4 Ann Able wins: #3 Dana Fox forfeits  (+50)"
    assert (slip.result.kind, slip.result.winner, slip.result.spread) == ("forfeit", 4, 50)
    assert read(b, "dana forfeit ann") == slip.echo
    with pytest.raises(ResultError, match="#3 Dana Fox plays #4 Ann Able at T2"):
        read(b, "3 f 5")
    with pytest.raises(ResultError, match="#7 Cid Cole has the bye: a bye counts by itself"):
        read(b, "7 bye")
    with pytest.raises(ResultError, match="#7 Cid Cole has the bye: no game to forfeit"):
        read(b, "7 f")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "1 410 3 385",
            "#1 Gus Gray and #3 Dana Fox are not paired together in round 1: "
            "#1 Gus Gray plays #2 Dan Doe at T1; #3 Dana Fox plays #4 Ann Able at T2",
        ),
        ("1 410 7 385", "#7 Cid Cole has the bye"),
        ("1 4100 2 385", "#1 Gus Gray's score 4100 is not one a game can end with"),
        ("1 410 2 -500", "#2 Dan Doe's score -500 is not one"),
        ("da 410 1 385", "'da' fits several players: #2 Dan Doe, #3 Dana Fox"),
        ("1 410 2", "expected PLAYER SCORE PLAYER SCORE in '1 410 2'"),
        ("1 410 2 385 9", "expected PLAYER SCORE PLAYER SCORE"),
        ("gus 410 dan", "expected PLAYER SCORE PLAYER SCORE"),
        ("gus dan 385", "division 'A' has no player 'gus dan'"),
        ("1 410 gus 385", "both players are #1 Gus Gray"),
        ("r2 1 410 2 385", "round 2 is not paired in division A"),
        ("", "nothing to read"),
    ],
)
def test_a_line_that_cannot_be_right_is_refused_with_the_reason(line: str, said: str) -> None:
    with pytest.raises(ResultError, match=None) as got:
        read(book(), line)
    assert said in str(got.value)


def test_a_result_already_in_offers_the_correction() -> None:
    b = book()
    b.append(read_slip(b.state, "1 410 2 385", division="A").result)
    with pytest.raises(ResultError) as got:
        read(b, "1 401 2 385")
    assert str(got.value) == (
        "already in: R1 T1  #1 Gus Gray 410 - #2 Dan Doe 385  (+25); "
        "to correct it: c 1 401 2 385 --reason WHY"
    )
    with pytest.raises(ResultError, match="already in as typed"):
        read(b, "gus 410 dan 385")  # the same slip handed in twice
    with pytest.raises(ResultError, match="nothing to correct"):
        read(b, "3 400 4 300", reason="typo")
    fixed = read_slip(b.state, "1 401 2 385", division="A", reason="typo", by="kim")
    assert fixed.before is not None
    assert fixed.before.scores == (410, 385)
    assert (fixed.result.by, fixed.result.reason) == ("kim", "typo")


def test_the_round_and_the_division() -> None:
    b = book()
    div = b.state.division("A")
    assert slip_round(div) == 1
    with pytest.raises(ResultError, match=r"divisions A, B: start the line with one \(A 3 410"):
        read_slip(b.state, "1 410 2 385")
    assert read_slip(b.state, "b zed 400 yul 300").echo.startswith("R1 T4  #1 Zed Zane 400")
    for line in ("1 410 2 385", "3 400 4 300", "5 f"):
        b.append(read_slip(b.state, line, division="A").result)
    assert div.missing(1) == []
    b.append(Paired("A", 2, ((1, 3), (2, 4), (5, 7), (6, 0))))
    assert slip_round(div) == 2  # the latest round with games missing
    assert missing_lines(b.state, div, 2) == [
        "division A round 2: 3 game(s) without a result",
        "  R2 T1  #1 Gus Gray v #3 Dana Fox",
        "  R2 T2  #2 Dan Doe v #4 Ann Able",
        "  R2 T3  #5 Ben Baker v #7 Cid Cole",
    ]
    assert missing_lines(b.state, div, 1) == ["division A round 1: every result is in"]
    # the director names an earlier round: a correction there
    assert read(b, "r1 1 411 2 385", reason="typo").startswith("R1 T1  #1 Gus Gray 411")


def test_undo_and_correct_are_in_the_ledger_with_who() -> None:
    b = book()
    desk = SlipSession(b, "kim", division="A")
    assert desk.handle("1 410 2 385").text == "R1 T1  #1 Gus Gray 410 - #2 Dan Doe 385  (+25)"
    assert desk.handle("3 400 4 300").ok
    fixed = desk.handle("c 1 401 2 385 --reason slip misread")
    assert fixed.text == (
        "corrected: R1 T1  #1 Gus Gray 401 - #2 Dan Doe 385  (+16)  "
        "(was #1 Gus Gray 410 - #2 Dan Doe 385  (+25))"
    )
    refused = desk.handle("1 999 2 385")  # a refused line changes nothing
    assert not refused.ok
    assert "c 1 999 2 385 --reason WHY" in refused.text
    assert desk.handle("c 1 999 2 385").text == "refused: a correction is c LINE --reason WHY"
    assert desk.handle("u").text.startswith("undone: R1 T1  #1 Gus Gray 401")  # the correction
    assert b.state.division("A").results[1][(1, 2)].scores == (410, 385)
    assert desk.handle("u").text == (
        "undone: R1 T2  #3 Dana Fox 400 - #4 Ann Able 300  (+100)  (no result again)"
    )
    assert desk.handle("u").ok
    assert desk.handle("u").text == "refused: nothing entered in this session to undo"
    assert b.state.division("A").results[1] == {}
    made = b.records[3:]
    assert [type(r).__name__ for r in made] == [
        "Result",
        "Result",
        "Result",
        "Result",
        "Retracted",
        "Retracted",
    ]
    assert all(r.by == "kim" for r in made if isinstance(r, Result | Retracted))
    assert [r.reason for r in made if isinstance(r, Result | Retracted)] == [
        "",
        "",
        "slip misread",
        "undo of the correction (slip misread)",
        "undo",
        "undo",
    ]
    # the ledger replays to the same event (the records are its log)
    assert replay(b.records).division("A").results == b.state.division("A").results


def test_undo_leaves_a_result_changed_elsewhere_alone() -> None:
    b = book()
    desk = SlipSession(b, "kim", division="A")
    desk.handle("1 410 2 385")
    other = read_slip(b.state, "1 420 2 385", division="A", reason="other desk")
    b.append(other.result)
    said = desk.handle("u")
    assert not said.ok
    assert "changed since it was entered here" in said.text
    assert b.state.division("A").results[1][(1, 2)].scores == (420, 385)


def test_session_commands() -> None:
    b = book()
    desk = SlipSession(b, "kim")
    assert "divisions A, B" in desk.handle("1 410 2 385").text
    assert desk.handle("division b").text == "lines go to division B"
    assert desk.handle("d a").text == "lines go to division A"
    assert desk.handle("round 3").text == "refused: round 3 is not paired in division A"
    assert desk.handle("r 1").text == "lines go to round 1"
    assert desk.handle("m").text.startswith("division A round 1: 3 game(s) without a result")
    assert "c LINE --reason WHY" in desk.handle("h").text
    assert desk.handle("").text == ""
    assert desk.handle("q").done


def test_a_retraction_needs_a_result_who_and_why() -> None:
    b = book()
    with pytest.raises(ResultError, match="has no result to take back"):
        b.append(Retracted("A", 1, 1, 2, "kim", "undo"))
    b.append(Result("A", 1, 1, 2, (400, 300)))
    with pytest.raises(ResultError, match="who \\(by\\) and why"):
        b.append(Retracted("A", 1, 1, 2, "kim", " "))


def two_rounds_paired() -> Book:
    """Round 1 with one game still out (#1 v #2), round 2 paired on top of it."""
    b = book()
    for line in ("3 400 4 300", "5 f"):
        b.append(read_slip(b.state, line, division="A").result)
    b.append(Paired("A", 2, ((1, 3), (2, 4), (5, 7), (6, 0))))
    return b


def test_a_late_slip_of_an_earlier_round_goes_to_its_round() -> None:
    b = two_rounds_paired()
    # #1 v #2 is round 1's game still out: not refused as unpaired in round 2
    slip = read_slip(b.state, "2 300 1 400", division="A")
    assert slip.echo == "R1 T1  #2 Dan Doe 300 - #1 Gus Gray 400  (-100)"
    assert read(b, "1 f 2") == "R1 T1  #2 Dan Doe wins: #1 Gus Gray forfeits  (+50)"
    with pytest.raises(ResultError, match=r"#1 Gus Gray has games in rounds 1, 2: start the "):
        read(b, "1 f")
    assert read(b, "1 410 3 300").startswith("R2 T1  #1 Gus Gray 410 - #3 Dana Fox")
    # a correction goes to the round where the pair has a result
    assert read(b, "3 401 4 300", reason="typo").startswith("R1 T2  #3 Dana Fox 401")
    session = SlipSession(b, "kim", division="A")
    assert session.handle("m").text.splitlines() == [
        "division A round 1: 1 game(s) without a result",
        "  R1 T1  #1 Gus Gray v #2 Dan Doe",
        "division A round 2: 3 game(s) without a result",
        "  R2 T1  #1 Gus Gray v #3 Dana Fox",
        "  R2 T2  #2 Dan Doe v #4 Ann Able",
        "  R2 T3  #5 Ben Baker v #7 Cid Cole",
    ]
    assert slip_where(b.state, "A", None) == "division A rounds 1, 2"
    assert slip_where(b.state, "A", 2) == "division A round 2"


def test_a_pairing_open_in_two_rounds_needs_its_round() -> None:
    b = book()
    b.append(Paired("A", 2, ROUND_1))  # a repeat of round 1 (koth can pair one)
    with pytest.raises(
        ResultError, match=r"#1 Gus Gray and #2 Dan Doe are paired in rounds 1, 2: start "
    ):
        read(b, "1 410 2 385")
    assert read(b, "r2 1 410 2 385").startswith("R2 T1")


def test_echoes_keep_the_order_typed_through_correction_and_undo() -> None:
    b = book()
    desk = SlipSession(b, "kim", division="A")
    assert desk.handle("2 350 1 360").text == "R1 T1  #2 Dan Doe 350 - #1 Gus Gray 360  (-10)"
    assert desk.handle("c 2 360 1 350 --reason swapped").text == (
        "corrected: R1 T1  #2 Dan Doe 360 - #1 Gus Gray 350  (+10)  "
        "(was #2 Dan Doe 350 - #1 Gus Gray 360  (-10))"
    )
    assert desk.handle("u").text == (
        "undone: R1 T1  #2 Dan Doe 360 - #1 Gus Gray 350  (+10)  "
        "(back to #2 Dan Doe 350 - #1 Gus Gray 360  (-10))"
    )
    assert desk.handle("u").text == (
        "undone: R1 T1  #2 Dan Doe 350 - #1 Gus Gray 360  (-10)  (no result again)"
    )


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("bye", "refused: a bye needs no slip: it counts by itself ('bye')"),
        ("bye 3", "refused: a bye needs no slip: it counts by itself ('bye 3')"),
        ("1 400 5 300 f", "refused: a forfeit is PLAYER f [OPPONENT], no scores"),
        ("round -1", "refused: round '-1': rounds are numbered from 1"),
        ("r1\n", "refused: nothing to read in 'r1'"),
    ],
)
def test_confusing_lines_are_refused_plainly(line: str, said: str) -> None:
    desk = SlipSession(book(), "kim", division="A")
    assert desk.handle(line).text.startswith(said)


def test_missing_of_a_round_not_paired_is_refused() -> None:
    b = book()
    with pytest.raises(ResultError, match="round 3 is not paired in division A"):
        missing_report(b.state, "A", 3)
    assert missing_report(b.state, None, None)[0] == (
        "division A round 1: 3 game(s) without a result"
    )
    assert missing_report(b.state, None, None)[-2:] == [
        "division B round 1: 1 game(s) without a result",
        "  R1 T4  #1 Zed Zane v #2 Yul Young",
    ]


def test_a_retraction_says_what_it_takes_back() -> None:
    b = book()
    b.append(Result("A", 1, 1, 2, (400, 300)))
    with pytest.raises(ResultError, match=r"\(410 to 300\) is no longer the one in \(400 to 300\)"):
        b.append(Retracted("A", 1, 1, 2, "kim", "undo", (410, 300)))
    b.append(Retracted("A", 1, 1, 2, "kim", "undo"))  # an older record: not checked
    b.append(Result("A", 1, 1, 2, (400, 300)))
    desk = SlipSession(b, "kim", division="A")
    desk.handle("3 400 4 300")
    desk.handle("u")
    taken = b.records[-1]
    assert isinstance(taken, Retracted)
    assert (taken.scores, taken.winner) == ((400, 300), None)


def test_neither_came() -> None:
    b = book()
    slip = read_slip(b.state, "4 absent dana", division="A")
    assert slip.echo == "R1 T2  #4 Ann Able v #3 Dana Fox: neither came"
    assert (slip.result.kind, slip.result.scores, slip.result.winner) == ("absent", (0, 0), None)
    b.append(slip.result)
    assert b.state.division("A").results[1][(3, 4)].won(3) == 0.0
    with pytest.raises(ResultError, match="neither came is PLAYER absent PLAYER, no scores"):
        read(b, "1 400 absent 2")
    with pytest.raises(ResultError, match="not paired together in round 1"):
        read(b, "1 absent 3")


def test_a_division_named_by_a_number_does_not_take_a_players_number() -> None:
    b = Book()
    b.records = [Created(EVENT.replace('name = "B"', 'name = "2"'))]
    b.state = replay(b.records)
    b.append(Paired("A", 1, ROUND_1))
    echo = read_slip(b.state, "2 385 1 410", division="A").echo
    assert echo == "R1 T1  #2 Dan Doe 385 - #1 Gus Gray 410  (-25)"
