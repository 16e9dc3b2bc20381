"""The standings as text, in the federation's terms, and the results report.

The points column is named as the federation names it: W-L (wins and losses),
MP (match points, TOR-11) or VP (the Indonesian event, where the spread is
"margin"); a variant that does not record the spread (TOR-11) shows none, and a
shared place is written ``2=``. The results report is what NZASP 11.4 asks the
organiser to forward: grade, full name, club, wins, total spread and average
points per game, and the draw of a grade not played as a round robin.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.tournament.assignment import round_assignments
from engine.tournament.errors import TournamentError
from engine.tournament.records import Record, Result, Retracted
from engine.tournament.scores import score_text
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState, EventState

__all__ = [
    "by_rule_marks",
    "check_played_through",
    "history_lines",
    "pairing_lines",
    "place_text",
    "played_through",
    "result_line",
    "results_report",
    "standings_lines",
]

_POINTS = {"wins": "W-L", "match_points": "MP", "vp": "VP"}


def played_through(div: DivisionState) -> int:
    """The latest round with a result (0 before any)."""
    return max((r for r in div.pairings if div.round_results(r)), default=0)


def check_played_through(divs: Sequence[DivisionState], rnd: int | None) -> None:
    """Refuse standings asked for after a round past the rounds with results
    (``rnd`` None: the results so far, always there).

    Raises:
        TournamentError: A division has no result in ``rnd`` or any later round.
    """
    if rnd is None:
        return
    for div in divs:
        played = played_through(div)
        if rnd > played:
            so_far = f"rounds 1-{played} have results" if played else "no round has a result yet"
            raise TournamentError(f"--round {rnd}: division {div.spec.name}: {so_far}")


def pairing_lines(state: EventState, div: DivisionState, rnd: int) -> list[str]:
    """The division's games of ``rnd`` at their tables (numbered as the broker and
    ``LEDGER@tN`` number them: one function, ``round_assignments``), its byes and
    notes, as ``event show`` and ``event pair`` print them."""
    tables = {
        a.seeds: a.table_name for a in round_assignments(state, rnd) if a.division == div.spec.name
    }
    paired = div.pairings[rnd]
    out = []
    for a, b in paired.pairs:
        if not b:
            out.append(f"    bye: {div.name(a)}")
            continue
        res = div.result(rnd, (a, b))
        ruling = div.ruling(res) if res is not None else ""
        score = f"  {score_text(*res.scores)}" if res is not None else ""
        score += f" ({ruling})" if ruling else ""
        out.append(f"    table {tables[(a, b)]:>4}: {div.name(a)} (first) v {div.name(b)}{score}")
    out += [f"    note: {note}" for note in paired.notes]
    return out


def result_line(div: DivisionState, res: Result) -> str:
    """``round 3: Ann Able 420 to 388 Ben Baker (table-2.sqlite sha256:9f2c...)``, with
    the ruling (a forfeit, a resignation) after the score when there is one."""
    return f"round {res.round}: {_game_text(div, res)}"


def _game_text(div: DivisionState, res: Result) -> str:
    """A result as entered, without its round: names, scores, ruling, game log."""
    if res.kind == "bye":
        return f"{div.name(res.first or res.second)}: bye"
    where = f" ({res.game})" if res.game else ""
    ruling = f": {div.ruling(res)}" if div.ruling(res) else ""
    return f"{div.name(res.first)} {score_text(*res.scores)} {div.name(res.second)}{ruling}{where}"


def history_lines(state: EventState, records: Iterable[Record]) -> list[str]:
    """Every result, correction and undo of the event, as ``event show --history`` prints
    them: per division and round, in ledger order, each with its record number (the
    ledger keeps no clock time: the number orders them), who made it and, for a
    correction or an undo, why. ``records`` is the whole ledger in order (record 1
    first); ``state`` the event after them, for the players' names (late entries too).
    """
    # (division, round) -> the lines, in ledger order; the game's result as it stood
    # says whether a result is the first for its game or a correction of it
    rounds: dict[tuple[str, int], list[str]] = {}
    standing: dict[tuple[str, int, frozenset[int]], Result] = {}
    for number, record in enumerate(records, start=1):
        if not isinstance(record, Result | Retracted):
            continue
        div = state.division(record.division)
        game = (div.spec.name, record.round, frozenset((record.first, record.second)))
        if isinstance(record, Retracted):
            gone = standing.pop(game, None)
            what = _game_text(div, gone) if gone is not None else _pair_text(div, record)
            line = f"record {number}  {what}  taken back by {record.by}: {record.reason}"
        elif (before := standing.get(game)) is not None:
            was = f"was {score_text(*before.scores)}"
            line = (
                f"record {number}  {_game_text(div, record)} ({was})  "
                f"corrected by {record.by}: {record.reason}"
            )
        else:
            line = f"record {number}  {_game_text(div, record)}  by {record.by}"
        if isinstance(record, Result):
            standing[game] = record
        rounds.setdefault((div.spec.name, record.round), []).append(line)
    out = [f"{state.spec.name or 'the event'}: results as entered, corrections and undos"]
    for name in state.divisions:
        held = sorted(rnd for d, rnd in rounds if d == name)
        out.append(f"division {name}" + ("" if held else ": no result yet"))
        for rnd in held:
            out += [f"  round {rnd}", *(f"    {line}" for line in rounds[(name, rnd)])]
    return out


def _pair_text(div: DivisionState, gone: Retracted) -> str:
    return f"{div.name(gone.first)} v {div.name(gone.second)}"


def place_text(row: Standing, rows: Sequence[Standing]) -> str:
    shared = sum(1 for r in rows if r.rank == row.rank) > 1
    return f"{row.rank}{'=' if shared else ''}"


def _points(div: DivisionState, row: Standing) -> str:
    if div.variant.event.points == "wins":
        return f"{row.wins:g}-{row.losses:g}"
    return f"{row.wins:g}"


def by_rule_marks(div: DivisionState, seed: int, through: int | None) -> list[str]:
    """What in ``seed``'s record through round ``through`` (None: every round) was not
    played over the board, in round order: the games won or lost by rule, the byes
    (unrated, NZASP 9.3) and a withdrawal: ``round 1: lost by resignation``,
    ``round 2: bye``, ``withdrew from round 3``; ``event standings`` and the
    standings sheet show these."""
    marks = []
    for rnd in sorted(set(div.results) | set(div.pairings)):
        if through is not None and rnd > through:
            continue
        pairs = div.pairings[rnd].pairs if rnd in div.pairings else tuple(div.results[rnd])
        for pair in pairs:
            res = div.result(rnd, pair)
            if res is None or seed not in (res.first, res.second):
                continue
            if res.kind == "bye":
                marks.append(f"round {rnd}: bye")
            elif res.kind == "absent":
                marks.append(f"round {rnd}: both absent")
            elif res.kind == "forfeit":
                how = {"resigned": "resignation", "lateness": "lateness"}.get(res.cause, "forfeit")
                marks.append(f"round {rnd}: {'won' if res.won(seed) else 'lost'} by {how}")
    if left := div.withdrawn_from(seed, through):
        marks.append(f"withdrew from round {left}")
    return marks


def _by_rule(div: DivisionState, seed: int, through: int | None) -> str:
    marks = by_rule_marks(div, seed, through)
    return f"  ({'; '.join(marks)})" if marks else ""


def standings_lines(
    div: DivisionState, rows: Sequence[Standing], through: int | None = None
) -> list[str]:
    """The header and one line a player: place, points, spread (where recorded), name,
    and the games won or lost by forfeit or resignation (through round ``through``;
    None: every round)."""
    variant = div.variant
    spread = variant.spread_recorded
    margin = "margin" if variant.event.points == "vp" else "spread"
    head = f"  rank  {_POINTS[variant.event.points]:<9}" + (f" {margin:>7}" if spread else "")
    out = [f"{head}  player"]
    for row in rows:
        line = f"  {place_text(row, rows):>4}  {_points(div, row):<9}"
        line += f" {row.spread:>+7}" if spread else ""
        out.append(f"{line}  {div.name(row.seed)}{_by_rule(div, row.seed, through)}")
    return out


def _draw(div: DivisionState, through: int) -> list[str]:
    out = []
    for rnd in sorted(r for r in div.pairings if r <= through):
        games = []
        for a, b in div.pairings[rnd].pairs:
            res = div.result(rnd, (a, b))
            if not b:
                games.append(f"{div.name(a)} bye")
            elif res is None:
                games.append(f"{div.name(a)} v {div.name(b)}")
            else:
                # who won a forfeit or resignation, and why (the scores decide nothing)
                ruled = div.ruling(res)
                note = f" ({ruled})" if ruled else ""
                scores = score_text(*res.scores)
                games.append(f"{div.name(a)} {scores} {div.name(b)}{note}")
        out.append(f"  round {rnd}: " + "; ".join(games))
    return out


def results_report(
    state: EventState, divisions: Sequence[DivisionState], through: int | None = None
) -> list[str]:
    """The results report (NZASP 11.4) of ``divisions`` after round ``through`` (by
    default each after its latest round with a result): the points and spread
    columns as the federation keeps them."""
    out = [f"{state.spec.name or 'the event'}: results (NZASP 11.4)"]
    for div in divisions:
        upto = played_through(div) if through is None else through
        rows = div.standings(upto)
        variant = div.variant
        points = {"wins": "wins", "match_points": "MP", "vp": "VP"}[variant.event.points]
        spread = "" if not variant.spread_recorded else "margin" if points == "VP" else "spread"
        name = max(len(p.name) for p in div.players)
        club = max(4, *(len(p.club) for p in div.players))
        head = f"  place  {'name':<{name}}  {'club':<{club}}  {points:<5}"
        out += ["", f"grade {div.spec.name} after round {upto}"]
        out.append(head + (f" {spread:>7}" if spread else "") + "  average")
        for row in rows:
            p = div.players[row.seed - 1]
            place = place_text(row, rows)
            line = f"  {place:>5}  {p.name:<{name}}  {p.club:<{club}}  {row.wins:<5g}"
            out.append(line + (f" {row.spread:>+7}" if spread else "") + f"  {row.average:>7.1f}")
        if unrated := [r for r in rows if r.unrated]:
            out.append(
                "  unrated (byes and forfeits, NZASP 9.3, 10.4): "
                + ", ".join(f"{div.name(r.seed)} {r.unrated}" for r in unrated)
            )
        not_round_robin = any(stage.system != "round-robin" for stage in div.spec.plan)
        if upto and not_round_robin:
            out += ["  the draw (not a round robin, NZASP 11.4):", *_draw(div, upto)]
    return out
