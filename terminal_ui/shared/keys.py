"""One key map for every rackclock screen: a key does the same thing wherever it is
bound, and each app binds only the keys it has a use for. Shown in the footer and
in the help (F12).

The clock keys are ``[`` / F1 (left player) and ``]`` / F2 (right player) by
default; a table may set its own (``rackclock table --keys``).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

__all__ = ["CLOCK_KEYS", "KEYMAP", "Key", "app_keys", "bindings", "clock_keys", "key_label"]

CLOCK_KEYS = ("left_square_bracket,f1", "right_square_bracket,f2")
"""The default clock keys, left player then right (Textual key names)."""


@dataclass(frozen=True, slots=True)
class Key:
    """One key (or several that do the same) and what it does."""

    keys: str
    """Textual key names, comma-separated."""
    action: str
    """The app's action."""
    description: str
    """What it does, as the footer and the help say it."""
    apps: tuple[str, ...]
    """The apps that bind it: ``table``, ``scorekeeper``, ``director``."""
    priority: bool = True
    """Works while typing on the command line (a clock key must)."""
    show: bool = True
    """Shown in the footer."""


KEYMAP: tuple[Key, ...] = (
    Key(CLOCK_KEYS[0], "press(0)", "Left clock", ("table", "scorekeeper")),
    Key(CLOCK_KEYS[1], "press(1)", "Right clock", ("table", "scorekeeper")),
    Key("f3", "hold", "Hold", ("scorekeeper",)),
    Key("f4", "release", "Release", ("scorekeeper",)),
    Key("f5", "challenge", "Challenge", ("scorekeeper",)),
    Key("f6", "verdict(True)", "Valid", ("scorekeeper",)),
    Key("f7", "verdict(False)", "Invalid", ("scorekeeper",)),
    Key("f8", "pass_turn", "Pass", ("scorekeeper",)),
    Key("f9", "pause", "Pause/resume", ("scorekeeper",)),
    Key("a", "ruling('adjust')", "Adjust", ("director",), priority=False),
    Key("r", "ruling('resume')", "Resume", ("director",), priority=False),
    Key("f", "ruling('forfeit')", "Forfeit", ("director",), priority=False),
    Key("n", "ruling('neutralize')", "Neutralize", ("director",), priority=False),
    Key("e", "ruling('end')", "End game", ("director",), priority=False),
    Key("p", "ruling('appeal')", "Appeal", ("director",), priority=False),
    Key("x", "export", "Export", ("director",), priority=False),
    Key("s", "event", "Event", ("director",), priority=False),
    Key("w", "prizes", "Prizes", ("director",), priority=False, show=False),
    Key("i", "slips", "Slips", ("director",), priority=False),
    Key("ctrl+b", "toggle_board", "Board", ("table",)),
    Key("ctrl+n", "next_game", "Next game", ("table", "scorekeeper")),
    Key("ctrl+t", "toggle_contrast", "Contrast", ("table", "scorekeeper", "director")),
    Key("f12", "help", "Help", ("table", "scorekeeper", "director")),
    Key("ctrl+q", "quit", "Quit", ("table", "scorekeeper", "director")),
)
"""Every key, once. A key name appears in one entry only (tests check it). The
director's letters act only on the director's console, which has no command line."""


def clock_keys(spec: str | None) -> tuple[str, str]:
    """The clock keys from ``--keys LEFT,RIGHT`` (Textual key names, e.g. ``f5,f6``);
    the defaults when ``spec`` is None.

    Raises:
        ValueError: Not two keys, both the same, or a key the command line types.
    """
    if spec is None:
        return CLOCK_KEYS
    parts = [p.strip().lower() for p in spec.split(",")]
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise ValueError(
            f"--keys wants two different keys, LEFT,RIGHT (e.g. 'f5,f6'), got {spec!r}"
        )
    for key in parts:
        if not _untyped(key):
            # the command line would type it: a player could not write a play with it
            raise ValueError(
                f"--keys: {key!r} is typed on the command line; a clock key must be one it "
                "does not type: a function key or a ctrl+/alt+ key, e.g. 'f5,f6'"
            )
    return parts[0], parts[1]


def _untyped(key: str) -> bool:
    """Whether the command line leaves ``key`` to the app (it types printable keys)."""
    named = ("pageup", "pagedown", "home", "end", "insert", "pause", "scroll_lock")
    function = key.startswith("f") and key[1:].isdigit()
    return function or key.startswith(("ctrl+", "alt+")) or key in named


def app_keys(app: str, clocks: tuple[str, str] = CLOCK_KEYS) -> list[tuple[str, Key]]:
    """The keys ``app`` binds, each with its key names (the clock keys as given)."""
    out = []
    for key in KEYMAP:
        if app not in key.apps:
            continue
        keys = {"press(0)": clocks[0], "press(1)": clocks[1]}.get(key.action, key.keys)
        out.append((keys, key))
    return out


def bindings(app: str, clocks: tuple[str, str] = CLOCK_KEYS) -> list[Binding]:
    """The bindings of ``app``, with its clock keys."""
    return [
        Binding(keys, key.action, key.description, priority=key.priority, show=key.show)
        for keys, key in app_keys(app, clocks)
    ]


def key_label(keys: str) -> str:
    """A key list as people read it: ``left_square_bracket,f1`` -> ``[ / F1``."""
    names = {
        "left_square_bracket": "[",
        "right_square_bracket": "]",
    }
    shown = []
    for k in keys.split(","):
        k = names.get(k, k)
        if k.startswith("ctrl+"):
            k = "ctrl+" + k[5:].upper()
        elif len(k) <= 3 and k.startswith("f") and k[1:].isdigit():
            k = k.upper()
        shown.append(k)
    return " / ".join(shown)
