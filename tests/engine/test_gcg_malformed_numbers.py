"""A rackclock pragma's number that str.isdigit() passes but int() cannot read ('²',
'-+5') is reported as a problem at its line, not a crash (one whole-number check, the
reader's, for the result, deduction, adjustment, exchange and settled pragmas)."""

from __future__ import annotations

import pytest

from engine.gcg import check_bytes
from engine.rules.variant import load_variant

NZASP = load_variant("nzasp")
HEAD = "#player1 ann Ann Archer\n#player2 ben Ben Baker\n>ann: WINDY 8D WINDY +32 32\n"


@pytest.mark.parametrize(
    "pragma",
    [
        "#rackclock-result resigned 8 ² ann 8",
        "#rackclock-result resigned 32 0 ann -+5",
        "#rackclock-result resigned 32 0 ann 32\n#rackclock-deducted ben AB ²",
        "#rackclock-result resigned 32 0 ann 32\n#rackclock-adjusted ann -+5",
        "#rackclock-settled ²",
        "#rackclock-settled -+5",
    ],
)
def test_a_malformed_number_after_a_play_is_a_problem_at_its_line(pragma: str) -> None:
    text = HEAD + pragma + "\n"
    result = check_bytes(text.encode(), "t.gcg", NZASP)
    assert not result.ok
    bad = len(text.splitlines())
    assert any(p.line == bad and pragma.splitlines()[-1][:14] in p.message for p in result.errors)


@pytest.mark.parametrize("count", ["²", "-+5"])
def test_a_malformed_exchange_count_is_a_problem_at_its_line(count: str) -> None:
    text = HEAD + ">ben: ABC - +0 0\n#rackclock-exchange " + count + "\n"
    result = check_bytes(text.encode(), "t.gcg", NZASP)
    assert not result.ok
    assert any(p.line == 5 and "rackclock-exchange" in p.message for p in result.errors)
