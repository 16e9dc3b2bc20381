"""The tournament's own log: every pairing and result, hash-chained on disk."""
