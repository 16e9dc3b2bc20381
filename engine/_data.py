"""Data by name: the bundled tile sets, layouts and variants, and what a caller registered.

The bundled files in ``engine/data`` are package data, read with
:mod:`importlib.resources`: the only files the engine reads. A file a user
names is read by the caller (``clock.user_files``), parsed by the engine from its
text and registered under the name the user gave, so that name resolves here
like a bundled one (a game's start names its variant by that name).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import Generic, TypeVar

from engine.errors import DataFileError

__all__ = ["Registry", "bundled", "bundled_names"]

T = TypeVar("T")


@cache
def bundled_names(kind: str, suffix: str) -> tuple[str, ...]:
    """Names of the bundled files of one kind, sorted.

    Args:
        kind: The folder of ``engine/data``: ``"tiles"``, ``"layouts"`` or ``"variants"``.
        suffix: The files' suffix, with the dot.
    """
    folder = files("engine") / "data" / kind
    return tuple(
        sorted(e.name.removesuffix(suffix) for e in folder.iterdir() if e.name.endswith(suffix))
    )


def bundled(kind: str, name: str, suffix: str) -> tuple[str, str]:
    """The text of a bundled file, and where it is (for messages).

    Raises:
        DataFileError: No bundled file has that name; the message lists those that do.
    """
    known = bundled_names(kind, suffix)
    if name not in known:
        raise DataFileError(f"no {kind[:-1]} named {name!r}; bundled: {', '.join(known)}")
    entry = files("engine") / "data" / kind / f"{name}{suffix}"
    return entry.read_text(encoding="utf-8"), str(entry)


class Registry(Generic[T]):
    """Values by name: those a caller registered, else the bundled one of that name."""

    def __init__(self, load_bundled: Callable[[str], T]) -> None:
        self._bundled = cache(load_bundled)
        self._registered: dict[str, T | DataFileError] = {}

    def register(self, name: str, value: T | DataFileError) -> None:
        """Make ``name`` load as ``value``; an error is raised again on each load."""
        self._registered[name] = value

    def load(self, name: str) -> T:
        """The value registered under ``name``, else the bundled one (parsed once).

        Raises:
            DataFileError: The error registered under ``name``, or no bundled file has it.
        """
        found = self._registered.get(name)
        if found is None:
            return self._bundled(name)
        if isinstance(found, DataFileError):
            raise DataFileError(*found.args)
        return found
