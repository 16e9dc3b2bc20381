"""``rackclock event show LEDGER --history`` as a process: every result, correction and
undo in ledger order with who made it and why (issue 23 §1), from a ledger the
``event`` commands wrote, opened read-only (the file is not changed by reading it)."""

from __future__ import annotations

from pathlib import Path

from clock.tournament.ledger import EventLedger, verify_ledger
from engine.tournament.records import Retracted
from tests.terminal_ui.test_event import new_event, rackclock


def test_show_history_lists_who_entered_corrected_and_took_back_each_result(
    tmp_path: Path,
) -> None:
    log = new_event(tmp_path)
    for extra in ([], ["--reason", "the slip says 402"]):
        done = rackclock(
            "event", "result", log, "1", "Ann Able", "420" if not extra else "402",
            "Ben Baker", "380", "--by", "Judge Dee", *extra,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    done = rackclock("event", "result", log, "1", "Cid", "300", "Dee", "310", "--by", "Al")
    assert done.returncode == 0, done.stderr
    with EventLedger.open(log) as ledger:  # the slip prompt's undo, as its record
        ledger.append(Retracted("A", 1, 3, 4, "Bo", "undo", (300, 310)))
    before = verify_ledger(log)

    done = rackclock("event", "show", log, "--history")

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Club night: results as entered, corrections and undos",
        "division A",
        "  round 1",
        "    record 3  Ann Able 420 to 380 Ben Baker  by Judge Dee",
        "    record 4  Ann Able 402 to 380 Ben Baker (was 420 to 380)  "
        "corrected by Judge Dee: the slip says 402",
        "    record 5  Cid Cole 300 to 310 Dee Dunn  by Al",
        "    record 6  Cid Cole 300 to 310 Dee Dunn  taken back by Bo: undo",
    ]
    assert verify_ledger(log) == before


def test_show_history_of_a_ledger_without_results_says_so(tmp_path: Path) -> None:
    done = rackclock("event", "show", new_event(tmp_path), "--history")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["division A: no result yet"]
