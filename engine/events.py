"""Event records: the public, logged form of everything that happens at a table.

Each event is a frozen msgspec Struct tagged by ``type``; the JSON Lines form
is documented in docs/events.md and is a public contract. ``t`` is integer
milliseconds on the table's monotonic timeline (only differences matter); when
a line omits it, replay takes the previous event's time. Players are 0 and 1.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "Accepted",
    "Actor",
    "Adjudicated",
    "Adjusted",
    "BlankDemanded",
    "BlankDesignated",
    "Bye",
    "Challenged",
    "ClockPressed",
    "ClockRestarted",
    "EndRacks",
    "Event",
    "Exchanged",
    "Forfeited",
    "GameStarted",
    "HoldCalled",
    "HoldReleased",
    "Neutralized",
    "OverdrawResolved",
    "Overdrawn",
    "Passed",
    "Resigned",
    "ResultDeclared",
    "Resumed",
    "ScoreDisputed",
    "ScoreRecorded",
    "ScoreResolved",
    "ServiceRestarted",
    "Signed",
    "TilesDrawn",
    "TilesPlaced",
    "TimeChecked",
    "TurnCorrected",
    "TurnScored",
    "VerdictAppealed",
    "decode_event",
    "encode_event",
]


Actor = Literal["player0", "player1", "players", "scorekeeper", "director", "device", "service"]
"""Who made an event: one player (``player0``, ``player1``), both players together at
the table's shared terminal (``players``: the end racks, a verdict from the word
judge), the non-playing scorekeeper, the director (or a referee), the clock device,
or the table service itself (a restart, a deadline)."""


class _Base(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    t: int | None = None
    """Milliseconds on the table's monotonic timeline; None = same as the previous event."""
    actor: Actor | None = None
    """Who made it. The engine refuses an event from someone who may not make it; None
    (logs written before actors were recorded) is not checked."""


class GameStarted(_Base, tag="game_started", frozen=True, kw_only=True):
    """The game starts and the first player's clock runs."""

    variant: str
    players: tuple[str, str]
    first: int = 0
    mode: Literal["board", "scoresheet"] | None = None
    round: int | None = None
    division: str | None = None
    table: str | None = None
    event: str | None = None
    """The event's name, from the table's assignment (None: a game started by hand)."""
    event_id: str | None = None
    """The event's identity (the digest of its log's first record), from the
    assignment: its result is taken by that event only."""


class TilesPlaced(_Base, tag="tiles_placed", frozen=True, kw_only=True):
    """Tiles laid on the board with a declared score; adjustable until the press."""

    player: int
    move: str
    score: int | None = None


class ClockPressed(_Base, tag="clock_pressed", frozen=True, kw_only=True):
    """The player ends the turn by pressing the clock.

    A device that keeps its own time (device-authoritative) sends both times it
    showed at the press; they become the game's times, and a gap from the host's
    own reckoning beyond ``drift_threshold_ms`` is a ruling for the director.
    ``device_ms`` is the device's own free-running counter at the press (32 bits,
    wrapping), recorded as sent, for forensics (docs/clock-protocol.md).
    ``arrived_ms`` is set when the press was held up on the link and stamped at
    the device's own time (``t``) instead of its arrival: a ruling says so.
    ``device_late_ms`` is set when a limit stamped it later than that: how long
    before its arrival the device's time put it. ``device_fault`` (``ahead`` or
    ``back``) and ``device_fault_ms`` are set when the device's time could not be
    true and the press was stamped on arrival: a ruling names the clock's fault.
    """

    player: int
    device_remaining_ms: tuple[int, int] | None = None
    drift_threshold_ms: int = 250
    device_ms: int | None = None
    arrived_ms: int | None = None
    device_late_ms: int | None = None
    device_fault: Literal["ahead", "back"] | None = None
    device_fault_ms: int | None = None


class TilesDrawn(_Base, tag="tiles_drawn", frozen=True, kw_only=True):
    """Replacement tiles drawn from the bag."""

    player: int
    count: int


