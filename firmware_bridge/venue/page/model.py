"""What the venue page shows, kept from the broker: each table's live document and
status, its latest snapshot (board and moves), and the round's assignments.

Pure of the network: :class:`VenueModel` takes topic and payload; the server
feeds it from its broker connection and pushes what changed to the browsers.

Every payload is read here into its typed record (the table's document, its
snapshot, the round's :class:`~engine.tournament.assignment.Assignment`), none
larger than :data:`~firmware_bridge.mqtt.topics.MAX_DOCUMENT_BYTES`. One that does
not read is dropped and counted (:attr:`VenueModel.garbage`); its table keeps its
last good document, shows as stale with the reason (``note``), and the server's
log says it once per table and reason. It never reaches a browser, and never
changes another table: a game's live standings come from the table its round
assigned it, never from a table that names its players.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import msgspec

from engine.errors import EngineError
from engine.exports.newt import tourney_js
from engine.tournament.assignment import Assignment, round_assignments
from engine.tournament.live import (
    TableGame,
    assigned_game,
    complete_rounds,
    phase_words,
    round_standings,
)
from engine.tournament.sheets.pairings import pairings, pairings_round, pairings_sheet
from engine.tournament.sheets.standings import standings, standings_sheet
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState, EventState
from firmware_bridge.mqtt.topics import TopicError, every_table, parse_topic, table_order
from firmware_bridge.venue.table_document import (
    BadDocument,
    HeldDocument,
    Notices,
    Snapshot,
    bad_status,
    read_document,
    read_snapshot,
)

__all__ = ["VenueModel", "table_topics"]

log = logging.getLogger(__name__)

_assignment = msgspec.json.Decoder(Assignment)
"""The round's assignment as the event publishes it (``encode_assignment``)."""


