"""The exports' errors (part of :mod:`engine.errors`' tree)."""

from __future__ import annotations

from engine.errors import EngineError

__all__ = ["ResultsError"]


class ResultsError(EngineError, ValueError):
    """The games do not make a consistent results file, or a file cannot be written
    as asked (two divisions in one ``.t`` file, a name its encoding cannot hold)."""
