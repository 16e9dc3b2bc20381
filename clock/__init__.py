"""The live side of one table and every SQLite file of ours: the asyncio service that
stamps, checks, commits and publishes every command (:mod:`clock.table`), the clock
devices as it sees them (:mod:`clock.device`), the table's files (:mod:`clock.log`: the
hash-chained game log, reading logs, the liveness sidecar, offline rulings), the event's
I/O (:mod:`clock.tournament`: its hash-chained ledger, the game logs taken into it, the
event file and tsh's ``.t`` files it starts from), the files written from game logs for
other programs (:mod:`clock.exports`: GCG, and the NASPA and tsh results files), the
table's monotonic timeline, and the files a user names, read for the engine
(:mod:`clock.user_files`: variants, tile sets, layouts, word lists, GCG records)."""
