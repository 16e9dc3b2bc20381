"""The table's files: the append-only, hash-chained event log, reading logs (SQLite or JSON
Lines), and the liveness sidecar."""