class VenueModel:
    """Every table of one venue, as the page needs it."""

    def __init__(self, venue: str, *, wall_ms: Callable[[], int] | None = None) -> None:
        self.venue = venue
        """The venue shown."""
        self.wall_ms: Callable[[], int] = wall_ms or _wall_ms
        """This machine's wall clock in ms: a document's age is judged against its
        ``published_at_ms`` (the table's wall clock). Tests pass a fake."""
        self.live: dict[str, HeldDocument] = {}
        """Table -> its live document as held (the last good one, and whether it is
        stale: the director's console's rule too)."""
        self.online: dict[str, bool] = {}
        """Table -> its terminal's status."""
        self.snapshots: dict[str, Snapshot] = {}
        """Table -> its latest full snapshot (board, history)."""
        self.assignments: dict[str, Assignment] = {}
        """Table -> its assignment in the round."""
        self.garbage = 0
        """Payloads dropped: too large, or not the record their topic carries."""
        self.notes: dict[tuple[str, str], str] = {}
        """(table, topic suffix) -> why its latest payload there was dropped (shown
        on the table's card); gone once one there reads."""
        self._said = Notices()
        self.broker_connected = False
        """Whether the server is connected to the broker."""
        self.event: EventState | None = None
        """The event (``--event``), for its standings."""
        self.standings_due = False
        """A table or the event changed since the standings were last pushed."""
        self.projector_due = False
        """The event changed since the projector's sheets were last pushed."""
        self.prizes: dict[str, Any] = {}
        """Division -> its prize sheet (as JSON), once its last round is complete
        (the server reads the game logs for it: :meth:`VenuePage._prizes`)."""
        self._watchers: set[asyncio.Queue[dict[str, Any]]] = set()
        self._feed: tuple[tuple[int, int], bytes] | None = None
        """tsh's feed as last built, with the event it was built from (its identity
        and record count: the ledger's reread applies records to it)."""

    # --- in -------------------------------------------------------------------------------
    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker: read into its record, or dropped and counted.
        Never raises: one table's message must not stop the page for every table."""
        try:
            table, suffix = parse_topic(topic)
        except TopicError:
            return
        if table.venue != self.venue or suffix not in _TOPICS:
            return
        try:
            bad = self._take(table.table, suffix, payload)
            if bad is not None:
                self._bad(table.table, suffix, bad)
            else:
                self.notes.pop((table.table, suffix), None)
            if suffix == "state":
                return  # the board and moves are fetched on demand: no push
            self._push({"type": "table", "table": self.summary(table.table)})
        except Exception:  # a bug of ours must not silence the page for every table
            log.exception("venue page: %s: cannot take %r", topic, payload[:80])
            return
        self.standings_due = self.event is not None

    def _take(self, name: str, suffix: str, payload: bytes) -> BadDocument | None:
        """Keep what ``payload`` says about table ``name``; why not, if it does not read."""
        if suffix == "status":
            bad = bad_status(payload)
            if bad is not None:
                return bad
            self.online[name] = payload.strip() == b"online"
        elif suffix == "live":
            # empty: removed (a clean stop); one that does not read: the last good one
            # is kept and the table is stale (HeldDocument, the console's rule too)
            got = self.live.setdefault(name, HeldDocument()).take(payload, self.wall_ms())
            if isinstance(got, BadDocument):
                return got
        elif suffix == "state":
            snap = read_snapshot(payload) if payload else None
            if isinstance(snap, BadDocument):
                return snap  # the last good board stays
            if snap is None:
                self.snapshots.pop(name, None)
            else:
                self.snapshots[name] = snap
        elif suffix == "assignment":
            if not payload:
                self.assignments.pop(name, None)
                return None
            assignment = read_document(_assignment, "assignment", payload)
            if isinstance(assignment, BadDocument):
                return assignment
            self.assignments[name] = assignment
        return None

    def _bad(self, name: str, suffix: str, bad: BadDocument) -> None:
        self.garbage += 1
        self.notes[(name, suffix)] = bad.said
        line = self._said.first(f"{self.venue}/{name}", bad)
        if line is not None:
            log.warning("venue page: table %s (dropped: %s)", line, bad)

    def set_connected(self, connected: bool) -> None:
        """The server's broker connection came or went."""
        self.broker_connected = connected
        self._push({"type": "link", "connected": connected})

    # --- out ------------------------------------------------------------------------------
    def summary(self, name: str) -> dict[str, Any]:
        """One table for the page: players, scores, clocks, phase, online, assignment."""
        held = self.live.get(name, HeldDocument())
        rep = held.live.state if held.live is not None else None
        now = self.wall_ms()
        # the one rule the director's console follows too (HeldDocument.stale): no
        # document, a removed one or garbage since is stale, as one past its expiry
        stale = held.stale(now)
        online = self.online.get(name)
        return {
            "table": name,
            "online": bool(online) and not stale,
            "status": "offline" if online is False else ("stale" if stale else "online"),
            "players": list(rep.players) if rep else None,
            "scores": list(rep.scores) if rep else None,
            "clocks": [
                {"remaining_ms": c.remaining_ms, "running": c.running}
                for c in (rep.clocks if rep else ())
            ],
            "phase": rep.phase if rep else None,
            # worded here, the one way (result_text): a game over says who won and why
            "phase_text": phase_words(rep) if rep else None,
            "winner": rep.result.winner if rep and rep.result else None,
            "result": plain(rep.result) if rep and rep.result else None,
            # the clocks were read at published_at_ms; the page moves the running one on
            "age_ms": held.age_ms(now),
            "assignment": plain(self.assignments[name]) if name in self.assignments else None,
            # why the table's latest message was dropped ("bad live document: ...")
            "note": "; ".join(v for (t, _), v in sorted(self.notes.items()) if t == name) or None,
        }

    def standings(self) -> list[dict[str, Any]]:
        """Each division's standings after its complete rounds (``label``, ``rows``),
        as ``event standings`` and the console have them, and apart the round in play
        as it stands (``in_play``: its label and rows, the games at the tables at
        their scores now; None between rounds). One function decides both
        (:func:`engine.tournament.live.round_standings`)."""
        if self.event is None:
            return []
        out = []
        event = self.event
        for div in event.divisions.values():
            # the round's tables by pairing, built once per division (one round asked)
            tables: dict[int, dict[tuple[int, int], Assignment]] = {}

            def game_at(
                rnd: int,
                pair: tuple[int, int],
                div: DivisionState = div,
                tables: dict[int, dict[tuple[int, int], Assignment]] = tables,
            ) -> TableGame | None:
                if rnd not in tables:
                    tables[rnd] = _round_tables(event, div, rnd)
                return self._game_at(tables[rnd].get(pair))

            now = round_standings(div, game_at)
            play = now.in_play
            out.append(
                {
                    "division": div.spec.name,
                    "round": now.complete,
                    "label": now.label,
                    "rows": _rows(div, now.standings),
                    "in_play": None
                    if play is None or play.standings is None
                    else {
                        "round": play.round,
                        "label": play.label,
                        "rows": _rows(div, play.standings),
                    },
                }
            )
        return out

    def tourney_js(self) -> bytes | None:
        """The event as tsh's live feed (``tourney.js``), None without an event; built
        again only when the event has taken a record since (every reader polls it)."""
        if self.event is None:
            return None
        made_from = (id(self.event), self.event.records)
        if self._feed is None or self._feed[0] != made_from:
            self._feed = (made_from, tourney_js(self.event))
        return self._feed[1]

    def push_standings(self) -> None:
        """Send the standings to the browsers (the server calls it at most once a second)."""
        self.standings_due = False
        try:
            divisions = self.standings()
        except Exception:  # a bug of ours must not stop the standings for good
            log.exception("venue page: cannot work out the standings")
            return
        self._push({"type": "standings", "divisions": divisions})

    def projector(self) -> list[dict[str, Any]]:
        """What the projector view shows of each division: the sheets as posted after
        its complete rounds (the same cells as the printed sheets: ``event sheets``),
        the pairings of the round to post (the next one once paired) and the
        standings; the pairings None before a round is paired; the prize sheet
        (``event prizes``) once the division's last round is complete, else None."""
        if self.event is None:
            return []
        out = []
        for div in self.event.divisions.values():
            after = complete_rounds(div)
            rnd = pairings_round(div, after)
            posted = pairings_sheet(pairings(self.event, div, rnd)) if rnd else None
            table = standings(self.event, div, after)
            out.append(
                {
                    "event": self.event.spec.name,
                    "division": div.spec.name,
                    "round": rnd,
                    "label": table.label,
                    "pairings": None if posted is None else plain(posted),
                    "standings": plain(standings_sheet(table)),
                    "prizes": self.prizes.get(div.spec.name),
                }
            )
        return out

    def push_projector(self) -> None:
        """Send the projector's sheets to the browsers (after the event changed)."""
        self.projector_due = False
        try:
            divisions = self.projector()
        except Exception:  # a bug of ours must not stop the page
            log.exception("venue page: cannot make the projector's sheets")
            return
        self._push({"type": "projector", "divisions": divisions})

    def _game_at(self, at: Assignment | None) -> TableGame | None:
        """The game of the pairing the round assigned as ``at`` (None: no table) as
        that table reports it (a game over counts by its ruled result in the
        standings, signed or not), if the table shows this game
        (:func:`assigned_game`): by table and assignment, so a table naming another
        game's players moves nothing."""
        if at is None:
            return None
        held = self.live.get(at.table_name)
        if held is None or held.live is None:
            return None
        return assigned_game(held.live.state, at)

    def everything(self) -> dict[str, Any]:
        """The whole venue, for a page that just loaded."""
        names = sorted(set(self.live) | set(self.online) | set(self.assignments), key=table_order)
        return {
            "type": "venue",
            "venue": self.venue,
            "connected": self.broker_connected,
            "tables": [self.summary(n) for n in names],
            "standings": self.standings(),
            "projector": self.projector(),
        }

    def table(self, name: str) -> dict[str, Any] | None:
        """One table's board and moves (its latest snapshot), or None."""
        snap = self.snapshots.get(name)
        if snap is None:
            return None
        rep = snap.state
        return {
            "table": name,
            "players": list(rep.players),
            "board": None if rep.board is None else list(rep.board),
            "history": plain(rep.history),
            "seq": snap.seq,
        }

    def watch(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue of every change from now on (for one browser)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1000)
        self._watchers.add(queue)
        return queue

    def watching(self, queue: asyncio.Queue[dict[str, Any]]) -> bool:
        """Whether the queue is still fed (a browser that fell 1,000 changes behind
        is dropped: its page reconnects and starts from the whole venue)."""
        return queue in self._watchers

    def unwatch(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """That browser left."""
        self._watchers.discard(queue)

    def _push(self, doc: dict[str, Any]) -> None:
        for queue in list(self._watchers):
            if queue.full():  # a browser that does not read: it reloads the venue
                self._watchers.discard(queue)
                continue
            queue.put_nowait(doc)


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


def _rows(div: DivisionState, table: list[Standing]) -> list[dict[str, Any]]:
    return [
        {
            "rank": r.rank,
            "name": div.name(r.seed),
            "wins": r.wins,
            "losses": r.losses,
            "spread": r.spread,
        }
        for r in table
    ]


def plain(value: object) -> Any:
    """Structs as the JSON the browser gets (lists, not tuples)."""
    return msgspec.json.decode(msgspec.json.encode(value))


_TOPICS = ("live", "status", "state", "assignment")
"""What the page reads of each table."""


def table_topics(venue: str) -> list[str]:
    """The subscriptions of a venue page (the viewer's rights: docs/mqtt.md)."""
    return [every_table(venue, suffix) for suffix in _TOPICS]


def _round_tables(
    event: EventState, div: DivisionState, rnd: int
) -> dict[tuple[int, int], Assignment]:
    """Round ``rnd``'s tables in ``div`` by pairing (seeds), as
    :func:`round_assignments` numbers them; none when the event cannot say."""
    try:
        return {a.seeds: a for a in round_assignments(event, rnd) if a.division == div.spec.name}
    except EngineError:
        return {}
