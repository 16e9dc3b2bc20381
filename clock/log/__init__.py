"""The table's files: the append-only, hash-chained game log, reading logs (SQLite or JSON
Lines), and the liveness sidecar."""
