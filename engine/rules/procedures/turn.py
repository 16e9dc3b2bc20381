"""A turn: the start of the game, tiles placed and pressed, the out-play, passes
and exchanges, blanks, and the scorekeeper's turns in scoresheet mode.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.clocktext import clock_text
from engine.equipment.board import Board
from engine.equipment.tiles import load_tile_set
from engine.errors import DataFileError, EngineError, Refusal
from engine.events import (
    BlankDemanded,
    BlankDesignated,
    ClockPressed,
    Exchanged,
    GameStarted,
    Passed,
    TilesPlaced,
    TurnScored,
)
from engine.play.notation import parse_move
from engine.play.placement import place
from engine.rules.gameclock import GameClock
from engine.rules.procedures.common import (
    LOG_RULE,
    add_pair,
    line,
    live_turn,
    need_turn,
    refuse_player,
    rule,
    ruled,
    set_pair,
    tiles_of,
    variant_of,
)
from engine.rules.procedures.ending import end_game, scoreless_check, scoreless_ended
from engine.rules.state import GameState, Phase, Play, Ruling, SheetEntry, TurnKind
from engine.rules.variant import load_variant

__all__ = ["DRIFT_RULE", "HANDLERS", "out_play", "pressed", "start"]

# Read once for the press, on every play of every replay: in CPython 3.11 an enum
# member read from its class costs three module globals.
_PLAYING, _HOLD = Phase.PLAYING, Phase.HOLD

DRIFT_RULE = "device-authoritative clock"
"""In the rule of every ruling on a gap between the device's times and the service's."""


def start(state: GameState, ev: GameStarted, t: int) -> GameState:
    if state.phase not in (Phase.NOT_STARTED, Phase.OVER):
        raise Refusal(
            "a game is already in progress at this table",
            state.variant.source("turn_rule") if state.variant else LOG_RULE,
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
        f"game started under {v.title}: {clock_text(v.initial_ms)} each; "
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


def _placed(state: GameState, ev: TilesPlaced, t: int) -> GameState:
    if state.mode != "board":
        raise Refusal(
            "scoresheet mode records turns with turn_scored, not placements", rule(state, "mode")
        )
    need_turn(state, ev.player, "place tiles")
    p = ev.player
    if state.locked[p]:
        raise Refusal(
            f"{state.players[p]} passed "
            f"{clock_text(-variant_of(state).cutoff_overtime_ms)}: no more plays",
            rule(state, "cutoff"),
        )
    assert state.board is not None
    try:
        move = parse_move(ev.move, unnamed_blanks=True)
        pl = place(state.board, move, tiles_of(state), unnamed_blanks=True)
    except EngineError as exc:
        raise Refusal(
            f"{ev.move!r} does not fit the board: {exc}", rule(state, "placement_rule")
        ) from None
    if len(pl.new) > state.held[p]:
        raise Refusal(
            f"{ev.move!r} uses {len(pl.new)} tiles; {state.players[p]} holds {state.held[p]}",
            rule(state, "placement_rule"),
        )
    comp = Play(
        player=p,
        move=pl.move.gcg(),
        placement=pl,
        declared=ev.score,
        computed=pl.score,
        words=pl.words,
        tiles=len(pl.new),
        unnamed=move.tiles.count("?"),
    )
    # Stamped with the event's time here, in the one copy of the state, so that apply
    # need not copy it again to stamp it (every play of every replay).
    return replace(state, composing=comp, t=t)


def pressed(state: GameState, ev: ClockPressed, t: int) -> GameState:
    refuse_player(state, ev.player)
    p = ev.player
    if state.phase is _HOLD and p == state.turn:
        raise Refusal("release the hold or challenge before pressing", rule(state, "hold_allowed"))
    if state.phase is not _PLAYING:
        raise Refusal(f"cannot press now: {state.describe_phase()}", rule(state, "turn_rule"))
    if state.clock.neutral:
        raise Refusal(
            f"the clock is neutralized ({state.clock.neutral}); resume it first",
            rule(state, "neutralize_allowed"),
        )
    if state.clock.running != p:
        raise Refusal(
            f"{state.players[p]}'s clock is not running: it is {state.players[state.turn]}'s turn",
            rule(state, "turn_rule"),
        )
    if ev.device_remaining_ms is not None:
        state = _device_times(state, ev, t)
    if ev.device_fault is not None:
        state = _device_fault(state, ev, t)
    if ev.arrived_ms is not None and ev.arrived_ms > t:
        state = _late(state, ev, t)
    opp = 1 - p
    if state.mode == "scoresheet" and state.locked[p]:
        # TOR-8: past -1:01 no more plays; the press ends the turn as a pass.
        st = replace(
            state,
            rulings=ruled(
                state,
                t,
                "cutoff",
                f"{state.players[p]} may make no more plays: the press is a pass",
            ),
        )
        return _end_turn_without_play(st, p, t, "pass", "-")
    if state.mode == "scoresheet":
        presses = add_pair(state.presses, p, 1)
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
            f"{state.players[p]} may make no more plays; pass instead", rule(state, "cutoff")
        )
    comp = state.composing
    if comp is None or comp.player != p or comp.placement is None:
        raise Refusal(
            f"{state.players[p]} has no play on the board; place tiles, pass or exchange",
            rule(state, "turn_rule"),
        )
    assert state.board is not None
    v = variant_of(state)
    pl = comp.placement
    needed = min(comp.tiles, state.bag)
    bag = state.bag - needed
    held_after = state.held[p] - comp.tiles + needed
    out = held_after == 0 and bag == 0
    score = comp.declared if comp.declared is not None else (comp.computed or 0)
    scores = add_pair(state.scores, p, score)
    clock = state.clock.start(opp, t)
    last = replace(
        comp,
        score=score,
        pressed_at=t,
        accounted=needed,
        window_open=True,
        out=out,
        held_before=state.held[p],
        scoreless_before=state.scoreless,
    )
    history = line(state, t, p, "play", comp.move, score, scores, clock)
    st = replace(
        state,
        board=state.board.with_tiles(pl.new),
        owed=set_pair(state.owed, p, needed),
        bag=bag,
        held=set_pair(state.held, p, held_after),
        scores=scores,
        clock=clock,
        last=last,
        composing=None,
        turn=opp,
        # A play that stands resets the count, unless it scored 0 and the variant
        # counts zero scores (NZASP 8.1.3, IDN: "six consecutive zero scores").
        scoreless=state.scoreless + 1 if score == 0 and v.zero_play_scoreless else 0,
        history=history,
        t=t,  # stamped here, not copied again by apply
    )
    disputed = (
        comp.declared is not None and comp.computed is not None and comp.declared != comp.computed
    )
    if disputed:
        claims = (comp.declared, comp.computed)
        st = replace(
            st,
            phase=Phase.SCORE_DISPUTE,
            claims=claims,
            resume_phase=Phase.OUT_PLAY if out else Phase.PLAYING,
            clock=clock.neutralize(t, "score dispute"),
            rulings=ruled(
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
        return out_play(st, t)
    if not scoreless_ended(st, v):
        return st  # the usual play: the game goes on
    return scoreless_check(st, t)


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
        rule = f"table procedure: {DRIFT_RULE} (drift over {ev.drift_threshold_ms} ms)"
        # Tenths, so that a drift of 600 ms shows in the times and not only in the gap.
        text = (
            f"the clock device and the service differ by {gap} ms at "
            f"{state.players[ev.player]}'s press (device {clock_text(dev[0], tenths=True)} / "
            f"{clock_text(dev[1], tenths=True)}, service {clock_text(host[0], tenths=True)} / "
            f"{clock_text(host[1], tenths=True)}): the device's times stand; director to review"
        )
        st = replace(st, rulings=(*st.rulings, Ruling(t, rule, text)))
    return st


def _late(state: GameState, ev: ClockPressed, t: int) -> GameState:
    """A press held up on the link, stamped at the device's own time (docs/clock-protocol.md)."""
    assert ev.arrived_ms is not None
    late = ev.arrived_ms - t
    left = clock_text(state.clock.remaining(ev.player, t), tenths=True)
    said = ev.device_late_ms
    if said is None or said <= late:
        text = (
            f"{state.players[ev.player]}'s press reached the table {late / 1000:.2f} s after "
            f"the clock recorded it (the link was down or slow): stamped at the clock's time, "
            f"{left} left, not charged for the delay"
        )
    else:
        # A limit cut the stamp short: the service stamps a press no earlier than the
        # last logged event (then t is that event's) and no more than a minute back.
        why = "the last logged event" if t == state.t else "the limit"
        text = (
            f"{state.players[ev.player]}'s press reached the table {said / 1000:.2f} s after "
            f"the clock recorded it (the link was down or slow): stamped {late / 1000:.1f} s "
            f"before arrival, {why}; the device said {said / 1000:.1f} s; {left} left"
        )
    return replace(state, rulings=(*state.rulings, Ruling(t, _LATE_RULE, text)))


