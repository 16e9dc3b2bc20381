"""Locating bundled data files by name (tile sets, layouts, variants)."""

from __future__ import annotations

from pathlib import Path

from engine.errors import DataFileError

DATA_DIR = Path(__file__).resolve().parent / "data"


def locate(kind: str, name: str, suffix: str) -> Path:
    """Find a data file given a bundled name (``"english"``) or a path to a file.

    Args:
        kind: The subdirectory of ``engine/data`` (``"tiles"``, ``"layouts"``...).
        name: A bundled name, or a filesystem path to a user file.
        suffix: The file suffix of bundled files, with the dot.

    Raises:
        DataFileError: Neither a bundled file nor an existing path matches ``name``.
    """
    as_path = Path(name)
    if as_path.suffix and as_path.is_file():
        return as_path
    bundled = DATA_DIR / kind / f"{name}{suffix}"
    if bundled.is_file():
        return bundled
    known = sorted(p.stem for p in (DATA_DIR / kind).glob(f"*{suffix}"))
    raise DataFileError(f"no {kind[:-1]} named {name!r}; bundled: {', '.join(known)}")
