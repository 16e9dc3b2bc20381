"""A game from the log as a GCG record, with each move's clock time.

The clock time rides as an annotation after the cumulative score:
``>Ann:  8D WINDY +32 32 @24:28.5`` is the time left on the mover's clock after
the move (``@-0:12.0`` in overtime). Readers that do not know it ignore text
after the total (macondo's regular expressions are not anchored at the end;
rackclock keeps it as the line's annotation). Racks are not tracked at a table,
so the rack field is empty except at the end of the game. A score the players
settled in a dispute is the play's score. Director's adjustments have no GCG
event: they are written as notes and are not in the totals, so the record's
arithmetic still checks. A result the arithmetic cannot show (a resignation, a
forfeit, a result the director declared) is stated after the last move, in a
note for people and in a ``#rackclock-result REASON SCORE1 SCORE2 WINNER SPREAD``
pragma for programs (:func:`stated_result`).
"""

from __future__ import annotations

import dataclasses

from engine.clocktext import clock_text
from engine.errors import EngineError
from engine.gcg.check import SETTLED_PRAGMA
from engine.gcg.record import Event, EventKind, GameRecord, Player, Pragma
from engine.play.notation import parse_move
from engine.rules.state import GameState, Turn

__all__ = ["RESULT_PRAGMA", "ExportError", "clock_annotation", "stated_result", "to_gcg"]

RESULT_PRAGMA = "rackclock-result"
"""The pragma stating a result the moves' arithmetic cannot show."""

_STATED = ("resigned", "forfeit", "lateness", "bye", "absent", "declared")
"""Results that are not the moves' totals."""


class ExportError(EngineError, ValueError):
    """The game cannot be written in the requested format."""


def clock_annotation(ms: int) -> str:
    """``@24:28.5`` for 1468500 ms; negative in overtime."""
    return "@" + clock_text(ms, tenths=True)


def _nick(name: str, taken: set[str]) -> str:
    base = "".join(ch for ch in name if not ch.isspace() and ch != ":") or "player"
    nick = base
    n = 2
    while nick in taken:
        nick = f"{base}{n}"
        n += 1
    taken.add(nick)
    return nick


def _event(line: Turn, nick: str, total: int) -> Event | None:
    note = clock_annotation(line.remaining_ms)
    k = line.kind
    if k == "play":
        return Event(
            EventKind.PLACEMENT,
            nick,
            "",
            line.score,
            total,
            move=parse_move(line.text, unnamed_blanks=True),
            annotation=note,
        )
    if k == "withdrawn":
        return Event(EventKind.WITHDRAWN, nick, "", line.score, total, annotation=note)
    if k in ("pass", "lost_turn"):
        pragmas = (
            (Pragma("note", "turn lost to an unsuccessful double challenge"),)
            if k == "lost_turn"
            else ()
        )
        return Event(EventKind.PASS, nick, "", 0, total, annotation=note, pragmas=pragmas)
    if k == "exchange":
        return Event(
            EventKind.EXCHANGE,
            nick,
            "",
            0,
            total,
            exchange_count=int(line.text[1:]),
            annotation=note,
        )
    if k == "bonus":
        return Event(EventKind.CHALLENGE_BONUS, nick, "", line.score, total, annotation=note)
    if k == "end_racks":
        tiles = line.text.strip("()")
        if line.score >= 0:
            return Event(EventKind.END_POINTS, nick, "", line.score, total, end_rack=tiles)
        return Event(
            EventKind.END_DEDUCTION, nick, line.rack, line.score, total, end_rack=line.rack
        )
    if k == "penalty":
        return Event(EventKind.TIME_PENALTY, nick, "", line.score, total)
    return None


def _with_pragmas(ev: Event, more: tuple[Pragma, ...]) -> Event:
    return dataclasses.replace(ev, pragmas=(*ev.pragmas, *more))


def _rescored(ev: Event, delta: int, total_delta: int | None = None) -> Event:
    """``ev`` with its score moved by ``delta`` and its total by ``total_delta``
    (``delta`` by default): a settled score, or a later line of the same player."""
    return dataclasses.replace(
        ev,
        score=ev.score + delta,
        cumulative=ev.cumulative + (delta if total_delta is None else total_delta),
    )


