"""Reading GCG records: liberal in layout, strict in what the fields mean.

Accepted layout variations seen in records from the wild: CR/LF line ends,
several spaces or tabs between fields, lower-case coordinates, an empty rack
field, and extra annotation after the cumulative score. Everything else that
cannot be read is reported with its line number; reading goes on so that one
pass reports every problem.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from msgspec.structs import replace

from engine.errors import GcgError, NotationError
from engine.gcg.record import Event, EventKind, GameRecord, Player, Pragma
from engine.play.notation import Move, parse_move

__all__ = ["ParseResult", "classify_tokens", "event_line", "parse_gcg", "read_gcg"]

_INT = re.compile(r"[+-]?[0-9]+")
_RACK = re.compile(r"[A-Za-z?]+")
_POSITION = re.compile(r"[0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2}")
_EXCHANGE = re.compile(r"-([A-Za-z?]+|[0-9]+)")
_PAREN_RACK = re.compile(r"\(([A-Za-z?]*)\)")
_EVENT = re.compile(r">(\S+?):(?:\s+(.*))?")
# The usual line, a play with its rack and nothing after the total
# (">nick: RACK 8H WORD +12 34"), read in one match: the general reading below finds
# the same split (a rack of letters is never a position, the word is tried before it
# only when it is an integer, and that head fits no form), so both give one event.
_PLAY_LINE = re.compile(
    r">(\S+?):\s+([A-Za-z?]+)\s+([0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})\s+(\S+)"
    r"\s+([+-]?[0-9]+)\s+([+-]?[0-9]+)"
)
# Only CR/LF, CR and LF end lines: str.splitlines() would also split at form feeds,
# U+0085 (a cp1252 ellipsis read as Latin-1) and U+2028, shifting line numbers.
_NEWLINE = re.compile(r"\r\n|\r|\n")
_NEWLINE_BYTES = re.compile(rb"\r\n|\r|\n")

_EARLY_MOVE = "moves begin before both #player1 and #player2"

# The event lines written as one fixed token.
_TOKEN_KINDS = {
    "--": EventKind.WITHDRAWN,
    "-": EventKind.PASS,
    "(challenge)": EventKind.CHALLENGE_BONUS,
    "(time)": EventKind.TIME_PENALTY,
}

# Pragmas that must come before the first event.
_HEADER_ONLY = {"player1", "player2", "title", "description", "id", "lexicon"}


@dataclass(frozen=True, slots=True)
class ParseResult:
    """A record read as far as possible, and every problem met on the way."""

    record: GameRecord
    """What could be read."""
    errors: tuple[GcgError, ...]
    """Problems, each with its line number, in file order."""


def _decode(data: bytes) -> tuple[str, str, list[GcgError]]:
    """Decode per GCG: UTF-8 when line 1 declares it (or a UTF-8 BOM leads), else ISO-8859-1."""
    errors: list[GcgError] = []
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        declared = "UTF-8"
    else:
        declared = ""
    first = _NEWLINE_BYTES.split(data, 1)[0].strip()
    if first.startswith(b"#character-encoding"):
        name = first[len(b"#character-encoding") :].strip().decode("latin-1")
        if name.upper().replace("_", "-") in ("UTF-8", "UTF8"):
            declared = "UTF-8"
        else:
            errors.append(
                GcgError(1, f"unsupported character encoding {name!r} (GCG allows UTF-8)")
            )
            return data.decode("latin-1"), "ISO-8859-1", errors
    if declared == "UTF-8":
        try:
            return data.decode("utf-8"), "UTF-8", errors
        except UnicodeDecodeError as exc:
            line = len(_NEWLINE_BYTES.findall(data, 0, exc.start)) + 1
            errors.append(
                GcgError(
                    line,
                    f"byte {data[exc.start : exc.start + 1]!r} at offset {exc.start} is not UTF-8, "
                    "though the file declares UTF-8",
                )
            )
            return data.decode("utf-8", errors="replace"), "UTF-8", errors
    return data.decode("latin-1"), "ISO-8859-1", errors


def classify_tokens(
    head: list[str], score: int, nick: str, line: int, text: str, cumulative: int, note: str
) -> Event | GcgError | None:
    """Turn the tokens before the score into an event, or None if they fit no form."""
    if not head:
        return None
    rack = ""
    if len(head) >= 2 and _RACK.fullmatch(head[0]) and not _POSITION.fullmatch(head[0]):
        # A rack can only be followed by one or two move tokens.
        rack, rest = head[0], head[1:]
    else:
        rest = head

    move: Move | None = None
    exchanged = ""
    exchange_count: int | None = None
    end_rack = ""
    if len(rest) == 2 and _POSITION.fullmatch(rest[0]):
        try:
            move = parse_move(rest[0], rest[1])
        except NotationError as exc:
            return GcgError(line, f"{exc} in {text!r}")
        kind = EventKind.PLACEMENT
    elif len(rest) != 1:
        return None
    elif rest[0] in _TOKEN_KINDS:
        kind = _TOKEN_KINDS[rest[0]]
    elif m := _EXCHANGE.fullmatch(rest[0]):
        kind = EventKind.EXCHANGE
        what = m.group(1)
        if what.isdigit():
            exchange_count = int(what)
        else:
            exchanged = what
    elif (m := _PAREN_RACK.fullmatch(rest[0])) and m.group(1):
        kind = EventKind.END_POINTS if score >= 0 and not rack else EventKind.END_DEDUCTION
        if kind is EventKind.END_DEDUCTION and score > 0:
            return GcgError(line, f"a deduction for tiles left must be negative in {text!r}")
        end_rack = m.group(1)
    else:
        return None
    # One constructor for every form: a helper made on each call was a tenth of the time.
    return Event(
        kind,
        nick,
        rack,
        score,
        cumulative,
        move=move,
        exchanged=exchanged,
        exchange_count=exchange_count,
        end_rack=end_rack,
        annotation=note,
        line=line,
    )


def event_line(
    line: int, text: str, players: tuple[Player, ...], nicks: frozenset[str]
) -> Event | GcgError:
    """One event line: the usual play line read in one match, any other form through
    :func:`classify_tokens` (``tests/engine/test_fast_paths.py`` holds the two ways to
    each other)."""
    stripped = text.strip()
    play = _PLAY_LINE.fullmatch(stripped)
    if play is not None and (not players or play.group(1) in nicks):
        nick, rack, position, tiles, score, cumulative = play.groups()
        try:
            move = parse_move(position, tiles)
        except NotationError as exc:
            return GcgError(line, f"{exc} in {text!r}")
        return Event(
            EventKind.PLACEMENT, nick, rack, int(score), int(cumulative), move=move, line=line
        )
    m = _EVENT.fullmatch(stripped)
    if not m:
        return GcgError(line, f"event line must start '>nick:', got {text!r}")
    nick, rest = m.group(1), (m.group(2) or "")
    if players and nick not in nicks:
        known = ", ".join(repr(p.nick) for p in players)
        return GcgError(line, f"unknown player {nick!r} (players: {known})")
    tokens = rest.split()
    # Find where the score and cumulative are: the first split whose head is a
    # valid event form and which is followed by two integers.
    for i in range(1, min(len(tokens) - 1, 4)):
        if not (_INT.fullmatch(tokens[i]) and _INT.fullmatch(tokens[i + 1])):
            continue
        ev = classify_tokens(
            tokens[:i],
            int(tokens[i]),
            nick,
            line,
            text,
            int(tokens[i + 1]),
            " ".join(tokens[i + 2 :]),
        )
        if ev is not None:
            return ev
    ints = [i for i, t in enumerate(tokens) if _INT.fullmatch(t)]
    if not ints:
        return GcgError(line, f"truncated event line {text.strip()!r}: no score and total")
    if ints[-1] == len(tokens) - 1 and (len(ints) == 1 or ints[-2] != ints[-1] - 1):
        return GcgError(line, f"truncated event line {text.strip()!r}: a score but no total")
    return GcgError(line, f"cannot read event line {text.strip()!r}")


def parse_gcg(data: bytes | str) -> ParseResult:
    """Read a GCG record, collecting every problem instead of stopping at the first."""
    errors: list[GcgError] = []
    if isinstance(data, bytes):
        text, encoding, errors = _decode(data)
    else:
        text, encoding = data, "ISO-8859-1"
        if text.startswith("#character-encoding"):
            encoding = "UTF-8"
    players: list[Player] = []
    header: list[Pragma] = []
    events: list[Event] = []
    pending: list[Pragma] = []  # pragmas after the last event
    last_was_note = False
    # Both players once both are read, and their nicknames, for every move after that.
    players_t: tuple[Player, ...] = ()
    nicks: frozenset[str] = frozenset()
    for lineno, raw in enumerate(_NEWLINE.split(text), start=1):
        line = raw.strip()
        if not line:
            last_was_note = False
            continue
        if line.startswith("#"):
            parts = line[1:].split(None, 1)
            name = parts[0] if parts else ""
            value = parts[1].strip() if len(parts) > 1 else ""
            last_was_note = name == "note"
            if name == "character-encoding":
                if lineno != 1:
                    errors.append(GcgError(lineno, "#character-encoding must be on line 1"))
                continue
            if events and name in _HEADER_ONLY:
                errors.append(GcgError(lineno, f"#{name} must come before the first move"))
                continue
            if name in ("player1", "player2"):
                nick, _, full = value.replace("\t", " ").partition(" ")
                if not nick:
                    errors.append(GcgError(lineno, f"#{name} needs a nickname: {line!r}"))
                elif any(p.nick == nick for p in players):
                    errors.append(GcgError(lineno, f"both players have the nickname {nick!r}"))
                elif len(players) != int(name[-1]) - 1:
                    errors.append(GcgError(lineno, f"#{name} out of order"))
                else:
                    players.append(Player(nick, full.strip()))
                continue
            pragma = Pragma(name, value, lineno)
            (pending if events else header).append(pragma)
            continue
        if line.startswith(">"):
            last_was_note = False
            if len(players) != 2:
                if not any(e.message == _EARLY_MOVE for e in errors):  # once, not every move
                    errors.append(GcgError(lineno, _EARLY_MOVE))
                players_t = ()
            elif len(players_t) != 2:
                players_t = tuple(players)
                nicks = frozenset(p.nick for p in players)
            ev = event_line(lineno, raw, players_t, nicks)
            if isinstance(ev, GcgError):
                errors.append(ev)
                continue
            if events and pending:
                events[-1] = replace(events[-1], pragmas=events[-1].pragmas + tuple(pending))
            pending = []
            events.append(ev)
            continue
        if last_was_note:
            # A note may run on over several lines.
            target = pending if events else header
            if target:
                last = target[-1]
                target[-1] = Pragma(last.name, last.value + "\n" + line, last.line)
                continue
        errors.append(GcgError(lineno, f"unknown line {line!r}"))
    if events and pending:
        events[-1] = replace(events[-1], pragmas=events[-1].pragmas + tuple(pending))
    elif pending:
        header.extend(pending)
    if len(players) != 2 and not any("player" in e.message for e in errors):
        errors.append(GcgError(0, f"a record needs #player1 and #player2; found {len(players)}"))
    record = GameRecord(tuple(players), tuple(header), tuple(events), encoding)
    return ParseResult(record, tuple(errors))


def read_gcg(data: bytes | str) -> GameRecord:
    """Read a GCG record strictly.

    Raises:
        GcgError: The first problem found, with its line number.
    """
    result = parse_gcg(data)
    if result.errors:
        raise result.errors[0]
    return result.record
