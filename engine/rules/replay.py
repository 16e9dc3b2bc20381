"""Replaying a game log to any instant, and the state as a report.

A log is a sequence of events (from SQLite or JSON Lines). Replay applies them
in order; an event the rules refuse is reported with its line, reason and
rule, skipped, and replay goes on. Replaying to instant ``at`` applies the
events stamped at or before it and then the deadlines up to it, so the clocks,
scores and rulings are exactly as they stood then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from engine.errors import Refusal
from engine.events import Event, GameStarted, decode_event
from engine.rules.game_report import (
    ClockReading,
    GameReport,
    HistoryLine,
    LiveReport,
    Rejected,
    ReportedResult,
)
from engine.rules.machine import advance, apply
from engine.rules.procedures.common import penalty_counted
from engine.rules.procedures.turn import DRIFT_RULE
from engine.rules.state import GameState, Phase

__all__ = [
    "Refused",
    "Rejected",
    "game_report",
    "live_report",
    "parse_jsonl",
    "parse_jsonl_with_refused",
    "replay",
    "report",
    "split_games",
    "split_games_with_refused",
]


class Refused(msgspec.Struct, frozen=True):
    """A command the table refused, kept in its log for forensics: shown to the
    director in its place among the events ("he drew before I could challenge" is
    answered by these rows), never replayed."""

    line: int
    """Its sequence number (SQLite) or 1-based line (JSON Lines)."""
    event: Event
    """The command as it was submitted, ``t`` when it arrived."""
    reason: str
    """Why the rules refused it."""
    rule: str
    """The rule that refused it."""


class _RefusedMark(msgspec.Struct):
    refused: bool = False
    reason: str | None = None
    rule: str | None = None


_mark = msgspec.json.Decoder(_RefusedMark)


def parse_jsonl(text: str) -> tuple[list[tuple[int, Event]], list[Rejected]]:
    """Decode JSON Lines; malformed lines are reported with their line number, and lines
    marked ``"refused": true`` (refused commands kept for forensics) are skipped."""
    events, bad, _ = parse_jsonl_with_refused(text)
    return events, bad


def parse_jsonl_with_refused(
    text: str,
) -> tuple[list[tuple[int, Event]], list[Rejected], list[Refused]]:
    """:func:`parse_jsonl`, and the lines marked ``"refused": true`` with their reason
    and rule (``rackclock log export --include-refused`` writes them)."""
    events: list[tuple[int, Event]] = []
    bad: list[Rejected] = []
    refused: list[Refused] = []
    # "\n" alone ends a line: str.splitlines() would also split at U+0085, U+2028 and
    # U+2029, which JSON writes unescaped inside a string such as a player's name.
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            event = decode_event(line)
            mark = _mark.decode(line)
            if mark.refused:  # kept for forensics, never replayed
                refused.append(Refused(lineno, event, mark.reason or "", mark.rule or ""))
                continue
            events.append((lineno, event))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            bad.append(
                Rejected(
                    lineno,
                    f"cannot read {line.strip()[:80]!r}: {exc}",
                    "events.md: the event format",
                )
            )
    return events, bad, refused


def split_games(events: Sequence[tuple[int, Event]]) -> list[list[tuple[int, Event]]]:
    """The games of a log, each from its ``game_started`` (lines before the first are dropped)."""
    games: list[list[tuple[int, Event]]] = []
    for item in events:
        if isinstance(item[1], GameStarted):
            games.append([])
        if games:
            games[-1].append(item)
    return games


def split_games_with_refused(
    events: Sequence[tuple[int, Event]], refused: Iterable[Refused]
) -> list[list[tuple[int, Event, Refused | None]]]:
    """:func:`split_games`, each game with the refused commands logged during it in
    their place (by line: event 5, 6 refused, 7 refused, 8). A refused row carries
    its :class:`Refused`; an accepted one ``None``. Only accepted rows start a game."""
    rows = sorted(
        [*((line, ev, None) for line, ev in events), *((r.line, r.event, r) for r in refused)],
        key=lambda row: row[0],
    )
    games: list[list[tuple[int, Event, Refused | None]]] = []
    for row in rows:
        if row[2] is None and isinstance(row[1], GameStarted):
            games.append([])
        if games:
            games[-1].append(row)
    return games


def replay(
    events: Iterable[tuple[int, Event]], *, at: int | None = None, state: GameState | None = None
) -> tuple[GameState, list[Rejected]]:
    """Apply ``(line, event)`` pairs in order; stop before the first event after ``at``.

    Returns the state (advanced to ``at`` when given) and the refused lines.
    """
    st = state if state is not None else GameState()
    rejected: list[Rejected] = []
    for line, ev in events:
        t = ev.t if ev.t is not None else st.t
        if at is not None and t > at:
            break
        try:
            st = apply(st, ev, t)
        except Refusal as exc:
            rejected.append(Rejected(line, exc.reason, exc.rule))
    if at is not None and st.variant is not None:
        st = advance(st, at)
    return st, rejected


LIVE_RULINGS = 1
"""The latest rulings a live report keeps (besides every clock drift ruling)."""


def _reported(state: GameState, t: int, *, live: bool) -> dict[str, Any]:
    """The fields both forms share, read at ``t``."""
    over = state.phase in (Phase.END_RACKS, Phase.OVER)
    res = state.result
    return {
        "variant": state.variant.name if state.variant else None,
        "players": state.players,
        # which game this is: the log's game count and the event's round, division and
        # table from its start (a rematch at the same table is another game)
        "games": state.games,
        "round": state.round,
        "division": state.division,
        "table": state.table,
        "mode": state.mode,
        "phase": state.phase.value,
        "phase_text": state.describe_phase(),
        "turn": None if over or state.phase is Phase.NOT_STARTED else state.turn,
        "at_ms": t,
        "scores": state.scores,
        "clocks": tuple(
            ClockReading(
                remaining_ms=(left := state.clock.remaining(seat, t)),
                overtime_ms=max(0, -left),
                penalty=penalty_counted(state, seat, t),
                running=state.clock.running == seat,
            )
            for seat in (0, 1)
        ),
        "neutralized": state.clock.neutral,
        "bag": state.bag if state.mode == "board" else None,
        "rulings": tuple(
            r
            for i, r in enumerate(state.rulings)
            if not live or i >= len(state.rulings) - LIVE_RULINGS or DRIFT_RULE in r.rule
        ),
        "signed": state.signed,
        "result": None
        if res is None
        else ReportedResult(
            scores=res.scores,
            winner=res.winner,
            reason=res.reason,
            spread=res.spread,
            penalties=res.penalties,
            spread_recorded=state.variant.spread_recorded if state.variant else True,
        ),
    }


def live_report(state: GameState, now: int | None = None) -> LiveReport:
    """The live form of the state, clocks read at ``now`` (default: the state's time):
    what a table publishes on ``live`` (docs/mqtt.md, "Live")."""
    return LiveReport(**_reported(state, state.t if now is None else now, live=True))


def game_report(
    state: GameState, now: int | None = None, rejected: Iterable[Rejected] = ()
) -> GameReport:
    """The full form of the state, clocks read at ``now``: ``replay --json``, and
    the snapshot a table publishes on ``state``."""
    return GameReport(
        **_reported(state, state.t if now is None else now, live=False),
        board=tuple(state.board.render().splitlines()) if state.board is not None else None,
        history=tuple(
            HistoryLine(h.t, h.player, h.kind, h.text, h.score, h.total, h.remaining_ms)
            for h in state.history
        ),
        rejected=tuple(rejected),
    )


def report(
    state: GameState,
    now: int | None = None,
    rejected: Iterable[Rejected] = (),
    *,
    live: bool = False,
) -> dict[str, Any]:
    """The state as a JSON-ready dict (the ``replay --json`` form), clocks read at ``now``:
    :func:`game_report`, or with ``live`` :func:`live_report` (``rejected`` unused),
    as plain values.
    """
    typed = live_report(state, now) if live else game_report(state, now, rejected)
    # through JSON, not to_builtins: that keeps tuples, and the dict is JSON's (lists)
    doc: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(typed))
    return doc
