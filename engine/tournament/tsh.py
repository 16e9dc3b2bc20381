"""An event's divisions as tsh ``.t`` files, and back.

The line is written by the one ``.t`` writer, :mod:`engine.exports.tfile`. A
``.t`` line (NASPA Director's Manual, "Tournament Data Submission Formats"; tsh
numbers players by line): ``Able, Ann 1800 2 3 0; 420 388 50; p12 1 2 0``:
the filed name, the rating, the opponent's line number in each round paired so
far (0 for a bye), then the player's score in each round played (a bye or
forfeit: the spread), then tsh's ``p12`` field: 1 went first, 2 second, 0 a bye.
Pairings may run ahead of scores (a round paired, not yet played), which is how
tsh continues an event. Pure: text in, text out.

A forfeit (or a resignation, which counts as one) is written as the manual says:
"A pairing number of 0 indicates that the player had an unrated bye or forfeit
... the score should be the player's spread for that round, typically +50 or
-50". A withdrawn player is written as tsh writes an inactive one (tsh's
``off`` field, TSH::Player ``Deactivate``; its ``SpliceInactive`` gives an
inactive player opponent 0 and the ``off`` score in each round paired after):
``off 0``, and opponent 0 with score 0 in the rounds not played, which tsh
counts as neither a win nor a loss (a bye scoring 0: ``TSH::Division::Synch``),
so the games not played do not become byes. A player not yet entered (a late
entry) is written the same way for the rounds before.
"""

from __future__ import annotations

import json

from engine.exports.errors import ResultsError
from engine.exports.names import T_LINE, writable
from engine.exports.roster import guess_filed
from engine.exports.tfile import TLine, division_files, t_line
from engine.tournament.errors import EventFileError
from engine.tournament.records import Paired, Record, Result, Withdrew
from engine.tournament.spec import Player
from engine.tournament.state import DivisionState, EventState

__all__ = [
    "TshDivision",
    "division_lines",
    "division_t_lines",
    "event_t_files",
    "event_text_of_t",
    "parse_t",
    "records_from_t",
]


def division_lines(div: DivisionState) -> list[str]:
    """The division as ``.t`` lines, one per player in number order (written by the
    one ``.t`` writer, :func:`engine.exports.tfile.t_line`)."""
    return [t_line(line) for line in division_t_lines(div)]


def division_t_lines(div: DivisionState) -> list[TLine]:
    """The division's ``.t`` lines as numbers, one per player in number order: the
    one reading of the event in tsh's terms, for the ``.t`` files and tsh's live
    feed (:mod:`engine.exports.newt`) alike."""
    rounds = sorted(div.pairings)
    lines = []
    for seed, player in enumerate(div.players, start=1):
        opps: list[int] = []
        scores: list[int] = []
        p12: list[int] = []
        for rnd in rounds:
            pair = div.pair_of(seed, rnd)
            res = div.result(rnd, pair) if pair is not None else None
            if pair is None or (res is not None and res.kind in ("forfeit", "absent")):
                # not paired (withdrawn, not yet entered: tsh's inactive player, score 0),
                # or a forfeit: opponent 0, the player's spread as the score (the manual)
                opps.append(0)
                p12.append(0)
                score = 0 if res is None else res.margin(seed)
            else:
                first, second = pair
                opp = second if seed == first else first
                opps.append(opp)
                p12.append(0 if not opp else (1 if seed == first else 2))
                if res is None:
                    continue
                mine = res.scores[0] if seed == res.first else res.scores[1]
                score = mine if res.kind == "game" else res.margin(seed)
            if len(scores) == len(opps) - 1:  # scores are by position: none after a gap
                scores.append(score)
        line = TLine(
            # an older ledger's name that breaks the name rule: by its documented rule
            guess_filed(writable(player.name, "tsh")),
            player.rating,
            tuple(opps),
            tuple(scores),
            tuple(p12),
            off=seed in div.left,
        )
        lines.append(line)
    return lines


def event_t_files(state: EventState, comment: str = "") -> dict[str, list[str]]:
    """Each division's ``.t`` lines by its file name (``a.t``...; the one rule,
    :func:`engine.exports.tfile.division_files`), after a ``# comment`` line when
    one is given (tsh skips ``#`` lines, as :func:`parse_t` does).

    Raises:
        EventFileError: Two divisions whose names make one file name.
    """
    head = [f"# {comment}"] * bool(comment)
    try:
        return division_files(
            (div.spec.name, head + division_lines(div)) for div in state.divisions.values()
        )
    except ResultsError as exc:  # the event's own error, as for its other files
        raise EventFileError(str(exc)) from None


class TshDivision:
    """A ``.t`` file read: players, opponents and scores by round."""

    def __init__(self) -> None:
        self.players: list[Player] = []
        self.opponents: list[list[int]] = []
        self.scores: list[list[int]] = []
        self.p12: list[list[int]] = []
        self.off: list[bool] = []
        """tsh's ``off`` field: the player is inactive (withdrawn)."""


def _name(filed: str) -> str:
    last, sep, first = filed.partition(",")
    return f"{first.strip()} {last.strip()}" if sep else filed.strip()


