"""How the table terminal was started, and where a new game is logged."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from clock.timeline import MonotonicTimeline, Timeline
from engine.play.lexicon import WordList
from terminal_ui.shared.datadir import new_log_path
from terminal_ui.shared.keys import CLOCK_KEYS

__all__ = ["TableConfig", "default_log_path"]


def default_log_path() -> Path:
    """A new table's log under the user's data directory."""
    return new_log_path("table")


@dataclass
class TableConfig:
    """How the table terminal was started."""

    log: Path
    variant: str = "nzasp"
    players: tuple[str, str] = ("Player 1", "Player 2")
    first: int = 0
    round: int | None = None
    """The event's round, division and table, from ``--assignment`` (else None)."""
    division: str | None = None
    table: str | None = None
    event: str | None = None
    """The event's name and identity, from ``--assignment`` (else None)."""
    event_id: str | None = None
    mode: Literal["board", "scoresheet"] | None = None
    clock: str = "emulated"
    """The ``--clock`` text, one of the registry's specs
    (:data:`firmware_bridge.host.transports.TRANSPORTS`, over
    :mod:`clock.device.clock_spec`'s own two); read there, never here. On a clock
    on the venue broker the table is published there too, so the director and the
    hub see it."""
    new_game: bool = False
    """Start a new game after the log's finished one (see :mod:`clock.table.session`)."""
    assignment: str | None = None
    """``--assignment``'s source: on a broker, the table follows it and offers the next
    round's game once its game is over and signed."""
    words: WordList | None = None
    """A word list for self-adjudication; None means an adjudicator rules."""
    high_contrast: bool = False
    clock_keys: tuple[str, str] = CLOCK_KEYS
    """The left and right players' clock keys (Textual key names; ``--keys``)."""
    timeline: Timeline = field(default_factory=MonotonicTimeline)
    """Table time; tests pass a :class:`clock.timeline.FakeTimeline`."""
