"""Tournament results files: the NASPA results format and the tsh ``.t`` format
(both described in the NASPA Director's Manual, appendix "Tournament Data
Submission Formats").

Input is one :class:`GameResult` per finished game (from each table's log).
Players are numbered by name within each division, in alphabetical order. Names are
filed ``Last, First`` from a :class:`~engine.exports.roster.Roster` when the director
gives one, else by taking the last word as the surname; ratings come from the roster,
else 0. What the writers had to guess or change is added to ``notes`` for the
director to read (docs/director.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from engine.exports.errors import ResultsError
from engine.exports.names import line_fault, naspa_fault, tsh_fault
from engine.exports.roster import Roster, guess_filed, without_accents
from engine.exports.tfile import TLine, division_files, t_line
from engine.rules.state import GameState

__all__ = [
    "GameResult",
    "ResultsError",
    "game_result",
    "naspa_lines",
    "tsh_files",
    "tsh_lines",
]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, as a results file needs it."""

    round: int
    """Tournament round, from 1."""
    players: tuple[str, str]
    """Names; the second is empty for a bye."""
    scores: tuple[int, int]
    """Final adjusted scores."""
    winner: int | None
    """0, 1, or None for a tie."""
    reason: str
    """``out``, ``scoreless``, ``cutoff``, ``forfeit``, ``lateness``, ``bye``, ``resigned``..."""
    spread: int
    """The winner's margin."""
    division: str = ""
    """Division name ("" when the event has one)."""
    first: int | None = None
    """The seat that went first (the log's ``game_started.first``); None when not
    known, and then tsh's ``p12`` is not written."""

    @property
    def unrated(self) -> bool:
        """Byes and forfeits carry a spread but are not rated games. A resignation counts
        as a forfeit (the variant's forfeit spread, as at the table); a double absence is
        a loss for both."""
        return self.reason in ("bye", "forfeit", "lateness", "resigned", "absent")


def game_result(
    state: GameState, round_: int | None = None, *, first: int | None = None
) -> GameResult:
    """The result of a finished game; ``first``: the seat that went first, from the
    game's ``game_started`` (the state does not keep it).

    Raises:
        ResultsError: The game has no result yet, or no round is known.
    """
    res = state.result
    if res is None:
        raise ResultsError(f"{state.players[0]} v {state.players[1]}: the game is not over")
    rnd = round_ if round_ is not None else state.round
    if rnd is None:
        raise ResultsError(
            f"{state.players[0]} v {state.players[1]}: no round number (give game_started a round)"
        )
    players = state.players
    if res.reason == "bye":
        assert res.winner is not None
        players = (players[res.winner], "")
        return GameResult(rnd, players, (0, 0), 0, "bye", res.spread, state.division or "")
    return GameResult(
        rnd, players, res.scores, res.winner, res.reason, res.spread, state.division or "", first
    )


def _filed(name: str, roster: Roster | None, notes: list[str] | None) -> str:
    """``Last, First``: the roster's, else the last word taken as the surname (noted)."""
    found = roster.filed(name) if roster is not None else None
    if found is not None:
        return found
    # composed (NFC), as an event's names are: 'e' and U+0308 are 'ë', which Latin-1 holds
    filed = guess_filed(unicodedata.normalize("NFC", name))
    if notes is not None and "," not in name and len(name.split()) > 2:
        notes.append(
            f"{name!r} filed as {filed!r} "
            "(the last word taken as the surname; a roster can say otherwise)"
        )
    return filed


def _ascii(text: str, name: str, notes: list[str] | None) -> str:
    """NASPA's file is ASCII: accents are dropped (ZOË -> ZOE, Ł -> L), and said."""
    plain = without_accents(text)
    if not plain.isascii():
        # another script (李): no spelling to guess, and NASPA's file is ASCII
        raise ResultsError(
            f"{name!r} has letters with no ASCII form: NASPA's file (ASCII) cannot hold that name"
        )
    if plain != text and notes is not None:
        notes.append(f"{name!r} written {plain!r} in the NASPA file (ASCII only)")
    return plain


