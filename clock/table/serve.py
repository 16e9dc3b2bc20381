"""Running one table headless: ``rackclock serve``.

Commands arrive on standard input, one per line, and every outcome is printed
as one JSON line on standard output after its commit:

- ``press 0`` / ``press 1`` / ``pause``: the emulated clock's buttons;
- a JSON event (docs/events.md) without ``t``: submitted as is (stamped on arrival);
- ``state``: print the replay report of the current state;
- ``next``: start the next round's game assigned to the table (``--assignment
  mqtt://...``: each new assignment is printed as ``{"assignment": ..., "ready"}``
  when it arrives), once the game is over and both players have signed;
- ``quit`` or end of input: stop cleanly.

Output lines: ``{"seq", "type", "t"}`` for each committed event,
``{"refused", "rule", "type"}`` for a refused one, ``{"device": ...}`` for
device status, ``{"state": ...}`` on request, ``{"error": ...}`` for input that
is not a command.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TextIO

import msgspec

from clock.log.log_files import load_log
from clock.table.service import Update
from clock.table.session import TableSession, assigned, next_game_ready, same_game
from engine import report
from engine.events import GameStarted, decode_event
from engine.tournament.assignment import Assignment

__all__ = ["Follow", "logged_variant", "serve"]

Follow = Callable[[Callable[[Assignment], None]], Coroutine[Any, Any, None]]
"""Hands each assignment the table is given to its callback, until cancelled (the
broker's side is wired in by the command:
:func:`firmware_bridge.venue.assignment_feed.follow_assignments`)."""


def logged_variant(log: Path) -> str | None:
    """The variant of the last game in an existing log (its ``game_started``), or
    ``None`` when there is no such file or it holds no game: what ``serve --log`` resumes
    without ``--variant`` (the game goes on under its own rules, whatever is typed).

    Raises:
        OSError: The file cannot be read.
        engine.errors.EngineError: It is not a game log.
    """
    if not log.exists():
        return None
    starts = [ev for _, ev in load_log(log)[0] if isinstance(ev, GameStarted)]
    return starts[-1].variant if starts else None


def _emit(out: TextIO, doc: dict[str, object]) -> None:
    out.write(json.dumps(doc) + "\n")
    out.flush()


def _printer(out: TextIO) -> Callable[[Update], None]:
    def on_update(u: Update) -> None:
        if u.event is not None:
            _emit(out, {"seq": u.seq, "type": type(u.event).__name__, "t": u.event.t})
        elif u.refused is not None:
            _emit(
                out,
                {
                    "refused": u.refused.reason,
                    "rule": u.refused.rule,
                    "type": type(u.refused.event).__name__,
                },
            )
        else:
            _emit(
                out,
                {
                    "device": {
                        "online": u.status.device_online,
                        "id": u.status.device_id,
                        "reason": u.status.device_reason,
                    }
                },
            )

    return on_update


async def _lines(stream: TextIO) -> asyncio.Queue[str | None]:
    """Read lines in a thread so the event loop never blocks on input."""
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def pump() -> None:
        for line in stream:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    # A daemon thread, not the default executor: asyncio.run waits for executor
    # threads, and this one blocks until end of input, so 'quit' would hang.
    threading.Thread(target=pump, name="serve.stdin", daemon=True).start()
    return queue


def _game(game: Assignment) -> dict[str, object]:
    return {
        "round": game.round,
        "division": game.division,
        "table": game.table_name,
        "players": list(game.players),
    }


async def serve(
    session: TableSession,
    *,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    follow: Follow | None = None,
) -> int:
    """Run the table until ``quit`` or end of input; returns the exit status."""
    service, emulated, timeline = session.service, session.emulated, session.timeline
    service.add_listener(_printer(stdout))
    offered: list[Assignment] = []

    def on_assignment(game: Assignment) -> None:
        if same_game(session.spec, game):
            return
        offered[:] = [game]
        _emit(stdout, {"assignment": _game(game), "ready": next_game_ready(service.state)})

    following: asyncio.Task[None] | None = None
    if follow is not None:
        following = asyncio.create_task(follow(on_assignment))
    await session.open()
    try:
        for r in service.rejected_on_load:
            _emit(stdout, {"log_line_refused": r.line, "reason": r.reason, "rule": r.rule})
        await session.begin()
        if session.started is None:
            _emit(
                stdout,
                {
                    "resumed": True,
                    "phase": service.state.phase.value,
                    "neutralized": service.state.clock.neutral,
                },
            )
        lines = await _lines(stdin)
        while True:
            line = await lines.get()
            if line is None:
                break
            text = line.strip()
            if not text:
                continue
            if text == "quit":
                break
            if text == "state":
                _emit(stdout, {"state": report(service.state, timeline.now_ms())})
                continue
            if text == "next":
                if not offered:
                    _emit(stdout, {"error": "next: no new game is assigned to this table"})
                elif not next_game_ready(service.state):
                    _emit(stdout, {"error": "next: the game is not over and signed by both"})
                else:
                    session.spec = assigned(session.spec, offered.pop())
                    await session.begin()
                continue
            words = text.split()
            if words[0] in ("press", "pause") and emulated is not None:
                if words[0] == "pause":
                    emulated.pause_button()
                elif len(words) == 2 and words[1] in ("0", "1"):
                    emulated.press(int(words[1]))
                else:
                    _emit(stdout, {"error": f"press needs a side 0 or 1: {text!r}"})
                # Keep input order: the button reaches the service's queue before the
                # next line is read.
                await emulated.drained()
                continue
            try:
                event = decode_event(text)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                _emit(stdout, {"error": f"not a command or event: {text[:80]!r}: {exc}"})
                continue
            await service.submit(event, "stdin")
        # let presses already made on the device reach the log before stopping
        await asyncio.sleep(0)
    finally:
        if following is not None:
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following
        await session.stop()
    return 0
