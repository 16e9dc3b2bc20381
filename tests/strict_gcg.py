"""A strict GCG reader, built from MAGPIE's (``src/impl/gcg.c``, jvc56/MAGPIE) rules
as read in its source: the other side of our writer, for tests only.

MAGPIE itself cannot run here (its lexicon files are not public data we can fetch),
so this models what its parser refuses line by line, before any word is judged:

* ``#character-encoding`` only on line 1;
* every line is a known token, a blank line, or (only right after a ``#note``) the
  note's continuation: an unknown pragma such as ``#incomplete`` anywhere else is
  "unrecognized GCG token";
* ``#note`` only after the first move; ``#title``, ``#description``, ``#id``,
  ``#lexicon`` and ``#playerN`` only before it; both players before any move, each
  once, with different names and nicknames, and a name after the nickname;
* a move, pass, exchange, withdrawn play or end-of-game deduction has a rack field of
  tiles (letters, ``?`` for a blank); only a challenge bonus and a time penalty may
  leave it empty; an exchange names its tiles; a play's score is ``+N``;
* a deduction's rack equals the tiles deducted; no move after ``#rack1``/``#rack2``;
* given the tile set, each rack is drawn from the bag as MAGPIE replays the game
  (``play_game_history_turn``: "rack of ... not in bag"): its tiles must be neither on
  the board nor on the opponent's rack (here: the opponent's leave after their last
  line, which is at least what MAGPIE holds for them).

The token patterns are matched unanchored at the end, as MAGPIE's regular expressions
are, so text after the cumulative score (our clock times) is tolerated, as there.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["StrictError", "strict_read"]

_S = r"[ \t]+"
_TOKENS: list[tuple[str, re.Pattern[str]]] = [
    ("player", re.compile(rf"#player([12]){_S}(\S+){_S}(.+)")),
    ("title", re.compile(r"#title\s*(.*)")),
    ("description", re.compile(r"#description\s*(.*)")),
    ("id", re.compile(rf"#id\s*(\S+){_S}(\S+)")),
    ("rack1", re.compile(r"#rack1 (\S+)")),
    ("rack2", re.compile(r"#rack2 (\S+)")),
    ("encoding", re.compile(r"#character-encoding (\S+)")),
    ("move", re.compile(rf">(\S+):{_S}(\S+){_S}([A-Za-z0-9]+){_S}(\S+){_S}\+(\d+){_S}(-?\d+)")),
    ("note", re.compile(r"#note (.+)")),
    ("lexicon", re.compile(r"#lexicon (.+)")),
    ("phony", re.compile(rf">(\S+):{_S}(\S+){_S}--{_S}-(\d+){_S}(-?\d+)")),
    ("pass", re.compile(rf">(\S+):{_S}(\S+){_S}-{_S}\+0{_S}(-?\d+)")),
    ("bonus", re.compile(rf">(\S+):{_S}(\S*){_S}\(challenge\){_S}(\+\d+){_S}(-?\d+)")),
    ("exchange", re.compile(rf">(\S+):{_S}(\S+){_S}-(\S+){_S}\+0{_S}(-?\d+)")),
    ("end_points", re.compile(rf">(\S+):{_S}\((\S+)\){_S}(\+\d+){_S}(-?\d+)")),
    ("time", re.compile(rf">(\S+):{_S}(\S*){_S}\(time\){_S}(-\d+){_S}(-?\d+)")),
    ("end_penalty", re.compile(rf">(\S+):{_S}(\S+){_S}\((\S+)\){_S}(-\d+){_S}(-?\d+)")),
    ("game_type", re.compile(r"#game-type (.*)")),
    ("tile_set", re.compile(r"#tile-set (.*)")),
    ("board_layout", re.compile(r"#board-layout (.*)")),
    ("tile_distribution", re.compile(r"#tile-distribution (.*)")),
]
_HEADER_ONLY = {"title", "id", "lexicon", "board_layout", "tile_distribution", "game_type"}
_EVENTS = {"move", "phony", "pass", "bonus", "exchange", "end_points", "time", "end_penalty"}
_RACK = re.compile(r"[A-Za-z?]+")


@dataclass(frozen=True, slots=True)
class StrictError:
    """The first line a strict reader refuses (it stops there, as MAGPIE does)."""

    line: int
    message: str


def _token(line: str) -> tuple[str, re.Match[str]] | None:
    for name, pattern in _TOKENS:
        m = pattern.search(line)
        if m:
            return name, m
    return None


def _rack_ok(text: str) -> bool:
    return bool(_RACK.fullmatch(text))


def _placed(word: str) -> str:
    """The rack tiles a play uses: letters, ``?`` for a blank (lower case)."""
    return "".join("?" if ch.islower() else ch for ch in word if ch != ".")


def _within(tiles: str, rack: str) -> bool:
    pool = list(rack.upper())
    for ch in tiles.upper():
        if ch not in pool:
            return False
        pool.remove(ch)
    return True


def _multiset(tiles: str) -> Counter[str]:
    return Counter("?" if ch.islower() or ch == "?" else ch for ch in tiles if ch != ".")


class _Bag:
    """The tiles as a replaying reader sees them: the board and each player's rack."""

    def __init__(self, tiles: Mapping[str, int]) -> None:
        self.tiles = Counter(tiles)
        self.board: Counter[str] = Counter()
        self.held: dict[str, Counter[str]] = {}
        self.laid: dict[str, Counter[str]] = {}

    def draw(self, nick: str, rack: str) -> bool:
        """Set ``nick``'s rack to ``rack``; False when the bag cannot hold it."""
        others: Counter[str] = Counter()
        for who, held in self.held.items():
            if who != nick:
                others += held
        wanted = _multiset(rack)
        if wanted - (self.tiles - self.board - others):
            return False
        self.held[nick] = wanted
        return True

    def play(self, nick: str, word: str) -> None:
        self.laid[nick] = _multiset(word)
        self.board += self.laid[nick]
        self.held[nick] = self.held.get(nick, Counter()) - self.laid[nick]

    def withdraw(self, nick: str) -> None:
        self.board -= self.laid.pop(nick, Counter())


