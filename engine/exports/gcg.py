"""A game from the log as a GCG record that strict readers load (docs/gcg.md).

The clock time rides as an annotation after the cumulative score:
``>Ann: DINWY 8D WINDY +32 32 @24:28.5`` is the time left on the mover's clock after
the move (``@-0:12.0`` in overtime); readers match the fields before it and ignore
the rest (MAGPIE's and macondo's patterns are not anchored at the end).

What strict readers (MAGPIE's is the strictest public one) refuse, and how this
writer avoids it:

* no ``#note`` before the first move: the rules and clock information are in
  ``#description``;
* a rack field on every move: the tiles known to have been on the rack. Racks are
  not seen at a table, but the tiles a player lays were on the rack, a pass leaves
  the rack as it is at the player's next turn, and the end-of-game lines show the
  last racks: :func:`known_racks` works this out backwards (a partial rack, as
  annotators write). A pass whose rack nothing shows gets one stand-in tile
  (:func:`stand_ins`), a note and a ``#rackclock-rack-unknown`` pragma;
* an exchange names its tiles when the table recorded them (``x AEIU``); when only
  the count is known it is written as a pass (the same score, turn and scoreless
  count) whose rack is the tiles known after it, with a note and a
  ``#rackclock-exchange N`` pragma that our reader takes back as the exchange;
* once the bag is empty a play drew nothing, so its rack is the tiles played and
  the rack at the player's next turn (MAGPIE takes a rack of only the tiles played
  for going out); a play whose rack nothing else shows, with moves after it, keeps
  one stand-in tile; a blank-only rack left against an out-play gets its ``+0`` line;
* a one-tile play is written in the direction in which it forms a word
  (:class:`engine.exports.gcg_table.Table`): MAGPIE scores the written direction;
* no ``#incomplete``: an unfinished game simply stops; a game stopped at the
  overtime cutoff is written unfinished (no end-rack lines, which MAGPIE refuses
  before a game it sees end), its result and deductions stated after the last line;
* names cleaned and told apart (:func:`player_names`);
* a blank never named at the table is written as ``a`` with a note saying so;
* the ``(time)`` lines come after the end-of-game rack lines;
* our own pragmas (``#rackclock-settled``, ``#rackclock-result``) follow a
  ``#note`` line, which strict readers continue into.

A score the players settled in a dispute is the play's score. Director's
adjustments have no GCG event: they are notes, not in the totals. A result the
arithmetic cannot show (a resignation, a forfeit, a declared result) is stated
after the last move, in a note for people and a
``#rackclock-result REASON SCORE1 SCORE2 WINNER SPREAD`` pragma for programs
(:func:`engine.gcg.result.stated_result`); a cutoff also carries its deducted racks
and director's adjustments (``#rackclock-deducted``, ``#rackclock-adjusted``) so the
checker can hold the result to the moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set

import msgspec

from engine.clocktext import clock_text
from engine.equipment.board import Board
from engine.equipment.rack import rack_string
from engine.equipment.tiles import load_tile_set
from engine.errors import EngineError
from engine.exports.gcg_table import Table
from engine.exports.names import printable
from engine.gcg.check import EXCHANGE_PRAGMA, SETTLED_PRAGMA, UNKNOWN_RACK_PRAGMA
from engine.gcg.record import Event, EventKind, GameRecord, Player, Pragma
from engine.gcg.result import ADJUSTED_PRAGMA, DEDUCTED_PRAGMA, RESULT_PRAGMA
from engine.play.notation import parse_move
from engine.rules.state import GameState, Turn
from engine.tournament.scores import result_text

__all__ = [
    "ExportError",
    "clock_annotation",
    "known_racks",
    "player_names",
    "stand_ins",
    "to_gcg",
]

_STATED = ("resigned", "forfeit", "lateness", "bye", "absent", "declared")
"""Results that are not the moves' totals."""


class ExportError(EngineError, ValueError):
    """The game cannot be written in the requested format."""


def clock_annotation(ms: int) -> str:
    """``@24:28.5`` for 1468500 ms; negative in overtime."""
    return "@" + clock_text(ms, tenths=True)


