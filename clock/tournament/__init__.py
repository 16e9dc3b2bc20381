"""The event's I/O: its ledger (every pairing and result, hash-chained on disk,
:mod:`clock.tournament.ledger`) and the tables' game logs read and taken into it
(:mod:`clock.tournament.gamelogs`), and the event's files: the event file and
tsh's ``.t`` files a ledger is started from (:mod:`clock.tournament.event_files`).
What ``event export`` writes goes through the one writer of each results format,
:mod:`clock.exports.results_files`. The event's rules and text are
:mod:`engine.tournament`'s."""