def parse_t(text: str, source: str) -> TshDivision:
    """Read a ``.t`` file.

    Raises:
        EventFileError: A line that is not a ``.t`` line, quoted with its number.
    """
    out = TshDivision()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source} line {number}"
        # tsh's own pattern (engine.exports.names.T_LINE), as every .t reader here
        read = T_LINE.match(line if ";" in line else f"{line};")
        if read is None:
            raise EventFileError(
                f"{where}: expected 'Last, First RATING OPPONENTS; SCORES', got {raw!r}"
            )
        filed, rating_text, opps_text = read.groups()
        parts = [p.strip() for p in line[read.end() :].split(";")]
        try:
            rating = int(rating_text)
            opps = [int(w) for w in opps_text.split()]
            scores = [int(w) for w in parts[0].split()]
        except ValueError:
            raise EventFileError(
                f"{where}: opponents and scores are whole numbers: {raw!r}"
            ) from None
        p12: list[int] = []
        off = False
        for extra in parts[1:]:
            key, _, vals = extra.partition(" ")
            if key == "p12":
                p12 = [int(v) for v in vals.split() if v.lstrip("-").isdigit()]
            off = off or key == "off"
        if len(scores) > len(opps):
            raise EventFileError(
                f"{where}: {len(scores)} scores but {len(opps)} opponents: {raw!r}"
            )
        out.players.append(Player(_name(filed), rating))
        out.opponents.append(opps)
        out.scores.append(scores)
        out.p12.append(p12)
        out.off.append(off)
    n = len(out.players)
    for i, opps in enumerate(out.opponents, start=1):
        for rnd, opp in enumerate(opps, start=1):
            if not 0 <= opp <= n:
                raise EventFileError(
                    f"{source}: {out.players[i - 1].name} round {rnd}: no player {opp}"
                )
            if opp and (rnd > len(out.opponents[opp - 1]) or out.opponents[opp - 1][rnd - 1] != i):
                raise EventFileError(
                    f"{source}: round {rnd}: {out.players[i - 1].name} plays "
                    f"{out.players[opp - 1].name}, who does not play them back"
                )
    return out


def records_from_t(t: TshDivision, division: str) -> list[Record]:
    """The pairings and results a ``.t`` file holds, as records for ``division``
    (after its :class:`~engine.tournament.records.Created`)."""
    rounds = max((len(o) for o in t.opponents), default=0)
    gone = _withdrawals(t)
    out: list[Record] = []
    for rnd in range(1, rounds + 1):
        out.extend(Withdrew(division, i, rnd) for i, r in gone.items() if r == rnd)
        pairs: list[tuple[int, int]] = []
        results: list[Result] = []
        for i in range(1, len(t.players) + 1):
            opps = t.opponents[i - 1]
            if rnd > len(opps) or rnd >= gone.get(i, rounds + 1):
                continue
            opp = opps[rnd - 1]
            p12 = t.p12[i - 1]
            went = p12[rnd - 1] if rnd <= len(p12) else 0
            if opp and (went == 2 or (went not in (1, 2) and opp < i)):
                continue  # the pair is written from the first player's line
            pairs.append((i, opp))
            mine = t.scores[i - 1]
            if rnd > len(mine):
                continue
            if not opp:
                results.append(Result(division, rnd, i, 0, (mine[rnd - 1], 0), "bye", by="tsh"))
                continue
            theirs = t.scores[opp - 1]
            if rnd <= len(theirs):
                scores = (mine[rnd - 1], theirs[rnd - 1])
                results.append(Result(division, rnd, i, opp, scores, by="tsh"))
        out.append(Paired(division, rnd, tuple(pairs), "tsh"))
        out.extend(results)
    return out


def _withdrawals(t: TshDivision) -> dict[int, int]:
    """The round each inactive (``off``) player withdrew from: the first of the rounds
    at the end of the line with opponent 0 and score 0 (or none), as tsh writes them."""
    out: dict[int, int] = {}
    for i, opps in enumerate(t.opponents, start=1):
        if not t.off[i - 1]:
            continue
        scores = t.scores[i - 1]
        rnd = len(opps)
        while rnd >= 1 and not opps[rnd - 1] and (rnd > len(scores) or not scores[rnd - 1]):
            rnd -= 1
        if rnd < len(opps):
            out[i] = rnd + 1
    return out


def event_text_of_t(
    name: str, divisions: list[tuple[str, TshDivision]], rounds: int | None, system: str
) -> str:
    """The event file (TOML, docs/tournament.md) of ``.t`` files read, for an event's
    ledger to start from: each division with its players in line order, as many
    rounds as ``rounds`` or as paired (whichever is more), the rounds tsh paired
    coming in as they were (:func:`records_from_t`) and the plan's ``system``
    pairing the rest."""
    lines = [f"name = {json.dumps(name)}"]
    for div, t in divisions:
        paired = max((len(o) for o in t.opponents), default=0)
        total = max(rounds or 0, paired, 1)
        lines += [
            "[[division]]",
            f"name = {json.dumps(div)}",
            f"rounds = {total}",
            f'plan = [{{ rounds = "1-{total}", system = {json.dumps(system)} }}]',
            "players = [",
            *(f"  {{ name = {json.dumps(p.name)}, rating = {p.rating} }}," for p in t.players),
            "]",
        ]
    return "\n".join(lines) + "\n"
