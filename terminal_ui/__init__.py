"""The ``rackclock`` command and, later, the Textual apps for players,
scorekeepers and directors."""
