"""Helpers shared by the rules state machine's procedures: citations, rulings,
history lines, time penalties and the checks every command starts with.
"""

from __future__ import annotations

from typing import Any

from engine.equipment.tiles import TileSet, load_tile_set
from engine.errors import Refusal
from engine.rules.gameclock import GameClock
from engine.rules.state import GameState, Phase, Play, Ruling, Turn, TurnKind
from engine.rules.variant import Variant

__all__ = [
    "LIVE",
    "LOG_RULE",
    "add_pair",
    "line",
    "live_turn",
    "need_turn",
    "penalty",
    "penalty_counted",
    "play_name",
    "refuse_player",
    "rule",
    "ruled",
    "set_pair",
    "tiles_of",
    "variant_of",
]


LIVE = (Phase.PLAYING, Phase.HOLD, Phase.BLANK_DEMANDED, Phase.OUT_PLAY)

_TURN_PHASES = (Phase.PLAYING, Phase.HOLD)
"""Where the player on turn may act (made once: an enum member read from its class on
every command costs three module globals in CPython 3.11)."""


LOG_RULE = "game log: the table's timeline only moves forward"


def variant_of(state: GameState) -> Variant:
    assert state.variant is not None  # every caller runs after game_started
    return state.variant


def tiles_of(state: GameState) -> TileSet:
    return load_tile_set(variant_of(state).tile_set)


def play_name(state: GameState, play: Play) -> str:
    """A play as a ruling names it: its notation on a board; on a score sheet, whose
    turn it is and what is known of the word (the words challenged, else its first
    letter), since "challenges ?" or "E is acceptable" names neither."""
    if state.mode == "board":
        return play.move or "the play"
    words = [w for w in play.challenged if w != "?"]
    known = ", ".join(words) if words else (f"{play.move}..." if play.move else "")
    name = f"{state.players[play.player]}'s turn {play.index}"
    return f"{name} ({known})" if known else name


def rule(state: GameState, param: str) -> str:
    return variant_of(state).source(param)


def ruled(state: GameState, t: int, param: str, text: str) -> tuple[Ruling, ...]:
    return (*state.rulings, Ruling(t, rule(state, param), text))


def set_pair(pair: tuple[Any, Any], index: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def add_pair(pair: tuple[int, int], index: int, delta: int) -> tuple[int, int]:
    return (pair[0] + delta, pair[1]) if index == 0 else (pair[0], pair[1] + delta)


def line(
    state: GameState,
    t: int,
    player: int,
    kind: TurnKind,
    text: str,
    score: int,
    scores: tuple[int, int],
    clock: GameClock,
    rack: str = "",
) -> tuple[Turn, ...]:
    return (
        *state.history,
        Turn(t, player, kind, text, score, scores[player], clock.remaining(player, t), rack),
    )


def penalty(state: GameState, seat: int, now_ms: int) -> int:
    """The time penalty ``seat`` would get if the game ended at ``now_ms``."""
    if state.variant is None:
        return 0
    v = state.variant
    # Counted as the clock shows it (whole seconds by default): -1:00.5 reads -1:00
    # and costs one minute ("10 points per minute or part": -0:01 10, -1:00 10,
    # -1:01 20). The resolution is a variant parameter, as no rule text settles it.
    step = v.penalty_resolution_ms
    over = state.clock.overtime(seat, now_ms) // step * step
    if over <= 0:
        return 0
    units = -(-over // v.penalty_unit_ms) if v.penalty_part_counts else over // v.penalty_unit_ms
    return units * v.penalty_points


def penalty_counted(state: GameState, seat: int, now_ms: int) -> int:
    """The time penalty that counts for ``seat``: once the game has a result, the one
    its result applied (none after a resignation, forfeit or bye, whose result is the
    forfeit's spread, not the scores); until then :func:`penalty` now. What every
    clock box, report and summary shows, so that they agree."""
    res = state.result
    return res.penalties[seat] if res is not None else penalty(state, seat, now_ms)


def refuse_player(state: GameState, player: int) -> None:
    if player not in (0, 1):
        raise Refusal(f"unknown player {player!r}; players are 0 and 1", rule(state, "turn_rule"))


def need_turn(state: GameState, player: int, what: str) -> None:
    refuse_player(state, player)
    if state.phase not in _TURN_PHASES:
        raise Refusal(f"cannot {what} now: {state.describe_phase()}", rule(state, "turn_rule"))
    if player != state.turn:
        raise Refusal(
            f"cannot {what}: it is {state.players[state.turn]}'s turn, "
            f"not {state.players[player]}'s",
            rule(state, "turn_rule"),
        )


def live_turn(state: GameState, player: int, what: str) -> None:
    need_turn(state, player, what)
    if state.phase is Phase.HOLD:
        raise Refusal(
            f"release the hold or challenge before you {what}", rule(state, "hold_allowed")
        )
    if state.clock.neutral:
        raise Refusal(
            f"the clock is neutralized ({state.clock.neutral}); resume it first",
            rule(state, "neutralize_allowed"),
        )
