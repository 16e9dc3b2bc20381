"""How the director's console was started (``rackclock director`` options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DirectorConfig"]


@dataclass
class DirectorConfig:
    """How the console was started."""

    broker: str | None = None
    """The venue broker's URL (broker mode)."""
    venue: str | None = None
    """Broker mode: follow only this venue (None: every venue on the broker)."""
    logs: tuple[Path, ...] = ()
    """Log files (offline mode)."""
    name: str = "director"
    """The director's name: ``by`` on every ruling."""
    desk: str = "desk"
    """This console's name in MQTT reply topics."""
    neutral_alert_s: int = 60
    """Flag a clock neutralized longer than this."""
    export_dir: Path = field(default_factory=Path.cwd)
    """Where exports go."""
    round: int | None = None
    """The round of finished games whose logs do not say."""
    high_contrast: bool = False
    """The high-contrast theme."""
    event: Path | None = None
    """The event's ledger: results are taken from the tables as their games are signed."""
    refresh_s: float = 1.0
    """How often the overview is redrawn: the clocks it shows change once a second."""
