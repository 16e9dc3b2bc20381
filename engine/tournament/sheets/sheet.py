"""A sheet as cells: what the text and the HTML renderings share.

A sheet is a title and sections, each a captioned grid of text cells with its
column heads; the renderers only lay the cells out, so a printed sheet and its
web page say the same thing.
"""

from __future__ import annotations

import unicodedata

import msgspec

__all__ = ["Section", "Sheet", "cell_width", "pad", "signed"]


class Section(msgspec.Struct, frozen=True):
    """One captioned grid of a sheet."""

    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: tuple[bool, ...]
    """Per column: aligned right (numbers), else left (names)."""
    notes: tuple[str, ...] = ()
    new_page: bool = False
    """Printed on a page of its own (the list by name posted apart from the list by table)."""
    keep: tuple[bool, ...] = ()
    """Per column: never wrapped on the page (a wallchart's round cells); none when empty.
    Numbers are never wrapped, names may be, anywhere, so a long one fits the page."""


class Sheet(msgspec.Struct, frozen=True):
    """A whole sheet: ``Spring Open, division A: standings after round 3``."""

    title: str
    sections: tuple[Section, ...]
    landscape: bool = False
    """Printed across the page (the wallchart: a column a round)."""


def signed(spread: int) -> str:
    """A spread as the sheets write it: ``+35``, ``-12``, ``+0``."""
    return f"{spread:+d}"


def _cells(char: str) -> int:
    if unicodedata.category(char) in ("Mn", "Me", "Cf"):  # combining marks, zero-width joiners
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cell_width(text: str) -> int:
    """How many terminal (and monospace printer) cells ``text`` takes: a wide or
    fullwidth character (CJK: ``王``) two, a combining mark none, any other one, so
    columns padded by it line up where ``len()`` would push them right."""
    return sum(_cells(c) for c in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` cells (:func:`cell_width`), on the left
    when ``right`` (numbers), else on the right."""
    fill = " " * max(0, width - cell_width(text))
    return fill + text if right else text + fill
