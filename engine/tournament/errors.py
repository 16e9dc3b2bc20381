"""The tournament layer's errors (part of :mod:`engine.errors`' tree)."""

from __future__ import annotations

from engine.errors import EngineError

__all__ = ["EventFileError", "PairingError", "ResultError", "TournamentError"]


class TournamentError(EngineError, ValueError):
    """Root of the tournament layer's errors; messages quote the input."""


class EventFileError(TournamentError):
    """An event file (TOML) or tsh ``.t`` file that cannot be read, with its line."""


class PairingError(TournamentError):
    """A round that cannot be paired as asked."""


class ResultError(TournamentError):
    """A result that does not fit the pairings or the log."""
