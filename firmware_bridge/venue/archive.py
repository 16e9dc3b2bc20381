"""The venue hub's archive: every table's latest state, and its log after each finished game.

:class:`Archive` follows every table on the venue broker through a
:class:`~firmware_bridge.venue.director_link.DirectorLink` (the small ``live``
documents) and keeps, under ``<data>/archive/<venue>/``, each table's latest
document (``<table>.json``) and the whole game log (``<table>.jsonl``, fetched
with the director command ``get_log``) whenever a finished game's state changes,
so results can be exported after the tables are gone (``rackclock director --log
<data>/archive``). The documents live in memory; what changed (a new ``seq``) is
written in one batch every ``flush_s`` seconds, in a thread, so the event loop
never waits on the disk and a refresh that carries no new event writes nothing.
``rackclock venue`` runs it.

Only a document that read as the table's typed document is archived (the link
reads each at the edge); one that does not is printed once per table and reason
(``club/t1: bad live document: ...``), and the table's last good one stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import TextIO

from engine.events import GameStarted
from engine.rules.replay import parse_jsonl, split_games
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import TableTopics
from firmware_bridge.venue.director_link import DirectorError, DirectorLink

__all__ = ["Archive", "foreign_game"]

log = logging.getLogger(__name__)


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def foreign_game(text: str, table: str) -> str:
    """Why a table's log (JSON Lines, as ``get_log`` sends it) cannot be its own, or "".

    Only this table's login may write its topics (deploy/mosquitto), so the log
    that came from them is this table's: a game in it that names another table is
    one this table cannot deliver (``rackclock event results`` would take the copy
    as the other table's game)."""
    events, _ = parse_jsonl(text)
    for n, game in enumerate(split_games(events), start=1):
        start = game[0][1]
        if isinstance(start, GameStarted) and start.table not in (None, table):
            return f"game {n} names table {start.table!r}: a table delivers only its own games"
    return ""


class Archive:
    """Keeps every table's latest state, and its log after each finished game, on disk."""

    def __init__(
        self, url: str, root: Path, *, out: TextIO = sys.stdout, flush_s: float = 1.0
    ) -> None:
        self.root = root
        """``<data>/archive``."""
        self.logs_archived = 0
        """Logs written."""
        self._out = out
        self._archived_seq: dict[TableTopics, int | None] = {}
        self._fetching: set[TableTopics] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._online: dict[TableTopics, bool | None] = {}
        self._written_seq: dict[TableTopics, object] = {}
        self._dirty: dict[TableTopics, tuple[bytes, int | None]] = {}
        self.flush_s = flush_s
        """Seconds between batched writes of the documents that changed."""
        self.writes = 0
        """Document files written."""
        self.link = DirectorLink(parse_url(url), desk="hub", on_change=self.on_change)
        """The broker connection."""
        self.link.on_notice = lambda line: _say(self._out, f"table {line}")

    def paths(self, venue: str, table: str) -> tuple[Path, Path]:
        """The state file and the log file of a table."""
        folder = self.root / venue
        return folder / f"{table}.json", folder / f"{table}.jsonl"

    async def run(self) -> None:
        """Archive until cancelled."""
        self.link.start()
        try:
            while True:
                await asyncio.sleep(self.flush_s)
                await self.flush()
        finally:
            with contextlib.suppress(Exception):
                await self.flush()
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self.link.close()

    def on_change(self, topics: TableTopics) -> None:
        """What the hub does when a table's state or status changes (its link calls this):
        says a table going online or offline, marks a new document for the next batch
        (:meth:`flush`; a refresh with the same ``seq`` writes nothing) and fetches a
        finished game's log. Never blocks: the writes and the fetch run elsewhere."""
        snap = self.link.tables[topics]
        if snap.online != self._online.get(topics):
            self._online[topics] = snap.online
            if snap.online is not None:
                word = "online" if snap.online else "offline"
                _say(self._out, f"table {topics.venue}/{topics.table}: {word}")
        raw, live = snap.raw, snap.live
        if raw is None or live is None or snap.removed:
            return
        seq = live.seq
        if topics not in self._written_seq or self._written_seq[topics] != seq:
            # written with the next batch, as it came; a refresh writes nothing
            self._dirty[topics] = (raw, seq)
        over = live.state.result is not None
        if over and seq != self._archived_seq.get(topics) and topics not in self._fetching:
            self._fetching.add(topics)
            task = asyncio.create_task(self._fetch(topics, seq), name=f"archive[{topics.base}]")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Write the documents that changed since the last batch, in a thread."""
        if not self._dirty:
            return
        batch, self._dirty = self._dirty, {}
        items = [(self.paths(t.venue, t.table)[0], raw) for t, (raw, _) in batch.items()]

        def write() -> int:
            done = 0
            for path, raw in items:
                try:
                    _write_atomic(path, raw)
                    done += 1
                except OSError:
                    log.exception("cannot archive %s", path)
            return done

        self.writes += await asyncio.to_thread(write)
        for t, (_, seq) in batch.items():
            self._written_seq[t] = seq

    async def _fetch(self, topics: TableTopics, seq: int | None) -> None:
        try:
            text = await self.link.get_log_text(topics)
        except DirectorError as exc:
            _say(self._out, f"table {topics.venue}/{topics.table}: log not archived: {exc}")
            return
        finally:
            self._fetching.discard(topics)
        foreign = foreign_game(text, topics.table)
        if foreign:
            self._archived_seq[topics] = seq  # asked again only when the table moves on
            _say(self._out, f"table {topics.venue}/{topics.table}: log not archived: {foreign}")
            return
        _, log_path = self.paths(topics.venue, topics.table)
        try:
            _write_atomic(log_path, text.encode())
        except OSError as exc:
            _say(self._out, f"cannot write {log_path}: {exc}")
            return
        self._archived_seq[topics] = seq
        self.logs_archived += 1
        count = text.count("\n")
        _say(self._out, f"archived {topics.venue}/{topics.table}: {count} events in {log_path}")
