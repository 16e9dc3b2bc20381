"""Tournament results files: the NASPA results format and the tsh ``.t`` format
(both described in the NASPA Director's Manual, appendix "Tournament Data
Submission Formats").

Input is one :class:`GameResult` per finished game (from each table's log).
Players are numbered by name within each division, in alphabetical order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import EngineError
from engine.rules.state import GameState

__all__ = ["GameResult", "ResultsError", "game_result", "naspa_lines", "tsh_lines"]


class ResultsError(EngineError, ValueError):
    """The games do not make a consistent results file."""


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

    @property
    def unrated(self) -> bool:
        """Byes and forfeits carry a spread but are not rated games. A resignation counts
        as a forfeit (the variant's forfeit spread, as at the table); a double absence is
        a loss for both."""
        return self.reason in ("bye", "forfeit", "lateness", "resigned", "absent")


def game_result(state: GameState, round_: int | None = None) -> GameResult:
    """The result of a finished game.

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
        rnd, players, res.scores, res.winner, res.reason, res.spread, state.division or ""
    )


def _naspa_name(name: str) -> str:
    """``SMITH SARAH`` from ``Sarah Smith`` or ``Smith, Sarah``: last name first, no punctuation."""
    if "," in name:
        last, _, first = name.partition(",")
        parts = [last.strip(), first.strip()]
    else:
        words = name.split()
        parts = [words[-1], *words[:-1]] if words else [name]
    return " ".join(p for p in parts if p).upper().replace(".", "")


def _tsh_name(name: str) -> str:
    """``Smith, Sarah`` from ``Sarah Smith``."""
    if "," in name:
        return name.strip()
    words = name.split()
    return f"{words[-1]}, {' '.join(words[:-1])}".strip(", ") if words else name


@dataclass(frozen=True, slots=True)
class _Cell:
    letter: str  # W, L, T or B
    opp: int  # opponent's number in the division, 0 for a bye
    score: int
    spread: int
    unrated: bool  # a bye or a forfeit


def _table(
    games: Iterable[GameResult],
) -> list[tuple[list[str], dict[str, dict[int, _Cell]], int, str]]:
    """Per division: player names in order, their cells by round, rounds, division."""
    by_div: dict[str, list[GameResult]] = {}
    for g in games:
        by_div.setdefault(g.division, []).append(g)
    out = []
    for div, gs in sorted(by_div.items()):
        names = sorted({n for g in gs for n in g.players if n}, key=str.casefold)
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
                    rows[name][g.round] = _Cell("B", 0, 0, g.spread, True)
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
                rows[name][g.round] = _Cell(letter, opp, g.scores[seat], spread, g.unrated)
        for name, cells in rows.items():
            missing = [r for r in range(1, rounds + 1) if r not in cells]
            if missing:
                raise ResultsError(f"{name} has no game in round(s) {missing}")
        out.append((names, rows, rounds, div))
    return out


def naspa_lines(games: Iterable[GameResult]) -> list[str]:
    """The NASPA results file, with scores: ``1 SMITH SARAH/423: W45-402 B L8-310``.

    Byes are ``B``. Forfeits have no letter of their own in this format: they
    are written as a win or loss against the opponent without a score, and
    their spread counts in the total; check them before submitting. Several
    divisions are numbered straight through the file.

    Raises:
        ResultsError: A player missing a round or playing twice in one.
    """
    lines: list[str] = []
    offset = 0
    for names, rows, rounds, _div in _table(games):
        for i, name in enumerate(names, start=1):
            cells = [rows[name][r] for r in range(1, rounds + 1)]
            total = sum(c.spread for c in cells)
            text = []
            for c in cells:
                if c.letter == "B":
                    text.append("B")
                elif c.unrated:
                    text.append(f"{c.letter}{c.opp + offset}")
                else:
                    text.append(f"{c.letter}{c.opp + offset}-{c.score}")
            lines.append(f"{i + offset} {_naspa_name(name)}/{total}: {' '.join(text)}")
        offset += len(names)
    return lines


def tsh_lines(games: Iterable[GameResult]) -> list[str]:
    """The tsh ``.t`` file: ``Smith, Sarah 0 2 3 0; 402 355 50``.

    Ratings are not known to rackclock and are written as 0 (add
    ``#ratingcheck off`` or fill them in). A bye or forfeit has opponent 0 and
    the player's spread as its score, as the format says.

    Raises:
        ResultsError: A player missing a round or playing twice in one.
    """
    tables = _table(games)
    lines: list[str] = []
    for names, rows, rounds, div in tables:
        if len(tables) > 1 or div:
            lines.append(f"#division {div or 'A'}")
        for name in names:
            cells = [rows[name][r] for r in range(1, rounds + 1)]
            opps = " ".join("0" if c.unrated else str(c.opp) for c in cells)
            scores = " ".join(str(c.spread if c.unrated else c.score) for c in cells)
            lines.append(f"{_tsh_name(name)} 0 {opps}; {scores}")
    return lines
