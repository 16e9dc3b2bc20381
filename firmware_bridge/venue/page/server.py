"""The venue page's server: an ASGI app over a :class:`VenueModel`, fed by one
broker connection in the viewer's role, pushing to browsers with server-sent
events (``/events``). Everything the page loads is served here (no CDN).

Routes: ``/`` the page, ``/app.js``, ``/style.css``, ``/projector`` (the
current pairings and the standings in large type, for a projector: its own
``projector.js`` and ``projector.css``), ``/venue`` (the whole
venue as JSON), ``/table/<name>`` (one table's board and moves), ``/events``
(the changes, as they come), ``/tourney.js`` (the event as tsh's live feed:
:mod:`engine.exports.newt`; with ``--event``). ``rackclock venue --page PORT`` runs it.

It only reads: GET and HEAD are answered, anything else is 405. Every answer
carries :data:`CONTENT_SECURITY_POLICY`, so a table's name or player that got
into the page as markup could neither run a script nor send anything anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any

import aiomqtt
import uvicorn

from clock.log.eventlog import LogError
from clock.tournament.ledger import EventLedger
from clock.tournament.special_prizes import event_prize_lists
from engine.errors import EngineError
from engine.tournament.live import complete_rounds
from engine.tournament.sheets.prizes import prizes_sheet
from engine.tournament.state import EventState
from firmware_bridge.mqtt.connection import BrokerSettings, MqttSession
from firmware_bridge.mqtt.topics import process_id
from firmware_bridge.venue.page.model import VenueModel, plain, table_topics

__all__ = ["VenuePage", "app"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/projector": ("projector.html", "text/html; charset=utf-8"),
    "/projector.js": ("projector.js", "text/javascript; charset=utf-8"),
    "/projector.css": ("projector.css", "text/css; charset=utf-8"),
}
CONTENT_SECURITY_POLICY = (
    b"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    b"img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page's own files only: no inline script or style, no other origin."""
METHODS = frozenset({"GET", "HEAD"})
"""What the page answers; anything else is 405."""
KEEPALIVE_S = 15.0
"""A comment line on ``/events`` this often, so proxies and browsers keep it open."""


def _headers(kind: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-type", kind),
        (b"cache-control", b"no-store"),
        (b"content-security-policy", CONTENT_SECURITY_POLICY),
        (b"x-content-type-options", b"nosniff"),
    ]


def _static(name: str) -> bytes:
    return resources.files("firmware_bridge.venue.page").joinpath("static", name).read_bytes()


