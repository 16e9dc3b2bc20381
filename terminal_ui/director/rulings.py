"""The kinds of ruling the director's console offers and the time fields' syntax.

A ruling made offline is written by :func:`clock.log.ruling.append_ruling`,
through the log's one writer. Pure: no Textual.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["RulingKind", "parse_time_ms"]

RulingKind = Literal["adjust", "resume", "forfeit", "neutralize", "end", "appeal"]


def parse_time_ms(text: str) -> int:
    """Signed seconds or minutes:seconds as milliseconds.

    >>> parse_time_ms("+1:30"), parse_time_ms("-45"), parse_time_ms("")
    (90000, -45000, 0)

    Raises:
        ValueError: Not a time.
    """
    s = text.strip()
    if not s:
        return 0
    m = re.fullmatch(r"([+-]?)(?:(\d+):)?(\d+(?:\.\d+)?)", s)
    if m is None:
        raise ValueError(f"not a time: {text!r} (seconds, or m:ss, with a sign)")
    ms = round((int(m.group(2) or 0) * 60 + float(m.group(3))) * 1000)
    return -ms if m.group(1) == "-" else ms
