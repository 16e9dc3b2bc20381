"""A strict GCG reader, built from MAGPIE's (``src/impl/gcg.c`` and
``src/impl/gameplay.c``, jvc56/MAGPIE) rules as read in its source and checked
against MAGPIE itself: the other side of our writer, for tests only.

MAGPIE and its data (jvc56/MAGPIE-DATA: the English distribution, the board, the
TWL14 lexicon) are public and build in a minute (``scripts/magpie-check``,
docs/gcg.md), but CI cannot download them, so the tests run this model of what
MAGPIE refuses instead. Each refusal carries MAGPIE's error number (``StrictError.code``,
the index in MAGPIE's ``error_code_t``); ``tests/data/magpie/`` holds a small file
for each that MAGPIE itself refused with that number (commit 183bebc). What it
models, before any word is judged:

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
* a deduction's rack equals the tiles deducted; nothing after ``#rack1``/``#rack2``
  (not even ``#rack2`` or a ``#note``: 107);
* a one-tile play is scored in the direction written, the tile counted as a word of
  its own when nothing is beside it that way: written so, a play of a tile worth
  points is refused (113, "calculated move score ... does not match");
* the game ends when a play empties a rack field (the tiles played are the whole
  rack) with 7 or fewer tiles neither on the board nor on it (MAGPIE takes it for
  going out, ``play_move_without_drawing_tiles``; needs ``tiles``), or after six
  scoreless turns (passes, exchanges, withdrawn plays); a play, pass or exchange
  after that is refused (110), and (with ``tiles``) an end-rack line before it
  (111); ``(time)`` lines at the very end of a game that has not ended are dropped,
  not refused (``game_history_trim_trailing_overtime_penalties``), anywhere else
  they are 111;
* given the tile set, each rack is drawn from the bag as MAGPIE replays the game
  (``play_game_history_turn``: "rack of ... not in bag"): its tiles must be neither on
  the board nor on the opponent's rack (here: the opponent's leave after their last
  line, which is at least what MAGPIE holds for them);
* then, as MAGPIE plays the move, the tiles played or exchanged must be on the rack
  field and an exchange must name tiles, not a number (116); with the tile set, an
  end-rack penalty is the rack's value (103) and end-rack points twice it (102).

Not modelled, left to our checker (``engine.gcg.check``, which every export passes
too): a play's score (MAGPIE 113 beyond the one-tile case), the cumulative totals
(114) and where a play may go (116: a play not touching the tiles on the board, a
first play off the centre), and whether a word is in the lexicon.

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
    code: int
    """MAGPIE's error number for it (``(error N)``: its ``error_code_t`` index)."""


# MAGPIE's error numbers (src/util/io_util.h, error_code_t, at 183bebc).
DUPLICATE_NAMES = 83
DUPLICATE_NICKNAMES = 84
PRAGMA_AFTER_EVENT = 85
MISPLACED_ENCODING = 86
PLAYER_DOES_NOT_EXIST = 87
PLAYER_NUMBER_REDUNDANT = 88
NOTE_BEFORE_EVENT = 91
NO_MATCHING_TOKEN = 92
RACK_MALFORMED = 99
RACK_NOT_IN_BAG = 101
END_RACK_POINTS_INCORRECT = 102
END_RACK_PENALTY_INCORRECT = 103
EVENT_BEFORE_PLAYER = 105
EVENT_AFTER_LAST_RACK = 107
MOVE_AFTER_GAME_END = 110
END_EVENT_BEFORE_GAME_END = 111
MOVE_SCORING_ERROR = 113
MOVE_VALIDATION_ERROR = 116

_BOARD = 15
_VALUES = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ?",
        (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10, 0),
        strict=True,
    )
)
"""MAGPIE-DATA's English letter values (``english.csv``): the end-rack lines' arithmetic
is judged with the tile set (``tiles``) given, which is MAGPIE's English one."""
_MOVES = {"move", "pass", "exchange"}
"""Events MAGPIE refuses after the game ended."""


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


def _worth(tiles: str) -> int:
    return sum(_VALUES.get(t, 0) for t in tiles)


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


def _after_move(
    bag: _Bag,
    total: int,
    mover: str,
    phony: Mapping[str, Counter[str]],
    ahead: list[tuple[str, re.Match[str]] | None],
) -> str:
    """MAGPIE's racks after a move (``set_after_game_event_racks``): the opponent's is
    the rack field of their next line, the mover's the tiles known from plays taken
    back; both are drawn from the tiles not on the board. ``""`` when they fit, else
    the refusal."""
    opponent = next(
        (
            _multiset(f[1].group(2))
            for f in ahead
            if f is not None
            and f[0] in _EVENTS - {"end_points"}
            and f[1].group(1) != mover
            and _rack_ok(f[1].group(2))  # a malformed rack is refused at its own line (99)
        ),
        Counter[str](),
    )
    unseen = Counter(bag.tiles) - bag.board
    if total - sum(bag.board.values()) - sum(opponent.values()) <= 7:
        return ""  # the mover then holds whatever is left: it always fits
    if opponent - unseen:
        return f"rack of {''.join(sorted(opponent.elements()))} not in bag (the next rack)"
    kept = phony.get(mover, Counter())
    if (opponent + kept) - unseen:
        return (
            f"rack of {''.join(sorted(kept.elements()))} not in bag (known from a play taken back)"
        )
    return ""