def player_names(names: tuple[str, str]) -> tuple[str, str]:
    """The names as a GCG ``#player`` line can hold them (docs/gcg.md, "Player names").

    A name is one line (:func:`engine.exports.names.printable`, the one rule): each
    run of white space and of characters a name may not hold (control, line and
    paragraph separators, invisible format characters but the joiners U+200C/U+200D,
    private-use and unassigned) becomes one space, and the ends are trimmed; a name
    left empty is ``Player 1`` or ``Player 2`` (its seat).
    Two players may not share a name (MAGPIE: "duplicate player name"): when the
    cleaned names are equal but for case (as the checker compares them), the second
    seat's gets `` (2)``.
    """
    cleaned = [printable(name) or f"Player {seat}" for seat, name in enumerate(names, start=1)]
    # casefold: the one rule the checker (engine/gcg/check.py) holds names to
    if cleaned[0].casefold() == cleaned[1].casefold():
        cleaned[1] += " (2)"
    return cleaned[0], cleaned[1]


def _nick(name: str, taken: set[str]) -> str:
    base = "".join(ch for ch in name if not ch.isspace() and ch != ":") or "player"
    nick = base
    n = 2
    while nick in taken:
        nick = f"{base}{n}"
        n += 1
    taken.add(nick)
    return nick


def _event(line: Turn, nick: str, total: int) -> Event | None:
    note = clock_annotation(line.remaining_ms)
    k = line.kind
    if k == "play":
        move = parse_move(line.text, unnamed_blanks=True)
        pragmas: tuple[Pragma, ...] = ()
        if "?" in move.tiles:
            # GCG has no blank without a letter; the score does not depend on it.
            move = msgspec.structs.replace(move, tiles=move.tiles.replace("?", "a"))
            pragmas = (Pragma("note", "a blank was not named at the table; written as 'a'"),)
        return Event(
            EventKind.PLACEMENT, nick, "", line.score, total, move=move, annotation=note,
            pragmas=pragmas,
        )  # fmt: skip
    if k == "withdrawn":
        return Event(EventKind.WITHDRAWN, nick, "", line.score, total, annotation=note)
    if k in ("pass", "lost_turn"):
        pragmas = (
            (Pragma("note", "turn lost to an unsuccessful double challenge"),)
            if k == "lost_turn"
            else ()
        )
        return Event(EventKind.PASS, nick, "", 0, total, annotation=note, pragmas=pragmas)
    if k == "exchange":
        # The tiles put back, when named, are in ``rack`` (the table shows only "-3").
        if line.rack:
            return Event(
                EventKind.EXCHANGE, nick, "", 0, total, exchanged=line.rack, annotation=note
            )
        # Only counted: strict readers need an exchange's tiles, so it is written as a
        # pass (the same score, turn and scoreless count) saying what it was; our
        # reader takes it back as the exchange (docs/gcg.md).
        count = line.text[1:]
        said = (
            Pragma("note", f"exchanged {count} (the tiles were not recorded at the table)"),
            Pragma(EXCHANGE_PRAGMA, count),
        )
        return Event(EventKind.PASS, nick, "", 0, total, annotation=note, pragmas=said)
    if k == "bonus":
        return Event(EventKind.CHALLENGE_BONUS, nick, "", line.score, total, annotation=note)
    if k == "end_racks":
        tiles = line.text.strip("()")
        if line.score >= 0:
            return Event(EventKind.END_POINTS, nick, "", line.score, total, end_rack=tiles)
        return Event(
            EventKind.END_DEDUCTION, nick, line.rack, line.score, total, end_rack=line.rack
        )
    if k == "penalty":
        return Event(EventKind.TIME_PENALTY, nick, "", line.score, total)
    return None


def _with_pragmas(ev: Event, more: tuple[Pragma, ...]) -> Event:
    return msgspec.structs.replace(ev, pragmas=(*ev.pragmas, *more))