async def _reply(
    send: Send, status: int, body: bytes, kind: str, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    headers = _headers(kind.encode()) + list(extra)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def app(model: VenueModel) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """The ASGI app of a venue page."""

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                msg = await receive()
                if msg["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif msg["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        path = scope["path"]
        if scope["method"] not in METHODS:
            await _reply(send, 405, b"GET or HEAD only", "text/plain", ((b"allow", b"GET, HEAD"),))
        elif path in _STATIC:
            name, kind = _STATIC[path]
            await _reply(send, 200, _static(name), kind)
        elif path == "/tourney.js":
            feed = model.tourney_js()
            if feed is None:
                await _reply(send, 404, b"no event: the page runs without --event", "text/plain")
            else:
                await _reply(send, 200, feed, "text/javascript; charset=utf-8")
        elif path == "/venue":
            await _reply(send, 200, json.dumps(model.everything()).encode(), "application/json")
        elif path.startswith("/table/"):
            doc = model.table(path.removeprefix("/table/"))
            if doc is None:
                await _reply(
                    send, 404, b'{"error":"no snapshot of that table yet"}', "application/json"
                )
            else:
                await _reply(send, 200, json.dumps(doc).encode(), "application/json")
        elif path == "/events" and scope["method"] == "HEAD":
            await _reply(send, 200, b"", "text/event-stream")  # not a stream that never ends
        elif path == "/events":
            await _events(model, receive, send)
        else:
            await _reply(send, 404, b"not found", "text/plain")

    return asgi


async def _events(model: VenueModel, receive: Receive, send: Send) -> None:
    """Server-sent events: the venue first, then each change; ends when the browser goes."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": _headers(b"text/event-stream"),
        }
    )
    queue = model.watch()

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    watcher = asyncio.create_task(gone())
    try:
        first = json.dumps(model.everything())
        await send(
            {"type": "http.response.body", "body": f"data: {first}\n\n".encode(), "more_body": True}
        )
        # a browser dropped for falling behind ends here: it reconnects afresh
        while not watcher.done() and model.watching(queue):
            # the next change, the keepalive, or the browser leaving: whichever is first
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait(
                {getter, watcher}, timeout=KEEPALIVE_S, return_when=asyncio.FIRST_COMPLETED
            )
            if watcher.done():
                getter.cancel()
                break
            if getter.done():
                body = f"data: {json.dumps(getter.result())}\n\n".encode()
            else:
                getter.cancel()
                body = b": keepalive\n\n"
            await send({"type": "http.response.body", "body": body, "more_body": True})
    finally:
        model.unwatch(queue)
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


class VenuePage:
    """The page's broker connection (viewer role) and its web server."""

    def __init__(
        self,
        broker: BrokerSettings,
        venue: str,
        *,
        host: str,
        port: int,
        event: Path | None = None,
    ) -> None:
        self.model = VenueModel(venue)
        self.event_path = event
        """The event's ledger (the director's), followed for the standings."""
        self._ledger: EventLedger | None = None
        """The event's ledger, open read-only while the page runs (None until it opens)."""
        self._prized: object = None
        """What the prize sheets were made from (the finished divisions' results)."""
        self._said: set[str] = set()
        """The prize lists' lines logged already (a missing game log: once, not each time)."""
        self.session = MqttSession(
            broker,
            identifier=process_id("viewer", venue, "page"),
            subscriptions=table_topics(venue),
            on_message=self._on_message,
            on_connect=self._on_connect,
            on_disconnect=lambda _why: self.model.set_connected(False),
            session_expiry_s=0,  # a page that comes back starts from the retained documents
        )
        config = uvicorn.Config(
            app(self.model),
            host=host,
            port=port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=2,  # open /events streams end with the server
        )
        self.server = uvicorn.Server(config)
        """The web server."""

    def _on_message(self, msg: aiomqtt.Message) -> None:
        payload = msg.payload if isinstance(msg.payload, bytes) else b""
        self.model.take(msg.topic.value, payload)

    async def _on_connect(self) -> None:
        self.model.set_connected(True)

    async def run(self) -> None:
        """Serve until cancelled."""
        self.session.start()
        follower = asyncio.create_task(self._follow())
        try:
            await self.server.serve()
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
            self.server.should_exit = True
            await self.session.close()
            if self._ledger is not None:
                self._ledger.close()

    async def _follow(self) -> None:
        """Once a second: reread the event's ledger if it changed, push the standings if
        anything changed (however many tables moved meanwhile)."""
        while True:
            if self.event_path is not None:
                await self._reread()
            if self.model.standings_due:
                self.model.push_standings()
            if self.model.projector_due:
                if self.model.event is not None:
                    await self._prizes(self.model.event)
                self.model.push_projector()
            await asyncio.sleep(1.0)

    async def _prizes(self, state: EventState) -> None:
        """The prize sheets of the divisions whose last round is complete, their
        special prizes from the game logs their results name (read in a worker
        thread: file I/O), made again only when those divisions' results changed."""
        done = [d for d in state.divisions.values() if complete_rounds(d) == d.spec.rounds]
        # copies: the ledger's reread changes the division's own dicts in place
        made_from = [
            (d.spec.name, [(r, tuple(got.items())) for r, got in sorted(d.results.items())])
            for d in done
        ]
        if made_from == self._prized:
            return
        self._prized = made_from  # a failure is logged once, not every second
        base = self.event_path.parent if self.event_path is not None else None
        try:
            lists, skipped = await asyncio.to_thread(
                event_prize_lists,
                state,
                done,
                base=base,
                advice="copy the tables' logs where the results name them",
            )
        except Exception:  # a bug of ours, or a log gone meanwhile: the page goes on
            log.exception("venue page: cannot make the prize lists")
            return
        for line in skipped:
            if line not in self._said:
                self._said.add(line)
                log.warning("venue page: prizes: %s", line)
        self.model.prizes = {p.division: plain(prizes_sheet(state.spec.name, p)) for p in lists}

    async def _reread(self) -> None:
        """Take what the director's tools appended to the event's ledger: its connection
        stays open read-only, and SQLite's ``data_version`` says whether anyone
        committed (the WAL's commits leave the main file's mtime alone)."""
        assert self.event_path is not None
        try:
            if self._ledger is None:
                self._ledger = await asyncio.to_thread(
                    EventLedger.open, self.event_path, readonly=True
                )
            # in the loop's thread, not a worker's: the model reads this state; a
            # refresh is one PRAGMA, or the few records appended since
            elif not self._ledger.refresh():
                return
        except (LogError, EngineError) as exc:
            log.warning("venue page: cannot read the event %s: %s", self.event_path, exc)
            return
        self.model.event = self._ledger.state
        self.model.standings_due = True
        self.model.projector_due = True