_LATE_RULE = "table procedure: a late press is stamped at the clock's own time"


def _device_fault(state: GameState, ev: ClockPressed, t: int) -> GameState:
    """The clock's time at a press cannot be true: stamped on arrival (clock-protocol.md)."""
    by = (ev.device_fault_ms or 0) / 1000
    what = (
        f"device time {by:.1f} s ahead of the table's"
        if ev.device_fault == "ahead"
        else f"device time {by:.1f} s behind the table's (its counter went back)"
    )
    text = (
        f"the clock at {state.players[ev.player]}'s press: {what}: "
        "sample ignored; press stamped on arrival"
    )
    return replace(state, rulings=(*state.rulings, Ruling(t, _FAULT_RULE, text)))


_FAULT_RULE = "table procedure: a clock's impossible device time is ignored"


def out_play(state: GameState, t: int) -> GameState:
    v = variant_of(state)
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
        rulings=ruled(state, t, "outplay_neutralize", text),
    )


def _end_turn_without_play(
    state: GameState, p: int, t: int, kind: TurnKind, text: str, rack: str = ""
) -> GameState:
    opp = 1 - p
    clock = state.clock.start(opp, t)
    st = replace(
        state,
        clock=clock,
        turn=opp,
        composing=None,
        last=None,
        scoreless=state.scoreless + 1,
        history=line(state, t, p, kind, text, 0, state.scores, clock, rack),
    )
    if state.mode == "scoresheet":
        # Passes and exchanges are turns on the sheet too, scored 0 (the
        # scorekeeper's screen enters those zeros itself).
        st = replace(st, presses=add_pair(st.presses, p, 1))
    if st.locked[opp] and kind == "pass" and not st.locked[p]:
        st = replace(
            st,
            rulings=ruled(
                st,
                t,
                "cutoff",
                f"{state.players[p]} passes while {state.players[opp]} may not play: the game ends",
            ),
        )
        return end_game(st, t, "cutoff")
    return scoreless_check(st, t)