class _Squares:
    """The board as positions: which squares hold a tile, and each player's last play."""

    def __init__(self) -> None:
        self.filled: set[tuple[int, int]] = set()
        self.laid: dict[str, list[tuple[int, int]]] = {}

    def play(self, nick: str, position: str, word: str) -> tuple[int, int, int, int, str] | None:
        """Lay ``word``; for a play of one tile, ``(row, col, dr, dc, tile)`` (the
        written direction), else None."""
        m = re.fullmatch(r"(\d+)([A-Oa-o])", position)
        if m:
            row, col, dr, dc = int(m.group(1)) - 1, ord(m.group(2).upper()) - 65, 0, 1
        else:
            m = re.fullmatch(r"([A-Oa-o])(\d+)", position)
            if m is None:
                return None
            row, col, dr, dc = int(m.group(2)) - 1, ord(m.group(1).upper()) - 65, 1, 0
        new = [
            (row + k * dr, col + k * dc, ch)
            for k, ch in enumerate(word)
            if ch != "." and (row + k * dr, col + k * dc) not in self.filled
        ]
        self.filled |= {(r, c) for r, c, _ in new}
        self.laid[nick] = [(r, c) for r, c, _ in new]
        if len(new) != 1:
            return None
        r, c, tile = new[0]
        return r, c, dr, dc, tile

    def alone(self, r: int, c: int, dr: int, dc: int) -> bool:
        """Nothing beside (r, c) along (dr, dc): the tile is a word of one letter."""
        return (r - dr, c - dc) not in self.filled and (r + dr, c + dc) not in self.filled

    def withdraw(self, nick: str) -> None:
        self.filled -= set(self.laid.pop(nick, []))


