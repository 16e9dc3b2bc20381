"""What players type at the table terminal, turned into events.

Pure code: ``interpret(text, state)`` returns the event to submit (or a
preview of a play with its computed score), or a :class:`CommandError` whose
message says what is wrong. The screen calls it on every keystroke for live
validation and on Enter to act.

The command line (case does not matter; ``?`` is a blank not yet named):

==========================  =================================================
``8D WINDY``                lay a play (the score shown is computed)
``8D WINDY 30``             lay a play, declaring 30
``blank e`` / ``blank er``  name the blank(s) of the play on the board
``draw 5``                  replacement tiles drawn
``written``                 the score is written on the score sheet (before drawing)
``overdraw 2 [left|right]`` too many tiles found on a rack (default: the last player)
``return 2``                the overdrawn tiles are back in the bag
``ok`` / ``accept``         accept the opponent's play
``hold`` / ``release``      hold the opponent's play / release the hold
``challenge [WORD...]``     challenge (all words when none are named)
``valid`` / ``invalid``     the adjudicator's verdict on the whole play
``exchange 3`` / ``x 3``    exchange three tiles (``x AEI``: naming them, for the record)
``pass``                    pass
``neutral REASON``          neutralize the clock
``resume``                  restart the clock
``restart``                 out-play: restart the opponent's clock (after 5 s)
``dispute [N]``             dispute the last play's score / settle it at N
``racks AEI -``             tiles left on each rack at the end (``-`` = none)
``demand``                  demand the letter of an unnamed blank
``resign [left|right]``      resign (default: the player on turn)
``help`` / ``?``            the help (also F12): every command with an example
==========================  =================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.equipment.tiles import load_tile_set
from engine.errors import EngineError
from engine.events import (
    Accepted,
    Adjudicated,
    BlankDemanded,
    BlankDesignated,
    Challenged,
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
    TilesDrawn,
    TilesPlaced,
)
from engine.play.notation import parse_move
from engine.play.placement import Placement, place
from engine.rules.state import GameState, Phase

__all__ = ["HELP", "CommandError", "HelpWanted", "Preview", "interpret"]


class CommandError(ValueError):
    """The text is not a command the table can take now; the message says why."""


@dataclass(frozen=True, slots=True)
class Preview:
    """A play typed but not yet laid: what it would score."""

    event: TilesPlaced
    """The event that lays it."""
    placement: Placement
    """Its words and computed score."""


def _answerer(state: GameState) -> int:
    """Who answers the last play: the player not making it."""
    last = state.last
    return 1 - last.player if last is not None else state.turn


def _play(words: list[str], state: GameState) -> Preview:
    if state.board is None or state.variant is None:
        raise CommandError(
            "scoresheet mode has no board: type the play's first letter and score, e.g. Q24"
        )
    declared: int | None = None
    if len(words) == 3:
        if not words[2].lstrip("-").isdigit():
            raise CommandError(
                f"the declared score must be a number, e.g. '8D WINDY 30', not {words[2]!r}"
            )
        declared = int(words[2])
    # Letters are typed in any case; '?' is a blank still to be named.
    tiles = words[1].upper()
    try:
        move = parse_move(words[0], tiles, unnamed_blanks=True)
        pl = place(state.board, move, load_tile_set(state.variant.tile_set), unnamed_blanks=True)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    score = declared if declared is not None else pl.score
    return Preview(TilesPlaced(player=state.turn, move=move.gcg(), score=score), pl)


_NUMBERS = ("one", "two", "three", "four", "five", "six", "seven")
"""Spelled-out counts: 'x three' is a count typed in words, not the tiles T H R E E."""


def _count(words: list[str], what: str) -> int:
    if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 1:
        raise CommandError(f"{what} needs a number, e.g. '{words[0]} 3'")
    return int(words[1])


@dataclass(frozen=True, slots=True)
class HelpWanted:
    """``help`` or ``?``: show the help."""


HELP = HelpWanted()


def interpret(text: str, state: GameState, *, by: str = "players") -> Event | Preview | HelpWanted:
    """The event (or play preview) for ``text`` in ``state``. Who makes it is stamped by
    the table service from where it came (the table's keyboard, the scorekeeper).

    Raises:
        CommandError: Empty, unknown, or malformed, with the reason.
    """
    words = text.split()
    if not words:
        raise CommandError("type a play (e.g. 8D WINDY) or a command (pass, hold, challenge...)")
    head = words[0].lower()
    if head in ("help", "?"):
        return HELP
    if state.phase is Phase.NOT_STARTED:
        raise CommandError("the game has not started: a clock key starts it")
    turn = state.turn
    if head in ("ok", "accept"):
        return Accepted(player=_answerer(state))
    if head == "hold":
        return HoldCalled(player=_answerer(state))
    if head == "release":
        return HoldReleased(player=_answerer(state))
    if head in ("challenge", "ch"):
        return Challenged(player=_answerer(state), words=tuple(w.upper() for w in words[1:]))
    if head in ("valid", "acceptable"):
        return Adjudicated(acceptable=True, by="word judge" if by == "judge" else "adjudicator")
    if head in ("invalid", "unacceptable"):
        return Adjudicated(acceptable=False, by="word judge" if by == "judge" else "adjudicator")
    if head in ("exchange", "x"):
        # x 3, or x AEI naming the tiles put back (the game record then shows them).
        if len(words) == 2 and not words[1].isdigit() and words[1].lower() not in _NUMBERS:
            named = words[1].upper()
            if not all(ch == "?" or ch.isalpha() for ch in named):
                raise CommandError(f"an exchange names tiles (e.g. 'x AEI', ? a blank): {named!r}")
            return Exchanged(player=turn, count=len(named), tiles=named)
        return Exchanged(player=turn, count=_count(words, "an exchange"))
    if head == "pass":
        return Passed(player=turn)
    if head == "draw":
        last = state.last
        comp = state.composing
        owing = [p for p in (0, 1) if state.owed[p] > 0]
        if last is not None and state.owed[last.player] > 0:
            drawer = last.player  # the replacement tiles of the last play
        elif owing:
            drawer = owing[0]  # a late draw, after the opponent moved on
        elif comp is not None:
            drawer = comp.player  # drawing before the press: a flash draw
        else:
            drawer = last.player if last is not None else turn
        return TilesDrawn(player=drawer, count=_count(words, "a draw"))
    if head in ("written", "recorded"):
        last = state.last
        comp = state.composing
        if comp is not None and comp.player == turn:
            writer = turn  # written before the press: a pre-written score
        elif last is not None and last.player != turn:
            writer = last.player
        else:
            writer = turn
        return ScoreRecorded(player=writer)
    if head == "overdraw":
        if len(words) not in (2, 3) or not words[1].isdigit() or int(words[1]) < 1:
            raise CommandError(
                "say how many tiles too many, e.g. 'overdraw 1' (or 'overdraw 1 left')"
            )
        if len(words) == 3:
            if words[2].lower() not in ("left", "right"):
                raise CommandError("whose rack: 'left' or 'right', e.g. 'overdraw 1 right'")
            seat = 0 if words[2].lower() == "left" else 1
        else:
            seat = state.last.player if state.last is not None else 1 - turn
        return Overdrawn(player=seat, extra=int(words[1]), on_rack=True)
    if head == "return":
        if state.overdraw is None:
            raise CommandError("no overdraw to settle: 'return N' answers an overdraw")
        n = _count(words, "returning tiles")
        return OverdrawResolved(player=state.overdraw[0], returned=n)
    if head == "blank":
        if len(words) != 2 or not words[1].isalpha():
            raise CommandError("name the blank(s) with letters, e.g. 'blank e'")
        comp = state.composing
        player = (
            comp.player
            if comp is not None and comp.unnamed
            else (state.last.player if state.last is not None else turn)
        )
        return BlankDesignated(player=player, letters=words[1].lower())
    if head == "demand":
        return BlankDemanded(player=_answerer(state))
    if head in ("neutral", "neutralize"):
        reason = " ".join(words[1:]).strip()
        if not reason:
            raise CommandError("say why, e.g. 'neutral score dispute'")
        return Neutralized(by=by, reason=reason)
    if head == "resume":
        return Resumed(by=by)
    if head == "restart":
        last = state.last
        return ClockRestarted(player=last.player if last is not None else turn)
    if head == "dispute":
        if state.phase is Phase.SCORE_DISPUTE:
            if len(words) != 2 or not words[1].lstrip("-").isdigit():
                raise CommandError("settle the dispute with the agreed score, e.g. 'dispute 32'")
            return ScoreResolved(score=int(words[1]), by=by)
        return ScoreDisputed(by=_answerer(state))
    if head == "racks":
        if len(words) != 3:
            raise CommandError("give both racks, '-' for an empty one, e.g. 'racks AEI -'")
        racks = tuple("" if w == "-" else w.upper() for w in words[1:])
        return EndRacks(racks=(racks[0], racks[1]))
    if head == "resign":
        # Either player may resign at any moment, on turn or not: the side is said.
        if len(words) == 1:
            return Resigned(player=turn)
        side = words[1].lower() if len(words) == 2 else ""
        if side not in ("left", "right"):
            raise CommandError(
                f"say who resigns: 'resign left' or 'resign right', not {text.strip()!r}"
            )
        return Resigned(player=0 if side == "left" else 1)
    if len(words) in (2, 3) and words[0][:1].isalnum():
        return _play(words, state)
    raise CommandError(
        f"not a play or command: {text!r}. A play is a square and tiles (e.g. 8D WINDY); "
        "commands are e.g. pass, hold, challenge, draw 5 (F12 or ? lists them all)"
    )


def next_command(state: GameState) -> str | None:
    """The command that moves a waiting phase on, as the status line names it (``racks``
    and ``blank`` are named without their tiles); None while the game simply goes on
    (or when only the director can move it on)."""
    ph = state.phase
    if ph is Phase.CHALLENGE:
        return "valid"
    if ph is Phase.SCORE_DISPUTE and state.claims is not None:
        return f"dispute {state.claims[1]}"
    if ph is Phase.OVERDRAW and state.overdraw is not None:
        return f"return {state.overdraw[1]}"
    if ph is Phase.BLANK_DEMANDED:
        return "blank"
    if ph is Phase.HOLD:
        return "release"
    if ph is Phase.OUT_PLAY:
        return "ok"
    if ph is Phase.END_RACKS:
        return "racks"
    if ph in (Phase.PLAYING,) and state.clock.neutral:
        return None if state.neutral_by == "director" else "resume"
    return None


def _dispute_step(state: GameState, claims: tuple[int, int]) -> str:
    """Who claims which score, then what to type: on a score sheet only the player who
    made the play claims a score (the opponent gives no number), so "claims 20 and 20"
    would put words in the opponent's mouth."""
    a, b = claims
    last = state.last
    if last is None:
        return f"type dispute N with the agreed score, e.g. dispute {b}"
    mover, other = state.players[last.player], state.players[1 - last.player]
    if a == b:
        said = f"{mover} claims {a}"
    elif last.computed == b:
        said = f"{mover} claims {a}, the board gives {b}"
    else:
        said = f"{mover} claims {a}, {other} claims {b}"
    return f"{said}; type dispute N with the agreed score, e.g. dispute {b}"


def next_step(state: GameState) -> str:
    """What the table does next, in words, with the command to type (the status line)."""
    ph = state.phase
    if ph is Phase.CHALLENGE:
        return "type valid or invalid for the verdict on the whole play"
    if ph is Phase.SCORE_DISPUTE and state.claims is not None:
        return _dispute_step(state, state.claims)
    if ph is Phase.OVERDRAW and state.overdraw is not None:
        return f"type return {state.overdraw[1]} once the tiles are back in the bag"
    if ph is Phase.BLANK_DEMANDED:
        return "type blank X to name the blank, e.g. blank e"
    if ph is Phase.HOLD:
        return "type ok or release to accept, or challenge"
    if ph is Phase.OUT_PLAY:
        return "type ok to accept the out-play, hold, or challenge"
    if ph is Phase.END_RACKS:
        return "type racks AEI - (the tiles left on each rack, - for none)"
    if ph is Phase.OVER:
        unsigned = [state.players[p] for p in (0, 1) if not state.signed[p]]
        if not unsigned:
            return "both have signed: ctrl+N the next game"
        if len(unsigned) == 1:
            return f"{unsigned[0]} signs with their clock key"
        return "each player signs with their clock key"
    if ph is Phase.PLAYING and state.clock.neutral:
        if state.neutral_by == "director":
            return "the director stopped the clock: only the director restarts it"
        return "type resume to restart the clock"
    return ""
