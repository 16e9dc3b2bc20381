"""A command in words, as the table's feedback line says it: ``ok: Ann lays 8D WINDY
(32)``, ``Enter: Ben holds the play``, never the log's event names (``TilesPlaced``).
Pure: no Textual."""

from __future__ import annotations

from engine.events import (
    Accepted,
    Adjudicated,
    BlankDemanded,
    BlankDesignated,
    Challenged,
    ClockPressed,
    ClockRestarted,
    EndRacks,
    Event,
    Exchanged,
    HoldCalled,
    HoldReleased,
    Neutralized,
    Overdrawn,
    OverdrawResolved,
    Passed,
    Resigned,
    Resumed,
    ScoreDisputed,
    ScoreRecorded,
    ScoreResolved,
    Signed,
    TilesDrawn,
    TilesPlaced,
    TurnCorrected,
    TurnScored,
)

__all__ = ["event_words"]


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _rack(rack: str) -> str:
    return rack or "-"


def event_words(event: Event, players: tuple[str, str]) -> str:
    """What ``event`` does, in words, its player named from ``players`` (left, right)."""
    player = getattr(event, "player", None)
    who = players[player] if isinstance(player, int) and player in (0, 1) else ""
    match event:
        case TilesPlaced():
            score = "" if event.score is None else f" ({event.score})"
            return f"{who} lays {event.move}{score}"
        case Passed():
            return f"{who} passes"
        case Exchanged():
            return f"{who} exchanges {event.tiles or _tiles(event.count)}"
        case TilesDrawn():
            return f"{who} draws {_tiles(event.count)}"
        case Accepted():
            return f"{who} accepts the play"
        case HoldCalled():
            return f"{who} holds the play"
        case HoldReleased():
            return f"{who} releases the hold"
        case Challenged():
            return f"{who} challenges " + (" ".join(event.words) or "the play")
        case Adjudicated():
            return f"the play is {'valid' if event.acceptable else 'invalid'} ({event.by})"
        case ScoreRecorded():
            return f"{who}'s score is written on the sheet"
        case ScoreDisputed():
            return f"{players[event.by]} disputes the score"
        case ScoreResolved():
            return f"the score is settled at {event.score}"
        case Overdrawn():
            return f"{who} has {_tiles(event.extra)} too many"
        case OverdrawResolved():
            return f"{_tiles(event.returned)} back in the bag"
        case BlankDemanded():
            return f"{who} asks the blank's letter"
        case BlankDesignated():
            return f"{who} names the blank {event.letters.upper()}"
        case Neutralized():
            return f"the clock stops: {event.reason}"
        case Resumed():
            return "the clock runs again"
        case ClockRestarted():
            return f"{players[1 - event.player]}'s clock runs again"
        case EndRacks():
            return f"the racks left: {_rack(event.racks[0])} and {_rack(event.racks[1])}"
        case Resigned():
            return f"{who} resigns"
        case Signed():
            return f"{who} signs the result"
        case ClockPressed():
            return f"{who} presses the clock"
        case TurnScored():
            turn = f" turn {event.turn}" if event.turn else ""
            return f"{who}{turn}: {event.first_letter.upper() or '-'} {event.score}"
        case TurnCorrected():
            if event.undo:
                return f"{who} turn {event.turn}: entry taken back"
            letter = event.first_letter.upper() or "-"
            return f"{who} turn {event.turn} corrected: {letter} {event.score}"
    # any other event a table may answer: its kind, spaced ("ResultDeclared": result declared)
    kind = type(event).__name__
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).strip()
    return f"{who} {spaced}".strip()
