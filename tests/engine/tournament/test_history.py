"""The results' history as ``event show --history`` prints it (issue 23 §1): each
result as entered, a correction with what it replaced, who made it and why, an undo
("taken back by ... : reason"), per division and round in ledger order, numbered as
the ledger numbers its records."""

from __future__ import annotations

from engine.tournament.records import Created, Paired, Record, Result, Retracted
from engine.tournament.report import history_lines
from engine.tournament.state import replay
from tests.engine.tournament.test_report_marks import EVENT, ann_forfeits


def history(*records: Record) -> list[str]:
    every = [Created(EVENT.format(variant="nzasp")), *records]
    return history_lines(replay(every), every)


def test_a_correction_and_an_undo_say_who_and_why() -> None:
    lines = history(
        Paired("A", 1, ((2, 1), (3, 0))),  # record 2
        Result("A", 1, 2, 1, (400, 300), game="t1.sqlite#9f2c", by="table t1"),
        Result("A", 1, 2, 1, (410, 300), by="Judge Dee", reason="the slip says 410"),
        Result("A", 1, 2, 1, (400, 300), by="Judge Dee", reason="undo of the correction"),
        Paired("A", 2, ((1, 3), (2, 0))),
        Result("A", 2, 1, 3, (350, 360), by="Bo"),
        Retracted("A", 2, 1, 3, "Bo", "undo", (350, 360)),
    )
    assert lines == [
        "Walk Open: results as entered, corrections and undos",
        "division A",
        "  round 1",
        "    record 3  Gus Gray 400 to 300 Ann Ames (t1.sqlite#9f2c)  by table t1",
        "    record 4  Gus Gray 410 to 300 Ann Ames (was 400 to 300)  "
        "corrected by Judge Dee: the slip says 410",
        "    record 5  Gus Gray 400 to 300 Ann Ames (was 410 to 300)  "
        "corrected by Judge Dee: undo of the correction",
        "  round 2",
        "    record 7  Ann Ames 350 to 360 Cid Cole  by Bo",
        "    record 8  Ann Ames 350 to 360 Cid Cole  taken back by Bo: undo",
    ]


def test_a_forfeit_shows_its_ruling_and_a_round_entered_late_keeps_its_place() -> None:
    lines = history(
        Paired("A", 1, ((2, 1), (3, 0))),
        Paired("A", 2, ((1, 3), (2, 0))),
        Result("A", 2, 1, 3, (350, 360), by="Bo"),  # record 4: round 2's slip first
        ann_forfeits(1, 2, 1),  # record 5: round 1's, late
    )
    assert lines[2:] == [
        "  round 1",
        "    record 5  Gus Gray 10 to 20 Ann Ames: "
        "Ann Ames forfeits: Gus Gray wins, spread 50  by director",
        "  round 2",
        "    record 4  Ann Ames 350 to 360 Cid Cole  by Bo",
    ]