def _rescored(ev: Event, delta: int, total_delta: int | None = None) -> Event:
    """``ev`` with its score moved by ``delta`` and its total by ``total_delta``
    (``delta`` by default): a settled score, or a later line of the same player."""
    return msgspec.structs.replace(
        ev,
        score=ev.score + delta,
        cumulative=ev.cumulative + (delta if total_delta is None else total_delta),
    )


def to_gcg(state: GameState, *, title: str = "") -> GameRecord:
    """The game in ``state`` as a GCG record.

    Raises:
        ExportError: A scoresheet-mode game (no board positions to write).
    """
    if state.mode != "board":
        raise ExportError("a scoresheet game has no board positions; export the log instead")
    if all(line.kind == "adjusted" for line in state.history):
        raise ExportError(
            f"{state.players[0]} v {state.players[1]} has no moves to write"
            + (f" ({state.result.reason})" if state.result is not None else "")
        )
    names = player_names(state.players)
    taken: set[str] = set()
    nicks = [_nick(names[0], taken), _nick(names[1], taken)]
    # GCG lists the player who moved first as #player1.
    first = next(
        (line.player for line in state.history if line.kind not in ("adjusted", "rescored")), 0
    )
    order = (first, 1 - first)
    players = tuple(Player(nicks[i], names[i]) for i in order)
    header: list[Pragma] = []
    title = printable(title)
    if title:
        header.append(Pragma("title", title))
    if state.variant is not None:
        # Not a #note: a note belongs to a move, and strict readers refuse one before.
        header.append(
            Pragma(
                "description",
                f"rackclock; rules: {state.variant.title}; "
                "each move's clock time follows its total (@M:SS.d)",
            )
        )
    # The engine's history ends with the rack lines, then the (time) lines, the
    # order readers expect.
    lines = list(state.history)
    res = state.result
    # A game stopped at the overtime cutoff is written unfinished: strict readers take
    # an end-rack line only after a game they see end (out, or six scoreless turns;
    # MAGPIE: "end rack penalty event before the game ended"). The deductions are in
    # the stated result instead.
    cutoff = res is not None and res.reason == "cutoff"
    ts = load_tile_set(state.variant.tile_set if state.variant is not None else "english")
    table = Table(
        Board.empty(state.variant.layout if state.variant is not None else "standard"),
        ts.total - 2 * ts.rack_size,
    )
    drew_nothing: set[int] = set()
    deducted: list[str] = []
    deducted_racks: list[str] = []  # the same, by nickname, for a program to check
    adjusted = [0, 0]  # director's adjustments: in the result, not in the totals
    unwritten: set[int] = set()
    totals = [0, 0]
    events: list[Event] = []
    early: list[Pragma] = []
    for line in lines:
        if line.kind == "rescored":
            # The players settled the score: it is the play's score, in the totals.
            totals[line.player] += line.score
            at = max(i for i, ev in enumerate(events) if ev.nick == nicks[line.player])
            played = events[at]
            score = played.score + line.score
            settled = (
                Pragma("note", f"score settled at the table: {score}"),
                Pragma(SETTLED_PRAGMA, str(score)),
            )
            events[at] = _with_pragmas(_rescored(played, line.score), settled)
            for j in range(at + 1, len(events)):
                if events[j].nick == played.nick:
                    events[j] = _rescored(events[j], 0, line.score)
            continue
        if line.kind == "adjusted":
            adjusted[line.player] += line.score
            note = Pragma(
                "note",
                f"director: {names[line.player]} {line.score:+d}: {line.text} (not in the totals)",
            )
            shown = next((i for i in reversed(range(len(events))) if i not in unwritten), None)
            if shown is not None:
                events[shown] = _with_pragmas(events[shown], (note,))
            else:
                # A note before the first move is refused by strict readers: it waits
                # for the first move, and says when it was made.
                early.append(msgspec.structs.replace(note, value=f"{note.value}, before this move"))
            continue
        if line.kind == "scored":
            raise ExportError("a scoresheet game has no board positions; export the log instead")
        if line.kind == "end_racks" and cutoff:
            # Not written, not in the totals; kept until the racks are worked out.
            deducted.append(f"{names[line.player]} {line.rack} {line.score:+d}")
            deducted_racks.append(f"{nicks[line.player]} {line.rack} {line.score:+d}")
            ev = _event(line, nicks[line.player], totals[line.player])
            if ev is not None:
                events.append(ev)
                unwritten.add(len(events) - 1)
            continue
        totals[line.player] += line.score
        ev = _event(line, nicks[line.player], totals[line.player])
        if ev is None:
            continue
        if ev.kind is EventKind.PLACEMENT:
            assert ev.move is not None
            written, empty_bag = table.play(line.player, ev.move)
            ev = msgspec.structs.replace(ev, move=written)
            if empty_bag:
                drew_nothing.add(len(events))
        elif ev.kind is EventKind.WITHDRAWN:
            table.withdraw(line.player)
        if early and not events:
            ev = _with_pragmas(ev, tuple(early))
        events.append(ev)
    if res is not None and res.reason == "out" and events:
        events = _zero_end_rack(events, state, nicks, totals, ts.distribution())
    # An unfinished game simply stops (#incomplete is not a pragma every reader knows).
    racks = known_racks(events, nicks, drew_nothing)
    events = [
        msgspec.structs.replace(ev, rack=rack) for ev, rack in zip(events, racks, strict=True)
    ]
    # The racks deducted at a cutoff showed the racks; they are not written (above).
    events = [ev for i, ev in enumerate(events) if i not in unwritten]
    if res is not None and (res.reason in _STATED or cutoff) and events:
        winner = "tie" if res.winner is None else nicks[res.winner]
        words = result_text(names, res.scores, res.winner, res.reason, res.spread)
        said = f"result: {words}"
        if deducted:
            said += f"; end racks deducted: {', '.join(deducted)}"
        stated: tuple[Pragma, ...] = (
            Pragma("note", said),
            Pragma(
                RESULT_PRAGMA,
                f"{res.reason} {res.scores[order[0]]} {res.scores[order[1]]} {winner} {res.spread}",
            ),
        )
        if deducted_racks:
            # After the note, as the result: MAGPIE reads both as the note's continuation.
            stated += (Pragma(DEDUCTED_PRAGMA, " ".join(deducted_racks)),)
        if cutoff and any(adjusted):
            value = " ".join(f"{nicks[i]} {adjusted[i]:+d}" for i in order if adjusted[i])
            stated += (Pragma(ADJUSTED_PRAGMA, value),)
        events[-1] = _with_pragmas(events[-1], stated)
    events = stand_ins(events, ts.distribution(), drew_nothing)
    # Every header line's text decides: a title from a file name may need UTF-8 alone.
    texts = (*names, *(p.value for p in header))
    encoding = "UTF-8" if any(ord(ch) > 127 for text in texts for ch in text) else "ISO-8859-1"
    return GameRecord(players, tuple(header), tuple(events), encoding)