def _naspa_name(name: str, roster: Roster | None = None, notes: list[str] | None = None) -> str:
    """``SMITH SARAH`` from ``Sarah Smith`` or ``Smith, Sarah``: last name first, no
    punctuation, ASCII."""
    last, _, first = _filed(name, roster, notes).partition(",")
    text = " ".join(p for p in (last.strip(), first.strip()) if p).upper().replace(".", "")
    fault = naspa_fault(text)
    if fault:  # the name ends at "/" (seed 000, "Basic Format"): never write one
        raise ResultsError(
            f"{name!r} {fault}: NASPA's file cannot hold that name (give --roster FILE to spell it)"
        )
    return _ascii(text, name, notes)


@dataclass(frozen=True, slots=True)
class _Cell:
    letter: str  # W, L, T or B
    opp: int  # opponent's number in the division, 0 for a bye
    score: int
    spread: int
    unrated: bool  # a bye or a forfeit
    p12: int | None  # tsh's: 1 went first, 2 second, 0 no opponent; None not known


def _table(
    games: Iterable[GameResult], away: Collection[tuple[str, str, int]] = ()
) -> list[tuple[list[str], dict[str, dict[int, _Cell]], int, str]]:
    """Per division: player names in order, their cells by round, rounds, division.
    ``away``: ``(division, name, round)`` a player was not in the event (withdrawn,
    not yet entered), so has no game; any other round without one is an error."""
    by_div: dict[str, list[GameResult]] = {}
    for g in games:
        by_div.setdefault(g.division, []).append(g)
    out = []
    for div, gs in sorted(by_div.items()):
        names = sorted({n for g in gs for n in g.players if n}, key=str.casefold)
        for name in names:  # a table's log is not checked as an event's names are
            fault = line_fault(name)
            if fault:
                raise ResultsError(f"{name!r} {fault}: a results file cannot hold that name")
        number = {n: i + 1 for i, n in enumerate(names)}
        rows: dict[str, dict[int, _Cell]] = {n: {} for n in names}
        rounds = max(g.round for g in gs)
        for g in gs:
            for seat in (0, 1):
                name = g.players[seat]
                if not name:
                    continue
                if g.round in rows[name]:
                    raise ResultsError(f"{name} has two games in round {g.round}")
                if g.reason == "bye":
                    rows[name][g.round] = _Cell("B", 0, 0, g.spread, True, 0)
                    continue
                won = g.winner == seat
                if g.reason == "absent":
                    letter = "L"  # neither came: both lose, no spread
                else:
                    letter = "T" if g.winner is None else ("W" if won else "L")
                if g.unrated:
                    spread = g.spread if won else -g.spread
                else:
                    spread = g.scores[seat] - g.scores[1 - seat]
                opp = number[g.players[1 - seat]]
                went = None if g.first is None else (1 if g.first == seat else 2)
                p12 = 0 if g.unrated else went  # no opponent in tsh's line: 0
                rows[name][g.round] = _Cell(letter, opp, g.scores[seat], spread, g.unrated, p12)
        for name, cells in rows.items():
            missing = [
                r for r in range(1, rounds + 1) if r not in cells and (div, name, r) not in away
            ]
            if missing:
                raise ResultsError(f"{name} has no game in round(s) {missing}")
        out.append((names, rows, rounds, div))
    return out


