"""How the scorekeeper's screen was started, and where a new game is logged."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from clock.timeline import MonotonicTimeline, Timeline
from terminal_ui.shared.datadir import new_log_path

__all__ = ["ScorekeeperConfig", "default_log_path"]


def default_log_path() -> Path:
    """A new scorekeeper's log under the user's data directory."""
    return new_log_path("scorekeeper")


@dataclass
class ScorekeeperConfig:
    """How the scorekeeper's screen was started."""

    log: Path
    variant: str = "toronto-speed"
    players: tuple[str, str] = ("Player 1", "Player 2")
    first: int = 0
    round: int | None = None
    """The event's round, division and table, from ``--assignment`` (else None)."""
    division: str | None = None
    table: str | None = None
    event: str | None = None
    """The event's name and identity, from ``--assignment`` (else None)."""
    event_id: str | None = None
    clock: str = "emulated"
    """The ``--clock`` text, one of the registry's specs
    (:data:`firmware_bridge.host.transports.TRANSPORTS`, over
    :mod:`clock.device.clock_spec`'s own two); read there, never here."""
    new_game: bool = False
    """Start a new game after the log's finished one (see :mod:`clock.table.session`)."""
    high_contrast: bool = False
    timeline: Timeline = field(default_factory=MonotonicTimeline)
    """Where the table's time comes from (a FakeTimeline in tests)."""
    heartbeat_ms: int = 1000
    """How often the service writes its liveness file (0 = never)."""