def strict_read(text: str, tiles: Mapping[str, int] | None = None) -> StrictError | None:
    """None when a strict reader would load ``text``; else its first refusal. With
    ``tiles`` (the tile set's counts) each rack must also be in the bag."""
    bag = _Bag(tiles) if tiles is not None else None
    lines = text.split("\n")
    if lines and lines[0].startswith("#character-encoding"):
        lines[0] = ""
    players: dict[str, tuple[str, str]] = {}
    events = 0
    previous = ""
    last_rack_seen = False
    for number, line in enumerate(lines, start=1):
        found = _token(line)
        if found is None:
            if previous == "note" or not line.strip():
                continue
            return StrictError(number, f"unrecognized GCG token: {line}")
        name, m = found
        previous = name
        if name in _EVENTS and len(players) < 2:
            return StrictError(number, f"move before both players were set: {line}")
        if (name in _HEADER_ONLY or name in ("player", "description")) and events:
            return StrictError(number, f"pragma after a game event: {line}")
        if name in _EVENTS and last_rack_seen:
            return StrictError(number, f"game event after a last rack pragma: {line}")
        if name == "encoding":
            return StrictError(number, f"encoding pragma not on line 1: {line}")
        if name == "note" and not events:
            return StrictError(number, f"note before any game event: {line}")
        if name == "player":
            seat, nick, full = m.group(1), m.group(2), m.group(3).strip()
            if seat in players:
                return StrictError(number, f"redundant player number: {line}")
            for other_nick, other_name in players.values():
                if other_name == full:
                    return StrictError(number, f"duplicate player name: {line}")
                if other_nick == nick:
                    return StrictError(number, f"duplicate player nickname: {line}")
            players[seat] = (nick, full)
        if name in ("rack1", "rack2"):
            last_rack_seen = True
            if not _rack_ok(m.group(1)):
                return StrictError(number, f"malformed rack: {line}")
        if name in _EVENTS:
            events += 1
            nick = m.group(1)
            if nick not in {n for n, _ in players.values()}:
                return StrictError(number, f"unrecognized player: {line}")
            rack = m.group(2)
            if name in ("move", "pass", "exchange", "phony", "end_penalty", "end_points"):
                if not _rack_ok(rack):
                    return StrictError(number, f"could not parse the rack {rack!r}: {line}")
            elif rack and not _rack_ok(rack):
                return StrictError(number, f"could not parse the rack {rack!r}: {line}")
            if name == "exchange" and not _rack_ok(m.group(3)):
                return StrictError(number, f"exchanged tiles {m.group(3)!r} are not tiles: {line}")
            if name == "exchange" and not _within(m.group(3), rack):
                return StrictError(number, f"exchanged tiles not on the rack: {line}")
            if name == "move" and "?" in m.group(4):
                return StrictError(number, f"a blank without a letter in the play: {line}")
            if name == "move" and not _within(_placed(m.group(4)), rack):
                return StrictError(number, f"played tiles not on the rack: {line}")
            if name == "end_penalty" and sorted(m.group(2)) != sorted(m.group(3)):
                return StrictError(number, f"end rack penalty letters not the rack: {line}")
            if bag is not None and name in ("move", "pass", "exchange", "end_penalty"):
                if not bag.draw(nick, rack):
                    return StrictError(number, f"rack of {rack} not in bag: {line}")
                if name == "move":
                    bag.play(nick, m.group(4))
                elif name == "exchange":
                    bag.held[nick] = Counter()  # what was drawn is not known
            if bag is not None and name == "phony":
                bag.withdraw(nick)
                bag.held[nick] = _multiset(rack)
    return None
