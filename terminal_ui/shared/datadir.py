"""Where the apps keep their game logs when none is named."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["new_log_path"]


def new_log_path(kind: str) -> Path:
    """A fresh ``<kind>-NNNN.sqlite`` under ``$XDG_DATA_HOME/rackclock/games``
    (``~/.local/share`` when unset); the folder is created if needed."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "rackclock" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while (folder / f"{kind}-{n:04d}.sqlite").exists():
        n += 1
    return folder / f"{kind}-{n:04d}.sqlite"
