"""The state of one game at a table, as an immutable value.

:func:`engine.rules.machine.apply` is the only way to get from one state to the
next. Every field is a plain value, so any earlier state can be kept, compared
and replayed cheaply.
"""

from __future__ import annotations

import enum
from typing import Literal

import msgspec

from engine.equipment.board import Board
from engine.events import Actor
from engine.play.placement import Placement
from engine.rules.gameclock import GameClock
from engine.rules.variant import Mode, Variant
from engine.tournament.scores import result_text

__all__ = [
    "EndReason",
    "GameState",
    "Phase",
    "Play",
    "Result",
    "Ruling",
    "SheetEntry",
    "Turn",
    "TurnKind",
    "Verdict",
    "game_over_words",
]

EndReason = Literal[
    "out",
    "scoreless",
    "cutoff",
    "ended",
    "resigned",
    "forfeit",
    "lateness",
    "bye",
    "absent",
    "declared",
]
"""Why a game ended: a player went out, the scoreless turns, the overtime cutoff,
end racks entered otherwise (``ended``), a resignation, a forfeit, a win by the
opponent's lateness, a bye, neither player came (``absent``), or the director
declared the result (``declared``)."""

TurnKind = Literal[
    "play",
    "exchange",
    "pass",
    "withdrawn",
    "lost_turn",
    "bonus",
    "scored",
    "end_racks",
    "penalty",
    "adjusted",
    "rescored",
]
"""What a line of the game's history records."""


class Phase(enum.Enum):
    """Where the table is in its procedure."""

    NOT_STARTED = "not_started"
    PLAYING = "playing"
    """The player on turn thinks and plays; the last play may still be challenged."""
    HOLD = "hold"
    """The opponent called hold on the last play."""
    CHALLENGE = "challenge"
    """A challenge awaits its verdict; the clock is neutralized."""
    SCORE_DISPUTE = "score_dispute"
    """The last play's score is disputed; the clock is neutralized."""
    OVERDRAW = "overdraw"
    """Too many tiles drawn; the clock is neutralized until they are returned."""
    BLANK_DEMANDED = "blank_demanded"
    """The opponent demands the letter of a blank; the player's clock runs."""
    OUT_PLAY = "out_play"
    """A play that empties the rack with the bag empty awaits the opponent's answer."""
    END_RACKS = "end_racks"
    """The game is over; the tiles left on the racks are awaited."""
    OVER = "over"
    """The game has a result."""


class Ruling(msgspec.Struct, frozen=True):
    """A decision the engine made, with the rule it applied."""

    t: int
    """When it took effect."""
    rule: str
    """The rule cited, e.g. ``NZASP 6.17``."""
    text: str
    """What was decided, in words."""


class Play(msgspec.Struct, frozen=True):
    """A turn's play: being composed, or pressed and open to challenge."""

    player: int
    """Who made it."""
    move: str = ""
    """GCG notation (board mode); empty in scoresheet mode."""
    placement: Placement | None = None
    """The validated placement (board mode)."""
    score: int = 0
    """The score counted for it."""
    declared: int | None = None
    """The score the player declared."""
    computed: int | None = None
    """The score the board gives (board mode)."""
    words: tuple[str, ...] = ()
    """Words formed, main word first."""
    tiles: int = 0
    """Tiles it takes from the rack."""
    pressed_at: int | None = None
    """When the clock was pressed for it."""
    accounted: int = 0
    """Replacement tiles taken from the bag's count at the press (returned on withdrawal)."""
    provisional: int = 0
    """Tiles drawn provisionally during a hold."""
    window_open: bool = False
    """The opponent may still challenge it."""
    out: bool = False
    """It empties the rack with the bag empty."""
    unnamed: int = 0
    """Blanks not yet named."""
    held_before: int = 0
    """Tiles the player held before it (to restore on withdrawal)."""
    scoreless_before: int = 0
    """The scoreless-turn count before it."""
    index: int = 0
    """Scoresheet mode: which of the player's turns it is (1-based)."""
    challenged: tuple[str, ...] = ()
    """Words named in the challenge against it."""
    recorded: bool = False
    """Its score is recorded on the score sheet (a draw after that accepts it)."""
    flash: bool = False
    """The player flash-drew for it (drew before recording, or pre-wrote the score):
    the opponent has not accepted it (NZASP 6.5.1)."""
    settled_by: Actor | None = None
    """Who settled a dispute over its score (a director's settlement stands)."""


