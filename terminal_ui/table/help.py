"""Every command of the table's command line, with an example: the in-app help (F12,
or ``help`` / ``?`` typed), the error messages that point to it, and the README's
lists (tests/terminal_ui/test_table_ux.py holds the README's two tables to these, row
for row)."""

from __future__ import annotations

__all__ = ["COMMANDS", "SCORESHEET_COMMANDS"]

COMMANDS: tuple[tuple[str, str], ...] = (
    ("8D WINDY", "lay a play across from 8D (D8 WINDY: down); the score shown is computed"),
    ("8D WINDY 30", "lay a play, declaring 30"),
    (
        "H4 JOE(Y) / H4 JOE.",
        "a tile already on the board: in parentheses (the letter must be the tile there), or a dot",
    ),
    ("8D WIND?", "a blank is ?: name it before the press with blank y"),
    ("blank y", "name the blank(s) of the play on the board, in order"),
    ("demand", "demand the letter of an unnamed blank"),
    ("written", "the score is written on the score sheet (before drawing)"),
    ("draw 5", "replacement tiles drawn (accepts the last play)"),
    ("ok", "accept the opponent's play (also: accept)"),
    ("hold", "hold the opponent's play: they may not draw yet"),
    ("release", "release the hold"),
    ("challenge", "challenge the last play (challenge WORD ...: only those words)"),
    ("valid / invalid", "the adjudicator's verdict on the whole play"),
    ("dispute", "dispute the last play's score (the clock stops)"),
    ("dispute 22", "settle a score dispute at the agreed score"),
    ("x 3 / x AEI", "exchange three tiles (naming them, for the record)"),
    ("pass", "pass"),
    ("overdraw 1", "1 tile too many on the last player's rack (overdraw 1 left: on the left)"),
    ("return 1", "the overdrawn tiles are back in the bag"),
    ("restart", "after an out-play: restart the opponent's clock (after 5 s)"),
    ("neutral lighting", "stop the clock, with the reason"),
    ("resume", "start the clock again"),
    ("racks AEI -", "the tiles left on each rack at the end (- for none)"),
    ("resign", "the player on turn resigns (resign left / right: that side, on turn or not)"),
    ("help / ?", "this help"),
)
"""(example, what it does), in the order a game meets them."""

SCORESHEET_COMMANDS: tuple[tuple[str, str], ...] = (
    ("Q24", "the turn being scored: the first letter of the word played and its score"),
    ("24", "the score alone"),
    ("-", "a turn that scored nothing (a pass, an exchange)"),
    ("2:B12", "for the second player (1: the first), when turns are scored out of order"),
    ("Q600!", "a turn of more than 500 points, confirmed (without ! it is taken as a slip)"),
    ("undo", "take back the last entry: its turn is unscored again (until the game ends)"),
    ("fix 1:3 Q24", "correct an entry: player 1's turn 3 is Q 24 (until a player signs)"),
    ("hold / release", "hold the last play, release it"),
    ("challenge", "challenge the last play"),
    ("valid / invalid", "the verdict"),
    (
        "dispute / dispute 21",
        "dispute the last play's score (the clock stops); settle it at the agreed score",
    ),
    ("end AEI -", "the tiles left on each rack at the end (- for none)"),
    ("neutral REASON / resume", "stop the clock with the reason; start it again"),
    ("help / ?", "this help"),
)
"""What the scorekeeper types, and the table terminal in scoresheet mode (no board)."""
