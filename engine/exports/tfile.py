"""tsh's ``.t`` file: the one writer of its line, and the file a division goes in.

A ``.t`` line (NASPA Director's Manual, "Tournament Data Submission Formats"; tsh
numbers players by line): ``Able, Ann 1800 2 3 0; 420 388 50; p12 1 2 0``: the
filed name, the rating, the opponent's line number in each round paired (0 for a
bye or forfeit), then the player's score in each round played (a bye or forfeit:
the spread), then tsh's ``p12`` field (1 went first, 2 second, 0 a bye) and, for
an inactive player, ``off 0``. Both the results of table logs
(:func:`engine.exports.results.tsh_files`) and an event's ledger
(:func:`engine.tournament.tsh.division_lines`) are written by :func:`t_line`, so
the two exports cannot drift apart. Which file each division goes in
(:func:`division_files`) and how a file is encoded (:func:`t_file_bytes`: tsh's
ISO-8859-1 unless told otherwise, a name it cannot hold refused) are here once for
both too, as is the check of each name (:mod:`engine.exports.names`: a name tsh
would misread is refused, never written). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from engine.exports.errors import ResultsError
from engine.exports.names import T_LINE, tsh_fault

__all__ = [
    "ENCODING_WAY_OUT",
    "TSH_ENCODING",
    "TLine",
    "division_file",
    "division_files",
    "t_file_bytes",
    "t_line",
]

TSH_ENCODING = "iso-8859-1"
"""tsh's own encoding of its ``.t`` files; a config's ``tfile_encoding`` may say utf-8."""


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

    Raises:
        ResultsError: A name tsh would misread (:func:`engine.exports.names.tsh_fault`:
            a control character, ``;``, ``#``, a number at its end), quoted.
    """
    fault = tsh_fault(line.filed)
    if fault:
        raise ResultsError(f"{line.filed!r} {fault}: a .t file cannot hold that name")
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


def division_files(divisions: Iterable[tuple[str, list[str]]]) -> dict[str, list[str]]:
    """Each division's lines (``(division, lines)``) by its file's name
    (:func:`division_file`).

    Raises:
        ResultsError: Two divisions whose names make one file name (one file would
            overwrite the other), both quoted.
    """
    out: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    for division, lines in divisions:
        name = division_file(division)
        if name in owner:
            raise ResultsError(
                f"divisions {owner[name]!r} and {division!r} would share {name}: rename one"
            )
        owner[name] = division
        out[name] = lines
    return out


ENCODING_WAY_OUT = "use --encoding utf-8 (and tfile_encoding in tsh's config)"
"""What a command with ``--encoding`` tells a director whose name ISO-8859-1 cannot
hold; one without it (the director's console) says its own way out."""


def t_file_bytes(
    name: str, lines: Sequence[str], encoding: str = TSH_ENCODING, way_out: str = ENCODING_WAY_OUT
) -> bytes:
    """The ``.t`` file ``name`` as written: its lines in ``encoding``.

    Raises:
        ResultsError: A line ``encoding`` cannot hold (rather than writing it garbled):
            the player's name as filed and the letter quoted, and ``way_out``.
    """
    for line in lines:
        try:
            line.encode(encoding)
        except UnicodeEncodeError as exc:
            letter = exc.object[exc.start : exc.end]
            raise ResultsError(
                f"{name}: {_player(line)!r} has {letter!r}, which {encoding} cannot hold: {way_out}"
            ) from None
    return ("\n".join(lines) + "\n").encode(encoding)


def _player(line: str) -> str:
    """The filed name a line starts with (the words before its rating), else the line."""
    read = T_LINE.match(line)
    return read.group(1) if read else line
