"""The rules state machine: ``apply(state, event) -> state``.

:func:`apply` is pure and deterministic. It checks an event against the
current state and the variant; an event the rules allow yields the next state,
with every decision recorded as a :class:`~engine.state.Ruling` citing its
rule; any other raises :class:`~engine.errors.Refusal` with the reason and the
rule, and the caller keeps the old state. Time is the event's ``t``; the
machine never reads a clock. Deadlines (the overtime cutoff) take effect at
their own instant, computed from timestamps by :func:`advance`, whichever
event comes next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.board import Board
from engine.errors import DataFileError, EngineError, Refusal
from engine.events import (
    Accepted,
    Adjudicated,
    Adjusted,
    BlankDemanded,
    BlankDesignated,
    Bye,
    Challenged,
    ClockPressed,
    ClockRestarted,
    EndRacks,
    Event,
    Exchanged,
    Forfeited,
    GameStarted,
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
    ServiceRestarted,
    Signed,
    TilesDrawn,
    TilesPlaced,
    TimeChecked,
    TurnScored,
)
from engine.gameclock import GameClock
from engine.notation import parse_move
from engine.placement import place
from engine.rack import is_subrack, parse_rack
from engine.state import GameState, Phase, Play, Result, Ruling, Turn
from engine.tiles import TileSet, load_tile_set
from engine.variant import Variant, load_variant

__all__ = ["advance", "apply", "next_deadline", "penalty", "time_text"]

_LIVE = (Phase.PLAYING, Phase.HOLD, Phase.BLANK_DEMANDED, Phase.OUT_PLAY)
_LOG_RULE = "event log: the table's timeline only moves forward"


def time_text(ms: int) -> str:
    """``-1:01`` style text for a signed number of milliseconds (whole seconds, toward zero)."""
    sign = "-" if ms < 0 else ""
    secs = abs(ms) // 1000
    return f"{sign}{secs // 60}:{secs % 60:02d}"


def _v(state: GameState) -> Variant:
    assert state.variant is not None  # every caller runs after game_started
    return state.variant


def _tiles(state: GameState) -> TileSet:
    return load_tile_set(_v(state).tile_set)


def _rule(state: GameState, param: str) -> str:
    return _v(state).source(param)


def _ruled(state: GameState, t: int, param: str, text: str) -> tuple[Ruling, ...]:
    return (*state.rulings, Ruling(t, _rule(state, param), text))


def _set(pair: tuple[Any, Any], index: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def _add(pair: tuple[int, int], index: int, delta: int) -> tuple[int, int]:
    return (pair[0] + delta, pair[1]) if index == 0 else (pair[0], pair[1] + delta)


def _line(
    state: GameState,
    t: int,
    player: int,
    kind: str,
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
    over = state.clock.overtime(seat, now_ms)
    if over <= 0:
        return 0
    units = -(-over // v.penalty_unit_ms) if v.penalty_part_counts else over // v.penalty_unit_ms
    return units * v.penalty_points


def _refuse_player(state: GameState, player: int) -> None:
    if player not in (0, 1):
        raise Refusal(f"unknown player {player!r}; players are 0 and 1", _rule(state, "turn_rule"))


# --- deadlines ---------------------------------------------------------------


def next_deadline(state: GameState) -> int | None:
    """The next instant at which the rules act by themselves (the overtime cutoff),
    or None. The clock service schedules a wake-up for it."""
    v = state.variant
    if v is None or v.cutoff == "none" or state.phase not in _LIVE:
        return None
    seat = state.clock.running
    if seat is None or state.locked[seat]:
        return None
    return state.clock.when_overtime(seat, v.cutoff_overtime_ms)


def advance(state: GameState, t: int) -> GameState:
    """Apply every deadline that falls at or before ``t``, each at its own instant."""
    deadline = next_deadline(state)
    if deadline is None or t < deadline:
        return state
    v = _v(state)
    seat = state.clock.running
    assert seat is not None
    name = state.players[seat]
    mark = time_text(-v.cutoff_overtime_ms)
    if v.cutoff == "game_ends":
        clock = state.clock.stop(deadline)
        st = replace(
            state,
            clock=clock,
            composing=None,
            end_reason="cutoff",
            rulings=_ruled(
                state, deadline, "cutoff", f"{name}'s clock passed {mark}: the game ends"
            ),
        )
        if v.cutoff_rack_deductions and st.mode == "board":
            return replace(st, phase=Phase.END_RACKS)
        return _finish(st, deadline, "cutoff", (0, 0))
    # no_more_plays (Toronto speed play, TOR-8/TOR-9)
    locked = _set(state.locked, seat, True)
    rulings = _ruled(state, deadline, "cutoff", f"{name} reached {mark}: no more plays")
    clock = state.clock
    composing = state.composing
    if composing is not None and composing.player == seat:
        composing = None
        clock = clock.neutralize(deadline, "cutoff: remove the play from the board")
        rulings = (
            *rulings,
            Ruling(
                deadline,
                _rule(state, "cutoff"),
                f"{name}'s play on the board is removed with the clock paused",
            ),
        )
    st = replace(state, locked=locked, clock=clock, composing=composing, rulings=rulings)
    opp = 1 - seat
    if locked[opp] or state.scores[opp] >= state.scores[seat]:
        # TOR-9: only a player who is behind may play on.
        st = replace(
            st,
            rulings=(
                *st.rulings,
                Ruling(
                    deadline,
                    _rule(state, "cutoff"),
                    f"{state.players[opp]} is not behind: the game ends",
                ),
            ),
        )
        return _end(st, deadline, "cutoff")
    return st


# --- helpers for ending ------------------------------------------------------


def _end(state: GameState, t: int, reason: str) -> GameState:
    """The game is over; the racks are awaited (board mode) or the result is computed."""
    return replace(
        state, clock=state.clock.stop(t), composing=None, end_reason=reason, phase=Phase.END_RACKS
    )


def _finish(
    state: GameState,
    t: int,
    reason: str,
    adjust: tuple[int, int],
    racks: tuple[str, str] = ("", ""),
) -> GameState:
    v = _v(state)
    clock = state.clock.stop(t)
    st = replace(state, clock=clock)
    pens = (penalty(st, 0, t), penalty(st, 1, t))
    rulings = state.rulings
    history = state.history
    scores = (state.scores[0] + adjust[0], state.scores[1] + adjust[1])
    for seat in (0, 1):
        if adjust[seat]:
            history = (
                *history,
                Turn(
                    t,
                    seat,
                    "end_racks",
                    # The player who went out gains the opponent's tiles; otherwise own tiles.
                    f"({racks[1 - seat] if adjust[seat] > 0 else racks[seat]})",
                    adjust[seat],
                    scores[seat],
                    clock.remaining(seat, t),
                    racks[seat],
                ),
            )
    for seat in (0, 1):
        if pens[seat]:
            over = clock.overtime(seat, t)
            unit = "second" if v.penalty_unit_ms == 1000 else "minute"
            rulings = (
                *rulings,
                Ruling(
                    t,
                    v.source("penalty_points"),
                    f"{state.players[seat]} used {time_text(over)} overtime: -{pens[seat]} "
                    f"({v.penalty_points} per {unit}"
                    f"{' or part' if v.penalty_part_counts else ''})",
                ),
            )
            scores = _add(scores, seat, -pens[seat])
            history = (
                *history,
                Turn(
                    t,
                    seat,
                    "penalty",
                    "(time)",
                    -pens[seat],
                    scores[seat],
                    clock.remaining(seat, t),
                ),
            )
    if scores[0] == scores[1]:
        winner = None
        rulings = (*rulings, Ruling(t, v.source("tie"), "tied score: half a win each"))
    else:
        winner = 0 if scores[0] > scores[1] else 1
    spread = abs(scores[0] - scores[1])
    if not v.spread_recorded:
        rulings = (*rulings, Ruling(t, v.source("spread_recorded"), "the spread is not recorded"))
    result = Result(scores, winner, reason, spread, pens, adjust)
    return replace(
        st,
        phase=Phase.OVER,
        result=result,
        rulings=rulings,
        history=history,
        scores=scores,
        end_reason=reason,
        composing=None,
    )


def _scoreless_check(state: GameState, t: int) -> GameState:
    v = _v(state)
    if state.scoreless < v.scoreless_turns or state.phase in (Phase.END_RACKS, Phase.OVER):
        return state
    st = replace(
        state,
        rulings=_ruled(
            state,
            t,
            "scoreless_turns",
            f"{v.scoreless_turns} consecutive scoreless turns: the game ends; "
            "each player loses the value of their own tiles",
        ),
    )
    return _end(st, t, "scoreless")


def _went_out(state: GameState, t: int) -> GameState:
    last = state.last
    assert last is not None
    name = state.players[last.player]
    st = replace(
        state,
        last=replace(last, window_open=False),
        rulings=_ruled(
            state,
            t,
            "going_out_factor",
            f"{name} went out: {_v(state).going_out_factor}x "
            f"{state.players[1 - last.player]}'s tiles to {name}",
        ),
    )
    return _end(st, t, "out")


def _close_window(state: GameState) -> Play | None:
    last = state.last
    if last is None or not last.window_open:
        return last
    return replace(last, window_open=False)


# --- handlers ----------------------------------------------------------------


def _start(state: GameState, ev: GameStarted, t: int) -> GameState:
    if state.phase not in (Phase.NOT_STARTED, Phase.OVER):
        raise Refusal(
            "a game is already in progress at this table",
            state.variant.source("turn_rule") if state.variant else _LOG_RULE,
        )
    try:
        v = load_variant(ev.variant)
    except DataFileError as exc:
        raise Refusal(f"unknown variant {ev.variant!r}: {exc}", "rackclock variants") from None
    if ev.first not in (0, 1):
        raise Refusal(
            f"unknown first player {ev.first!r}; players are 0 and 1", v.source("turn_rule")
        )
    if len(ev.players) != 2 or not all(ev.players):
        raise Refusal(
            f"a game needs two named players, got {list(ev.players)!r}", v.source("turn_rule")
        )
    mode = ev.mode or v.mode
    ts = load_tile_set(v.tile_set)
    clock = GameClock(v.initial_ms).start(ev.first, t)
    board = Board.empty(v.layout) if mode == "board" else None
    ruling = Ruling(
        t,
        v.source("initial_ms"),
        f"game started under {v.title}: {time_text(v.initial_ms)} each; "
        f"{ev.players[ev.first]}'s clock runs",
    )
    return GameState(
        variant=v,
        players=(ev.players[0], ev.players[1]),
        mode=mode,
        phase=Phase.PLAYING,
        turn=ev.first,
        clock=clock,
        board=board,
        bag=ts.total - 2 * ts.rack_size,
        held=(ts.rack_size, ts.rack_size),
        rulings=(ruling,),
        t=t,
        games=state.games + 1,
        round=ev.round,
        division=ev.division,
        table=ev.table,
    )


def _need_turn(state: GameState, player: int, what: str) -> None:
    _refuse_player(state, player)
    if state.phase not in (Phase.PLAYING, Phase.HOLD):
        raise Refusal(f"cannot {what} now: {state.describe_phase()}", _rule(state, "turn_rule"))
    if player != state.turn:
        raise Refusal(
            f"cannot {what}: it is {state.players[state.turn]}'s turn, "
            f"not {state.players[player]}'s",
            _rule(state, "turn_rule"),
        )


def _placed(state: GameState, ev: TilesPlaced, t: int) -> GameState:
    if state.mode != "board":
        raise Refusal(
            "scoresheet mode records turns with turn_scored, not placements", _rule(state, "mode")
        )
    _need_turn(state, ev.player, "place tiles")
    p = ev.player
    if state.locked[p]:
        raise Refusal(
            f"{state.players[p]} passed {time_text(-_v(state).cutoff_overtime_ms)}: no more plays",
            _rule(state, "cutoff"),
        )
    if state.composing is not None and state.composing.drawn_early:
        raise Refusal(
            f"{state.players[p]} has drawn replacement tiles: the turn is complete and "
            f"{state.composing.move} can no longer be changed",
            _rule(state, "flash_draw_rule"),
        )
    assert state.board is not None
    try:
        move = parse_move(ev.move, unnamed_blanks=True)
        pl = place(state.board, move, _tiles(state), unnamed_blanks=True)
    except EngineError as exc:
        raise Refusal(
            f"{ev.move!r} does not fit the board: {exc}", _rule(state, "placement_rule")
        ) from None
    if len(pl.new) > state.held[p]:
        raise Refusal(
            f"{ev.move!r} uses {len(pl.new)} tiles; {state.players[p]} holds {state.held[p]}",
            _rule(state, "placement_rule"),
        )
    early = state.composing.drawn_early if state.composing else 0
    comp = Play(
        player=p,
        move=move.gcg(),
        placement=pl,
        declared=ev.score,
        computed=pl.score,
        words=pl.words,
        tiles=len(pl.new),
        drawn_early=early,
        unnamed=move.tiles.count("?"),
    )
    return replace(state, composing=comp)


def _pressed(state: GameState, ev: ClockPressed, t: int) -> GameState:
    _refuse_player(state, ev.player)
    p = ev.player
    if state.phase is Phase.HOLD and p == state.turn:
        raise Refusal("release the hold or challenge before pressing", _rule(state, "hold_allowed"))
    if state.phase is not Phase.PLAYING:
        raise Refusal(f"cannot press now: {state.describe_phase()}", _rule(state, "turn_rule"))
    if state.clock.neutral:
        raise Refusal(
            f"the clock is neutralized ({state.clock.neutral}); resume it first",
            _rule(state, "neutralize_allowed"),
        )
    if state.clock.running != p:
        raise Refusal(
            f"{state.players[p]}'s clock is not running: it is {state.players[state.turn]}'s turn",
            _rule(state, "turn_rule"),
        )
    if ev.device_remaining_ms is not None:
        state = _device_times(state, ev, t)
    opp = 1 - p
    if state.mode == "scoresheet":
        presses = _add(state.presses, p, 1)
        last = Play(
            player=p,
            pressed_at=t,
            window_open=True,
            index=presses[p],
            scoreless_before=state.scoreless,
        )
        # A play made resets the scoreless count, whenever its score is entered.
        return replace(
            state,
            presses=presses,
            last=last,
            turn=opp,
            scoreless=0,
            clock=state.clock.start(opp, t),
        )
    if state.locked[p]:
        raise Refusal(
            f"{state.players[p]} may make no more plays; pass instead", _rule(state, "cutoff")
        )
    comp = state.composing
    if comp is None or comp.player != p or comp.placement is None:
        raise Refusal(
            f"{state.players[p]} has no play on the board; place tiles, pass or exchange",
            _rule(state, "turn_rule"),
        )
    assert state.board is not None
    pl = comp.placement
    needed = min(comp.tiles, state.bag + comp.drawn_early) - comp.drawn_early
    bag = state.bag - max(0, needed)
    held_after = state.held[p] - comp.tiles + max(0, needed)
    out = held_after == 0 and bag == 0
    score = comp.declared if comp.declared is not None else (comp.computed or 0)
    scores = _add(state.scores, p, score)
    clock = state.clock.start(opp, t)
    last = replace(
        comp,
        score=score,
        pressed_at=t,
        owed=max(0, needed),
        window_open=True,
        out=out,
        held_before=state.held[p],
        bag_before=state.bag,
        scoreless_before=state.scoreless,
    )
    history = _line(state, t, p, "play", comp.move, score, scores, clock)
    st = replace(
        state,
        board=state.board.with_tiles(pl.new),
        bag=bag,
        held=_set(state.held, p, held_after),
        scores=scores,
        clock=clock,
        last=last,
        composing=None,
        turn=opp,
        scoreless=0,
        history=history,
    )
    if comp.drawn_early:
        st = replace(
            st,
            rulings=_ruled(
                st,
                t,
                "flash_draw_rule",
                f"{state.players[p]} drew without pressing: the draw ends the turn, but as a "
                "flash draw it does not accept it; the opponent may still challenge",
            ),
        )
    if needed < 0:
        return _overdraw(st, t, p, -needed)
    if comp.declared is not None and comp.computed is not None and comp.declared != comp.computed:
        claims = (comp.declared, comp.computed)
        st = replace(
            st,
            phase=Phase.SCORE_DISPUTE,
            claims=claims,
            resume_phase=Phase.OUT_PLAY if out else Phase.PLAYING,
            clock=clock.neutralize(t, "score dispute"),
            rulings=_ruled(
                st,
                t,
                "dispute_neutralizes",
                f"{state.players[p]} declared {comp.declared} for "
                f"{comp.move}; the board gives {comp.computed}: "
                "score dispute, clock neutralized",
            ),
        )
        return st
    if out:
        return _out_play(st, t)
    return st


def _device_times(state: GameState, ev: ClockPressed, t: int) -> GameState:
    """Device-authoritative clocks: the device's times at the press become the game's."""
    assert ev.device_remaining_ms is not None
    clock = state.clock
    host = (clock.remaining(0, t), clock.remaining(1, t))
    dev = ev.device_remaining_ms
    gap = max(abs(host[0] - dev[0]), abs(host[1] - dev[1]))
    used = (clock.initial_ms - dev[0], clock.initial_ms - dev[1])
    st = replace(state, clock=replace(clock, used_ms=used, since_ms=t))
    if gap > ev.drift_threshold_ms:
        rule = (
            f"table procedure: device-authoritative clock (drift over {ev.drift_threshold_ms} ms)"
        )
        text = (
            f"the clock device and the service differ by {gap} ms at "
            f"{state.players[ev.player]}'s press (device {time_text(dev[0])} / "
            f"{time_text(dev[1])}, service {time_text(host[0])} / {time_text(host[1])}): "
            "the device's times stand; director to review"
        )
        st = replace(st, rulings=(*st.rulings, Ruling(t, rule, text)))
    return st


def _restarted(state: GameState, ev: ServiceRestarted, t: int) -> GameState:
    """The service was down: the game comes back neutralized, the gap charged to nobody."""
    text = f"{ev.reason}: the service was down {ev.gap_ms} ms"
    rule = "table procedure: no time is charged while the service is down"
    st = replace(state, rulings=(*state.rulings, Ruling(t, rule, text)))
    if state.phase in _LIVE and state.clock.running is not None and not state.clock.neutral:
        st = replace(st, clock=state.clock.neutralize(t, f"{ev.reason} ({ev.gap_ms} ms down)"))
    return st


def _out_play(state: GameState, t: int) -> GameState:
    v = _v(state)
    last = state.last
    assert last is not None
    name = state.players[last.player]
    if v.outplay_neutralize:
        clock = state.clock.neutralize(t, "out-play", resume_to=1 - last.player)
        text = (
            f"{name} plays out: clock neutralized; "
            f"{state.players[1 - last.player]} accepts, holds or challenges"
        )
    else:
        clock = state.clock
        text = f"{name} plays out: {state.players[1 - last.player]} accepts, holds or challenges"
    return replace(
        state,
        phase=Phase.OUT_PLAY,
        clock=clock,
        rulings=_ruled(state, t, "outplay_neutralize", text),
    )


def _overdraw(state: GameState, t: int, player: int, extra: int) -> GameState:
    v = _v(state)
    if v.overdraw == "n_plus_1":
        how = (
            f"the opponent picks {extra + 1} of {state.players[player]}'s tiles, puts 1 back "
            f"on the rack and returns {extra} to the bag"
        )
    else:
        how = (
            f"the opponent picks {extra + 2} of {state.players[player]}'s tiles, looks, "
            f"returns {extra} to the bag and the rest to the rack"
        )
    resume = state.phase if state.phase is not Phase.OVERDRAW else state.resume_phase
    return replace(
        state,
        phase=Phase.OVERDRAW,
        overdraw=(player, extra),
        resume_phase=resume,
        clock=state.clock.neutralize(t, "overdraw"),
        rulings=_ruled(
            state,
            t,
            "overdraw",
            f"{state.players[player]} overdrew by {extra}: {how}; clock neutralized meanwhile",
        ),
    )


def _drawn(state: GameState, ev: TilesDrawn, t: int) -> GameState:
    _refuse_player(state, ev.player)
    p = ev.player
    if state.mode != "board":
        raise Refusal("scoresheet mode does not track the bag", _rule(state, "mode"))
    if ev.count < 1:
        raise Refusal(f"draw count must be 1 or more, got {ev.count}", _rule(state, "turn_rule"))
    comp = state.composing
    if comp is not None and comp.player == p and p == state.turn:
        # Drawing without pressing completes the turn (NZASP 6.3.7); the score was not
        # recorded first, so it is a flash draw and does not accept the turn (6.5.1).
        if ev.count > state.bag:
            raise Refusal(
                f"the bag holds {state.bag} tiles, not {ev.count}", _rule(state, "turn_rule")
            )
        # The clock still runs until the player presses it; the play is fixed from now.
        return replace(
            state,
            bag=state.bag - ev.count,
            held=_add(state.held, p, ev.count),
            composing=replace(comp, drawn_early=comp.drawn_early + ev.count),
        )
    last = state.last
    if last is None or last.player != p:
        raise Refusal(
            f"{state.players[p]} has no replacement tiles to draw", _rule(state, "turn_rule")
        )
    if state.phase is Phase.CHALLENGE:
        raise Refusal(
            "a challenge is under way: no tiles may be drawn", _rule(state, "challenge_procedure")
        )
    provisional = state.phase is Phase.HOLD
    if provisional and not _v(state).hold_provisional_draw:
        raise Refusal(
            f"hold called: {state.players[p]} may not draw until it is released",
            _rule(state, "hold_provisional_draw"),
        )
    if ev.count > last.owed:
        extra = ev.count - last.owed
        if extra > state.bag:
            raise Refusal(
                f"the bag holds {state.bag + last.owed} tiles, not {ev.count}",
                _rule(state, "turn_rule"),
            )
        st = replace(
            state,
            bag=state.bag - extra,
            held=_add(state.held, p, extra),
            last=replace(last, owed=0, window_open=last.window_open and provisional),
        )
        return _overdraw(st, t, p, extra)
    new_last = replace(last, owed=last.owed - ev.count)
    rulings = state.rulings
    if provisional:
        new_last = replace(new_last, provisional=last.provisional + ev.count)
        rulings = _ruled(
            state,
            t,
            "hold_provisional_draw",
            f"{state.players[p]} draws {ev.count} provisional tiles during the hold",
        )
    elif (
        _v(state).challenge_window == "until_draw"
        and last.window_open
        and not last.drawn_early
        and last.pressed_at is not None
    ):
        new_last = replace(new_last, window_open=False)
        rulings = _ruled(
            state, t, "challenge_window", f"{state.players[p]} drew: {last.move} is accepted"
        )
    return replace(state, last=new_last, rulings=rulings)


def _answer_target(state: GameState, player: int, what: str) -> Play:
    _refuse_player(state, player)
    last = state.last
    if last is None or last.pressed_at is None or last.player == player:
        raise Refusal(
            f"{state.players[player]} has no play of the opponent's to {what}",
            _rule(state, "challenge_window"),
        )
    if not last.window_open:
        raise Refusal(
            f"the right to {what} {last.move or 'the last play'} has lapsed",
            _rule(state, "challenge_window"),
        )
    return last


def _accepted(state: GameState, ev: Accepted, t: int) -> GameState:
    last = _answer_target(state, ev.player, "accept")
    if state.phase not in (Phase.PLAYING, Phase.OUT_PLAY, Phase.HOLD):
        raise Refusal(f"cannot accept now: {state.describe_phase()}", _rule(state, "turn_rule"))
    if last.out:
        return _went_out(state, t)
    return replace(state, phase=Phase.PLAYING, last=replace(last, window_open=False))


def _hold(state: GameState, ev: HoldCalled, t: int) -> GameState:
    if not _v(state).hold_allowed:
        raise Refusal("holds are not allowed", _rule(state, "hold_allowed"))
    last = _answer_target(state, ev.player, "hold")
    if state.phase not in (Phase.PLAYING, Phase.OUT_PLAY):
        raise Refusal(f"cannot hold now: {state.describe_phase()}", _rule(state, "hold_allowed"))
    draw = "may draw provisional tiles" if _v(state).hold_provisional_draw else "may not draw"
    return replace(
        state,
        phase=Phase.HOLD,
        resume_phase=state.phase,
        rulings=_ruled(
            state,
            t,
            "hold_allowed",
            f"hold called by {state.players[ev.player]} on {last.move or 'the last play'}; "
            f"{state.players[last.player]} {draw}",
        ),
    )


def _hold_released(state: GameState, ev: HoldReleased, t: int) -> GameState:
    _refuse_player(state, ev.player)
    last = state.last
    if state.phase is not Phase.HOLD or last is None or last.player == ev.player:
        raise Refusal(
            f"{state.players[ev.player]} has no hold to release", _rule(state, "hold_allowed")
        )
    st = replace(
        state,
        phase=state.resume_phase,
        rulings=_ruled(
            state, t, "hold_allowed", f"hold released: {last.move or 'the play'} is accepted"
        ),
    )
    if last.out:
        return _went_out(st, t)
    return replace(st, phase=Phase.PLAYING, last=replace(last, window_open=False))


def _challenged(state: GameState, ev: Challenged, t: int) -> GameState:
    v = _v(state)
    last = _answer_target(state, ev.player, "challenge")
    if v.challenge_rule == "void":
        raise Refusal(
            "no challenges under the void rule: words are checked when played",
            _rule(state, "challenge_rule"),
        )
    if state.phase not in (Phase.PLAYING, Phase.HOLD, Phase.OUT_PLAY):
        raise Refusal(
            f"cannot challenge now: {state.describe_phase()}", _rule(state, "challenge_rule")
        )
    if last.unnamed:
        raise Refusal(
            f"{state.players[last.player]} must name the blank first",
            _rule(state, "blank_before_press"),
        )
    words = tuple(w.upper() for w in ev.words)
    if state.mode == "board":
        unknown = [w for w in words if w not in last.words]
        if unknown:
            raise Refusal(
                f"{unknown[0]!r} is not a word formed by {last.move} ({', '.join(last.words)})",
                _rule(state, "challenge_rule"),
            )
        words = words or last.words
    elif not words:
        words = ("?",)
    resume = state.phase if state.phase is not Phase.HOLD else state.resume_phase
    return replace(
        state,
        phase=Phase.CHALLENGE,
        resume_phase=resume,
        last=replace(last, challenged=words),
        clock=state.clock.neutralize(t, "challenge", resume_to=1 - last.player),
        rulings=_ruled(
            state,
            t,
            "challenge_procedure",
            f"{state.players[ev.player]} challenges "
            f"{', '.join(words)}: one challenge, clock neutralized",
        ),
    )


def _adjudicated(state: GameState, ev: Adjudicated, t: int) -> GameState:
    last = state.last
    if state.phase is not Phase.CHALLENGE or last is None:
        raise Refusal("no challenge awaits a verdict", _rule(state, "challenge_rule"))
    v = _v(state)
    p, c = last.player, 1 - last.player
    names = state.players
    if not ev.acceptable:
        scores = _add(state.scores, p, -last.score)
        st = replace(
            state,
            scores=scores,
            turn=c,
            phase=Phase.PLAYING,
            last=None,
            scoreless=last.scoreless_before + 1,
        )
        if state.mode == "board" and last.placement is not None:
            assert state.board is not None
            st = replace(
                st,
                board=state.board.without(i for i, _ in last.placement.new),
                held=_set(state.held, p, last.held_before),
                bag=last.bag_before,
            )
        else:
            st = _void_scored(st, p, last, t)
        clock = st.clock.start(c, t)
        text = (
            f"{last.move or 'the play'} is unacceptable ({ev.by}): tiles withdrawn, "
            f"{names[p]} loses the turn; {names[c]}'s clock runs"
        )
        if last.provisional:
            text += f"; {last.provisional} provisional tiles go back to the bag"
        st = replace(
            st,
            clock=clock,
            rulings=_ruled(st, t, "withdrawal_rule", text),
            history=_line(st, t, p, "withdrawn", "--", -last.score, scores, clock),
        )
        if last.drawn_early:
            # NZASP 6.5.3.2: flash-drawn tiles that touched the rack are an overdraw.
            st = _overdraw(replace(st, phase=Phase.PLAYING), t, p, last.drawn_early)
        return _scoreless_check(st, t)
    # The play stands.
    st = replace(state, last=replace(last, window_open=False))
    n = max(1, len(last.challenged))
    rule = v.challenge_rule
    scores = state.scores
    if rule == "points_per_word" or rule == "points_per_challenge":
        bonus = v.challenge_points * (n if rule == "points_per_word" else 1)
        scores = _add(scores, p, bonus)
        per = (
            f"{v.challenge_points} x {n} word{'s' if n > 1 else ''}"
            if rule == "points_per_word"
            else f"{v.challenge_points} per challenge"
        )
        st = replace(
            st,
            scores=scores,
            rulings=_ruled(
                st,
                t,
                "challenge_points",
                f"{last.move or 'the play'} is acceptable ({ev.by}): "
                f"{names[p]} gets {bonus} ({per}); {names[c]} keeps the turn",
            ),
            history=_line(st, t, p, "bonus", "(challenge)", bonus, scores, st.clock),
        )
    elif rule == "double":
        st = replace(
            st,
            rulings=_ruled(
                st,
                t,
                "challenge_rule",
                f"{last.move or 'the play'} is acceptable ({ev.by}): {names[c]} loses the turn",
            ),
        )
    else:
        st = replace(
            st,
            rulings=_ruled(
                st,
                t,
                "challenge_rule",
                f"{last.move or 'the play'} is acceptable ({ev.by}): no penalty",
            ),
        )
    if last.out:
        return _went_out(replace(st, clock=st.clock.resume(t).stop(t)), t)
    if rule == "double":
        clock = st.clock.start(p, t)
        st = replace(
            st,
            phase=Phase.PLAYING,
            turn=p,
            clock=clock,
            scoreless=st.scoreless + 1,
            history=_line(st, t, c, "lost_turn", "-", 0, st.scores, clock),
        )
        return _scoreless_check(st, t)
    return replace(st, phase=Phase.PLAYING, clock=st.clock.resume(t))


def _void_scored(state: GameState, p: int, last: Play, t: int) -> GameState:
    """Scoresheet mode: a withdrawn play scores 0 whether or not it was scored yet."""
    if state.scored[p] >= last.index:
        return state  # its score was already taken off above
    return replace(state, voided=_set(state.voided, p, last.index))


def _end_turn_without_play(state: GameState, p: int, t: int, kind: str, text: str) -> GameState:
    opp = 1 - p
    clock = state.clock.start(opp, t)
    st = replace(
        state,
        clock=clock,
        turn=opp,
        composing=None,
        last=None,
        scoreless=state.scoreless + 1,
        history=_line(state, t, p, kind, text, 0, state.scores, clock),
    )
    if state.mode == "scoresheet":
        st = replace(st, presses=_add(st.presses, p, 1))
    if st.locked[opp] and kind == "pass" and not st.locked[p]:
        st = replace(
            st,
            rulings=_ruled(
                st,
                t,
                "cutoff",
                f"{state.players[p]} passes while {state.players[opp]} may not play: the game ends",
            ),
        )
        return _end(st, t, "cutoff")
    return _scoreless_check(st, t)


def _live_turn(state: GameState, player: int, what: str) -> None:
    _need_turn(state, player, what)
    if state.phase is Phase.HOLD:
        raise Refusal(
            f"release the hold or challenge before you {what}", _rule(state, "hold_allowed")
        )
    if state.clock.neutral:
        raise Refusal(
            f"the clock is neutralized ({state.clock.neutral}); resume it first",
            _rule(state, "neutralize_allowed"),
        )


def _exchanged(state: GameState, ev: Exchanged, t: int) -> GameState:
    _live_turn(state, ev.player, "exchange")
    v = _v(state)
    p = ev.player
    if state.locked[p]:
        raise Refusal(
            f"{state.players[p]} may make no more plays; pass instead", _rule(state, "cutoff")
        )
    if state.mode == "board":
        if state.bag < v.exchange_min_bag:
            raise Refusal(
                f"the bag holds {state.bag} tiles; an exchange needs at least {v.exchange_min_bag}",
                _rule(state, "exchange_min_bag"),
            )
        if not 1 <= ev.count <= state.held[p]:
            raise Refusal(
                f"cannot exchange {ev.count} tiles from a rack of {state.held[p]}",
                _rule(state, "exchange_min_bag"),
            )
    elif ev.count < 1:
        raise Refusal(f"cannot exchange {ev.count} tiles", _rule(state, "exchange_min_bag"))
    if v.exchange_max_same_letter and ev.rack:
        most, letter = max((n, ch) for ch, n in Counter(ev.rack.upper()).items())
        if most > v.exchange_max_same_letter:
            raise Refusal(
                f"rack {ev.rack!r} holds {most} {letter!r}: no exchange with "
                f"{v.exchange_max_same_letter + 1} or more of one letter",
                _rule(state, "exchange_max_same_letter"),
            )
    st = replace(
        state,
        rulings=_ruled(
            state,
            t,
            "exchange_min_bag",
            f"{state.players[p]} exchanges {ev.count}; {state.players[1 - p]}'s clock runs",
        ),
    )
    return _end_turn_without_play(st, p, t, "exchange", f"-{ev.count}")


def _passed(state: GameState, ev: Passed, t: int) -> GameState:
    _live_turn(state, ev.player, "pass")
    return _end_turn_without_play(state, ev.player, t, "pass", "-")


def _overdrawn(state: GameState, ev: Overdrawn, t: int) -> GameState:
    _refuse_player(state, ev.player)
    if state.phase not in (Phase.PLAYING, Phase.HOLD):
        raise Refusal(
            f"cannot settle an overdraw now: {state.describe_phase()}", _rule(state, "overdraw")
        )
    if ev.extra < 1:
        raise Refusal(f"an overdraw is 1 tile or more, got {ev.extra}", _rule(state, "overdraw"))
    if state.mode == "board":
        if ev.extra > state.bag:
            raise Refusal(f"the bag holds only {state.bag} tiles", _rule(state, "overdraw"))
        state = replace(state, bag=state.bag - ev.extra, held=_add(state.held, ev.player, ev.extra))
    return _overdraw(state, t, ev.player, ev.extra)


def _overdraw_resolved(state: GameState, ev: OverdrawResolved, t: int) -> GameState:
    if state.phase is not Phase.OVERDRAW or state.overdraw is None:
        raise Refusal("no overdraw is being settled", _rule(state, "overdraw"))
    player, extra = state.overdraw
    if ev.player != player or ev.returned != extra:
        raise Refusal(
            f"{state.players[player]} must return {extra} tiles, not "
            f"{ev.returned} from player {ev.player!r}",
            _rule(state, "overdraw"),
        )
    st = replace(
        state,
        phase=state.resume_phase,
        overdraw=None,
        clock=state.clock.resume(t),
        rulings=_ruled(state, t, "overdraw", f"{extra} tiles returned to the bag; clock resumed"),
    )
    if state.mode == "board":
        st = replace(st, bag=state.bag + extra, held=_add(state.held, player, -extra))
    return st


def _blank_demanded(state: GameState, ev: BlankDemanded, t: int) -> GameState:
    _refuse_player(state, ev.player)
    last = state.last
    if (
        last is None
        or not last.unnamed
        or last.player == ev.player
        or state.phase is not Phase.PLAYING
    ):
        raise Refusal("there is no unnamed blank to demand", _rule(state, "blank_before_press"))
    return replace(
        state,
        phase=Phase.BLANK_DEMANDED,
        clock=state.clock.start(last.player, t),
        rulings=_ruled(
            state,
            t,
            "blank_before_press",
            f"{state.players[ev.player]} demands the blank: "
            f"{state.players[last.player]}'s clock runs until it is named "
            "(not a pass)",
        ),
    )


def _rename(state: GameState, play: Play, letters: str, on_board: bool) -> Play:
    if len(letters) != play.unnamed or not all(ch.isalpha() for ch in letters):
        raise Refusal(
            f"name {play.unnamed} blank(s) with letters, got {letters!r}",
            _rule(state, "blank_before_press"),
        )
    named = iter(letters.lower())
    move = "".join(next(named) if ch == "?" else ch for ch in play.move)
    assert state.board is not None
    assert play.placement is not None
    board = state.board.without(i for i, _ in play.placement.new) if on_board else state.board
    pl = place(board, parse_move(move), _tiles(state))
    return replace(play, move=pl.move.gcg(), placement=pl, words=pl.words, unnamed=0)


def _blank_designated(state: GameState, ev: BlankDesignated, t: int) -> GameState:
    _refuse_player(state, ev.player)
    comp = state.composing
    if comp is not None and comp.player == ev.player and comp.unnamed:
        return replace(state, composing=_rename(state, comp, ev.letters, on_board=False))
    last = state.last
    if last is None or last.player != ev.player or not last.unnamed:
        raise Refusal(
            f"{state.players[ev.player]} has no unnamed blank", _rule(state, "blank_before_press")
        )
    named = _rename(state, last, ev.letters, on_board=True)
    assert state.board is not None
    assert last.placement is not None
    assert named.placement is not None
    board = state.board.without(i for i, _ in last.placement.new).with_tiles(named.placement.new)
    st = replace(
        state,
        last=named,
        board=board,
        rulings=_ruled(
            state,
            t,
            "blank_before_press",
            f"{state.players[ev.player]} names the blank: {named.move}",
        ),
    )
    if state.phase is Phase.BLANK_DEMANDED:
        st = replace(st, phase=Phase.PLAYING, clock=st.clock.start(1 - ev.player, t))
    return st


def _score_disputed(state: GameState, ev: ScoreDisputed, t: int) -> GameState:
    _refuse_player(state, ev.by)
    last = state.last
    if (
        last is None
        or last.pressed_at is None
        or state.phase not in (Phase.PLAYING, Phase.OUT_PLAY)
    ):
        raise Refusal(
            "no pressed play whose score can be disputed", _rule(state, "dispute_neutralizes")
        )
    claims = ev.claims or (
        last.declared if last.declared is not None else last.score,
        last.computed if last.computed is not None else last.score,
    )
    clock = (
        state.clock.neutralize(t, "score dispute") if _v(state).dispute_neutralizes else state.clock
    )
    return replace(
        state,
        phase=Phase.SCORE_DISPUTE,
        claims=claims,
        resume_phase=state.phase,
        clock=clock,
        rulings=_ruled(
            state,
            t,
            "dispute_neutralizes",
            f"{state.players[ev.by]} disputes the score of "
            f"{last.move or 'the last play'}: claims {claims[0]} and "
            f"{claims[1]}; clock neutralized",
        ),
    )


def _score_resolved(state: GameState, ev: ScoreResolved, t: int) -> GameState:
    last = state.last
    if state.phase is not Phase.SCORE_DISPUTE or last is None:
        raise Refusal("no score dispute to resolve", _rule(state, "dispute_neutralizes"))
    delta = ev.score - last.score
    scores = _add(state.scores, last.player, delta)
    st = replace(
        state,
        scores=scores,
        last=replace(last, score=ev.score),
        claims=None,
        phase=state.resume_phase,
        clock=state.clock.resume(t),
        rulings=_ruled(
            state,
            t,
            "dispute_neutralizes",
            f"score of {last.move or 'the last play'} settled at {ev.score} "
            f"({ev.by}); clock resumed",
        ),
    )
    if delta:
        st = replace(
            st,
            history=_line(
                st,
                t,
                last.player,
                "adjusted",
                f"score {last.score} -> {ev.score}",
                delta,
                scores,
                st.clock,
            ),
        )
    if st.phase is Phase.OUT_PLAY:
        return _out_play(replace(st, phase=Phase.PLAYING), t)
    return st


def _score_recorded(state: GameState, ev: ScoreRecorded, t: int) -> GameState:
    _refuse_player(state, ev.player)
    last = state.last
    if (
        _v(state).challenge_window == "until_scoresheet"
        and last is not None
        and last.window_open
        and state.phase is Phase.PLAYING
    ):
        return replace(
            state,
            last=replace(last, window_open=False),
            rulings=_ruled(
                state,
                t,
                "challenge_window",
                f"score sheet written: {last.move or 'the play'} is accepted",
            ),
        )
    return state


def _neutralized(state: GameState, ev: Neutralized, t: int) -> GameState:
    if not _v(state).neutralize_allowed:
        raise Refusal("neutralizing is not allowed", _rule(state, "neutralize_allowed"))
    if state.phase not in _LIVE and state.phase is not Phase.END_RACKS:
        raise Refusal(
            f"cannot neutralize now: {state.describe_phase()}", _rule(state, "neutralize_allowed")
        )
    if state.clock.neutral:
        raise Refusal(
            f"the clock is already neutralized ({state.clock.neutral})",
            _rule(state, "neutralize_allowed"),
        )
    if not ev.reason.strip():
        raise Refusal("neutralizing needs a reason", _rule(state, "neutralize_allowed"))
    return replace(
        state,
        clock=state.clock.neutralize(t, f"{ev.reason} ({ev.by})"),
        rulings=_ruled(
            state, t, "neutralize_allowed", f"clock neutralized by {ev.by}: {ev.reason}"
        ),
    )


def _resumed(state: GameState, ev: Resumed, t: int) -> GameState:
    if not state.clock.neutral:
        raise Refusal("the clock is not neutralized", _rule(state, "neutralize_allowed"))
    if state.phase in (Phase.CHALLENGE, Phase.SCORE_DISPUTE, Phase.OVERDRAW):
        raise Refusal(
            f"{state.describe_phase()}: the clock resumes when it is settled",
            _rule(state, "neutralize_allowed"),
        )
    if state.phase is Phase.OUT_PLAY and state.clock.neutral == "out-play" and ev.by != "director":
        raise Refusal(
            "the out-play waits for the opponent's answer", _rule(state, "outplay_restart_ms")
        )
    return replace(
        state,
        clock=state.clock.resume(t),
        rulings=_ruled(state, t, "neutralize_allowed", f"clock resumed by {ev.by}"),
    )


def _clock_restarted(state: GameState, ev: ClockRestarted, t: int) -> GameState:
    _refuse_player(state, ev.player)
    v = _v(state)
    last = state.last
    if (
        state.phase not in (Phase.OUT_PLAY, Phase.HOLD)
        or last is None
        or not last.out
        or last.player != ev.player
    ):
        raise Refusal(
            f"{state.players[ev.player]} has no out-play awaiting an answer",
            _rule(state, "outplay_restart_ms"),
        )
    if not v.outplay_restart_ms:
        raise Refusal(
            "this variant gives no right to restart the opponent's clock",
            _rule(state, "outplay_restart_ms"),
        )
    assert last.pressed_at is not None
    waited = t - last.pressed_at
    if waited < v.outplay_restart_ms:
        raise Refusal(
            f"{state.players[ev.player]} may restart the opponent's clock after "
            f"{v.outplay_restart_ms // 1000} s; only {waited} ms have passed",
            _rule(state, "outplay_restart_ms"),
        )
    opp = 1 - ev.player
    return replace(
        state,
        clock=state.clock.start(opp, t),
        rulings=_ruled(
            state,
            t,
            "outplay_restart_ms",
            f"no answer after {waited // 1000} s: "
            f"{state.players[ev.player]} restarts {state.players[opp]}'s clock",
        ),
    )


def _turn_scored(state: GameState, ev: TurnScored, t: int) -> GameState:
    _refuse_player(state, ev.player)
    if state.mode != "scoresheet":
        raise Refusal("board mode scores each play from the board", _rule(state, "mode"))
    if state.phase in (Phase.NOT_STARTED, Phase.OVER):
        raise Refusal(f"cannot score a turn now: {state.describe_phase()}", _rule(state, "mode"))
    letter = ev.first_letter.upper()
    if len(letter) > 1 or (letter and not letter.isalpha()):
        raise Refusal(
            f"first letter must be one letter, got {ev.first_letter!r}", _rule(state, "mode")
        )
    p = ev.player
    index = state.scored[p] + 1
    # The scorekeeper may lag (TOR-1) but scores only turns played, or the one being
    # played by the player on turn.
    if index > state.presses[p] + (1 if state.turn == p else 0):
        raise Refusal(
            f"{state.players[p]} has ended only {state.presses[p]} turns; "
            f"turn {index} cannot be scored yet",
            _rule(state, "mode" if _v(state).mode == "scoresheet" else "turn_rule"),
        )
    score = ev.score
    st = state
    if state.voided[p] == index:
        score = 0
        st = replace(
            st,
            voided=_set(st.voided, p, 0),
            rulings=_ruled(
                st,
                t,
                "challenge_rule",
                f"turn {index} of {state.players[p]} was withdrawn: it scores 0",
            ),
        )
    scores = _add(st.scores, p, score)
    last = st.last
    if last is not None and last.player == p and last.index == index:
        last = replace(last, score=score, move=letter)
    # Scoreless turns count from the turns (passes, exchanges, withdrawals), not from
    # score entries, which may come late.
    return replace(
        st,
        scores=scores,
        scored=_add(st.scored, p, 1),
        last=last,
        history=_line(st, t, p, "scored", letter, score, scores, st.clock),
    )


def _end_racks(state: GameState, ev: EndRacks, t: int) -> GameState:
    v = _v(state)
    if state.mode == "board" and state.phase is not Phase.END_RACKS:
        raise Refusal(
            f"the tiles left on the racks come after the game ends; now: {state.describe_phase()}",
            _rule(state, "going_out_factor"),
        )
    if state.mode == "scoresheet" and state.phase in (Phase.CHALLENGE, Phase.OVER):
        raise Refusal(
            f"cannot end the game now: {state.describe_phase()}", _rule(state, "going_out_factor")
        )
    ts = _tiles(state)
    racks: list[Counter[str]] = []
    for seat, text in enumerate(ev.racks):
        try:
            rack = parse_rack(text, ts)
        except EngineError as exc:
            raise Refusal(str(exc), _rule(state, "going_out_factor")) from None
        if state.mode == "board" and sum(rack.values()) != state.held[seat]:
            raise Refusal(
                f"{state.players[seat]}'s rack {text!r} has {sum(rack.values())} tiles; "
                f"{state.players[seat]} holds {state.held[seat]}",
                _rule(state, "going_out_factor"),
            )
        racks.append(rack)
    if state.mode == "board":
        assert state.board is not None
        pool = ts.distribution()
        pool.subtract(state.board.tiles())
        if not is_subrack(racks[0] + racks[1], +pool):
            raise Refusal(
                f"racks {list(ev.racks)!r} cannot both be: the tiles are not all left unplayed",
                _rule(state, "going_out_factor"),
            )
    values = (ts.rack_value(racks[0].elements()), ts.rack_value(racks[1].elements()))
    reason = state.end_reason or "out"
    empty = [not sum(r.values()) for r in racks]
    st = state
    if empty[0] != empty[1]:
        out = 0 if empty[0] else 1
        gain = v.going_out_factor * values[1 - out]
        adjust = _set((0, 0), out, gain)
        reason = "out"
        st = replace(
            st,
            rulings=_ruled(
                st,
                t,
                "going_out_factor",
                f"{state.players[out]} gets {v.going_out_factor} x {values[1 - out]} = {gain} "
                f"for {state.players[1 - out]}'s tiles ({ev.racks[1 - out]})",
            ),
        )
    elif reason == "cutoff" and not v.cutoff_rack_deductions:
        adjust = (0, 0)
    else:
        adjust = (-values[0], -values[1])
        if reason not in ("scoreless", "cutoff"):
            reason = "scoreless" if state.phase is Phase.END_RACKS else "ended"
        st = replace(
            st,
            rulings=_ruled(
                st,
                t,
                "cutoff_rack_deductions" if reason == "cutoff" else "rack_deduction_rule",
                f"each player loses their own tiles: {state.players[0]} -{values[0]}, "
                f"{state.players[1]} -{values[1]}",
            ),
        )
    return _finish(st, t, reason, adjust, (ev.racks[0], ev.racks[1]))


def _award(
    state: GameState,
    t: int,
    winner: int,
    reason: str,
    spread: int,
    param: str,
    text: str,
    scores: tuple[int, int] | None = None,
) -> GameState:
    final = scores if scores is not None else state.scores
    result = Result(final, winner, reason, spread)
    return replace(
        state,
        phase=Phase.OVER,
        result=result,
        end_reason=reason,
        clock=state.clock.stop(t),
        composing=None,
        rulings=_ruled(state, t, param, text),
    )


def _resigned(state: GameState, ev: Resigned, t: int) -> GameState:
    _refuse_player(state, ev.player)
    w = 1 - ev.player
    v = _v(state)
    return _award(
        state,
        t,
        w,
        "resigned",
        v.forfeit_spread,
        "forfeit_spread",
        f"{state.players[ev.player]} resigns: {state.players[w]} wins by "
        f"{v.forfeit_spread} (a resignation counts as a forfeit)",
    )


def _forfeited(state: GameState, ev: Forfeited, t: int) -> GameState:
    _refuse_player(state, ev.player)
    v = _v(state)
    w = 1 - ev.player
    param = "lateness_spread" if ev.lateness else "forfeit_spread"
    spread = v.lateness_spread if ev.lateness else v.forfeit_spread
    return _award(
        state,
        t,
        w,
        "lateness" if ev.lateness else "forfeit",
        spread,
        param,
        f"{state.players[ev.player]} forfeits ({ev.reason}, {ev.by}): "
        f"{state.players[w]} wins, spread {spread}",
    )


def _bye(state: GameState, ev: Bye, t: int) -> GameState:
    _refuse_player(state, ev.player)
    if state.history:
        raise Refusal("a bye is given before any play", _rule(state, "bye_spread"))
    v = _v(state)
    return _award(
        state,
        t,
        ev.player,
        "bye",
        v.bye_spread,
        "bye_spread",
        f"{state.players[ev.player]} has a bye: a win, spread {v.bye_spread}",
        scores=(0, 0),
    )


def _adjusted(state: GameState, ev: Adjusted, t: int) -> GameState:
    _refuse_player(state, ev.player)
    p = ev.player
    what = []
    if ev.score_delta:
        what.append(f"{ev.score_delta:+d} points")
    if ev.time_delta_ms:
        what.append(
            f"{'+' if ev.time_delta_ms > 0 else '-'}{time_text(abs(ev.time_delta_ms))} on the clock"
        )
    if not what:
        raise Refusal("an adjustment changes the score or the time", f"director {ev.by}")
    text = f"{state.players[p]} {' and '.join(what)}: {ev.reason or 'no reason given'}"
    rulings = (*state.rulings, Ruling(t, f"director {ev.by}", text))
    scores = _add(state.scores, p, ev.score_delta)
    clock = state.clock.adjust(p, ev.time_delta_ms) if ev.time_delta_ms else state.clock
    st = replace(
        state,
        scores=scores,
        clock=clock,
        rulings=rulings,
        history=_line(state, t, p, "adjusted", ev.reason, ev.score_delta, scores, clock),
    )
    res = state.result
    if state.phase is Phase.OVER and res is not None:
        pens = res.penalties
        if ev.time_delta_ms and res.reason not in ("forfeit", "lateness", "bye", "resigned"):
            pens = _set(pens, p, penalty(st, p, t))
        refund = res.penalties[p] - pens[p]
        if refund:
            # The time penalty is recomputed from the adjusted clock; scores and lines follow.
            scores = _add(st.scores, p, refund)
            st = replace(
                st,
                scores=scores,
                history=_line(st, t, p, "penalty", "(time)", refund, scores, st.clock),
                rulings=(
                    *st.rulings,
                    Ruling(
                        t,
                        f"director {ev.by}",
                        f"{state.players[p]}'s time penalty is now {pens[p]} "
                        f"(was {res.penalties[p]})",
                    ),
                ),
            )
        final = _add(res.scores, p, ev.score_delta + refund)
        winner = None if final[0] == final[1] else (0 if final[0] > final[1] else 1)
        spread = (
            res.spread
            if res.reason in ("forfeit", "lateness", "bye", "resigned")
            else abs(final[0] - final[1])
        )
        st = replace(
            st, result=replace(res, scores=final, winner=winner, spread=spread, penalties=pens)
        )
    return st


def _signed(state: GameState, ev: Signed, t: int) -> GameState:
    _refuse_player(state, ev.player)
    if state.phase is not Phase.OVER:
        raise Refusal(
            f"the result is signed once the game is over; now: {state.describe_phase()}",
            _rule(state, "signature_rule"),
        )
    if state.signed[ev.player]:
        raise Refusal(
            f"{state.players[ev.player]} has already signed", _rule(state, "signature_rule")
        )
    signed = _set(state.signed, ev.player, True)
    text = f"{state.players[ev.player]} confirms the result"
    if all(signed):
        text += ": both players have signed"
    return replace(state, signed=signed, rulings=_ruled(state, t, "signature_rule", text))


def _time_checked(state: GameState, ev: TimeChecked, t: int) -> GameState:
    return state


_HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    TilesPlaced: _placed,
    ClockPressed: _pressed,
    TilesDrawn: _drawn,
    Accepted: _accepted,
    HoldCalled: _hold,
    HoldReleased: _hold_released,
    Challenged: _challenged,
    Adjudicated: _adjudicated,
    Exchanged: _exchanged,
    Passed: _passed,
    Overdrawn: _overdrawn,
    OverdrawResolved: _overdraw_resolved,
    BlankDemanded: _blank_demanded,
    BlankDesignated: _blank_designated,
    ScoreDisputed: _score_disputed,
    ScoreResolved: _score_resolved,
    ScoreRecorded: _score_recorded,
    Neutralized: _neutralized,
    Resumed: _resumed,
    ClockRestarted: _clock_restarted,
    TurnScored: _turn_scored,
    EndRacks: _end_racks,
    Resigned: _resigned,
    Forfeited: _forfeited,
    Bye: _bye,
    Adjusted: _adjusted,
    TimeChecked: _time_checked,
    ServiceRestarted: _restarted,
    Signed: _signed,
}


def apply(state: GameState, event: Event, t: int | None = None) -> GameState:
    """The state after ``event``.

    ``t`` overrides the event's own time (a log line without ``t`` takes the
    previous event's). Deadlines up to that time are applied first.

    Raises:
        Refusal: The rules do not allow ``event`` now; ``state`` is unchanged.
    """
    now = t if t is not None else (event.t if event.t is not None else state.t)
    if now < state.t:
        raise Refusal(f"time {now} is before the previous event at {state.t}", _LOG_RULE)
    if isinstance(event, GameStarted):
        return _start(state, event, now)
    if state.phase is Phase.NOT_STARTED or state.variant is None:
        raise Refusal(f"{type(event).__name__} before the game started", _LOG_RULE)
    state = advance(state, now)
    if state.phase is Phase.OVER and not isinstance(
        event, (Adjusted, TimeChecked, ServiceRestarted, Signed)
    ):
        raise Refusal(f"the game is over ({state.end_reason})", _rule(state, "turn_rule"))
    if state.phase is Phase.END_RACKS and not isinstance(
        event,
        (
            EndRacks,
            Adjusted,
            TimeChecked,
            Neutralized,
            Resumed,
            Resigned,
            Forfeited,
            ServiceRestarted,
        ),
    ):
        raise Refusal(
            "the game is over: enter the tiles left on the racks", _rule(state, "going_out_factor")
        )
    new = _HANDLERS[type(event)](state, event, now)
    return new if new.t == now else replace(new, t=now)
