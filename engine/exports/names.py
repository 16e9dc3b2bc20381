"""What a player's name may hold to be written in the results files: the one rule,
checked where a name enters an event (:func:`engine.tournament.spec.results_name`)
and again by each writer (:func:`engine.exports.tfile.t_line`, NASPA's
:func:`engine.exports.results.naspa_lines`), for a name that never entered one (a
table's game log) or entered before the rule.

* One line of printable text: no control character (a newline would start a
  forged line of its own in either file, an ESC would drive a terminal), no
  Unicode line or paragraph separator (readers that split lines on them would), no
  invisible format character (U+202E turns the text around, U+200B hides a break;
  the joiners U+200C and U+200D that some scripts spell with are kept), and no
  private-use or unassigned character.
* At least one letter (a Unicode letter, category L*): a name of punctuation,
  spaces or digits only is no name (NASPA's file would get an empty one, tsh a
  line it misreads, and ``event result`` takes digits as a player's number).
* tsh's ``.t`` line (tsh's ``TFile::ParseLine``: ``^(.+?\\S)\\s+(\\d+(?:[.+]\\d+)*)
  \\s*([\\d\\s]*);...``): no ``;``, the field separator, and no ``#``, which starts
  a comment (a whole line, or with tsh's ``inline_comments`` the rest of one); the
  name as filed must not end in a number, which tsh would read as the rating
  (``Lee, Ann 2 1800 ...``: rating 2). The filed name is held to tsh's pattern
  itself (:data:`T_LINE`): it must read back as the whole name, so a one-character
  name (the pattern's ``.+?\\S`` needs two) is refused too.
* NASPA's results file (NASPA Director's Manual, "Basic Format": the name
  "followed by a forward slash"): no ``/``, which ends the name field.

An event's ledger started before this rule may hold a name that breaks it (its names
are not checked again when it is read, so it still opens), and no command renames
a player: its writers (``event export tsh|naspa``, the tsh live feed, which shows
names as the ``.t`` file does) write such a name by :func:`writable`, the documented
rule, each format by its own part of the rule: each character that part refuses
becomes a space, and for tsh, when the name filed would still end in a number, each
word that is a number is put in parentheses (``Lee, Ann (2)``), as is a name still
too short for tsh (``(A)``). A name that keeps the rule is written as it is; one
with no letter left is ``(unnamed)``.

Letters an encoding cannot hold are the file writers' to refuse
(:func:`engine.exports.tfile.t_file_bytes`: ISO-8859-1 unless ``--encoding
utf-8``; NASPA's ASCII), never written as ``?``. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container

from engine.exports.roster import guess_filed

__all__ = [
    "MAX_NAME",
    "T_LINE",
    "entry_fault",
    "letter_fault",
    "line_fault",
    "naspa_fault",
    "printable",
    "tsh_fault",
    "writable",
]

MAX_NAME = 60
"""A name's characters at most, at entry: room for any real name (with a middle name
and a suffix) while a pasted paragraph is refused, not written in every file."""

T_LINE = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);", re.ASCII)
"""tsh's ``.t`` line (``TFile::ParseLine``): the name, the rating, the opponents,
then ``;``. The one reader of a line's name and rating here: :func:`tsh_fault`
holds each name written to it, and tsh's readers (``parse_t``, the roster) use it."""

_TSH_MARKS = {";": "tsh's field separator", "#": "tsh's comment mark"}
_NASPA_MARKS = {"/": "where a name ends in NASPA's results file"}
_NUMBER = re.compile(r"\d+(?:[.+]\d+)*", re.ASCII)
"""A word tsh's line pattern reads as a rating."""
_WORD_NUMBER = re.compile(r"(?<![^\s,])(\d+(?:[.+]\d+)*)(?![^\s,])", re.ASCII)
"""Such a word within a name (between spaces or commas)."""


def line_fault(name: str) -> str | None:
    """Why ``name`` is not one line of printable text, or None.

    >>> line_fault("Ann Lee"), line_fault("Ann\\nLee")
    (None, "has '\\\\n', a control character")
    """
    for ch in name:
        kind = _UNPRINTABLE.get(unicodedata.category(ch))
        if kind and ch not in _JOINERS:
            return f"has {ch!r}, {kind}"
    return None


_UNPRINTABLE = {
    "Cc": "a control character",
    "Zl": "a control character",
    "Zp": "a control character",
    "Cs": "a control character",
    "Cf": "an invisible format character",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
}
_JOINERS = {"\u200c", "\u200d"}
"""Zero-width non-joiner and joiner: format characters some scripts spell names with."""


def printable(text: str, also: Container[str] = ()) -> str:
    """``text`` made one line of printable text: each character :func:`line_fault`
    refuses (or in ``also``) a space, each run of white space one space, the ends
    trimmed. The one cleaning of a name or title a writer cannot refuse (a GCG
    header, an older ledger's name in a results file).

    >>> printable("Ann\\t\\nLee\\u202e"), printable("Ann;Lee", ";"), printable("a\\u200db")
    ('Ann Lee', 'Ann Lee', 'a\\u200db')
    """
    return " ".join("".join(" " if ch in also or line_fault(ch) else ch for ch in text).split())


def letter_fault(name: str) -> str | None:
    """Why ``name`` is no name (it has no letter), or None.

    >>> letter_fault("Zoë"), letter_fault(". ,")
    (None, 'has no letter')
    """
    if any(unicodedata.category(ch).startswith("L") for ch in name):
        return None
    return "has no letter"


def tsh_fault(filed: str) -> str | None:
    """Why ``filed`` (``Last, First``) cannot be a ``.t`` line's name, or None.

    >>> tsh_fault("Lee, Ann"), tsh_fault("Lee; Ann"), tsh_fault("Lee, Ann 2")
    (None, "has ';', tsh's field separator", 'ends in 2, which tsh would read as the rating')
    """
    fault = line_fault(filed) or letter_fault(filed) or _marks(filed, _TSH_MARKS)
    if fault:
        return fault
    words = filed.split()
    if len(words) > 1 and _NUMBER.fullmatch(words[-1]):
        return f"ends in {words[-1]}, which tsh would read as the rating"
    read = T_LINE.match(f"{filed} 1800 2; 400")
    if read is None or read.group(1) != filed:
        # e.g. one character: the pattern's name is two at least, so 'A 1800' is read
        got = f"{read.group(1)!r} rated {read.group(2)}" if read else "no name"
        return f"would be read by tsh as {got}"
    return None


def naspa_fault(name: str) -> str | None:
    """Why ``name`` cannot be a NASPA results line's name, or None.

    >>> naspa_fault("Ann Lee"), naspa_fault("Ann/Lee")
    (None, "has '/', where a name ends in NASPA's results file")
    """
    return line_fault(name) or letter_fault(name) or _marks(name, _NASPA_MARKS)


def entry_fault(name: str) -> str | None:
    """Why ``name``, entering an event, could not be written in its results files
    (``.t`` filed as :func:`~engine.exports.roster.guess_filed` files it, and NASPA's),
    or None; and a name over :data:`MAX_NAME` characters."""
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long, over {MAX_NAME}"
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
    text = printable(name, marks)
    if tsh and tsh_fault(guess_filed(text)):
        text = _WORD_NUMBER.sub(r"(\1)", text)
    if letter_fault(text):
        return "(unnamed)"
    if tsh and tsh_fault(guess_filed(text)):  # one letter: tsh reads two at least
        text = f"({text})"
    return text


def _marks(name: str, marks: dict[str, str]) -> str | None:
    return next((f"has {ch!r}, {why}" for ch, why in marks.items() if ch in name), None)