def stated_result(record: GameRecord) -> tuple[str, tuple[int, int], str, int] | None:
    """``(reason, scores, winner nick or "tie", spread)`` from the record's result pragma,
    scores in the record's player order; None when the totals are the result."""
    for ev in record.events:
        for pragma in ev.pragmas:
            if pragma.name == RESULT_PRAGMA:
                reason, a, b, winner, spread = pragma.value.split()
                return reason, (int(a), int(b)), winner, int(spread)
    return None


def to_gcg(state: GameState, *, title: str = "") -> GameRecord:
    """The game in ``state`` as a GCG record.

    Raises:
        ExportError: A scoresheet-mode game (no board positions to write).
    """
    if state.mode != "board":
        raise ExportError("a scoresheet game has no board positions; export the log instead")
    if all(line.kind == "adjusted" for line in state.history):
        raise ExportError(
            f"{state.players[0]} v {state.players[1]} has no moves to write"
            + (f" ({state.result.reason})" if state.result is not None else "")
        )
    taken: set[str] = set()
    nicks = [_nick(state.players[0], taken), _nick(state.players[1], taken)]
    # GCG lists the player who moved first as #player1.
    first = next(
        (line.player for line in state.history if line.kind not in ("adjusted", "rescored")), 0
    )
    order = (first, 1 - first)
    players = tuple(Player(nicks[i], state.players[i]) for i in order)
    header: list[Pragma] = []
    if title:
        header.append(Pragma("title", title))
    if state.variant is not None:
        header.append(
            Pragma("note", f"rules: {state.variant.title}; clock times follow each total")
        )
    lines = list(state.history)
    if state.result is not None and state.result.reason == "cutoff":
        # Ended at the overtime cutoff: the (time) lines come first, since in GCG a
        # (time) line is what ends a game on time; any rack deductions follow.
        tail = 0
        while tail < len(lines) and lines[-1 - tail].kind in ("penalty", "end_racks"):
            tail += 1
        end = lines[len(lines) - tail :]
        end.sort(key=lambda ln: ln.kind != "penalty")
        lines[len(lines) - tail :] = end
    totals = [0, 0]
    events: list[Event] = []
    for line in lines:
        if line.kind == "rescored":
            # The players settled the score: it is the play's score, in the totals.
            totals[line.player] += line.score
            at = max(i for i, ev in enumerate(events) if ev.nick == nicks[line.player])
            played = events[at]
            settled = Pragma(SETTLED_PRAGMA, str(played.score + line.score))
            events[at] = _with_pragmas(_rescored(played, line.score), (settled,))
            for j in range(at + 1, len(events)):
                if events[j].nick == played.nick:
                    events[j] = _rescored(events[j], 0, line.score)
            continue
        if line.kind == "adjusted":
            note = Pragma(
                "note",
                f"director: {state.players[line.player]} {line.score:+d}: "
                f"{line.text} (not in the totals)",
            )
            if events:
                events[-1] = _with_pragmas(events[-1], (note,))
            else:
                header.append(note)
            continue
        if line.kind == "scored":
            raise ExportError("a scoresheet game has no board positions; export the log instead")
        totals[line.player] += line.score
        ev = _event(line, nicks[line.player], totals[line.player])
        if ev is not None:
            events.append(ev)
    res = state.result
    if res is not None and res.reason in _STATED and events:
        winner = "tie" if res.winner is None else nicks[res.winner]
        said = (
            f"result: {state.players[res.winner]} wins by {res.reason}, spread {res.spread}"
            if res.winner is not None
            else f"result: no winner ({res.reason})"
        )
        stated = (
            Pragma("note", said),
            Pragma(
                RESULT_PRAGMA,
                f"{res.reason} {res.scores[order[0]]} {res.scores[order[1]]} {winner} {res.spread}",
            ),
        )
        events[-1] = _with_pragmas(events[-1], stated)
    if state.result is None:
        header.append(Pragma("incomplete", ""))
    encoding = (
        "UTF-8" if any(ord(ch) > 127 for name in state.players for ch in name) else "ISO-8859-1"
    )
    return GameRecord(players, tuple(header), tuple(events), encoding)
