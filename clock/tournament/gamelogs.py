"""A table's log as the event takes results from it: intact, or refused on one line.

A SQLite table log carries its own hash chain: :func:`clock.log.eventlog.verify`
must find it whole (a row altered, deleted or added around the chain is refused,
naming the file and the first bad seq). A JSON Lines copy (the hub's archive, a
``log export``) has no chain of its own, so what can be checked is that every
line is an event (a line that is not is refused with its number); the intake
(:mod:`engine.tournament.intake`) then replays each game under the rules
(refusing a game with an event the rules refuse) and checks it against the
pairings. Who wrote a copy is not provable from the file.
"""

from __future__ import annotations

from pathlib import Path

from clock.log.eventlog import LogError, verify_and_read
from clock.log.reader import is_sqlite, load_log
from clock.user_files import register_variant_files
from engine.events import Event, GameStarted

__all__ = ["read_game_log"]


def read_game_log(path: Path) -> list[tuple[int, Event]]:
    """The events of a table's log, once it is found intact.

    Raises:
        OSError: The file cannot be read.
        LogError: A SQLite log whose chain does not verify, a JSON Lines file with a
            line that is not an event, or a file with no game in it; one line (the
            caller names the file).
    """
    if is_sqlite(path):
        # One read-only pass verifies the chain and decodes the events (issue 19's
        # benchmark: verifying and then loading read each log twice).
        found, events = verify_and_read(path)
        if not found.ok:
            seqs = [seq for seq, _ in found.problems if seq > 0]
            first = min(seqs) if seqs else 0
            why = next(msg for seq, msg in found.problems if seq == first)
            at = f" at seq {first}" if first else ""
            raise LogError(f"its hash chain does not verify{at}: {why}")
        register_variant_files(ev for _, ev in events)  # as load_log does
    else:
        events, bad = load_log(path)
        if bad:
            raise LogError(f"line {bad[0].line}: {bad[0].reason}")
    if not any(isinstance(ev, GameStarted) for _, ev in events):
        raise LogError("no game in it" + ("" if events else " (an empty log)"))
    return events
