"""Which turns await a score: the order in which turns ended, across both players.

The scorekeeper may lag behind play (TOR-1); the oldest turn not yet scored is
scored first, whoever played it. Each entry is sent bound to its turn (player and
turn number), so an entry typed for one turn is never credited to another: if
that turn was scored meanwhile, the engine refuses the entry. Pure: no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import Refusal
from engine.events import Event, Exchanged, GameStarted, Passed, TurnCorrected, TurnScored
from engine.rules.machine import apply
from engine.rules.state import GameState, Phase
from terminal_ui.scorekeeper.entry import Entry

__all__ = [
    "AUTO_ZERO",
    "SCORING_PHASES",
    "TurnBook",
    "TurnRef",
    "entry_event",
    "locked_hint",
    "undo_event",
    "unscored_before_racks",
]

SCORING_PHASES = (
    Phase.PLAYING,
    Phase.HOLD,
    Phase.CHALLENGE,
    Phase.SCORE_DISPUTE,
    Phase.OVERDRAW,
    Phase.BLANK_DEMANDED,
    Phase.OUT_PLAY,
    Phase.END_RACKS,
)
"""Phases in which the engine takes a turn's score (after a cutoff ends the game too:
a lagging scorekeeper catches up before the racks, TOR-1)."""


@dataclass(frozen=True, slots=True)
class TurnRef:
    """One ended turn: whose, which of theirs (1-based) and how it ended."""

    player: int
    index: int
    kind: str
    """``play`` (the clock was pressed), ``pass``, ``exchange``, or ``locked`` (pressed
    after the player's clock passed the no-more-plays cutoff: it scores 0, TOR-8)."""


AUTO_ZERO = ("pass", "exchange")
"""How a turn ends when it scores 0 by itself, once the scorekeeper reaches it. A
locked-out press is not among them: to the scorekeeper it looks like a play, so
the next entry is for it (a score refused with TOR-8, ``-`` recording its 0);
scoring it silently would shift every later entry onto the wrong turn."""


@dataclass
class TurnBook:
    """The order in which turns ended, so the oldest unscored one is scored first.

    The engine counts each player's ended turns (``presses``) and scored turns
    (``scored``); this book adds the order across players and how each ended.
    """

    turns: list[TurnRef] = field(default_factory=list)
    entries: list[tuple[int, int]] = field(default_factory=list)
    """The turns the scorekeeper scored, (player, turn), in the order they were scored
    (not the 0s the screen records by itself for passes and exchanges)."""

    def observe(self, before: GameState, event: Event, after: GameState) -> None:
        """Note the turn ``event`` ended, if any."""
        if isinstance(event, GameStarted):
            self.turns.clear()
            self.entries.clear()
            return
        if isinstance(event, TurnScored):
            p = event.player
            turn = after.scored[p]
            # The screen's own 0s score a pass or an exchange once it has ended; an
            # entry typed for a turn still in play is the scorekeeper's whatever it became.
            own = turn <= before.presses[p] and self.kind(p, turn) in AUTO_ZERO
            if not own:
                self.entries.append((p, turn))
        if (
            isinstance(event, TurnCorrected)
            and event.undo
            and (event.player, event.turn) in self.entries
        ):
            self.entries.remove((event.player, event.turn))
        for p in (0, 1):
            if after.presses[p] > before.presses[p]:
                if isinstance(event, Passed):
                    kind = "pass"
                elif isinstance(event, Exchanged):
                    kind = "exchange"
                elif after.locked[p]:
                    kind = "locked"
                else:
                    kind = "play"
                self.turns.append(TurnRef(p, after.presses[p], kind))

    @classmethod
    def rebuild(cls, events: list[tuple[int, Event]]) -> TurnBook:
        """The book of a resumed log, from its events."""
        book = cls()
        st = GameState()
        for _, ev in events:
            try:
                new = apply(st, ev)
            except Refusal:
                continue
            book.observe(st, ev, new)
            st = new
        return book

    def auto_zeros(self, state: GameState) -> list[TurnScored]:
        """The 0s to record by themselves: each player's next unscored turn when it was
        a pass or an exchange (a locked-out press waits for the scorekeeper: AUTO_ZERO)."""
        if state.phase not in SCORING_PHASES:
            return []
        out = []
        for p in (0, 1):
            index = state.scored[p] + 1
            if index <= state.presses[p] and self.kind(p, index) in AUTO_ZERO:
                out.append(TurnScored(player=p, score=0, turn=index))
        return out

    def kind(self, player: int, index: int) -> str:
        """How ``player``'s turn ``index`` ended (``play`` when unknown)."""
        for ref in self.turns:
            if ref.player == player and ref.index == index:
                return ref.kind
        return "play"

    def pending(self, state: GameState) -> list[TurnRef]:
        """Ended turns not yet scored, oldest first."""
        out = [r for r in self.turns if r.index > state.scored[r.player]]
        for p in (0, 1):  # turns the book missed (it never should): after the rest
            known = {r.index for r in out if r.player == p}
            for i in range(state.scored[p] + 1, state.presses[p] + 1):
                if i not in known:
                    out.append(TurnRef(p, i, "play"))
        return out

    def target(self, state: GameState, player: int | None = None) -> TurnRef | None:
        """The turn the next entry scores: ``player``'s next, or the oldest unscored
        turn, or else the turn being played; None when there is none."""
        if state.phase not in SCORING_PHASES:
            return None
        if player is not None:
            index = state.scored[player] + 1
            if index <= state.presses[player]:
                return TurnRef(player, index, self.kind(player, index))
            if (
                state.turn == player
                and index == state.presses[player] + 1
                and state.phase is not Phase.END_RACKS
            ):
                return _in_play(state, player)
            return None
        pending = self.pending(state)
        if pending:
            return pending[0]
        p = state.turn
        if state.scored[p] == state.presses[p] and state.phase is not Phase.END_RACKS:
            return _in_play(state, p)
        return None


def _in_play(state: GameState, player: int) -> TurnRef:
    """The turn ``player`` is playing: a locked-out player's scores 0 (TOR-8)."""
    return TurnRef(
        player, state.presses[player] + 1, "locked" if state.locked[player] else "in play"
    )


def entry_event(
    state: GameState, book: TurnBook, entry: Entry, chosen: int | None = None
) -> TurnScored | str:
    """The event that records ``entry`` on the turn it is meant for (the player it
    names, else ``chosen``, else the oldest unscored turn), bound to that turn; or why
    no turn can take it. An entry the rules refuse on that turn (a score for a turn
    locked out by TOR-8) is still sent: the engine refuses it with its rule and the
    table's log keeps the refusal, so the director sees it in the timeline."""
    player = entry.player if entry.player is not None else chosen
    target = book.target(state, player)
    if target is None:
        who = state.players[player] if player is not None else "anyone"
        return f"no turn of {who} to score now"
    return TurnScored(
        player=target.player, score=entry.score, first_letter=entry.letter, turn=target.index
    )


def undo_event(state: GameState, book: TurnBook) -> TurnCorrected | str:
    """The correction taking back the scorekeeper's last entry (not a 0 the screen
    recorded by itself for a pass or an exchange); or why there is none."""
    if book.entries:
        player, index = book.entries[-1]
        if index == state.scored[player]:
            return TurnCorrected(player=player, turn=index, undo=True)
        return (
            f"the last entry, {state.players[player]}'s turn {index}, is followed by a "
            f"later turn of theirs: correct it with fix {player + 1}:{index} ..."
        )
    return "no entry to take back; correct an earlier one with fix (fix 1:3 Q24)"


def locked_hint(state: GameState, event: TurnScored) -> str:
    """What the scorekeeper types after the engine refused a score for a turn locked
    out by TOR-8 (its play is off the board and it scores 0): "" for any other entry."""
    p = event.player
    if event.score and state.locked[p] and event.turn > state.locked_presses[p]:
        return "; enter - for it"
    return ""


def unscored_before_racks(state: GameState, book: TurnBook) -> str | None:
    """Why the racks cannot be entered yet: every play must be scored first (TOR-1)."""
    pending = [r for r in book.pending(state) if r.kind == "play"]
    if pending and state.phase is not Phase.END_RACKS:
        first = pending[0]
        return (
            f"score every turn before the racks: {state.players[first.player]} "
            f"turn {first.index} is not scored (TOR-1)"
        )
    return None