def _zero_end_rack(
    events: list[Event],
    state: GameState,
    nicks: list[str],
    totals: list[int],
    tiles: Counter[str],
) -> list[Event]:
    """``events`` with the ``(?) +0`` line of a game gone out against a rack worth
    nothing (only blanks), which the engine does not write (it adds no points).

    Without it a reader that replays the racks has nothing to put the blank back on
    the opponent's rack, takes the opponent's last play for going out, and refuses
    the moves after it (MAGPIE: "encountered a move after the game ended"). With the
    bag empty and the player out, the rack left is every tile not on the board.
    """
    if state.board is None or any(ev.kind is EventKind.END_POINTS for ev in events):
        return events
    plays = [ev for ev in events if ev.kind is EventKind.PLACEMENT]
    if not plays:
        return events
    out = nicks.index(plays[-1].nick)
    left = tiles - state.board.tiles()
    if not left:
        return events
    line = Event(EventKind.END_POINTS, nicks[out], "", 0, totals[out], end_rack=rack_string(left))
    # Before the (time) lines, where the engine writes the rack lines.
    at = len(events)
    while at > 0 and events[at - 1].kind is EventKind.TIME_PENALTY:
        at -= 1
    return [*events[:at], line, *events[at:]]


def stand_ins(
    events: list[Event], tiles: Counter[str], drew_nothing: Set[int] = frozenset()
) -> list[Event]:
    """Each rack that nothing shows and a strict reader cannot take, given one
    stand-in tile and marked so.

    Strict readers need at least one tile on a pass (MAGPIE: "could not parse pass
    rack"), and GCG has no way to say "unknown". A play that drew nothing (an index in
    ``drew_nothing``) whose rack shows only the tiles played, with moves after it (the
    game stopped by a resignation, a forfeit or the director before the racks were
    counted), would read as going out, and the moves after it are refused ("move
    after the game ended"): it gets one stand-in tile kept. The stand-in is one tile
    that could have been on the rack (not on the board, not on the opponent's rack as
    written before or next), so a reader that replays the racks finds it in the bag; a
    ``#note`` says it is not what the player held, and :data:`UNKNOWN_RACK_PRAGMA`
    tells our reader to read it so (a pass's rack unknown, a play's rack without it).

    An exchange only counted is written as a pass, except after a play the player
    took back whose tiles have not all been played since: a replaying reader holds
    those tiles on the player's rack until they are played or exchanged (MAGPIE:
    "known letters from phonies"), and refuses the record when the opponent later
    draws one ("rack of ... not in bag"). There it is written as an exchange of
    stand-in tiles, marked so; our reader takes it back as the exchange counted.
    """
    moves = (EventKind.PLACEMENT, EventKind.PASS, EventKind.EXCHANGE)
    last_move = max((i for i, ev in enumerate(events) if ev.kind in moves), default=-1)
    out: list[Event] = []
    board: Counter[str] = Counter()
    laid: dict[str, Counter[str]] = {}
    last_rack: dict[str, Counter[str]] = {}
    # Tiles of plays taken back, not played since: a replaying reader's knowledge.
    phony: dict[str, Counter[str]] = {}
    for i, ev in enumerate(events):
        if ev.kind is EventKind.PLACEMENT:
            assert ev.move is not None
            laid[ev.nick] = _tiles(ev.move.tiles)
            board += laid[ev.nick]
            phony[ev.nick] = phony.get(ev.nick, Counter()) - laid[ev.nick]
        elif ev.kind is EventKind.WITHDRAWN:
            back = laid.pop(ev.nick, Counter())
            board -= back
            phony[ev.nick] = phony.get(ev.nick, Counter()) | back
        elif ev.kind is EventKind.EXCHANGE:
            phony[ev.nick] = Counter()
        count = next((pr.value for pr in ev.pragmas if pr.name == EXCHANGE_PRAGMA), "")
        if ev.kind is EventKind.PASS and count.isdigit() and phony.get(ev.nick):
            ev = _stand_in_exchange(ev, int(count), tiles - board - _others(last_rack, ev.nick))
            phony[ev.nick] = Counter()
            out.append(ev)
            continue
        unseen = ev.kind is EventKind.PASS and not ev.rack
        taken_out = (
            i in drew_nothing
            and i < last_move
            and ev.kind is EventKind.PLACEMENT
            and _tiles(ev.rack) == laid[ev.nick]
            and not (i + 1 < len(events) and events[i + 1].kind is EventKind.WITHDRAWN)
        )
        if unseen or taken_out:
            # Nor on the opponent's next rack, which a reader keeping racks holds.
            after = next((e for e in events[i + 1 :] if e.nick != ev.nick and e.rack), None)
            later = _tiles(after.rack) if after is not None else Counter[str]()
            free = tiles - board - _others(last_rack, ev.nick) - later
            stand_in = _commonest(free)
            what = "it" if unseen else "the tiles kept"
            marked = (
                Pragma("note", f"rack not seen at the table: {stand_in} stands in for {what}"),
                Pragma(UNKNOWN_RACK_PRAGMA, stand_in),
            )
            written = rack_string(_tiles(ev.rack + stand_in))
            ev = _with_pragmas(msgspec.structs.replace(ev, rack=written), marked)
        if ev.rack:
            last_rack[ev.nick] = _tiles(ev.rack)
        out.append(ev)
    return out


