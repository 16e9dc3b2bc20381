"""What a player's name may hold to be written in the results files: the one rule,
checked where a name enters an event (:func:`engine.tournament.spec.results_name`)
and again by each writer (:func:`engine.exports.tfile.t_line`, NASPA's
:func:`engine.exports.results.naspa_lines`), for a name that never entered one (a
table's game log) or entered before the rule.

* One line of printable text: no control character (a newline would start a
  forged line of its own in either file, an ESC would drive a terminal) and no
  Unicode line or paragraph separator (readers that split lines on them would).
* tsh's ``.t`` line (tsh's ``TFile::ParseLine``: ``^(.+?\\S)\\s+(\\d+(?:[.+]\\d+)*)
  \\s*([\\d\\s]*);...``): no ``;``, the field separator, and no ``#``, which starts
  a comment (a whole line, or with tsh's ``inline_comments`` the rest of one); the
  name as filed must not end in a number, which tsh would read as the rating
  (``Lee, Ann 2 1800 ...``: rating 2).
* NASPA's results file (NASPA Director's Manual, "Basic Format": the name
  "followed by a forward slash"): no ``/``, which ends the name field.

An event's ledger started before this rule may hold a name that breaks it (its names
are not checked again when it is read, so it still opens), and no command renames
a player: its writers (``event export tsh|naspa``, the tsh live feed, which shows
names as the ``.t`` file does) write such a name by :func:`writable`, the documented
rule, each format by its own part of the rule: each character that part refuses
becomes a space, and for tsh, when the name filed would still end in a number, each
word that is a number is put in parentheses (``Lee, Ann (2)``). A name that keeps
the rule is written as it is; one of refused characters only is ``(unnamed)``.

Letters an encoding cannot hold are the file writers' to refuse
(:func:`engine.exports.tfile.t_file_bytes`: ISO-8859-1 unless ``--encoding
utf-8``; NASPA's ASCII), never written as ``?``. Pure.
"""

from __future__ import annotations

import re
import unicodedata

from engine.exports.roster import guess_filed

__all__ = ["entry_fault", "line_fault", "naspa_fault", "tsh_fault", "writable"]

_TSH_MARKS = {";": "tsh's field separator", "#": "tsh's comment mark"}
_NASPA_MARKS = {"/": "where a name ends in NASPA's results file"}
_NUMBER = re.compile(r"\d+(?:[.+]\d+)*")
"""A word tsh's line pattern reads as a rating."""
_WORD_NUMBER = re.compile(r"(?<![^\s,])(\d+(?:[.+]\d+)*)(?![^\s,])")
"""Such a word within a name (between spaces or commas)."""


def line_fault(name: str) -> str | None:
    """Why ``name`` is not one line of printable text, or None.

    >>> line_fault("Ann Lee"), line_fault("Ann\\nLee")
    (None, "has '\\\\n', a control character")
    """
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs"):
            return f"has {ch!r}, a control character"
    return None


def tsh_fault(filed: str) -> str | None:
    """Why ``filed`` (``Last, First``) cannot be a ``.t`` line's name, or None.

    >>> tsh_fault("Lee, Ann"), tsh_fault("Lee; Ann"), tsh_fault("Lee, Ann 2")
    (None, "has ';', tsh's field separator", 'ends in 2, which tsh would read as the rating')
    """
    fault = line_fault(filed) or _marks(filed, _TSH_MARKS)
    if fault:
        return fault
    words = filed.split()
    if len(words) > 1 and _NUMBER.fullmatch(words[-1]):
        return f"ends in {words[-1]}, which tsh would read as the rating"
    return None


def naspa_fault(name: str) -> str | None:
    """Why ``name`` cannot be a NASPA results line's name, or None.

    >>> naspa_fault("Ann Lee"), naspa_fault("Ann/Lee")
    (None, "has '/', where a name ends in NASPA's results file")
    """
    return line_fault(name) or _marks(name, _NASPA_MARKS)


def entry_fault(name: str) -> str | None:
    """Why ``name``, entering an event, could not be written in its results files
    (``.t`` filed as :func:`~engine.exports.roster.guess_filed` files it, and NASPA's),
    or None."""
    return naspa_fault(name) or tsh_fault(guess_filed(name))


def writable(name: str, kind: str) -> str:
    """An older ledger's ``name`` as the ``kind`` of file (``tsh``, ``naspa``) is
    written: unchanged when it keeps that format's rule, else each character the rule
    refuses made a space and, for tsh, when the name filed would still end in a
    number, each number in parentheses.

    >>> writable("Ann; Lee", "tsh"), writable("Lee, Ann 2", "tsh"), writable("A/B", "tsh")
    ('Ann Lee', 'Lee, Ann (2)', 'A/B')
    >>> writable("A/B", "naspa"), writable("Ann; Lee", "naspa"), writable("Lee,2", "tsh")
    ('A B', 'Ann; Lee', 'Lee,(2)')
    >>> writable("Ann 2 Lee", "tsh"), writable("Ann Lee 2", "tsh")
    ('Ann (2) Lee', 'Ann Lee 2')
    """
    tsh = kind == "tsh"
    if (tsh_fault(guess_filed(name)) if tsh else naspa_fault(name)) is None:
        return name
    marks = _TSH_MARKS if tsh else _NASPA_MARKS
    text = " ".join("".join(" " if ch in marks or line_fault(ch) else ch for ch in name).split())
    if tsh and tsh_fault(guess_filed(text)):
        text = _WORD_NUMBER.sub(r"(\1)", text)
    return text or "(unnamed)"


def _marks(name: str, marks: dict[str, str]) -> str | None:
    return next((f"has {ch!r}, {why}" for ch, why in marks.items() if ch in name), None)
