"""What the venue page shows, kept from the broker: each table's live document and
status, its latest snapshot (board and moves), and the round's assignments.

Pure of the network: :class:`VenueModel` takes topic and payload; the server
feeds it from its broker connection and pushes what changed to the browsers.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import msgspec

from engine.tournament.live import TableGame, phase_words, round_standings
from engine.tournament.standings import Standing
from engine.tournament.state import DivisionState, EventState
from firmware_bridge.mqtt.topics import TableTopics, TopicError, parse_topic
from firmware_bridge.venue.table_document import (
    BadDocument,
    HeldDocument,
    Snapshot,
    read_snapshot,
)

__all__ = ["VenueModel", "table_topics"]


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
        self.assignments: dict[str, dict[str, Any]] = {}
        """Table -> its assignment in the round."""
        self.broker_connected = False
        """Whether the server is connected to the broker."""
        self.event: EventState | None = None
        """The event (``--event``), for its standings."""
        self.standings_due = False
        """A table or the event changed since the standings were last pushed."""
        self._watchers: set[asyncio.Queue[dict[str, Any]]] = set()

    # --- in -------------------------------------------------------------------------------
    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker."""
        try:
            table, suffix = parse_topic(topic)
        except TopicError:
            return
        if table.venue != self.venue:
            return
        name = table.table
        if suffix == "status":
            self.online[name] = payload.strip() == b"online"
        elif suffix == "live":
            # empty: removed (a clean stop); one that does not read: the last good one
            # is kept and the table is stale (HeldDocument, the console's rule too)
            self.live.setdefault(name, HeldDocument()).take(payload, self.wall_ms())
        elif suffix == "state":
            snap = read_snapshot(payload) if payload else None
            if snap is None or isinstance(snap, BadDocument):
                self.snapshots.pop(name, None)
            else:
                self.snapshots[name] = snap
            return  # the board and moves are fetched on demand: no push
        elif suffix == "assignment":
            doc = _json(payload)
            if doc is None:
                self.assignments.pop(name, None)
            else:
                self.assignments[name] = doc
        else:
            return
        self._push({"type": "table", "table": self.summary(name)})
        self.standings_due = self.event is not None

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
            "result": _plain(rep.result) if rep and rep.result else None,
            # the clocks were read at published_at_ms; the page moves the running one on
            "age_ms": held.age_ms(now),
            "assignment": self.assignments.get(name),
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
        for div in self.event.divisions.values():
            now = round_standings(div, self._game_of)
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

    def push_standings(self) -> None:
        """Send the standings to the browsers (the server calls it at most once a second)."""
        self.standings_due = False
        self._push({"type": "standings", "divisions": self.standings()})

    def _game_of(self, first: str, second: str) -> TableGame | None:
        """The game of ``first`` and ``second`` as its table reports it (a game over
        counts by its ruled result in the standings, signed or not)."""
        for held in self.live.values():
            if held.live is None:
                continue
            game = TableGame.of(held.live.state)
            if game is not None and set(game.players) == {first, second}:
                return game
        return None

    def everything(self) -> dict[str, Any]:
        """The whole venue, for a page that just loaded."""
        names = sorted(set(self.live) | set(self.online) | set(self.assignments), key=_order)
        return {
            "type": "venue",
            "venue": self.venue,
            "connected": self.broker_connected,
            "tables": [self.summary(n) for n in names],
            "standings": self.standings(),
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
            "history": _plain(rep.history),
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


def _plain(value: object) -> Any:
    """Structs as the JSON the browser gets (lists, not tuples)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _json(payload: bytes) -> dict[str, Any] | None:
    if not payload:
        return None
    try:
        doc = json.loads(payload)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def _order(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 1 << 30, name)


def table_topics(venue: str) -> list[str]:
    """The subscriptions of a venue page (the viewer's rights: docs/mqtt.md)."""
    base = TableTopics(venue, "x").base.rsplit("/", 1)[0]
    return [f"{base}/+/{suffix}" for suffix in ("live", "status", "state", "assignment")]
