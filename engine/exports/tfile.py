"""tsh's ``.t`` file: the one writer of its line, and the file a division goes in.

A ``.t`` line (NASPA Director's Manual, "Tournament Data Submission Formats"; tsh
numbers players by line): ``Able, Ann 1800 2 3 0; 420 388 50; p12 1 2 0``: the
filed name, the rating, the opponent's line number in each round paired (0 for a
bye or forfeit), then the player's score in each round played (a bye or forfeit:
the spread), then tsh's ``p12`` field (1 went first, 2 second, 0 a bye) and, for
an inactive player, ``off 0``. Both the results of table logs
(:func:`engine.exports.results.tsh_files`) and an event's ledger
(:func:`engine.tournament.tsh.division_lines`) are written by :func:`t_line`, so
the two exports cannot drift apart. Pure.
"""

from __future__ import annotations

import msgspec

__all__ = ["TLine", "division_file", "t_line"]


class TLine(msgspec.Struct, frozen=True):
    """One player's line, as numbers: :func:`t_line` writes it."""

    filed: str
    """``Last, First``."""
    rating: int
    opponents: tuple[int, ...]
    """The opponent's line number in each round paired, 0 for none."""
    scores: tuple[int, ...]
    """The player's score in each round played, in order (pairings may run ahead)."""
    p12: tuple[int, ...] = ()
    """1 went first, 2 second, 0 no opponent; empty when not known (not written)."""
    off: bool = False
    """tsh's inactive player (withdrawn)."""


def t_line(line: TLine) -> str:
    """The line as tsh reads it: ``Able, Ann 1800 2 3; 420 388; p12 1 2``.

    >>> t_line(TLine("Able, Ann", 1800, (2, 0), (420, 50), (1, 0)))
    'Able, Ann 1800 2 0; 420 50; p12 1 0'
    >>> t_line(TLine("Dunn, Dee", 1500, (3,), (), (2,), off=True))
    'Dunn, Dee 1500 3; ; p12 2; off 0'
    """
    head = " ".join([line.filed, str(line.rating), *map(str, line.opponents)])
    # the scores' field stays (empty) when a later field follows: tsh reads by position
    fields = [head, " ".join(map(str, line.scores)) or " "]
    if line.p12:
        fields.append("p12 " + " ".join(map(str, line.p12)))
    if line.off:
        fields.append("off 0")
    return "; ".join(fields).replace(";  ;", "; ;").rstrip()


def division_file(division: str) -> str:
    """tsh's file for a division: its config says ``division a a.t``.

    >>> division_file(""), division_file("B"), division_file("Open / 2")
    ('a.t', 'b.t', 'open-2.t')
    """
    name = "".join(ch if ch.isalnum() else "-" for ch in division.casefold())
    return ("-".join(part for part in name.split("-") if part) or "a") + ".t"
