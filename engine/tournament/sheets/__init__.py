"""The sheets a venue posts and a director checks (issue 23 §2), after any round.

Each sheet is built in two steps, kept apart so a screen can show the same data its
own way (the venue page does): a model of typed rows from the event's state
(:mod:`.pairings`, :mod:`.standings`, :mod:`.scorecard`, :mod:`.wallchart`; the
prize sheet, :mod:`.prizes`, from :mod:`engine.tournament.prizes`' list), then a
:class:`~.sheet.Sheet` of text cells from those rows, rendered as plain text
(:mod:`.text`, padded by :func:`.sheet.cell_width`) or as a printable HTML page
(:mod:`.html`). Records and places come
from the division's standings (:meth:`DivisionState.standings`), never counted a
second way.
"""
