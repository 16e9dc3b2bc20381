"""What the scorekeeper types: a scoresheet entry (``q24``, ``-``, ``2:b12``), a
correction (``undo``, ``fix 1:3 q24``) or a command.

Entries are parsed here; commands are the table terminal's
(:mod:`terminal_ui.table.commands`) with the scorekeeper's own aliases. Pure: no Textual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.events import Event, TurnCorrected, TurnScored
from engine.rules.state import GameState

__all__ = ["Entry", "alias_command", "describe_event", "parse_entry", "parse_fix"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line typed for the scoresheet: ``q24``, ``24``, ``-``, ``0``, ``2:b12``."""

    player: int | None
    """0 or 1 when a ``1:``/``2:`` prefix names the player; None for the turn being scored."""
    letter: str
    """The play's first letter (upper case), or empty."""
    score: int
    """The turn's score."""


_ENTRY = re.compile(
    r"^\s*(?:(?P<who>[12])\s*:\s*)?"
    r"(?:(?P<letter>[A-Za-z])\s*(?P<score>\d{1,4})|(?P<bare>\d{1,4})|(?P<none>-))\s*$"
)


def parse_entry(text: str) -> Entry | None:
    """The scoresheet entry ``text`` stands for, or None when it is not one (a command)."""
    m = _ENTRY.match(text)
    if m is None:
        return None
    who = m.group("who")
    player = int(who) - 1 if who else None
    if m.group("none"):
        return Entry(player, "", 0)
    score = m.group("score") or m.group("bare")
    return Entry(player, (m.group("letter") or "").upper(), int(score))


_FIX = re.compile(r"^\s*fix\b\s*(?P<rest>.*)$", re.IGNORECASE)
_FIX_ARGS = re.compile(r"^(?P<who>[12])\s*:\s*(?P<turn>\d{1,3})\s+(?P<entry>\S.*)$")


def parse_fix(text: str) -> TurnCorrected | str | None:
    """``fix 1:3 q24`` (player 1's turn 3 is Q 24): the correction it stands for; a
    line saying what to type when it is malformed; None when ``text`` is not a fix."""
    m = _FIX.match(text)
    if m is None:
        return None
    args = _FIX_ARGS.match(m.group("rest").strip())
    entry = parse_entry(args.group("entry")) if args else None
    if args is None or entry is None or entry.player is not None:
        return (
            f"not a correction: {text.strip()!r}. Type fix, the player, a colon, the "
            "turn number and the entry: fix 1:3 Q24 (player 1's turn 3 is Q 24)"
        )
    return TurnCorrected(
        player=int(args.group("who")) - 1,
        turn=int(args.group("turn")),
        score=entry.score,
        first_letter=entry.letter,
    )


def alias_command(text: str) -> str:
    """The scorekeeper's own words for the table terminal's commands."""
    words = text.split()
    if words and words[0].lower() == "end":
        return " ".join(["racks", *words[1:]])
    return text


def describe_event(event: Event, state: GameState) -> str:
    """An accepted command in words."""
    names = state.players
    if isinstance(event, TurnScored):
        letter = event.first_letter.upper() or "-"
        turn = f" turn {event.turn}" if event.turn else ""
        return f"{names[event.player]}{turn}: {letter} {event.score}"
    if isinstance(event, TurnCorrected):
        if event.undo:
            return f"{names[event.player]} turn {event.turn}: entry taken back"
        letter = event.first_letter.upper() or "-"
        return f"{names[event.player]} turn {event.turn} corrected: {letter} {event.score}"
    player = getattr(event, "player", None)
    kind = type(event).__name__
    if isinstance(player, int) and player in (0, 1):
        return f"{kind} ({names[player]})"
    return kind
