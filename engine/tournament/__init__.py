"""The tournament: divisions, pairings from the NASPA directors' manuals, results
and standings. Pure: the event's log is read and written by :mod:`clock.tournament`."""
