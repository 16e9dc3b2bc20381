"""terminal_ui."""