def naspa_lines(
    games: Iterable[GameResult],
    roster: Roster | None = None,
    notes: list[str] | None = None,
    *,
    away: Collection[tuple[str, str, int]] = (),
) -> list[str]:
    """The NASPA results file, with scores: ``1 SMITH SARAH/423: W45-402 B L8-310``.

    The format knows W, L, T and B; only B carries no opponent and is not rated. A
    bye is ``B``; so is a forfeit (and a resignation, a forfeit at the table), on both
    sides, unrated, its spread (the variant's) counted in the total, and noted.
    Several divisions are numbered straight through the file. The format lists the
    games each player played ("The rest of the line is filled with individual game
    results", seed 000, "Basic Format"): a round in ``away`` (``(division, name,
    round)``: withdrawn, or not yet entered) is left out of the player's line.

    Raises:
        ResultsError: A player missing a round or playing twice in one; a name with
            no ASCII spelling.
    """
    lines: list[str] = []
    offset = 0
    for names, rows, _rounds, _div in _table(games, away):
        for i, name in enumerate(names, start=1):
            played = sorted(rows[name].items())
            total = sum(c.spread for _, c in played)
            text = []
            for rnd, c in played:
                if c.letter == "B":
                    text.append("B")
                elif c.unrated:
                    text.append("B")
                    if notes is not None:
                        notes.append(
                            f"round {rnd}: {name}: a forfeit, written as B (unrated), "
                            f"spread {c.spread:+d} in the total"
                        )
                else:
                    text.append(f"{c.letter}{c.opp + offset}-{c.score}")
            line = f"{i + offset} {_naspa_name(name, roster, notes)}/{total}: {' '.join(text)}"
            lines.append(line)
        offset += len(names)
    return lines


def _tsh_division(
    names: list[str],
    rows: dict[str, dict[int, _Cell]],
    rounds: int,
    roster: Roster | None,
    notes: list[str] | None,
) -> list[str]:
    """The division's lines, by the one ``.t`` writer (:mod:`engine.exports.tfile`)."""
    lines = []
    # p12 when every game with an opponent says who went first (a GameResult made
    # without its log's game_started may not; tsh reads the field by position), and
    # there is one (a division of byes and forfeits has no first to tell)
    played = [c.p12 for cells in rows.values() for c in cells.values() if not c.unrated]
    known = bool(played) and None not in played
    for name in names:
        cells = [rows[name][r] for r in range(1, rounds + 1)]
        opps = tuple(0 if c.unrated else c.opp for c in cells)
        scores = tuple(c.spread if c.unrated else c.score for c in cells)
        p12 = tuple(c.p12 or 0 for c in cells) if known else ()
        rating = roster.rating(name) if roster is not None else None
        if rating is None and notes is not None and roster is not None:
            notes.append(f"{name} is not on the roster: rating 0")
        filed = _filed(name, roster, notes)
        fault = tsh_fault(filed)
        if fault:  # quote the name as typed at the table, and the way out
            raise ResultsError(
                f"{name!r} (filed {filed!r}) {fault}: a .t file cannot hold that name "
                "(give --roster FILE to spell it)"
            )
        line = TLine(filed, rating or 0, opps, scores, p12)
        lines.append(t_line(line))
    return lines


def tsh_files(
    games: Iterable[GameResult], roster: Roster | None = None, notes: list[str] | None = None
) -> dict[str, list[str]]:
    """One tsh ``.t`` file per division (tsh reads one per division), by file name:
    ``Smith, Sarah 1500 2 3 0; 402 355 50; p12 1 2 0``.

    A bye or forfeit has opponent 0 and the player's spread as its score, as the
    format says. Ratings come from the roster; without one they are 0 (noted once).
    tsh's ``p12`` (who went first) is written when every game says it
    (:attr:`GameResult.first`).

    Raises:
        ResultsError: A player missing a round or playing twice in one; two
            divisions that would share a file.
    """
    if roster is None and notes is not None:
        notes.append("no roster: every rating written as 0 (give --roster FILE)")
    return division_files(
        (div, _tsh_division(names, rows, rounds, roster, notes))
        for names, rows, rounds, div in _table(games)
    )


def tsh_lines(
    games: Iterable[GameResult], roster: Roster | None = None, notes: list[str] | None = None
) -> list[str]:
    """Every division in one ``.t`` text, each after a ``#division NAME`` line when
    there are several (the form NASPA takes by mail): ``Smith, Sarah 0 2 3 0; 402 355 50``.

    Raises:
        ResultsError: A player missing a round or playing twice in one.
    """
    tables = _table(games)
    lines: list[str] = []
    for names, rows, rounds, div in tables:
        if len(tables) > 1 or div:
            lines.append(f"#division {div or 'A'}")
        lines.extend(_tsh_division(names, rows, rounds, roster, notes))
    return lines
