"""The table terminal's dialogs: picking the words to challenge, the adjudication both
players watch, and the end of the game with the players' signatures. The start and quit
dialogs are the scorekeeper's too (:mod:`terminal_ui.shared.start`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Checkbox, Label, SelectionList, Static
from textual.widgets.option_list import OptionDoesNotExist

from engine.play.lexicon import Verdict, WordList
from engine.rules.state import GameState
from engine.tournament.scores import result_text
from terminal_ui.shared.start import QuitScreen, StartScreen

__all__ = [
    "AdjudicationScreen",
    "ChallengeScreen",
    "QuitScreen",
    "StartScreen",
    "SummaryScreen",
    "WordPicker",
]


class WordPicker(SelectionList[str]):
    """The words of the play, each in a box: X in the box of a word chosen, an empty
    box for a word left out. (Textual's own list draws X in every box, telling the
    two apart by colour alone: unreadable in plain text or to a colour-blind player.)"""

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return line
        if option.value in self.selected:
            return line
        segments = list(line)
        # The box is the second segment: its left edge, the X, its right edge
        # (SelectionList.render_line; Checkbox draws the same box).
        if len(segments) > 1 and segments[1].text == Checkbox.BUTTON_INNER:
            segments[1] = Segment(" " * len(segments[1].text), segments[1].style)
        return Strip(segments, line.cell_length)


class ChallengeScreen(ModalScreen[tuple[str, ...] | None]):
    """Pick the words to challenge: one challenge covers all of them (NZASP 6.12.2.2)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, words: tuple[str, ...]) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Challenge: pick the words (space), then Enter. Esc cancels.")
            yield WordPicker(*[(w, w, True) for w in self.words], id="words")

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        if key == "enter":
            chosen = tuple(self.query_one(SelectionList).selected)
            self.dismiss(chosen or None)


class AdjudicationScreen(ModalScreen[bool | None]):
    """Both players see the words typed; the verdict covers the whole play only."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "judge", "Judge (word list)"),
        Binding("v", "verdict(True)", "Acceptable"),
        Binding("i", "verdict(False)", "Unacceptable"),
        Binding("enter", "record", "Record the verdict"),
        Binding("escape", "dismiss(None)", "Close"),
    ]

    def __init__(self, words: tuple[str, ...], judge: WordList | None) -> None:
        super().__init__()
        self.words = words
        self.judge = judge
        self.judged: bool | None = None
        """The word list's verdict, shown to both players until Enter records it."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("[b]Challenge[/b] - both players check the words typed:")
            yield Static("  ".join(escape(w) for w in self.words), id="challenged")
            if self.judge is not None:
                yield Label(f"Word list: {escape(self.judge.name)}. Press j to judge the play.")
            else:
                yield Label("No word list: the adjudicator rules, v acceptable / i unacceptable.")
            yield Static("", id="verdict")

    def action_judge(self) -> None:
        if self.judge is None:
            self.query_one("#verdict", Static).update("no word list loaded: press v or i")
            return
        verdict = self.judge.judge(self.words)
        ok = verdict is Verdict.ACCEPTABLE
        # Never say which word failed (NZASP 6.15.2): the verdict covers the play.
        self.judged = ok
        self.query_one("#verdict", Static).update(
            f"[b]THE PLAY IS {verdict.value.upper()}[/b]   (Enter records the verdict)"
        )

    def action_record(self) -> None:
        if self.judged is not None:
            self.dismiss(self.judged)

    def action_verdict(self, ok: bool) -> None:
        self.dismiss(ok)


class SummaryScreen(ModalScreen[None]):
    """The end of the game: both players confirm the result with their clock key."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket,f1", "sign(0)", "Left player signs", priority=True),
        Binding("right_square_bracket,f2", "sign(1)", "Right player signs", priority=True),
        Binding("escape", "dismiss(None)", "Close"),
    ]

    def __init__(self, state: GameState, sign: Callable[[int], None]) -> None:
        super().__init__()
        self.state = state
        self.sign = sign
        """Records a player's signature (the app submits it to the table)."""
        self.next_game = "ctrl+N: the next game, the same players in swapped seats"
        """What ctrl+N starts (the next round's game, once one is assigned here)."""

    def compose(self) -> ComposeResult:
        st = self.state
        res = st.result
        with Vertical(id="dialog"):
            yield Label("[b]Game over[/b]")
            if res is not None:
                words = result_text(st.players, res.scores, res.winner, res.reason, res.spread)
                yield Label(escape(words))
                yield Label(
                    f"time penalties {res.penalties[0]} / {res.penalties[1]}; "
                    f"racks {res.rack_adjustments[0]:+d} / {res.rack_adjustments[1]:+d}"
                )
            yield Label(self._how_text(st), id="how")
            yield Static(self._signed_text(st), id="signed")
            yield Label(self.next_game, id="next")

    @staticmethod
    def _signed_text(st: GameState) -> str:
        marks = [
            f"{escape(st.players[i])}: {'signed' if st.signed[i] else 'not yet'}" for i in (0, 1)
        ]
        return "   ".join(marks)

    @staticmethod
    def _how_text(st: GameState) -> str:
        # what is left to do follows the signatures: no "confirms" once both have
        if all(st.signed):
            return "Both players have signed."
        return "Each player confirms with their clock key ([ left, ] right)."

    def action_sign(self, player: int) -> None:
        self.sign(player)

    def show_next(self, text: str) -> None:
        """Say what ctrl+N starts now."""
        self.next_game = text
        for label in self.query("#next").results(Label):
            label.update(text)

    def refresh_state(self, st: GameState) -> None:
        """Show who has signed (before the screen is composed, compose shows it)."""
        self.state = st
        for signed in self.query("#signed").results(Static):
            signed.update(self._signed_text(st))
        for how in self.query("#how").results(Label):
            how.update(self._how_text(st))