def _exchanged(state: GameState, ev: Exchanged, t: int) -> GameState:
    live_turn(state, ev.player, "exchange")
    v = variant_of(state)
    p = ev.player
    if state.locked[p]:
        raise Refusal(
            f"{state.players[p]} may make no more plays; pass instead", rule(state, "cutoff")
        )
    if state.mode == "board":
        if state.bag < v.exchange_min_bag:
            raise Refusal(
                f"the bag holds {state.bag} tiles; an exchange needs at least {v.exchange_min_bag}",
                rule(state, "exchange_min_bag"),
            )
        if not 1 <= ev.count <= state.held[p]:
            raise Refusal(
                f"cannot exchange {ev.count} tiles from a rack of {state.held[p]}",
                rule(state, "exchange_min_bag"),
            )
    elif not 1 <= ev.count <= tiles_of(state).rack_size:
        raise Refusal(f"cannot exchange {ev.count} tiles", rule(state, "exchange_min_bag"))
    if ev.tiles is not None and (
        len(ev.tiles) != ev.count or not all(ch == "?" or ch.isalpha() for ch in ev.tiles)
    ):
        raise Refusal(
            f"exchanged tiles {ev.tiles!r} are not {ev.count} tiles (letters, ? for a blank)",
            rule(state, "exchange_min_bag"),
        )
    if v.exchange_max_same_letter and ev.rack:
        most, letter = max((n, ch) for ch, n in Counter(ev.rack.upper()).items())
        if most > v.exchange_max_same_letter:
            raise Refusal(
                f"rack {ev.rack!r} holds {most} {letter!r}: no exchange with "
                f"{v.exchange_max_same_letter + 1} or more of one letter",
                rule(state, "exchange_max_same_letter"),
            )
    st = replace(
        state,
        rulings=ruled(
            state,
            t,
            "exchange_min_bag",
            f"{state.players[p]} exchanges {ev.count}; {state.players[1 - p]}'s clock runs",
        ),
    )
    # The tiles put back stay off the history the table shows (the opponent would
    # learn them); they are kept for the game record.
    return _end_turn_without_play(
        st, p, t, "exchange", f"-{ev.count}", ev.tiles.upper() if ev.tiles else ""
    )


def _passed(state: GameState, ev: Passed, t: int) -> GameState:
    live_turn(state, ev.player, "pass")
    return _end_turn_without_play(state, ev.player, t, "pass", "-")


