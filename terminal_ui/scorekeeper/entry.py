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
from engine.tournament.scores import MAX_SCORE

__all__ = [
    "SLIP_SCORE",
    "Entry",
    "alias_command",
    "describe_event",
    "implausible",
    "parse_entry",
    "parse_fix",
]

SLIP_SCORE = 500
"""A turn scoring more is taken as a typing slip until confirmed with ``!``: a single
play can in theory score far more (a word spanning three triple-word squares), but
at a speed-game table ``q999`` is ``q99`` with a key pressed twice, and a wrong total
is signed unnoticed. A chosen bound, not a rule."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line typed for the scoresheet: ``q24``, ``24``, ``-``, ``0``, ``2:b12``."""

    player: int | None
    """0 or 1 when a ``1:``/``2:`` prefix names the player; None for the turn being scored."""
    letter: str
    """The play's first letter (upper case), or empty."""
    score: int
    """The turn's score."""
    sure: bool = False
    """Typed with a closing ``!``: a score past :data:`SLIP_SCORE` confirmed."""


_ENTRY = re.compile(
    r"^\s*(?:(?P<who>[12])\s*:\s*)?"
    r"(?:(?P<letter>[A-Za-z])\s*(?P<score>\d{1,4})|(?P<bare>\d{1,4})|(?P<none>-))"
    r"\s*(?P<sure>!)?\s*$"
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
    letter = (m.group("letter") or "").upper()
    return Entry(player, letter, int(score), sure=bool(m.group("sure")))


def implausible(score: int, total: int, sure: bool) -> str | None:
    """Why a turn's ``score`` is refused, taking a player at ``total`` points (before the
    turn) past what a game reaches or, unconfirmed, past :data:`SLIP_SCORE`; None if not."""
    if total + score > MAX_SCORE:
        return (
            f"{score} would bring the player to {total + score}, past the {MAX_SCORE} no "
            "game reaches (engine/tournament/scores.py)"
        )
    if score > SLIP_SCORE and not sure:
        return (
            f"{score} points for one turn is taken as a typing slip (more than "
            f"{SLIP_SCORE}); if it is right, type it with a closing ! ({score}!)"
        )
    return None


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
    turn = int(args.group("turn"))
    if turn == 0:
        return (
            f"no turn 0: {text.strip()!r}. Turns count from 1: fix {args.group('who')}:1 "
            f"{args.group('entry')} corrects the player's first turn"
        )
    # Only the score alone here: the player's total without the old entry is the app's
    # to judge (ScorekeeperApp.correct), which knows the sheet.
    slip = implausible(entry.score, 0, entry.sure)
    if slip is not None:
        return slip
    return TurnCorrected(
        player=int(args.group("who")) - 1,
        turn=turn,
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
