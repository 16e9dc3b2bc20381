"""Pairing systems, each from its text in the NASPA Director's Manual (seed 000)
or the Indonesian event's rules (seed 003)."""
