"""A table's game log as the event takes results from it: intact, or refused on one
line, and its finished games' results appended to the event's ledger
(:func:`take_results`), one way for ``rackclock event results`` and the console.

A SQLite table log carries its own hash chain: :func:`clock.log.eventlog.verify`
must find it whole (a row altered, deleted or added around the chain is refused,
naming the file and the first bad seq). A JSON Lines copy (the hub's archive, a
``log export``) has no chain of its own, so what can be checked is that every
line is an event (a line that is not is refused with its number); the intake
(:mod:`engine.tournament.intake`) then replays each game under the rules
(refusing a game with an event the rules refuse) and checks it against the
pairings. Who wrote a copy is not provable from the file.

A result names its game's log so that the prize list finds it wherever it is made
(:mod:`clock.tournament.special_prizes`, which looks from the ledger's folder): as
given when that finds it (an absolute path, or ``tables/t1.sqlite`` given in the
ledger's folder), else by its absolute path.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from clock.log.eventlog import LogError, verify_and_read
from clock.log.log_files import is_sqlite, load_log
from clock.tournament.ledger import EventLedger
from clock.user_files import register_variant_files
from engine.errors import EngineError
from engine.events import Event, GameStarted
from engine.tournament.intake import results_from_log
from engine.tournament.records import Result

__all__ = ["Taken", "read_game_log", "take_results"]


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
            if found.count == 0 and all(seq == 0 for seq, _ in found.problems):
                # not a game log at all (an event's ledger, another SQLite file): the
                # file's kind is the refusal, not a chain that breaks
                raise LogError(found.problems[-1][1])
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


class Taken(msgspec.Struct, frozen=True):
    """What :func:`take_results` did with one game log."""

    results: tuple[Result, ...]
    """Appended to the ledger, in order."""
    notes: tuple[str, ...]
    """Games passed over for now: not finished, or waiting for signatures."""
    refused: tuple[str, ...]
    """Games not taken, each with why on one line (the intake's, then the ledger's)."""
    known: int
    """Games the event already has (a no-op)."""


def take_results(
    ledger: EventLedger,
    source: str,
    events: Sequence[tuple[int, Event]],
    *,
    division: str | None = None,
    round_: int | None = None,
    unsigned: bool = False,
    table: str | None = None,
    no_round: str = "give --round N",
) -> Taken:
    """Append the results of a game log's finished games that the event does not
    have yet (:func:`engine.tournament.intake.results_from_log` says which, with
    the same keywords), each checked by the ledger against the event as it stands
    when appended: one the ledger refuses (or cannot write) is said in
    ``refused``, the rest go in.
    """
    got = results_from_log(
        ledger.state,
        source,
        events,
        division=division,
        round_=round_,
        unsigned=unsigned,
        table=table,
        no_round=no_round,
    )
    taken: list[Result] = []
    refused = list(got.refused)
    named = _from_ledger(ledger, source)
    for res in got.results:
        if named != source:  # the digest stays; the messages keep the name as given
            res = msgspec.structs.replace(res, game=f"{named} {res.game.rpartition(' ')[2]}")
        try:
            ledger.append(res)
        except EngineError as exc:  # the event refuses it as it stands now, or the disk
            refused.append(f"{source}: {exc}")
            continue
        taken.append(res)
    return Taken(tuple(taken), tuple(got.notes), tuple(refused), got.known)


def _from_ledger(ledger: EventLedger, source: str) -> str:
    """How a result names the log file ``source``: as given when the ledger's folder
    leads to it, else its absolute path (``source`` as given when it is no file here:
    a table's topic on the broker)."""
    path = Path(source)
    if not path.is_file():
        return source
    from_ledger = Path(ledger.path).resolve().parent / path
    if from_ledger.is_file() and os.path.samefile(from_ledger, path):
        return source
    return str(path.resolve())
