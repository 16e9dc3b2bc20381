"""A line typed for the scoresheet, read one way wherever it is typed: on the
scorekeeper's screen and on the table terminal in scoresheet mode (the table takes
what the scorekeeper takes). ``Q24``, ``-``, ``2:B12``, ``undo``, ``fix 1:3 Q24``, or
a table command (``hold``, ``end AEI -``...). Pure: no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import EndRacks, Event, TurnCorrected, TurnScored
from engine.rules.state import GameState
from terminal_ui.scorekeeper.entry import (
    Entry,
    alias_command,
    describe_event,
    implausible,
    parse_entry,
    parse_fix,
)
from terminal_ui.scorekeeper.sheet_text import entry_text
from terminal_ui.scorekeeper.turn_book import (
    TurnBook,
    TurnRef,
    entry_event,
    undo_event,
    unscored_before_racks,
)
from terminal_ui.table.commands import CommandError, HelpWanted, Preview, interpret

__all__ = ["Scoresheet"]


@dataclass
class Scoresheet:
    """One game's scoresheet as its keeper types it: which turns await a score (the
    turn book), the player chosen for the next entry, and what a typed line means."""

    by: str = "scorekeeper"
    """Who types, as the table service stamps a neutral or a resume: ``scorekeeper``,
    or ``players`` at the table terminal."""
    book: TurnBook = field(default_factory=TurnBook)
    """The order of the ended turns."""
    chosen: int | None = None
    """The player chosen (Tab) for the next entry; None = the oldest unscored turn."""
    _auto_sent: set[tuple[int, int, int]] = field(default_factory=set)

    def target(self, state: GameState, player: int | None = None) -> TurnRef | None:
        """The turn the next entry scores: ``player``'s, else the chosen player's, else
        the oldest unscored one."""
        return self.book.target(state, player if player is not None else self.chosen)

    def auto_zeros(self, state: GameState) -> list[TurnScored]:
        """The 0s of passes and exchanges reached and not yet sent (each sent once)."""
        out = []
        for zero in self.book.auto_zeros(state):
            key = (state.games, zero.player, zero.turn)
            if key not in self._auto_sent:
                self._auto_sent.add(key)
                out.append(zero)
        return out

    def read(self, text: str, state: GameState) -> Event | HelpWanted:
        """The event ``text`` sends in ``state`` (or the help).

        Raises:
            CommandError: Why no turn or command takes it, with what to type.
        """
        entry = parse_entry(text)
        if entry is not None:
            return self._scored(entry, state)
        correction = self._correction(text, state)
        if correction is not None:
            return correction
        try:
            result = interpret(alias_command(text), state, by=self.by)
        except CommandError as exc:
            raise CommandError(_what_to_type(text, exc)) from None
        if isinstance(result, Preview):  # a play on a board: never in scoresheet mode
            raise CommandError(_what_to_type(text, CommandError("not a play or command")))
        if isinstance(result, EndRacks):
            refusal = unscored_before_racks(state, self.book)
            if refusal is not None:
                raise CommandError(refusal)
        return result

    def said(self, event: Event | HelpWanted, state: GameState) -> str:
        """What Enter will do with what :meth:`read` made of the line, in words."""
        if isinstance(event, HelpWanted):
            return "the help (every entry and command, with an example)"
        if isinstance(event, TurnScored) and event.turn:
            name = state.players[event.player]
            return entry_text(name, event.turn, event.first_letter, event.score)
        return describe_event(event, state)

    def sent(self, event: Event) -> None:
        """``event`` went to the table: an entry's chosen player is used up."""
        if isinstance(event, TurnScored):
            self.chosen = None

    def _scored(self, entry: Entry, state: GameState) -> TurnScored:
        target = self.target(state, entry.player)
        if target is None:
            who = entry.player if entry.player is not None else self.chosen
            name = state.players[who] if who is not None else "anyone"
            raise CommandError(f"no turn of {name} to score now")
        slip = implausible(entry.score, state.scores[target.player], entry.sure)
        if slip is not None:
            raise CommandError(slip)
        event = entry_event(state, self.book, entry, self.chosen)
        if isinstance(event, str):
            raise CommandError(event)
        return event

    def _correction(self, text: str, state: GameState) -> TurnCorrected | None:
        """``undo`` or ``fix 1:3 q24``: the correction; None for other text.

        Raises:
            CommandError: It cannot be made, and why.
        """
        event = undo_event(state, self.book) if text.strip().lower() == "undo" else parse_fix(text)
        if event is None:
            return None
        if isinstance(event, str):
            raise CommandError(event)
        past = _past_any_game(event, state)
        if past is not None:
            raise CommandError(past)
        return event


def _past_any_game(event: TurnCorrected, state: GameState) -> str | None:
    """Why ``event`` would take the player past what a game reaches: the new score
    replaces the old entry's, so the total it adds to is without that entry."""
    sheet = state.sheet[event.player]
    if event.undo or not 1 <= event.turn <= len(sheet) or sheet[event.turn - 1].withdrawn:
        # Taking back lowers the total; a withdrawn play stays 0 whatever is typed;
        # the table refuses a turn not scored.
        return None
    total = state.scores[event.player] - sheet[event.turn - 1].score
    # parse_fix judged the typing slip; only the total is left to judge (sure=True).
    return implausible(event.score, total, sure=True)


def _what_to_type(text: str, exc: CommandError) -> str:
    """A line the keeper got wrong, said with what to type instead."""
    message = str(exc)
    if message.startswith(("not a play or command", "scoresheet mode has no board")):
        return (
            f"not an entry or a command: {text.strip()!r}. Type the play's first letter and "
            "score (Q24), - for a turn that scored nothing, or a command (hold, challenge, "
            "end AEI -); F12 or ? lists them all"
        )
    return message
