"""The director's overview in cells: a :class:`~terminal_ui.director.rows.Row` worded
column by column, and the columns fitted to the terminal's width without cutting a name.

Pure: no Textual (the app draws what :func:`fit_overview` decides).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len

from engine.clocktext import clock_text
from engine.tournament.scores import score_text
from terminal_ui.director.rows import Row

__all__ = ["COLUMNS", "Fitted", "fit_overview", "row_cells", "signed_text"]


COLUMNS = (
    ("flags", "Flags"),
    ("table", "Table"),
    ("players", "Players"),
    ("score", "Score"),
    ("clocks", "Clocks"),
    ("stopped", "Stopped"),
    ("phase", "Phase"),
    ("signed", "Signed"),
    ("age", "Age"),
)
"""The overview's columns (key, header), in the order :func:`row_cells` gives them."""
_KEYS = tuple(key for key, _ in COLUMNS)
_EMPTIED = ("flags", "stopped", "signed")
"""The columns left out when no row has anything in them and room is short."""

_SEATED = ("players", "score", "clocks", "signed")
"""The columns that have one line per player when the rows stack (:func:`fit_overview`)."""


def signed_text(row: Row) -> str:
    """Whether both players signed a finished game: ``signed 2/2``, ``unsigned: Ann``
    (who has not), ``unsigned: both``; ``""`` while no result is ruled (nothing to sign).

    The result slip is "checked and signed by both players" (NZASP 8.6) and the
    event takes only signed games, so the director sees which finished table waits.
    """
    if row.result is None:
        return ""
    missing = [name for name, done in zip(row.players, row.signed, strict=True) if not done]
    if not missing:
        return "signed 2/2"
    return "unsigned: both" if len(missing) == 2 else f"unsigned: {missing[0]}"


def _clock(row: Row, seat: int) -> str:
    # To the tenth, as the timeline and replay speak (issue 20 §4): near a cutoff or a
    # penalty step, whole seconds hide which side of it a clock is.
    return clock_text(row.remaining_ms[seat], tenths=True) + ("*" if row.running == seat else "")


def row_cells(row: Row) -> tuple[str, ...]:
    """The cells of ``row`` in the overview, in the order of :data:`COLUMNS` (flags,
    table, players, score, clocks, stopped, phase, signed, age), each on one line."""
    flags = " ".join(f.value.upper() for f in row.flags)
    players = f"{row.players[0]} v {row.players[1]}" if row.players[0] else ""
    clocks = f"{_clock(row, 0)}  {_clock(row, 1)}"
    stopped = "" if row.neutral_ms is None else clock_text(row.neutral_ms)
    age = row.source or ("" if row.age_ms is None else f"{row.age_ms // 1000}s")
    score = score_text(*row.scores)  # "25 to -12", not the ambiguous "25--12"
    return (
        flags,
        row.label,
        players,
        score,
        clocks,
        stopped,
        row.phase_text,
        signed_text(row),
        age,
    )


def _seat_lines(row: Row) -> dict[str, str]:
    """The seated columns with a line per player (seat 0 above seat 1)."""
    if not row.players[0]:
        return {}
    done = row.result is not None
    return {
        "players": "\n".join(row.players),
        "score": "\n".join(str(s) for s in row.scores),
        "clocks": f"{_clock(row, 0)}\n{_clock(row, 1)}",
        "signed": "\n".join(("signed" if s else "unsigned") if done else "" for s in row.signed),
    }


@dataclass(frozen=True, slots=True)
class Fitted:
    """The overview fitted to a width: what :func:`fit_overview` decided."""

    keys: tuple[str, ...]
    """The columns shown, left to right (keys of :data:`COLUMNS`)."""
    widths: tuple[int, ...]
    """Each shown column's width (the cells' padding not counted)."""
    cells: tuple[tuple[str, ...], ...]
    """Each row's cells in the shown columns, lines joined with newlines."""
    heights: tuple[int, ...]
    """Each row's height in lines."""
    stacked: bool
    """Whether the rows have a line per player."""
    fits: bool
    """Whether it fits the width (else the rightmost columns scroll sideways)."""


@dataclass(frozen=True, slots=True)
class _Step:
    """How far the overview has given way (:func:`fit_overview`)."""

    phase: int | None = None
    """The phase's least width (None: on one line)."""
    flags_apart: bool = False
    """The flags one to a line."""
    no_empty: bool = False
    """A column with nothing in any row (flags, stopped, signed) left out."""
    no_age: bool = False
    """The age left out."""
    stacked: bool = False
    """A line per player."""
    stopped_in_phase: bool = False
    """The stopped time said in the phase."""
    fold: bool = False
    """A word of the phase wider than its column folded over lines."""


