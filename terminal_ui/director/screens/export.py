"""The director's export dialog: a table's game and the results of every finished game.

Finished games whose logs give no round number get a field for it here. Every path
it shows (the folder, each file written) is shown whole: a long one wraps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from clock.exports.game_records import ExportReport
from clock.exports.results_files import KnownGame
from terminal_ui.director.tables import Table

__all__ = ["ExportScreen", "Exporter"]


@runtime_checkable
class Exporter(Protocol):
    """The app that shows the dialog: it gathers the finished games and writes files."""

    async def known_games(self) -> tuple[list[KnownGame], list[str]]:
        """Every finished game in every table's log, and what could not be read."""
        ...

    def export(
        self, table: Table | None, games: Sequence[KnownGame], rounds: Mapping[str, int]
    ) -> ExportReport:
        """Write the table's game and log, and the results files."""
        ...


class ExportScreen(ModalScreen[None]):
    """Exports: the table's game (GCG, log) and the results of every finished game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("enter", "export", "Export"),
    ]

    def __init__(self, table: Table | None, directory: Path, default_round: int | None) -> None:
        super().__init__()
        self.table = table
        self.directory = directory
        self.default_round = default_round
        self.games: list[KnownGame] = []
        """The finished games known, once gathered."""
        self.report: ExportReport | None = None
        """The last export's outcome."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            what = f"the game at {self.table.label}, and " if self.table else ""
            # a Static, not a Label: it wraps to the dialog, so a long folder is shown
            # whole (folded over lines), never cut at the dialog's edge
            yield Static(
                f"[b]Export[/b] {escape(what)}results of every finished game, "
                f"into {escape(str(self.directory))}",
                id="what",
            )
            yield Static("gathering the finished games...", id="games")
            yield Vertical(id="rounds")
            yield Static("", id="paths")
            yield Label("Enter exports; Esc closes.")

    def on_mount(self) -> None:
        self.run_worker(self._gather(), exclusive=True, group="export")

    async def _gather(self) -> None:
        app = self.app
        assert isinstance(app, Exporter)
        self.games, problems = await app.known_games()
        lacking = [g for g in self.games if g.state.round is None]
        text = f"{len(self.games)} finished game(s)"
        if lacking:
            text += f"; {len(lacking)} without a round number: give them below"
        text += "".join(f"\n[yellow]{escape(p)}[/yellow]" for p in problems)
        self.query_one("#games", Static).update(text)
        rounds = self.query_one("#rounds", Vertical)
        for n, g in enumerate(lacking):
            value = str(self.default_round) if self.default_round is not None else ""
            await rounds.mount(
                Horizontal(
                    Label(escape(g.describe()) + "  round: "),
                    Input(value=value, placeholder="round", id=f"round-{n}", classes="round"),
                    classes="round-row",
                )
            )
        if lacking:
            self.query_one("#round-0", Input).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_export()

    def rounds(self) -> tuple[dict[str, int], list[str]]:
        """The rounds typed, by game key, and the fields that are not numbers."""
        out: dict[str, int] = {}
        bad: list[str] = []
        lacking = [g for g in self.games if g.state.round is None]
        for n, g in enumerate(lacking):
            text = self.query_one(f"#round-{n}", Input).value.strip()
            if not text:
                continue
            if text.isdigit() and int(text) > 0:
                out[g.key] = int(text)
            else:
                bad.append(f"{g.describe()}: round {text!r} is not a number from 1")
        return out, bad

    def action_export(self) -> None:
        """Write the files and show their paths."""
        app = self.app
        assert isinstance(app, Exporter)
        rounds, bad = self.rounds()
        rep = app.export(self.table, self.games, rounds)
        rep.problems[:0] = bad
        self.report = rep
        lines = [f"wrote {escape(str(p))}" for p in rep.paths]
        lines += [f"[red]{escape(p)}[/red]" for p in rep.problems]
        lines += [f"[yellow]{escape(p)}[/yellow]" for p in rep.notes]
        self.query_one("#paths", Static).update("\n".join(lines) or "nothing to export")
