"""Where rackclock keeps its files when none is named: the user's data folder
(``$XDG_DATA_HOME/rackclock``, ``~/.local/share/rackclock`` when unset, on Linux)."""

from __future__ import annotations

from pathlib import Path

import platformdirs

__all__ = ["data_dir", "new_log_path"]


def data_dir(part: str) -> Path:
    """``<the user's data folder>/rackclock/<part>`` (not created here)."""
    return platformdirs.user_data_path("rackclock") / part


def new_log_path(kind: str) -> Path:
    """A fresh ``<kind>-NNNN.sqlite`` in the data folder's ``games``; the folder is
    created if needed."""
    folder = data_dir("games")
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while (folder / f"{kind}-{n:04d}.sqlite").exists():
        n += 1
    return folder / f"{kind}-{n:04d}.sqlite"
