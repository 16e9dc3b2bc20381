"""Records written from a game's state for other programs: GCG with clock times, and
tournament results files (NASPA and tsh)."""
