"""The non-playing scorekeeper's screen for speed play."""
