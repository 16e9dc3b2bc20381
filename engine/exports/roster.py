"""A director's roster: how each player's name is filed and their rating.

The results files want ``Last, First`` (tsh) or ``LAST FIRST`` (NASPA) and a rating
(tsh). A table only knows the name as typed ("Cesar Del Solar"), so without a roster
the surname is guessed as the last word ("Solar, Cesar Del"), and reported. A roster
says it exactly, in either of two forms:

* tsh's own ``.t`` lines: ``Del Solar, Cesar 1850 ...`` (anything after the rating
  is ignored, as are ``#`` lines);
* CSV with a header row naming ``name`` (``Cesar Del Solar`` or ``Del Solar, Cesar``)
  or ``last`` and ``first``, and ``rating``.

>>> r = parse_roster("Del Solar, Cesar 1850 2 3; 400 380\\n", "r.t")
>>> r.filed("Cesar Del Solar"), r.rating("cesar del solar")
('Del Solar, Cesar', 1850)
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass, field

from engine.errors import EngineError

__all__ = ["Roster", "RosterError", "guess_filed", "parse_roster", "without_accents"]


class RosterError(EngineError, ValueError):
    """The roster file cannot be read; the message names the line."""


_PLAIN = str.maketrans(
    {"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d",
     "Ħ": "H", "ħ": "h", "\u0131": "i", "ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE",
     "œ": "oe", "Þ": "TH", "þ": "th"}
)  # fmt: skip
"""Latin letters Unicode gives no plain form (no combining mark to drop), as they are
spelled in ASCII (Łukasz: Lukasz; Ørsted: Orsted; Strauß: Strauss)."""


def without_accents(text: str) -> str:
    """``ZOË ÅNGSTRÖM ŁUKASZ`` -> ``ZOE ANGSTROM LUKASZ``: combining marks dropped, and
    the Latin letters with no plain form spelled as ASCII spells them; a letter of
    another script is kept as it is."""
    plain = unicodedata.normalize("NFKD", text).translate(_PLAIN)
    return "".join(ch for ch in plain if not unicodedata.combining(ch))


def _key(name: str) -> str:
    """Names match whatever the case, accents and spacing: 'ZOË  lee' is 'Zoe Lee'."""
    return " ".join(without_accents(name).casefold().split())


def _typed(filed: str) -> str:
    """'Del Solar, Cesar' -> 'Cesar Del Solar', the order a table types."""
    last, _, first = filed.partition(",")
    return f"{first.strip()} {last.strip()}".strip()


def guess_filed(name: str) -> str:
    """``Smith, Sarah`` from ``Sarah Smith`` (the last word taken as the surname);
    a name already written ``Last, First`` is kept."""
    if "," in name:
        last, _, first = name.partition(",")
        return f"{last.strip()}, {first.strip()}".strip(", ")
    words = name.split()
    if len(words) < 2:
        return name.strip()
    return f"{words[-1]}, {' '.join(words[:-1])}"


@dataclass(frozen=True, slots=True)
class Roster:
    """Players by name: how each is filed (``Last, First``) and their rating."""

    entries: dict[str, tuple[str, int]] = field(default_factory=dict)
    """By matching key: (filed name, rating)."""

    def _find(self, name: str) -> tuple[str, int] | None:
        return self.entries.get(_key(name)) or self.entries.get(_key(_typed(name)))

    def filed(self, name: str) -> str | None:
        """The roster's ``Last, First`` for a name as the table typed it, or None."""
        found = self._find(name)
        return found[0] if found else None

    def rating(self, name: str) -> int | None:
        """The player's rating, or None when the roster does not list them."""
        found = self._find(name)
        return found[1] if found else None


def _rating(text: str, where: str) -> int:
    if not text.strip().isdigit():
        raise RosterError(f"{where}: rating {text!r} is not a whole number")
    return int(text)


def _from_t(text: str, source: str) -> Roster:
    from engine.exports.names import T_LINE  # names files a name by guess_filed, here

    entries: dict[str, tuple[str, int]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source} line {number}"
        # tsh's own pattern (engine.exports.names.T_LINE), as every .t reader here
        read = T_LINE.match(line if ";" in line else f"{line};")
        if read is None or "," not in read.group(1):
            raise RosterError(f"{where}: expected 'Last, First RATING ...', got {raw!r}")
        last, _, first = read.group(1).partition(",")
        if not first.strip():
            raise RosterError(f"{where}: no first name and rating in {raw!r}")
        filed = f"{last.strip()}, {first.strip()}"
        entries[_key(_typed(filed))] = (filed, _rating(read.group(2), where))
    return Roster(entries)


def _from_csv(text: str, source: str) -> Roster:
    rows = list(csv.reader(text.splitlines()))
    header = [h.strip().casefold() for h in rows[0]]
    if "rating" not in header or not ("name" in header or {"last", "first"} <= set(header)):
        raise RosterError(
            f"{source} line 1: a CSV roster's header names 'rating' and 'name' "
            f"(or 'last' and 'first'), got {rows[0]!r}"
        )
    col = {h: i for i, h in enumerate(header)}
    entries: dict[str, tuple[str, int]] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{source} line {number}"
        if len(row) < len(header):
            raise RosterError(f"{where}: {len(row)} fields, the header has {len(header)}")
        if "last" in col and "first" in col:
            filed = f"{row[col['last']].strip()}, {row[col['first']].strip()}"
        else:
            filed = guess_filed(row[col["name"]])
        entries[_key(_typed(filed))] = (filed, _rating(row[col["rating"]], where))
    return Roster(entries)


def parse_roster(text: str, source: str) -> Roster:
    """Read a roster (tsh ``.t`` lines, or CSV when the first line names ``rating``).

    Raises:
        RosterError: A line that is neither, quoted with its number.
    """
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if "rating" in first.casefold() and "," in first and ";" not in first:
        return _from_csv(text, source)
    return _from_t(text, source)
