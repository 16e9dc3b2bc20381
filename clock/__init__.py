"""The live side of one table: the asyncio service that stamps, checks, commits and
publishes every command (:mod:`clock.table`), the clock devices as it sees them
(:mod:`clock.device`), the table's files (:mod:`clock.log`: the hash-chained event
log, reading logs, the liveness sidecar), the table's monotonic timeline, and the
files a user names, read for the engine (:mod:`clock.user_files`: variants, tile sets,
layouts, word lists, GCG records)."""
