"""A sheet as plain text: columns padded to their widest cell (in display cells, so a
CJK name lines up), two spaces apart, numbers aligned right, for a printer or the
terminal."""

from __future__ import annotations

from engine.tournament.sheets.sheet import Section, Sheet, cell_width, pad

__all__ = ["sheet_text"]


def _grid(section: Section) -> list[str]:
    lines = [section.head, *section.rows]
    widths = [max(cell_width(line[i]) for line in lines) for i in range(len(section.head))]
    out = []
    for line in lines:
        cells = [pad(c, w, right) for c, w, right in zip(line, widths, section.right, strict=True)]
        out.append("  ".join(cells).rstrip())
    out.insert(1, "  ".join("-" * w for w in widths))
    return out


def sheet_text(sheet: Sheet) -> str:
    """The whole sheet, ending with a newline."""
    out = [sheet.title, "=" * cell_width(sheet.title)]
    for section in sheet.sections:
        out += ["", section.caption, ""] if section.caption else [""]
        out += _grid(section) if section.rows else ["(none)"]
        out += [f"{note}" for note in section.notes]
    return "\n".join(out) + "\n"