class Accepted(_Base, tag="accepted", frozen=True, kw_only=True):
    """The opponent accepts the last play, waiving the challenge."""

    player: int


class HoldCalled(_Base, tag="hold_called", frozen=True, kw_only=True):
    """The opponent calls hold on the last play."""

    player: int


class HoldReleased(_Base, tag="hold_released", frozen=True, kw_only=True):
    """The hold is released: the play is accepted."""

    player: int


class Challenged(_Base, tag="challenged", frozen=True, kw_only=True):
    """One challenge covering every word challenged in the last play."""

    player: int
    words: tuple[str, ...] = ()


class Adjudicated(_Base, tag="adjudicated", frozen=True, kw_only=True):
    """The verdict on the whole play: acceptable or not (never per word)."""

    acceptable: bool
    by: str = "adjudicator"


class Exchanged(_Base, tag="exchanged", frozen=True, kw_only=True):
    """Tiles exchanged in lieu of a turn; starts the opponent's clock.

    ``tiles``: the tiles put back, when the player names them (``?`` a blank); the
    game record can then write the exchange as strict readers want it (docs/gcg.md).
    ``rack``: the whole rack shown, for a ban on repeated letters."""

    player: int
    count: int
    rack: str | None = None
    tiles: str | None = None


class Passed(_Base, tag="passed", frozen=True, kw_only=True):
    """A pass; starts the opponent's clock."""

    player: int


class Overdrawn(_Base, tag="overdrawn", frozen=True, kw_only=True):
    """A player is found (or declares) to hold ``extra`` tiles too many.

    ``on_rack``: found on the rack (more tiles than a rack holds), where the opponent
    looks at the rack and chooses the tiles to return (NZASP 6.1.3.4); otherwise found
    while drawing, where the variant's overdraw procedure applies."""

    player: int
    extra: int
    on_rack: bool = False


class OverdrawResolved(_Base, tag="overdraw_resolved", frozen=True, kw_only=True):
    """The overdraw procedure is done: ``returned`` tiles went back to the bag."""

    player: int
    returned: int


class BlankDemanded(_Base, tag="blank_demanded", frozen=True, kw_only=True):
    """The opponent restarts the player's clock and demands the blank's letter."""

    player: int


class BlankDesignated(_Base, tag="blank_designated", frozen=True, kw_only=True):
    """The player names the blank(s) of the last play, in order."""

    player: int
    letters: str


class ScoreDisputed(_Base, tag="score_disputed", frozen=True, kw_only=True):
    """A dispute over the last play's score; both claims are recorded."""

    by: int
    claims: tuple[int, int] | None = None


class ScoreResolved(_Base, tag="score_resolved", frozen=True, kw_only=True):
    """The dispute is settled at ``score``."""

    score: int
    by: str = "players"


class ScoreRecorded(_Base, tag="score_recorded", frozen=True, kw_only=True):
    """The score sheet is written for the last play (closes the window in some variants)."""

    player: int


class Neutralized(_Base, tag="neutralized", frozen=True, kw_only=True):
    """The clock is stopped, with who and why."""

    by: str
    reason: str


class Resumed(_Base, tag="resumed", frozen=True, kw_only=True):
    """The clock runs again. ``director`` marks a director's ruling (``by`` names them)."""

    by: str
    director: bool = False


class ClockRestarted(_Base, tag="clock_restarted", frozen=True, kw_only=True):
    """After an unanswered out-play, the player restarts the opponent's clock."""

    player: int


class TurnScored(_Base, tag="turn_scored", frozen=True, kw_only=True):
    """Scoresheet mode: a turn's score and first letter, entered by the scorekeeper."""

    player: int
    score: int
    first_letter: str = ""
    turn: int = 0
    """The player's turn (1-based) the entry is meant for: refused unless it is the
    player's next unscored turn, so an entry never lands on another turn; 0 (logs
    written before entries named their turn) scores the next unscored turn."""


