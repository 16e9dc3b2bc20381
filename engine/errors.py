"""The engine's typed error tree.

Every error the engine raises derives from :class:`EngineError`. Errors about
input (notation, placements, files, word lists) are also :class:`ValueError`,
so callers may catch either. Messages quote the offending input with ``!r``;
nothing in the code base branches on message text.
"""

from __future__ import annotations

__all__ = [
    "CentreNotCoveredError",
    "DataFileError",
    "EngineError",
    "GapError",
    "GcgError",
    "IllegalPlayError",
    "NoTilesPlacedError",
    "NoWordError",
    "NotConnectedError",
    "NotInLineError",
    "NotationError",
    "OccupiedSquareError",
    "OffBoardError",
    "Refusal",
    "ThroughLetterError",
    "ThroughSquareEmptyError",
    "TooManyTilesError",
    "UnknownTileError",
    "WordListError",
    "WordNotWholeError",
]


class EngineError(Exception):
    """Root of every error raised by :mod:`engine`."""


class NotationError(EngineError, ValueError):
    """A coordinate or play string is not valid GCG notation."""


class DataFileError(EngineError, ValueError):
    """A bundled or user data file (tile set, layout, variant) is malformed or missing."""


class WordListError(EngineError, ValueError):
    """A word list file cannot be read."""


class IllegalPlayError(EngineError, ValueError):
    """A well-formed play that the board or the tile set does not allow."""


class OffBoardError(IllegalPlayError):
    """A tile would lie outside the board."""


class NotInLineError(IllegalPlayError):
    """The new tiles are not all in one row or one column."""


class GapError(IllegalPlayError):
    """The new tiles leave an empty square between them."""


class NotConnectedError(IllegalPlayError):
    """A play after the first touches no tile already on the board."""


class CentreNotCoveredError(IllegalPlayError):
    """The first play of the game does not cover the centre square."""


class OccupiedSquareError(IllegalPlayError):
    """A new tile would be put on a square that already holds a tile."""


class ThroughSquareEmptyError(IllegalPlayError):
    """The notation marks a square as played through (``.``) but it is empty."""


class ThroughLetterError(IllegalPlayError):
    """A letter in parentheses names a square played through, but the board holds
    another tile there (``H7 A(J)`` where H8 holds O)."""


class UnknownTileError(IllegalPlayError):
    """A letter the tile set does not have, or a blank in a set without blanks."""


class NoTilesPlacedError(IllegalPlayError):
    """The play puts no new tile on the board."""


class TooManyTilesError(IllegalPlayError):
    """The play puts down more new tiles than a rack holds."""


class NoWordError(IllegalPlayError):
    """The play forms no word of two or more letters (a lone first tile)."""


class WordNotWholeError(IllegalPlayError):
    """The notation stops beside a tile on the board, so it does not give the whole word."""


class GcgError(EngineError, ValueError):
    """A GCG game record cannot be read. ``line`` is 1-based (0 = the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        """1-based line number of the problem, 0 when it concerns the whole file."""
        self.message = message
        """The problem, without the line number."""


class Refusal(EngineError, ValueError):
    """A command the rules do not allow in the current state. The state is unchanged."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(f"{reason} ({rule})")
        self.reason = reason
        """Why it was refused, quoting the input."""
        self.rule = rule
        """The rule that refuses it."""