class Turn(msgspec.Struct, frozen=True):
    """One line of the game's history, for screens and exports."""

    t: int
    """When it happened."""
    player: int
    """Whose line it is."""
    kind: TurnKind
    """``play``, ``exchange``, ``pass``, ``withdrawn``, ``lost_turn``, ``bonus``,
    ``scored`` (scoresheet), ``end_racks``, ``penalty`` or ``adjusted``."""
    text: str
    """What happened, e.g. ``8D WINDY`` or ``-3``."""
    score: int
    """Points of this line (signed)."""
    total: int
    """The player's total after it."""
    remaining_ms: int
    """The player's clock after it."""
    rack: str = ""
    """Tiles involved, when known: the racks at the end; the tiles an exchange put
    back, when named (kept out of ``text``, which the table shows)."""


class SheetEntry(msgspec.Struct, frozen=True):
    """Scoresheet mode: one scored turn as the scorekeeper entered it."""

    letter: str
    """The play's first letter, or empty."""
    score: int
    """The points the turn counts."""
    withdrawn: bool = False
    """Scored 0 because the play was withdrawn (the entry's own score did not count)."""


class Result(msgspec.Struct, frozen=True):
    """How the game ended."""

    scores: tuple[int, int]
    """Final adjusted scores."""
    winner: int | None
    """0 or 1; None for a tie."""
    reason: EndReason
    """``out``, ``scoreless``, ``cutoff``, ``ended``, ``resigned``, ``forfeit``,
    ``lateness`` or ``bye``."""
    spread: int
    """Winner's margin (0 for a tie)."""
    penalties: tuple[int, int] = (0, 0)
    """Time penalties applied."""
    rack_adjustments: tuple[int, int] = (0, 0)
    """End-of-game rack points applied."""
    rule: str = "end_rule"
    """The variant parameter that ended the game, as its ending's ruling cites it
    (``forfeit_spread`` for a resignation...; ``end_rule`` for a game played out): a
    refusal once the game is over cites it."""


class Verdict(msgspec.Struct, frozen=True):
    """A challenge's verdict, kept until the next turn so that it can be appealed once."""

    before: GameState
    """The game as it stood awaiting the verdict."""
    acceptable: bool
    """The verdict given."""
    t: int
    """When it was given."""