_ROOMY = 24
"""The phase narrows to this before anything else gives way."""
_NARROWEST = 12
"""The phase, folded, is never narrower than this: past it the columns scroll sideways."""
_STEPS = (
    _Step(),
    _Step(phase=_ROOMY),
    _Step(phase=_ROOMY, flags_apart=True),
    _Step(phase=_ROOMY, flags_apart=True, no_empty=True),
    _Step(phase=_ROOMY, flags_apart=True, no_empty=True, no_age=True),
    _Step(phase=_ROOMY, flags_apart=True, no_empty=True, no_age=True, stacked=True),
    _Step(phase=0, flags_apart=True, no_empty=True, no_age=True, stacked=True),
    _Step(
        phase=0, flags_apart=True, no_empty=True, no_age=True, stacked=True, stopped_in_phase=True
    ),
    _Step(
        phase=_NARROWEST,
        flags_apart=True,
        no_empty=True,
        no_age=True,
        stacked=True,
        stopped_in_phase=True,
        fold=True,
    ),
)
"""What gives way, one more thing at each step."""


def _width(texts: Iterable[str]) -> int:
    """The widest line, in terminal cells (a wide character takes two)."""
    return max((cell_len(line) for t in texts for line in t.split("\n")), default=0)


def _words(texts: Iterable[str]) -> int:
    """The widest word, in terminal cells."""
    return max((cell_len(w) for t in texts for w in t.split()), default=0)


def _wrap(text: str, width: int, *, fold: bool = False) -> str:
    """``text`` wrapped at spaces to ``width`` cells; a word wider stays whole, or with
    ``fold`` is cut into lines of ``width`` (every letter still shown)."""
    lines: list[str] = []
    for word in text.split():
        if lines and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
            lines[-1] += " " + word
            continue
        while fold and cell_len(word) > width:
            part = next(n for n in range(len(word), 0, -1) if cell_len(word[:n]) <= width)
            lines.append(word[:part])
            word = word[part:]
        lines.append(word)
    return "\n".join(lines)


def fit_overview(rows: Sequence[Row], width: int, *, padding: int = 2) -> Fitted:
    """The overview's cells and column widths for a terminal ``width`` columns wide
    (``padding``: what each column adds around its cells).

    A name is never cut, nor wrapped inside, in the players' column: it is at least as
    wide as the longest name. What gives way, one more thing at each step until the
    rows fit: the phase (the longest cell: a result's wording) wraps, down to 24
    columns; the flags go one to a line; a column no row has anything in (flags,
    stopped, signed) is left out; the age is left out (a stale table is flagged STALE
    anyway); each row takes a line per player (names, scores, clocks and signatures
    side by side); the phase wraps down to its longest word; the time a clock has
    been stopped moves into the phase (``(stopped 1:30)``); a word of the phase wider
    than the room left is folded over lines, down to 12 columns. Past that (names
    longer than the terminal leaves room for), the columns right of the clocks
    scroll sideways: the flags, the table and the names come first, so they stay
    on the screen.
    """
    joined = [dict(zip(_KEYS, row_cells(r), strict=True)) for r in rows]
    seats = [_seat_lines(r) for r in rows]
    labels = dict(COLUMNS)
    fitted: Fitted | None = None
    for step in _STEPS:
        keys = [
            key
            for key in _KEYS
            if not (step.no_age and key == "age")
            and not (step.stopped_in_phase and key == "stopped")
            and not (step.no_empty and key in _EMPTIED and not any(c[key] for c in joined))
        ]
        shown = [
            {**row, **(seat if step.stacked else {})}
            for row, seat in zip(joined, seats, strict=True)
        ]
        for c in shown:
            if step.stopped_in_phase and c["stopped"]:
                c["phase"] += f" (stopped {c['stopped']})"
            if step.flags_apart:
                c["flags"] = c["flags"].replace(" ", "\n")
        widths = {k: max(len(labels[k]), _width(c[k] for c in shown)) for k in keys}
        longest = widths["phase"]
        least = longest
        if step.phase is not None:
            words = _NARROWEST if step.fold else _words(c["phase"] for c in shown)
            least = max(step.phase, words, len(labels["phase"]))
        room = width - padding * len(keys) - (sum(widths.values()) - longest)
        widths["phase"] = max(least, min(longest, room))
        if widths["phase"] < longest:
            for c in shown:
                c["phase"] = _wrap(c["phase"], widths["phase"], fold=step.fold)
        cells = tuple(tuple(c[k] for k in keys) for c in shown)
        fitted = Fitted(
            tuple(keys),
            tuple(widths.values()),
            cells,
            tuple(max(c.count("\n") for c in row) + 1 for row in cells),
            step.stacked,
            widths["phase"] <= room,
        )
        if fitted.fits:
            break
    assert fitted is not None
    return fitted