def _turn_scored(state: GameState, ev: TurnScored, t: int) -> GameState:
    refuse_player(state, ev.player)
    if state.mode != "scoresheet":
        raise Refusal("board mode scores each play from the board", rule(state, "mode"))
    if state.phase in (Phase.NOT_STARTED, Phase.OVER):
        raise Refusal(f"cannot score a turn now: {state.describe_phase()}", rule(state, "mode"))
    letter = ev.first_letter.upper()
    if len(letter) > 1 or (letter and not letter.isalpha()):
        raise Refusal(
            f"first letter must be one letter, got {ev.first_letter!r}", rule(state, "mode")
        )
    p = ev.player
    index = state.scored[p] + 1
    if ev.turn and ev.turn != index:
        # An entry is bound to the turn it was typed for: if that turn was scored
        # meanwhile (or is not yet reached) it is refused, never moved to another turn.
        said = "is already scored" if ev.turn < index else "is not the next to score"
        raise Refusal(
            f"{state.players[p]}'s turn {ev.turn} {said}: the next to score is turn {index}",
            rule(state, "mode"),
        )
    # The scorekeeper may lag (TOR-1) but scores only turns played, or the one being
    # played by the player on turn.
    if index > state.presses[p] + (1 if state.turn == p else 0):
        raise Refusal(
            f"{state.players[p]} has ended only {state.presses[p]} turns; "
            f"turn {index} cannot be scored yet",
            rule(state, "mode" if variant_of(state).mode == "scoresheet" else "turn_rule"),
        )
    if state.locked[p] and index > state.locked_presses[p] and ev.score:
        # TOR-8: "When your clock reaches -1:01, you may make no more plays. If a
        # partially or completely executed play is on the board when your clock
        # passes -1:00, it should be removed from the board." A turn ended after it
        # is a pass: its play does not count, and the entry is refused, not moved.
        raise Refusal(
            f"{state.players[p]}'s turn {index} came after "
            f"{clock_text(-variant_of(state).cutoff_overtime_ms)}: no more plays, "
            "its play is taken off the board and the turn scores 0",
            rule(state, "cutoff"),
        )
    score = ev.score
    st = state
    withdrawn = state.voided[p] == index
    if withdrawn:
        score = 0
        st = replace(
            st,
            voided=set_pair(st.voided, p, 0),
            rulings=ruled(
                st,
                t,
                "challenge_rule",
                f"turn {index} of {state.players[p]} was withdrawn: it scores 0",
            ),
        )
    scores = add_pair(st.scores, p, score)
    last = st.last
    if last is not None and last.player == p and last.index == index:
        last = replace(last, score=score, move=letter)
    # Scoreless turns count from the turns (passes, exchanges, withdrawals), not from
    # score entries, which may come late.
    entry = SheetEntry(letter, score, withdrawn)
    return replace(
        st,
        scores=scores,
        scored=add_pair(st.scored, p, 1),
        sheet=set_pair(st.sheet, p, (*st.sheet[p], entry)),
        last=last,
        history=line(st, t, p, "scored", letter, score, scores, st.clock),
    )


def _blank_demanded(state: GameState, ev: BlankDemanded, t: int) -> GameState:
    refuse_player(state, ev.player)
    last = state.last
    if (
        last is None
        or not last.unnamed
        or last.player == ev.player
        or state.phase is not Phase.PLAYING
    ):
        raise Refusal("there is no unnamed blank to demand", rule(state, "blank_before_press"))
    return replace(
        state,
        phase=Phase.BLANK_DEMANDED,
        clock=state.clock.start(last.player, t),
        rulings=ruled(
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
            rule(state, "blank_before_press"),
        )
    named = iter(letters.lower())
    move = "".join(next(named) if ch == "?" else ch for ch in play.move)
    assert state.board is not None
    assert play.placement is not None
    board = state.board.without(i for i, _ in play.placement.new) if on_board else state.board
    pl = place(board, parse_move(move), tiles_of(state))
    return replace(play, move=pl.move.gcg(), placement=pl, words=pl.words, unnamed=0)


def _blank_designated(state: GameState, ev: BlankDesignated, t: int) -> GameState:
    refuse_player(state, ev.player)
    comp = state.composing
    if comp is not None and comp.player == ev.player and comp.unnamed:
        return replace(state, composing=_rename(state, comp, ev.letters, on_board=False))
    last = state.last
    if last is None or last.player != ev.player or not last.unnamed:
        raise Refusal(
            f"{state.players[ev.player]} has no unnamed blank", rule(state, "blank_before_press")
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
        rulings=ruled(
            state,
            t,
            "blank_before_press",
            f"{state.players[ev.player]} names the blank: {named.move}",
        ),
    )
    if state.phase is Phase.BLANK_DEMANDED:
        st = replace(st, phase=Phase.PLAYING, clock=st.clock.start(1 - ev.player, t))
    return st


HANDLERS: dict[type, Callable[[GameState, Any, int], GameState]] = {
    TilesPlaced: _placed,
    ClockPressed: pressed,
    Exchanged: _exchanged,
    Passed: _passed,
    TurnScored: _turn_scored,
    BlankDemanded: _blank_demanded,
    BlankDesignated: _blank_designated,
}
"""The events this module handles."""
