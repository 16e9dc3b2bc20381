"""What the table shows is what every record says.

For every scenario that reaches a result, the result of the replay (``rackclock
replay --json``) equals the one computed from each record written from it: the
GCG record read back by our reader (its totals, or the result it states when the
arithmetic cannot show it), the NASPA results line and the tsh ``.t`` line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.exports.gcg import to_gcg
from engine.exports.results import game_result, naspa_lines, tsh_lines
from engine.gcg import parse_gcg, write_gcg
from engine.gcg.result import stated_result
from engine.rules.replay import replay, report
from engine.rules.state import GameState
from tests.helpers import SCENARIOS, scenario_events

Result = tuple[tuple[int, int], int | None, int]
"""Scores of players 0 and 1, the winner, the spread."""


def finished(path: Path) -> GameState | None:
    state, rejected = replay(list(enumerate(scenario_events(path), start=1)))
    assert not rejected, rejected
    return state if state.result is not None else None


ENDED = [p for p in sorted(SCENARIOS.glob("*/*.jsonl")) if finished(p) is not None]


def from_replay(state: GameState) -> Result:
    res = report(state)["result"]
    return (res["scores"][0], res["scores"][1]), res["winner"], res["spread"]


def from_gcg(state: GameState) -> Result:
    parsed = parse_gcg(write_gcg(to_gcg(state)))
    assert not parsed.errors, parsed.errors
    record = parsed.record
    nicks = [p.nick for p in record.players]
    names = [p.name for p in record.players]
    seat = [state.players.index(n) for n in names]  # record order -> seat
    stated = stated_result(record)
    if stated is not None:
        _, scores, winner, spread = stated
        by_seat = [0, 0]
        for i in (0, 1):
            by_seat[seat[i]] = scores[i]
        won = None if winner == "tie" else seat[nicks.index(winner)]
        return (by_seat[0], by_seat[1]), won, spread
    totals = [0, 0]
    for ev in record.events:
        totals[seat[nicks.index(ev.nick)]] = ev.cumulative
    won = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return (totals[0], totals[1]), won, abs(totals[0] - totals[1])


def _name_key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.casefold())


def from_naspa(state: GameState) -> tuple[int | None, int]:
    """The winner and spread the NASPA line says (scores are per player, not per game)."""
    lines = naspa_lines([game_result(state, 1)])
    cells = {}
    for line in lines:
        m = re.fullmatch(r"(\d+) (.+)/(-?\d+): ([WLTB])(\d*)(?:-(-?\d+))?", line)
        assert m, line
        cells[_name_key(m.group(2))] = (m.group(4), int(m.group(3)))
    out = [cells[_name_key(n.split()[-1] + "".join(n.split()[:-1]))] for n in state.players]
    letters = [c[0] for c in out]
    if letters == ["B", "B"]:
        # A forfeit: unrated on both sides, the winner is the one with the spread.
        spreads = [c[1] for c in out]
        return (None if spreads[0] == spreads[1] else 0 if spreads[0] > 0 else 1), abs(spreads[0])
    winner = 0 if letters[0] == "W" else 1 if letters[1] == "W" else None
    return winner, abs(out[0][1])


def from_tsh(state: GameState) -> tuple[int | None, int]:
    """The winner and spread the tsh lines say."""
    g = game_result(state, 1)
    lines = tsh_lines([g])
    got = []
    for line in lines:
        head, scores = line.split(";")
        got.append((head, int(scores.split()[0])))
    if g.unrated:
        spread = max(abs(s) for _, s in got)
        return g.winner, spread
    a, b = got[0][1], got[1][1]
    return (None if a == b else g.winner), abs(a - b)


@pytest.mark.parametrize("path", ENDED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_record_says_what_the_table_shows(path: Path) -> None:
    state = finished(path)
    assert state is not None
    scores, winner, spread = from_replay(state)
    assert state.result is not None
    if state.mode == "board" and any(h.kind != "adjusted" for h in state.history):
        assert from_gcg(state) == (scores, winner, spread)
    if state.result.reason != "bye":
        assert from_naspa(state) == (winner, spread)
        assert from_tsh(state) == (winner, spread)


def test_there_are_games_of_every_ending() -> None:
    reasons = {s.result.reason for p in ENDED if (s := finished(p)) and s.result}
    assert {"out", "scoreless", "cutoff", "resigned", "forfeit", "declared"} <= reasons