def _others(racks: dict[str, Counter[str]], nick: str) -> Counter[str]:
    """The tiles on the other players' racks as last written."""
    others = Counter[str]()
    for who, rack in racks.items():
        if who != nick:
            others += rack
    return others


def _commonest(pool: Counter[str]) -> str:
    """The stand-in tile: the commonest in ``pool``, a letter before the blank,
    alphabetical on ties (the blank when ``pool`` is empty)."""
    return min(pool, key=lambda t: (t == "?", -pool[t], t), default="?")


def _stand_in_exchange(ev: Event, count: int, free: Counter[str]) -> Event:
    """The counted exchange ``ev`` (a pass line) as an exchange of ``count`` stand-in
    tiles from ``free``, the commonest first (a letter before the blank)."""
    pool = Counter(free)
    chosen = Counter[str]()
    for _ in range(count):
        tile = _commonest(pool)
        chosen[tile] += 1
        pool[tile] -= 1
        pool = +pool
    tiles = rack_string(chosen)
    marked = (
        Pragma("note", f"{tiles} stand in for the tiles exchanged, which were not seen"),
        Pragma(UNKNOWN_RACK_PRAGMA, tiles),
    )
    return _with_pragmas(
        msgspec.structs.replace(ev, kind=EventKind.EXCHANGE, rack=tiles, exchanged=tiles), marked
    )


