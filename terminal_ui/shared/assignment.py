"""``--assignment SOURCE``: the table's game in the current round, for the table
terminal and the scorekeeper.

SOURCE is the venue broker and the table (``mqtt://broker:1883/VENUE/TABLE``:
the retained assignment the director published), or, for a table without a
broker, the event's log and the table (``event.sqlite@t3``: the latest round
paired in the log).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from engine.tournament.assignment import Assignment

__all__ = ["AssignmentError", "follow_assignments", "load_assignment"]


class AssignmentError(ValueError):
    """The assignment cannot be had, with the reason."""


def load_assignment(source: str, *, timeout_s: float = 10) -> Assignment:
    """The assignment SOURCE names.

    Raises:
        AssignmentError: A bad source, no such table in the round, or no broker.
    """
    from clock.log.eventlog import LogError
    from engine.errors import EngineError

    try:
        if source.startswith(("mqtt://", "mqtts://")):
            return _from_broker(source, timeout_s)
        return _from_log(source)
    except (LogError, EngineError, OSError) as exc:
        raise AssignmentError(f"--assignment {source}: {exc}") from exc


async def follow_assignments(source: str, on_assignment: Callable[[Assignment], None]) -> None:
    """Hand ``on_assignment`` each assignment SOURCE gives the table, now and as the
    director publishes new rounds, until cancelled. Only a broker's source is
    followed; with an event log's (``EVENTLOG@t3``) this returns at once: such a
    table is started again for its next game."""
    if not source.startswith(("mqtt://", "mqtts://")):
        return
    from firmware_bridge.mqtt.session import parse_url
    from firmware_bridge.venue.assignments import follow_assignment

    broker = parse_url(source)
    if broker.table is not None:
        await follow_assignment(broker, broker.table, on_assignment)


def _from_broker(url: str, timeout_s: float) -> Assignment:
    from firmware_bridge.mqtt.session import parse_url
    from firmware_bridge.venue.assignments import fetch_assignment

    broker = parse_url(url)
    if broker.table is None:
        raise AssignmentError(f"--assignment {url}: name the table: mqtt://broker/VENUE/TABLE")
    try:
        return asyncio.run(fetch_assignment(broker, broker.table, timeout_s=timeout_s))
    except TimeoutError:
        raise AssignmentError(
            f"--assignment {url}: no assignment for {broker.table.table} within {timeout_s:g} s "
            "(is the round published? is the broker reachable?)"
        ) from None


def _from_log(source: str) -> Assignment:
    from clock.tournament.ledger import read_event
    from engine.tournament.assignment import round_assignments

    path, sep, table = source.rpartition("@")
    if not sep or not path or not table:
        raise AssignmentError(
            f"--assignment {source!r}: expected EVENTLOG@TABLE (event.sqlite@t3) "
            "or mqtt://broker/VENUE/TABLE"
        )
    state = read_event(Path(path))  # read-only: the director's tools may be writing it
    rounds = [max(d.pairings) for d in state.divisions.values() if d.pairings]
    if not rounds:
        raise AssignmentError(f"--assignment {source!r}: no round is paired yet")
    for a in round_assignments(state, max(rounds)):
        if table in (a.table_name, str(a.table)):
            return a
    raise AssignmentError(f"--assignment {source!r}: no table {table!r} in round {max(rounds)}")