class TurnCorrected(_Base, tag="turn_corrected", frozen=True, kw_only=True):
    """Scoresheet mode: the scorekeeper corrects a turn already scored (``score`` and
    ``first_letter`` replace the entry), or takes back the player's last entry
    (``undo``: the turn is unscored again). Refused once a player has signed."""

    player: int
    turn: int
    score: int = 0
    first_letter: str = ""
    undo: bool = False


class EndRacks(_Base, tag="end_racks", frozen=True, kw_only=True):
    """The tiles left on each rack when the game ends."""

    racks: tuple[str, str]


class Resigned(_Base, tag="resigned", frozen=True, kw_only=True):
    """A player resigns; the opponent wins."""

    player: int


class Forfeited(_Base, tag="forfeited", frozen=True, kw_only=True):
    """A player forfeits (absent, late, or declared by the director). ``both``: neither
    player came (both score 0, nobody wins)."""

    player: int
    reason: str = "forfeit"
    by: str = "director"
    lateness: bool = False
    both: bool = False


class Bye(_Base, tag="bye", frozen=True, kw_only=True):
    """The player has no opponent this round."""

    player: int


class Signed(_Base, tag="signed", frozen=True, kw_only=True):
    """A player confirms the final result: the digital signature on the score sheet."""

    player: int


class ResultDeclared(_Base, tag="result_declared", frozen=True, kw_only=True):
    """The director ends the game with a stated result (a dispute nothing else settles,
    a game that cannot go on, a recount halted): the scores as they stand, or as stated."""

    by: str
    scores: tuple[int, int] | None = None
    reason: str = ""


class VerdictAppealed(_Base, tag="verdict_appealed", frozen=True, kw_only=True):
    """The referee's decision on an appeal against the last challenge's verdict (once only):
    ``acceptable`` is the play's verdict now; a reversal puts the tiles back or takes
    them off and scores again."""

    acceptable: bool
    by: str = "referee"


class Adjusted(_Base, tag="adjusted", frozen=True, kw_only=True):
    """A director's ruling: score and/or time changed, with a reason."""

    by: str
    player: int
    score_delta: int = 0
    time_delta_ms: int = 0
    reason: str = ""


class ServiceRestarted(_Base, tag="service_restarted", frozen=True, kw_only=True):
    """The table service came back after being down ``gap_ms``; ``t`` is when it was
    last known alive. A running clock is neutralized so the gap is charged to nobody."""

    gap_ms: int
    reason: str = "service restarted"


class TimeChecked(_Base, tag="time_checked", frozen=True, kw_only=True):
    """A wake-up at an engine deadline (cutoff, restart right); changes nothing by itself."""


Event = (
    GameStarted
    | TilesPlaced
    | ClockPressed
    | TilesDrawn
    | Accepted
    | HoldCalled
    | HoldReleased
    | Challenged
    | Adjudicated
    | Exchanged
    | Passed
    | Overdrawn
    | OverdrawResolved
    | BlankDemanded
    | BlankDesignated
    | ScoreDisputed
    | ScoreResolved
    | ScoreRecorded
    | Neutralized
    | Resumed
    | ClockRestarted
    | TurnScored
    | TurnCorrected
    | EndRacks
    | Resigned
    | Forfeited
    | Bye
    | Adjusted
    | ResultDeclared
    | VerdictAppealed
    | Signed
    | ServiceRestarted
    | TimeChecked
)

_decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Event)
_encoder = msgspec.json.Encoder()


def decode_event(data: bytes | str) -> Event:
    """Decode one JSON event.

    Raises:
        msgspec.ValidationError, msgspec.DecodeError: with a message naming the field.
    """
    return _decoder.decode(data)


def encode_event(event: Event) -> bytes:
    """Encode one event as compact JSON (fields in declaration order, defaults omitted)."""
    return _encoder.encode(event)