def _tiles(text: str) -> Counter[str]:
    """Rack tiles in a play, an exchange or an end rack: a lower-case letter is a blank."""
    return Counter("?" if ch.islower() or ch == "?" else ch for ch in text if ch != ".")


def known_racks(
    events: list[Event], nicks: list[str], drew_nothing: Set[int] = frozenset()
) -> list[str]:
    """The tiles known to have been on the mover's rack at each line, worked out
    backwards: the tiles a player lays were on the rack; a pass (or a play taken back)
    leaves the rack as it is at the player's next turn; a play that drew nothing (the
    indexes in ``drew_nothing``: the bag was empty) kept its leave to the player's next
    turn, so a tile on a rack at the end was on it at every turn since the bag emptied;
    the end-of-game lines show the last racks. ``""`` where nothing is known (a time
    penalty; an exchange of tiles the table did not record; a pass with nothing known
    after it).

    Written this way, a reader that replays the racks (MAGPIE) never takes a play
    before the last for going out ("encountered a move after the game ended")."""
    racks = [""] * len(events)
    # Per player, the tiles known to be on the rack at their next turn (empty: none).
    carry: dict[str, Counter[str]] = {nick: Counter() for nick in nicks}
    withdrawn: dict[str, int] = {}
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        p = ev.nick
        k = ev.kind
        if k is EventKind.END_DEDUCTION:
            carry[p] = _tiles(ev.end_rack)
            racks[i] = rack_string(carry[p])
        elif k is EventKind.END_POINTS:
            carry[nicks[1 - nicks.index(p)]] = _tiles(ev.end_rack)
        elif k is EventKind.CHALLENGE_BONUS:
            racks[i] = rack_string(carry[p])  # the rack after the play, as MAGPIE writes
        elif k is EventKind.WITHDRAWN:
            withdrawn[p] = i
        elif k is EventKind.PASS:
            racks[i] = rack_string(carry[p])
            if any(pr.name == EXCHANGE_PRAGMA for pr in ev.pragmas):
                # An exchange written as a pass: the rack before it is not known.
                carry[p] = Counter()
        elif k is EventKind.EXCHANGE:
            carry[p] = _tiles(ev.exchanged)
            racks[i] = rack_string(carry[p])
        elif k is EventKind.PLACEMENT:
            assert ev.move is not None
            known = _tiles(ev.move.tiles)
            if p in withdrawn:
                # Taken back: the same rack is the player's at the next turn.
                known |= carry[p]
                racks[withdrawn.pop(p)] = rack_string(known)
            elif i in drew_nothing:
                known = known + carry[p]
            racks[i] = rack_string(known)
            carry[p] = known
    return racks