class GameState(msgspec.Struct, frozen=True):
    """Everything the engine knows about one game at one instant."""

    variant: Variant | None = None
    """The rules in force (None before the start)."""
    players: tuple[str, str] = ("", "")
    """Names of player 0 and player 1."""
    mode: Mode = "board"
    """``board`` or ``scoresheet``."""
    phase: Phase = Phase.NOT_STARTED
    """Where the procedure is."""
    turn: int = 0
    """The player to act."""
    clock: GameClock = GameClock(0)
    """Both clocks."""
    scores: tuple[int, int] = (0, 0)
    """Scores with every bonus and penalty so far (time penalties only at the end)."""
    board: Board | None = None
    """The board (board mode)."""
    bag: int = 0
    """Tiles in the bag (board mode)."""
    held: tuple[int, int] = (0, 0)
    """Tiles on each rack (board mode)."""
    composing: Play | None = None
    """The play laid on the board by the player on turn, not yet pressed."""
    last: Play | None = None
    """The last pressed play, while it can still be challenged or disputed."""
    scoreless: int = 0
    """Consecutive scoreless turns."""
    rulings: tuple[Ruling, ...] = ()
    """Every decision, with its rule."""
    history: tuple[Turn, ...] = ()
    """The game's lines."""
    result: Result | None = None
    """Set when the game is over."""
    t: int = 0
    """Time of the last event applied."""
    locked: tuple[bool, bool] = (False, False)
    """Players past the no-more-plays cutoff."""
    resume_phase: Phase = Phase.PLAYING
    """Phase to return to after an interruption (overdraw, dispute)."""
    claims: tuple[int, int] | None = None
    """Score dispute: the player's claim and the other's."""
    overdraw: tuple[int, int] | None = None
    """Overdraw under way: (player, tiles to return)."""
    overdraw_param: str = "overdraw"
    """The variant parameter whose rule the overdraw under way follows (cited when settled)."""
    end_reason: EndReason | None = None
    """Why the game ended, once it has."""
    presses: tuple[int, int] = (0, 0)
    """Scoresheet mode: turns ended by each player."""
    scored: tuple[int, int] = (0, 0)
    """Scoresheet mode: turns the scorekeeper has scored for each player."""
    owed: tuple[int, int] = (0, 0)
    """Replacement tiles each player still has to draw for their last play (board mode);
    the bag's count already excludes them."""
    voided: tuple[int, int] = (0, 0)
    """Scoresheet mode: the turn index whose score must be 0 (withdrawn), or 0."""
    games: int = 0
    """Games started in this log."""
    signed: tuple[bool, bool] = (False, False)
    """Which players have confirmed the result."""
    round: int | None = None
    """Tournament round, when the start says."""
    division: str | None = None
    """Division, when the start says."""
    table: str | None = None
    """Table label, when the start says."""
    neutral_by: Actor | None = None
    """Who neutralized the clock by hand (a director's stop is lifted by the director)."""
    locked_presses: tuple[int, int] = (0, 0)
    """Scoresheet mode: turns each player had ended when locked out; later ones score 0."""
    verdict: Verdict | None = None
    """The last challenge's verdict while it may still be appealed."""
    sheet: tuple[tuple[SheetEntry, ...], tuple[SheetEntry, ...]] = ((), ())
    """Scoresheet mode: each player's scored turns in order (turn ``i`` is ``[i - 1]``),
    so an entry can be taken back or corrected."""

    def opponent(self, player: int) -> int:
        """The other seat."""
        return 1 - player

    def describe_phase(self, *, short: bool = False) -> str:
        """The phase in words: the one mapping every screen, refusal and report uses.
        The long form says a game over as a bare ``game over`` (``game over: enter the
        tiles left on the racks`` before the racks are in); a game over worded with its
        result is :func:`game_over_words` (the scorekeeper's phase line, and
        ``engine.tournament.live.phase_words`` from a table's report).

        ``short``: the clock device's narrow line (``clock.table.display``), beside
        the long form: the result's headline, ``HOLD``, ``CHALLENGE``, or ``""`` where
        that line says what the clock does instead (neutral, overtime, a cutoff).
        """
        name = self.players
        ph = self.phase
        res = self.result
        if short and ph is Phase.OVER and res is not None:
            return result_text(name, res.scores, res.winner, res.reason, res.spread, short=True)
        if ph is Phase.HOLD:
            if short:
                return "HOLD"
            if self.last is not None:
                return f"hold called by {name[1 - self.last.player]}"
        if ph is Phase.CHALLENGE:
            return "CHALLENGE" if short else "challenge: awaiting verdict"
        if short:
            return ""
        if ph is Phase.SCORE_DISPUTE:
            return "score dispute"
        if ph is Phase.OVERDRAW and self.overdraw is not None:
            return f"overdraw: {name[self.overdraw[0]]} returns {self.overdraw[1]}"
        if ph is Phase.BLANK_DEMANDED and self.last is not None:
            return f"{name[self.last.player]} must name the blank"
        if ph is Phase.OUT_PLAY and self.last is not None:
            return f"{name[self.last.player]} went out: {name[1 - self.last.player]} to answer"
        if ph is Phase.END_RACKS:
            return "game over: enter the tiles left on the racks"
        if ph is Phase.OVER:
            return "game over"
        if ph is Phase.PLAYING:
            text = f"{name[self.turn]} to play"
            if self.locked[self.turn]:
                # TOR-8/9: past the cutoff the player's turns are passes, and their clock
                # (and its penalty, TOR-7) runs until they pass.
                text += ": pass (no more plays after the cutoff)"
            if self.clock.neutral:
                text += f" (neutralized: {self.clock.neutral})"
            return text
        return str(ph.value)


def game_over_words(
    names: tuple[str, str],
    scores: tuple[int, int],
    winner: int | None,
    reason: str,
    spread: int,
    *,
    spread_recorded: bool = True,
) -> str:
    """A game over with its result, the one wording (``result_text``): ``game over:
    Ann Able wins: Ann Ames resigned (scores Ann Able 0, Ann Ames 32; spread 50 by
    rule)``, never the bare scores, which name the resigner's lead as if it won.
    The scorekeeper's phase line says it from a state (the spread said: its result
    box says whether it counts), ``engine.tournament.live.phase_words`` from a
    table's report (the console's overview, the venue page)."""
    words = result_text(names, scores, winner, reason, spread, spread_recorded=spread_recorded)
    return f"game over: {words}"
