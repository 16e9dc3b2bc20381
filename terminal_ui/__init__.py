"""The ``rackclock`` command (:mod:`terminal_ui.cli`) and the Textual apps: the table
terminal for players (:mod:`terminal_ui.table`), the scorekeeper's screen for speed games
(:mod:`terminal_ui.scorekeeper`) and the director's console (:mod:`terminal_ui.director`),
with what they share (:mod:`terminal_ui.shared`)."""
