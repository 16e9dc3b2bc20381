"""Pairing systems, each from its text in the NASPA Director's Manuals (seed 000,
2011; seed 001, 2013: the event file's ``manual`` decides where they differ) or the
Indonesian event's rules (seed 003)."""