def strict_read(text: str, tiles: Mapping[str, int] | None = None) -> StrictError | None:
    """None when a strict reader would load ``text``; else its first refusal. With
    ``tiles`` (the tile set's counts) each rack must also be in the bag, and a play
    that empties its rack field near the end ends the game."""
    bag = _Bag(tiles) if tiles is not None else None
    total = sum(tiles.values()) if tiles is not None else 0
    squares = _Squares()
    lines = text.split("\n")
    if lines and lines[0].startswith("#character-encoding"):
        lines[0] = ""
    found_lines = [_token(line) for line in lines]
    # Trailing (time) lines of a game that has not ended are dropped, not refused.
    last_other = max(
        (i for i, f in enumerate(found_lines) if f is not None and f[0] in _EVENTS - {"time"}),
        default=-1,
    )
    players: dict[str, tuple[str, str]] = {}
    events = 0
    previous = ""
    last_rack_seen = False
    over = False
    scoreless = 0
    phony: dict[str, Counter[str]] = {}
    """Tiles of plays taken back and not played since (MAGPIE's known letters from
    phonies): after each move MAGPIE puts them on that player's rack."""
    before_play = (over, scoreless)  # a withdrawn play undoes its play
    for index, (line, found) in enumerate(zip(lines, found_lines, strict=True)):
        number = index + 1

        def refuse(code: int, message: str) -> StrictError:
            return StrictError(number, f"{message}: {line}", code)  # noqa: B023

        if found is None:
            if previous == "note" or not line.strip():
                continue
            return refuse(NO_MATCHING_TOKEN, "unrecognized GCG token")
        name, m = found
        previous = name
        if last_rack_seen:
            return refuse(
                EVENT_AFTER_LAST_RACK, "encountered a game event after a last rack pragma"
            )
        if name in _EVENTS and len(players) < 2:
            return refuse(EVENT_BEFORE_PLAYER, "move before both players were set")
        if (name in _HEADER_ONLY or name in ("player", "description")) and events:
            return refuse(PRAGMA_AFTER_EVENT, "pragma after a game event")
        if name == "encoding":
            return refuse(MISPLACED_ENCODING, "encoding pragma not on line 1")
        if name == "note" and not events:
            return refuse(NOTE_BEFORE_EVENT, "note before any game event")
        if name == "player":
            seat, nick, full = m.group(1), m.group(2), m.group(3).strip()
            if seat in players:
                return refuse(PLAYER_NUMBER_REDUNDANT, "redundant player number")
            for other_nick, other_name in players.values():
                if other_name == full:
                    return refuse(DUPLICATE_NAMES, "duplicate player name")
                if other_nick == nick:
                    return refuse(DUPLICATE_NICKNAMES, "duplicate player nickname")
            players[seat] = (nick, full)
        if name in ("rack1", "rack2"):
            last_rack_seen = True
            if not _rack_ok(m.group(1)):
                return refuse(RACK_MALFORMED, "malformed rack")
        if name not in _EVENTS:
            continue
        events += 1
        nick = m.group(1)
        if nick not in {n for n, _ in players.values()}:
            return refuse(PLAYER_DOES_NOT_EXIST, "unrecognized player")
        rack = m.group(2)
        if name in ("move", "pass", "exchange", "phony", "end_penalty", "end_points"):
            if not _rack_ok(rack):
                return refuse(RACK_MALFORMED, f"could not parse the rack {rack!r}")
        elif rack and not _rack_ok(rack):
            return refuse(RACK_MALFORMED, f"could not parse the rack {rack!r}")
        if name in _MOVES and over:
            return refuse(MOVE_AFTER_GAME_END, "encountered a move after the game ended")
        # Without the tile set the end of the game is not known: not judged.
        if name in ("end_points", "end_penalty") and not over and bag is not None:
            return refuse(END_EVENT_BEFORE_GAME_END, "end rack event before the game ended")
        if name == "time" and not over and bag is not None and index < last_other:
            return refuse(END_EVENT_BEFORE_GAME_END, "time penalty before the game ended")
        if name == "move" and "?" in m.group(4):
            return refuse(MOVE_VALIDATION_ERROR, "a blank without a letter in the play")
        if name == "end_penalty" and sorted(m.group(2)) != sorted(m.group(3)):
            return refuse(END_RACK_PENALTY_INCORRECT, "end rack penalty letters not the rack")
        if name == "end_penalty" and bag is not None and int(m.group(4)) != -_worth(m.group(3)):
            return refuse(END_RACK_PENALTY_INCORRECT, "rack score does not match the penalty")
        if name == "end_points" and bag is not None and int(m.group(3)) != 2 * _worth(m.group(2)):
            return refuse(END_RACK_POINTS_INCORRECT, "double rack score does not match the points")
        if (
            bag is not None
            and name in ("move", "pass", "exchange", "end_penalty")
            and not bag.draw(nick, rack)
        ):
            return refuse(RACK_NOT_IN_BAG, f"rack of {rack} not in bag")
        # MAGPIE draws the rack first, then validates the move as it plays it (116, from
        # 134 and 131): a numeric exchange (`-3`) or tiles not on the rack.
        if name == "exchange" and not _rack_ok(m.group(3)):
            return refuse(MOVE_VALIDATION_ERROR, f"exchanged tiles {m.group(3)!r} are not tiles")
        if name == "exchange" and not _within(m.group(3), rack):
            return refuse(MOVE_VALIDATION_ERROR, "exchanged tiles not on the rack")
        if name == "move" and not _within(_placed(m.group(4)), rack):
            return refuse(MOVE_VALIDATION_ERROR, "played tiles not on the rack")
        if bag is not None and name in ("move", "exchange"):
            if name == "move":
                bag.play(nick, m.group(4))
            elif name == "exchange":
                bag.held[nick] = Counter()  # what was drawn is not known
        if name == "move":
            phony[nick] = phony.get(nick, Counter()) - _multiset(m.group(4))
        elif name == "exchange":
            phony[nick] = Counter()
        if bag is not None and name in _MOVES and not over:
            refused = _after_move(bag, total, nick, phony, found_lines[index + 1 :])
            if refused:
                return refuse(RACK_NOT_IN_BAG, refused)
        if name == "move":
            one = squares.play(nick, m.group(3), m.group(4))
            if one is not None and one[4].isupper() and squares.alone(*one[:4]):
                # MAGPIE adds the written direction's word even of one letter.
                return refuse(
                    MOVE_SCORING_ERROR,
                    "calculated move score does not match the move score in the GCG "
                    "(a one-tile play written in a direction where it forms no word)",
                )
            before_play = (over, scoreless)
            scoreless = 0
            # The rack field all played with 7 or fewer tiles unseen: MAGPIE takes
            # it for going out and ends the game.
            if bag is not None and _multiset(rack) == _multiset(m.group(4)):
                over = over or total - sum(bag.board.values()) <= 7
        elif name in ("pass", "exchange", "phony"):
            if name == "phony":
                over, scoreless = before_play
            scoreless += 1
            over = over or scoreless >= 6
        if name == "phony":
            phony[nick] = (
                phony.get(nick, Counter()) | bag.laid.get(nick, Counter()) if bag else Counter()
            )
            squares.withdraw(nick)
            if bag is not None:
                bag.withdraw(nick)
                bag.held[nick] = _multiset(rack)
    return None
