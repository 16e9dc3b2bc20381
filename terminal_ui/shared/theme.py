"""The look every screen shares: the high-contrast theme and the stylesheet."""

from __future__ import annotations

from pathlib import Path

from textual.theme import Theme

__all__ = ["HIGH_CONTRAST", "STYLESHEET"]

HIGH_CONTRAST = Theme(
    name="rackclock-high-contrast",
    primary="#FFFF00",
    secondary="#00FFFF",
    accent="#FFFFFF",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#FFFFFF",
    success="#00FF00",
    warning="#FFFF00",
    error="#FF3030",
    dark=True,
)
"""Black and white with saturated accents, for a bright hall or weak eyes."""

STYLESHEET = Path(__file__).with_name("rackclock.tcss")
"""The apps' stylesheet, beside this module: an app's ``CSS_PATH`` names it by this
absolute path (a relative one would be read beside the app's own module)."""
