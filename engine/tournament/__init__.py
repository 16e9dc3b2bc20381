"""The tournament: divisions, pairings from the NASPA directors' manuals, results
and standings. Pure: the event's ledger is read and written by :mod:`clock.tournament`."""
