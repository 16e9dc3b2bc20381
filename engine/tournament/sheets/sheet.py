"""A sheet as cells: what the text and the HTML renderings share.

A sheet is a title and sections, each a captioned grid of text cells with its
column heads; the renderers only lay the cells out, so a printed sheet and its
web page say the same thing.
"""

from __future__ import annotations

import msgspec

__all__ = ["Section", "Sheet", "signed"]


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


class Sheet(msgspec.Struct, frozen=True):
    """A whole sheet: ``Spring Open, division A: standings after round 3``."""

    title: str
    sections: tuple[Section, ...]


def signed(spread: int) -> str:
    """A spread as the sheets write it: ``+35``, ``-12``, ``+0``."""
    return f"{spread:+d}"
