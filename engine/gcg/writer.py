"""Writing GCG records."""

from __future__ import annotations

from engine.errors import GcgError
from engine.gcg.record import Event, EventKind, GameRecord, Pragma

__all__ = ["format_event", "write_gcg"]


def _pragma_lines(p: Pragma) -> list[str]:
    # Refuse what would not read back as the same record.
    if not p.name or any(ch.isspace() for ch in p.name):
        raise GcgError(0, f"cannot write pragma name {p.name!r}")
    first, *more = p.value.split("\n")
    if more and p.name != "note":
        raise GcgError(0, f"only a note may span lines; #{p.name} {p.value!r}")
    for cont in more:
        if not cont.strip() or cont.lstrip()[0] in "#>":
            raise GcgError(0, f"note continuation {cont!r} would not read back as part of the note")
    return [f"#{p.name} {first}".rstrip(), *more]


def format_event(ev: Event) -> str:
    """One event line, e.g. ``>doug: DINNVWY 8D WINDY +32 32``."""
    kind = ev.kind
    if kind is EventKind.PLACEMENT:
        assert ev.move is not None
        what = ev.move.gcg()
    elif kind is EventKind.WITHDRAWN:
        what = "--"
    elif kind is EventKind.PASS:
        what = "-"
    elif kind is EventKind.EXCHANGE:
        what = f"-{ev.exchanged}" if ev.exchanged else f"-{ev.exchange_count}"
    elif kind is EventKind.CHALLENGE_BONUS:
        what = "(challenge)"
    elif kind is EventKind.TIME_PENALTY:
        what = "(time)"
    else:  # END_POINTS, END_DEDUCTION
        what = f"({ev.end_rack})"
    text = f">{ev.nick}: {ev.rack} {what} {ev.score:+d} {ev.cumulative}"
    if ev.annotation:
        text += " " + ev.annotation
    return text


def write_gcg(record: GameRecord) -> str:
    """The record as GCG text, lines ending in ``\\n``.

    The result declares ``#character-encoding UTF-8`` on line 1 when the record
    is UTF-8; encode it with ``record.encoding`` when writing bytes.

    Raises:
        GcgError: A value that would not read back unchanged (a nickname with a
            space or ``:``, a multi-line pragma other than a note, a note line
            starting with ``#`` or ``>``).
    """
    lines: list[str] = []
    for pl in record.players:
        if not pl.nick or ":" in pl.nick or any(ch.isspace() for ch in pl.nick):
            raise GcgError(0, f"cannot write nickname {pl.nick!r}: no spaces or ':' allowed")
    if record.encoding == "UTF-8":
        lines.append("#character-encoding UTF-8")
    for i, pl in enumerate(record.players, start=1):
        lines.append(f"#player{i} {pl.nick} {pl.name}".rstrip())
    for p in record.header:
        lines.extend(_pragma_lines(p))
    for ev in record.events:
        lines.append(format_event(ev))
        for p in ev.pragmas:
            lines.extend(_pragma_lines(p))
    return "\n".join(lines) + "\n"
