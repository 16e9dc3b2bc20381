"""A sheet as a printable HTML page: one self-contained file, no script, its style
inline, black on white, each table kept on one page where it fits and a section
marked for it starting a page of its own; a long name wraps (anywhere) rather than
run off the page, numbers and a wallchart's cells never do, and a wallchart prints
landscape; and the folder's index page."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from engine.tournament.sheets.sheet import Section, Sheet

__all__ = ["index_html", "sheet_html"]

_STYLE = """\
body { font-family: sans-serif; color: #000; background: #fff; margin: 1.5em; }
h1 { font-size: 1.4em; margin: 0 0 0.5em; }
h2 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #888; padding: 0.15em 0.5em; text-align: left; }
td { overflow-wrap: anywhere; }
th { background: #eee; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n, td.k { white-space: nowrap; }
p.note { margin: 0.3em 0; font-size: 0.9em; }
section { break-inside: avoid; }
section.page { break-before: page; }
@media print { body { margin: 0; } th { background: none; } a { color: #000; } }
"""


_LANDSCAPE = "@page { size: landscape; }\n"


def _page(title: str, body: Sequence[str], landscape: bool = False) -> str:
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8">',
            f"<title>{escape(title)}</title>",
            f"<style>\n{_STYLE}{_LANDSCAPE if landscape else ''}</style></head>",
            "<body>",
            f"<h1>{escape(title)}</h1>",
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )


def _cell(tag: str, text: str, right: bool, keep: bool = False) -> str:
    css = ' class="n"' if right else ' class="k"' if keep else ""
    return f"<{tag}{css}>{escape(text)}</{tag}>"


def _section(section: Section) -> list[str]:
    out = ['<section class="page">' if section.new_page else "<section>"]
    if section.caption:
        out.append(f"<h2>{escape(section.caption)}</h2>")
    if section.rows:
        head = "".join(_cell("th", h, r) for h, r in zip(section.head, section.right, strict=True))
        out += ["<table>", f"<thead><tr>{head}</tr></thead>", "<tbody>"]
        keep = section.keep or (False,) * len(section.head)
        for row in section.rows:
            cells = "".join(
                _cell("td", c, r, k) for c, r, k in zip(row, section.right, keep, strict=True)
            )
            out.append(f"<tr>{cells}</tr>")
        out += ["</tbody>", "</table>"]
    else:
        out.append('<p class="note">(none)</p>')
    out += [f'<p class="note">{escape(note)}</p>' for note in section.notes]
    out.append("</section>")
    return out


def sheet_html(sheet: Sheet) -> str:
    """The sheet as a whole HTML page."""
    body = [line for s in sheet.sections for line in _section(s)]
    return _page(sheet.title, body, sheet.landscape)


def index_html(title: str, links: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """The folder's index: per group (a division), each sheet's name linking to its file
    (``(label, file)``)."""
    body = []
    for group, files in links:
        body.append(f"<h2>{escape(group)}</h2>")
        body.append("<ul>")
        body += [f'<li><a href="{escape(f)}">{escape(label)}</a></li>' for label, f in files]
        body.append("</ul>")
    return _page(title, body)
