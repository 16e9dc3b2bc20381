"""The help screen every app opens with F12 (and the table's ``help`` / ``?``): its
keys from the one key map, then what can be typed, each with an example."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from terminal_ui.shared.keys import CLOCK_KEYS, app_keys, key_label

__all__ = ["HelpScreen", "help_text"]


def help_text(
    app: str,
    commands: tuple[tuple[str, str], ...] = (),
    clocks: tuple[str, str] = CLOCK_KEYS,
) -> Text:
    """The help: the keys ``app`` binds, then ``commands`` (example, what). Plain text
    with styles, not markup: examples such as ``overdraw 1 [left|right]`` show as typed."""
    out = Text()
    out.append("Keys\n", style="bold")
    for keys, key in app_keys(app, clocks):
        out.append(f"  {key_label(keys):<12} {key.description}\n")
    if commands:
        out.append("\nType", style="bold")
        out.append(" (Enter sends; case does not matter)\n")
        width = max(len(example) for example, _ in commands)
        for example, what in commands:
            out.append(f"  {example:<{width}}", style="bold")
            out.append(f"  {what}\n")
    out.rstrip()
    return out


class HelpScreen(ModalScreen[None]):
    """Every key and command, with examples; Escape or F12 closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen #help-dialog { width: 96%; max-width: 110; height: auto; max-height: 96%;
        border: thick $primary; background: $surface; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f12", "dismiss(None)", "Close", priority=True),
    ]

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog"):
            yield Static(Text("rackclock help  (Escape closes; scroll for more)", style="bold"))
            yield Static(self.text, id="help")
