"""The table service: the live side of one game.

Every command, whatever its source (keyboard, a clock device's buttons, the
scorekeeper, the director), takes one path:

1. it is stamped with the table's monotonic time the moment it arrives (for a
   press, that stamp *is* the instant the running side switches);
2. it joins one queue read by one writer, so two presses that arrive together
   are put in order and the second is refused with its reason;
3. the writer checks it with the engine (:func:`engine.rules.machine.apply`) and
   appends it to the hash-chained log; the commit (fsync) runs on the log's own
   thread, so a press that arrives meanwhile is still stamped on arrival, and it
   happens before the command is acknowledged (to the caller, and for a clock
   device's press, to the device: ``on_disk``);
4. only then is the new state published, to subscribers and to the clock
   device. Publishing never waits for a subscriber: a slow one loses its
   oldest updates, one that raises is logged and skipped, and neither delays
   the next command.

Deadlines (the overtime cutoff) are computed by the engine; the service only
wakes up on time to apply them. After a crash the log is replayed and a game
in progress comes back neutralized, with the measured gap logged.

Before a game starts (a start screen is up), the table says which game comes next
(:meth:`TableService.expect_game`, kept by :mod:`clock.table.next_game`): the clock
device shows that game's starting time, stopped, and a press of either of its buttons
starts the game, as a clock key on the start screen does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from msgspec.structs import replace

from clock.device.device_time import LIMIT_MS, TOLERANCE_MS
from clock.device.interface import (
    ClockDevice,
    DeviceEvent,
    DeviceOffline,
    DeviceOnline,
    PausePressed,
    SidePressed,
    TimesReported,
)
from clock.log.eventlog import EventLog
from clock.log.heartbeat import boot_id, read_alive, write_alive
from clock.log.lock import WriterLock
from clock.table.display import beeps_due, display_text, next_display_change
from clock.table.next_game import NextGame
from clock.timeline import MonotonicTimeline, Timeline
from clock.user_files import register_variant_files
from engine import GameState, Phase, Refusal, Rejected, apply, next_deadline, replay
from engine.events import (
    Actor,
    ClockPressed,
    Event,
    GameStarted,
    Neutralized,
    Resumed,
    ServiceRestarted,
    Signed,
    TimeChecked,
)
from engine.rules.authority import actor_at_table

__all__ = ["Ack", "Status", "Subscription", "TableService", "Update"]

log = logging.getLogger(__name__)

_LIVE = (
    Phase.PLAYING,
    Phase.HOLD,
    Phase.BLANK_DEMANDED,
    Phase.OUT_PLAY,
    Phase.CHALLENGE,
    Phase.SCORE_DISPUTE,
    Phase.OVERDRAW,
)


@dataclass(frozen=True, slots=True)
class Ack:
    """The answer to a command, given after the log commit."""

    accepted: bool
    """True when the command became an event in the log."""
    event: Event
    """The command as stamped."""
    seq: int | None = None
    """Its sequence number in the log (accepted only)."""
    reason: str = ""
    """Why it was refused."""
    rule: str = ""
    """The rule that refused it."""


@dataclass(frozen=True, slots=True)
class Status:
    """The table's live status beyond the game state."""

    device_online: bool = False
    """Whether the clock device is connected."""
    device_id: str = ""
    """The device's identity."""
    device_reason: str = ""
    """Why it is offline."""
    offline_since_ms: int | None = None
    """Table time the device went offline (None while online or never connected)."""
    attached: bool = True
    """Whether the table has a clock device at all (``--clock none``: no)."""


@dataclass(frozen=True, slots=True)
class Update:
    """What subscribers receive after each commit (or status change)."""

    state: GameState
    """The game after the event."""
    status: Status
    """Device status."""
    seq: int | None = None
    """The event's sequence number; None for a status-only update."""
    event: Event | None = None
    """The event committed."""
    refused: Ack | None = None
    """A refused command, published so screens can show the reason."""
    before: GameState | None = None
    """The game before the event (a commit only): listeners that follow the game
    event by event (the scorekeeper's turn book) need both sides."""


@dataclass
class Subscription:
    """A bounded mailbox of updates. When full, the oldest update is dropped:
    screens want the latest state, and the writer never waits for them."""

    maxsize: int = 64
    """Updates kept before the oldest is dropped."""
    dropped: int = 0
    """How many updates were dropped."""
    _queue: asyncio.Queue[Update] = field(default_factory=asyncio.Queue)

    def offer(self, update: Update) -> None:
        """Deliver without waiting."""
        while self._queue.qsize() >= self.maxsize:
            self._queue.get_nowait()
            self.dropped += 1
        self._queue.put_nowait(update)

    async def get(self) -> Update:
        """The next update."""
        return await self._queue.get()

    def get_nowait(self) -> Update | None:
        """The next update if one is waiting."""
        try:
            return self._queue.get_nowait()
        except asyncio.QueueEmpty:
            return None

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Update:
        return await self._queue.get()


@dataclass(frozen=True, slots=True)
class _Item:
    """A command as it waits for the writer."""

    t: int
    """Stamped on arrival."""
    event: Event | None
    """None: nothing to commit, only ``on_disk`` to answer once what is ahead is."""
    source: str
    fut: asyncio.Future[Ack] | None = None
    on_disk: Callable[[], None] | None = None
    """The device's acknowledgement, sent after the commit."""


_ROLES: dict[str, Actor] = {
    "device": "device",
    "deadline": "service",
    "service": "service",
    "scorekeeper": "scorekeeper",
    "director": "director",
}
"""Sources whose commands are made by one role; others are the players' table terminal."""


def _told(item: _Item) -> None:
    """Acknowledge a device's command, now that it is on disk."""
    if item.on_disk is None:
        return
    try:
        item.on_disk()
    except Exception:  # a transport's bug must not stop the writer
        log.exception("the device's acknowledgement failed")


def _program() -> str:
    """This program as its user typed it (``rackclock serve``), for the lock file."""
    argv = sys.argv
    if argv and Path(argv[0]).name == "rackclock" and len(argv) > 1:
        return f"rackclock {argv[1]}"
    return "a table service"


def _press_time(dev: SidePressed, now: int) -> tuple[int, int | None, int | None]:
    """A device press's stamp, its arrival and its lateness: ``now``, the arrival, unless
    the press was held up on the link (a broker restart, a Wi-Fi drop): then the device's
    time, not charged to the player, no earlier than the limit (docs/clock-protocol.md).
    Arrival and lateness are None for a press stamped on arrival."""
    if dev.device_at_ms is not None and now - dev.device_at_ms > TOLERANCE_MS:
        return max(dev.device_at_ms, now - LIMIT_MS), now, now - dev.device_at_ms
    return now, None, None


# The pause button toggles. Whether it neutralizes or resumes is decided when it
# is committed, not when it arrives, so two quick presses pause and resume.
_PAUSE = Neutralized(by="clock", reason="pause button")


class TableService:
    """One table's game in real time. Use as ``async with TableService(...) as svc``."""

    def __init__(
        self,
        log_path: str | Path,
        *,
        timeline: Timeline | None = None,
        device: ClockDevice | None = None,
        authority: Literal["host", "device"] = "host",
        drift_threshold_ms: int = 250,
        log_refused: bool = True,
        heartbeat_ms: int = 1000,
        wall_ms: Callable[[], int] | None = None,
        writer: str | None = None,
    ) -> None:
        self.log_path = Path(log_path)
        """The SQLite game log."""
        self.timeline: Timeline = timeline or MonotonicTimeline()
        """Where stamps come from."""
        self.device = device
        """The clock device, if any."""
        self.authority = authority
        """``host``: the service's times rule; ``device``: the device's times at each press."""
        self.drift_threshold_ms = drift_threshold_ms
        """Device-authoritative: a gap beyond this is a ruling."""
        self.log_refused = log_refused
        """Log refused commands (marked refused) for forensics."""
        self.heartbeat_ms = heartbeat_ms
        """How often the liveness sidecar is written (0 = never)."""
        self._wall_ms = wall_ms or (lambda: time.time_ns() // 1_000_000)
        self.state = GameState()
        """The current game state (read-only for callers)."""
        self.status = Status(attached=device is not None)
        """Device status."""
        self.rejected_on_load: list[Rejected] = []
        """Log lines the rules refused when the log was replayed at start."""
        self.writer = writer or _program()
        """Who holds the log, in the lock file (``rackclock serve``)."""
        self._log: EventLog | None = None
        self._lock: WriterLock | None = None
        self._disk = ThreadPoolExecutor(1, thread_name_prefix="table.log")
        """The one thread that commits: an fsync never holds up the event loop."""
        self._queue: asyncio.Queue[_Item | None] = asyncio.Queue()
        self._unfinished = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._subs: list[Subscription] = []
        self._listeners: list[Callable[[Update], object]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._deadline_task: asyncio.Task[None] | None = None
        self._display_task: asyncio.Task[None] | None = None
        self._shown_text: str | None = None
        """The text the device was last sent (None: unknown, send it again)."""
        self._beeped: set[str] = set()
        """Beeps sounded in this game (``overtime:0``...), each once."""
        self._beeped_game = 0
        self._device_dirty = asyncio.Event()
        self._last_device_seq: int | None = None
        self._running = False
        self._next = NextGame()
        """The game to start at the next press or key (:meth:`expect_game`)."""

    # --- lifecycle -------------------------------------------------------------
    async def __aenter__(self) -> TableService:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Open the log, rebuild the game, neutralize a game that was interrupted,
        and start the writer, device, deadline and heartbeat tasks."""
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        # The one writer of the log (clock/log/lock.py): another service, or a director's
        # console ruling offline, is refused while this one runs (LogHeld).
        self._lock = WriterLock(self.log_path, self.writer)
        try:
            self._log = EventLog.open(self.log_path, created=created)
            events = list(self._log.events())
            register_variant_files(ev for _, ev in events)
            self.state, self.rejected_on_load = replay(events)
            self._recover()
        except BaseException:
            if self._log is not None:
                self._log.close()
                self._log = None
            self._release()
            raise
        self._running = True
        self._tasks.append(asyncio.create_task(self._writer(), name="table.writer"))
        if self.device is not None:
            self._tasks.append(asyncio.create_task(self._device_reader(), name="table.device-in"))
            self._tasks.append(asyncio.create_task(self._device_writer(), name="table.device-out"))
            self._device_dirty.set()
        if self.heartbeat_ms:
            self._tasks.append(asyncio.create_task(self._heartbeat(), name="table.heartbeat"))
        self._reschedule()

    async def stop(self) -> None:
        """Finish queued commands, stop the tasks and close the log."""
        if not self._running:
            return
        self._running = False
        self._queue.put_nowait(None)
        writer = self._tasks[0]
        with contextlib.suppress(asyncio.CancelledError):
            await writer
        for task in [*self._tasks[1:], self._deadline_task, self._display_task]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._tasks.clear()
        if self.device is not None:
            await self.device.close()
        if self._log is not None:
            self._log.close()
            self._log = None
        self._disk.shutdown(wait=True)
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _recover(self) -> None:
        """After a restart: the time the service was down is charged to nobody."""
        assert self._log is not None
        alive = read_alive(self.log_path)
        now = self.timeline.now_ms()
        anchor = max(self.state.t, alive.t if alive else 0)
        if isinstance(self.timeline, MonotonicTimeline) and alive is not None:
            # Continue the table's timeline from the last sign of life: on the same
            # boot the monotonic clock measures the gap; after a reboot (its origin
            # moved) only the wall clock can.
            raw = time.monotonic_ns() // 1_000_000
            same_boot = bool(alive.boot) and alive.boot == boot_id() and alive.mono_ms is not None
            if same_boot and alive.mono_ms is not None:
                gap = max(0, raw - alive.mono_ms)
            else:
                gap = max(0, self._wall_ms() - alive.wall_ms)
            self.timeline.offset_ms = max(anchor, alive.t + gap) - raw
            now = self.timeline.now_ms()
        elif now < anchor:
            now = anchor
        if self.state.phase in _LIVE and self.state.variant is not None:
            gap = max(0, now - anchor)
            event = ServiceRestarted(t=max(anchor, self.state.t), gap_ms=gap, actor="service")
            self.state = apply(self.state, event)
            seq = self._log.append(event)
            log.warning("table resumed after %d ms down; logged as seq %d", gap, seq)

    # --- commands ----------------------------------------------------------------
    def send(self, event: Event, source: str = "keyboard") -> asyncio.Future[Ack]:
        """Stamp ``event`` now and queue it; the future resolves after the commit."""
        t = self.timeline.now_ms()
        fut: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
        self._enqueue(_Item(t, event, source, fut))
        return fut

    def _enqueue(self, item: _Item) -> None:
        self._unfinished += 1
        self._idle.clear()
        self._queue.put_nowait(item)

    async def drained(self) -> None:
        """Return once every command queued so far is committed and published (or
        refused): the writer has nothing left. Tests on fake time wait on this, as
        commits run on the log's thread."""
        await self._idle.wait()

    def expect_game(self, start: GameStarted, initial_ms: int) -> None:
        """The game the table starts next, ``initial_ms`` each, while no game is on
        (none yet, or the last is over): shown on the clock device and started by its
        first press or by :meth:`start_next` (:mod:`clock.table.next_game`)."""
        if self.state.phase not in (Phase.NOT_STARTED, Phase.OVER):
            return
        self._next.expect(start, initial_ms)
        self._device_dirty.set()

    @property
    def expecting(self) -> bool:
        """Whether the game :meth:`expect_game` named has not started yet (a press on
        the device may have sent it already)."""
        return self._next.shown is not None

    def start_next(self) -> asyncio.Future[Ack] | None:
        """Start the game :meth:`expect_game` named, stamped now; when a press on the
        device has sent it already, that start's answer to come (None: no game is
        expected, or it has started)."""
        return self._next.send(self.send) or self._next.pending

    async def submit(self, event: Event, source: str = "keyboard") -> Ack:
        """Stamp, check, commit and publish ``event``; the answer comes after the commit."""
        return await self.send(event, source)

    def subscribe(self, maxsize: int = 64) -> Subscription:
        """A mailbox of updates; the current state is delivered first."""
        sub = Subscription(maxsize)
        sub.offer(Update(self.state, self.status))
        self._subs.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Stop delivering to ``sub``."""
        with contextlib.suppress(ValueError):
            self._subs.remove(sub)

    def add_listener(self, fn: Callable[[Update], object]) -> None:
        """Call ``fn`` with each update, after the commit. It must not block; if it
        raises, the error is logged and the next listener runs."""
        self._listeners.append(fn)

    # --- the one writer ------------------------------------------------------------
    async def _writer(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            try:
                await self._commit(item)
            except Exception as exc:  # e.g. the disk is full: answer, keep the table going
                # No ack: the device was not told the press is safe, and repeats it.
                log.exception("cannot commit %s", type(item.event).__name__)
                self._next.put_back(item.event)  # a start not written: tried again
                if item.fut is not None and not item.fut.done():
                    item.fut.set_exception(exc)
            finally:
                self._unfinished -= 1
                if not self._unfinished:
                    self._idle.set()

    async def _append(self, event: Event, refused: Refusal | None = None) -> int:
        """Append and commit on the log's thread; the loop goes on stamping meanwhile."""
        assert self._log is not None
        log_ = self._log
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._disk, lambda: log_.append(event, refused=refused))

    async def _commit(self, item: _Item) -> None:
        event = item.event
        if event is None:
            # a repeat: its original is on disk, as every item ahead of it is
            _told(item)
            return
        if event is _PAUSE and self.state.clock.neutral:
            event = Resumed(by="clock")
        actor = self._actor(event, item.source)
        if (
            type(event) is ClockPressed
            and self.state.phase is Phase.OVER
            and actor in ("device", "player0", "player1")
        ):
            # Once the game is over a player's clock press signs the result for that
            # side, on every clock (keys, emulated, serial, MQTT, gpio) alike: the
            # press is that player's own act, not the device's.
            event = Signed(player=event.player)
            actor = actor_at_table(event, self.state)
        stamped = replace(event, t=max(item.t, self.state.t), actor=actor)
        if isinstance(stamped, GameStarted):
            register_variant_files((stamped,))
        if (
            isinstance(stamped, ClockPressed)
            and stamped.device_late_ms is not None
            and stamped.arrived_ms is not None
            and stamped.t is not None
            and stamped.arrived_ms - stamped.t >= stamped.device_late_ms
        ):
            # stamped at the device's time: no limit cut it short, nothing to say
            stamped = replace(stamped, device_late_ms=None)
        fut = item.fut
        try:
            new = apply(self.state, stamped)
        except Refusal as exc:
            ack = Ack(False, stamped, None, exc.reason, exc.rule)
            if self.log_refused:
                await self._append(stamped, refused=exc)
            _told(item)
            log.info(
                "refused %s from %s: %s (%s)",
                type(event).__name__,
                item.source,
                exc.reason,
                exc.rule,
            )
            if fut is not None and not fut.done():
                fut.set_result(ack)
            self._next.put_back(event)  # the next game did not start: a press or key tries again
            self._publish(Update(self.state, self.status, refused=ack))
            self._device_dirty.set()  # the device may have switched on its own
            return
        seq = await self._append(stamped)
        _told(item)  # on disk: the device hears it first, then the screens
        before, self.state = self.state, new
        if isinstance(stamped, GameStarted):
            self._next.started()  # the device shows this game now
        ack = Ack(True, stamped, seq)
        if fut is not None and not fut.done():
            fut.set_result(ack)
        self._publish(Update(new, self.status, seq, stamped, before=before))
        self._device_dirty.set()
        self._reschedule()

    def _actor(self, event: Event, source: str) -> Actor:
        """Who made a command: its source decides, never the command itself, so a line
        typed at the table that says ``"actor": "director"`` is still the table's (and
        the rules refuse it what only the director may do). A command typed at the
        players' table terminal is made for the player it names."""
        role = _ROLES.get(source)
        return role if role is not None else actor_at_table(event, self.state)

    def _publish(self, update: Update) -> None:
        for sub in list(self._subs):
            sub.offer(update)
        for fn in list(self._listeners):
            try:
                fn(update)
            except Exception:  # a screen's bug must never stop the clock
                log.exception("listener %r failed; the table goes on", fn)

    # --- deadlines -------------------------------------------------------------------
    @property
    def deadline_pending(self) -> bool:
        """Whether the service is waiting for a deadline the rules set
        (:func:`engine.rules.procedures.deadline.next_deadline`, the overtime cutoff):
        True from when it is scheduled until its ``time_checked`` wake-up is queued or
        a later event moves or clears it. Read-only: the service schedules it."""
        task = self._deadline_task
        return task is not None and not task.done()

    def _reschedule(self) -> None:
        deadline = next_deadline(self.state)
        if self._deadline_task is not None:
            self._deadline_task.cancel()
            self._deadline_task = None
        if deadline is not None and self._running:
            self._deadline_task = asyncio.create_task(
                self._wake_at(deadline), name="table.deadline"
            )

    async def _wake_at(self, deadline: int) -> None:
        await self.timeline.sleep_until(deadline)
        self._deadline_task = None
        self.send(TimeChecked(), "deadline")

    # --- the device ----------------------------------------------------------------------
    async def _device_reader(self) -> None:
        assert self.device is not None
        reason = "the device stopped reporting"
        try:
            async for dev in self.device.events():
                self._on_device(dev)
        except Exception as exc:  # a broken link must not stop the table
            log.exception("clock device failed; the table goes on without it")
            reason = f"device error: {exc}"
        if self._running:
            self._on_device(DeviceOffline(reason))

    def _on_device(self, dev: DeviceEvent) -> None:
        """Stamp a device event at once and queue it; never wait here."""
        now = self.timeline.now_ms()
        if isinstance(dev, SidePressed | PausePressed) and dev.seq is not None:
            if self._last_device_seq is not None and dev.seq == self._last_device_seq:
                # A repeat: acknowledged once its original is on disk (it is ahead).
                self._enqueue(_Item(now, None, "device", on_disk=dev.on_disk))
                return
            self._last_device_seq = dev.seq
        if isinstance(dev, SidePressed) and self.expecting:
            # The players start the game at their clock, as at the start screen's keys.
            # A second press while it starts (a double press to start it) is no press
            # in it, or it would end the starting player's first turn at once.
            if self._next.send(self._pressed_start(dev, now)) is None:
                self._enqueue(_Item(now, None, "device", on_disk=dev.on_disk))
        elif isinstance(dev, SidePressed):
            times = dev.remaining_ms if self.authority == "device" else None
            at, arrived, late = _press_time(dev, now)
            fault = dev.device_fault
            press = ClockPressed(
                player=dev.side,
                device_remaining_ms=times,
                drift_threshold_ms=self.drift_threshold_ms,
                device_ms=dev.device_ms,
                arrived_ms=arrived,
                device_late_ms=late,  # kept only if a limit cuts the stamp short (_commit)
                device_fault=fault.kind if fault else None,
                device_fault_ms=fault.by_ms if fault else None,
            )
            self._enqueue(_Item(at, press, "device", on_disk=dev.on_disk))
        elif isinstance(dev, PausePressed):
            self._enqueue(_Item(now, _PAUSE, "device", on_disk=dev.on_disk))
        elif isinstance(dev, DeviceOffline):
            since = self.status.offline_since_ms
            if self.status.device_online or since is None:
                since = self.timeline.now_ms()
            self.status = Status(False, self.status.device_id, dev.reason, since)
            log.warning("clock device offline: %s", dev.reason)
            self._publish(Update(self.state, self.status))
        elif isinstance(dev, DeviceOnline):
            # A clock that (re)connects starts its sequence numbers again.
            self._last_device_seq = None
            self._shown_text = None  # its display may have been reset: send the text again
            self.status = Status(True, dev.device_id or self.status.device_id)
            self._publish(Update(self.state, self.status))
            self._device_dirty.set()  # reconcile: show the service's times
        elif isinstance(dev, TimesReported):
            pass  # shown times are informational; presses carry the authoritative ones

    def _pressed_start(
        self, dev: SidePressed, now: int
    ) -> Callable[[GameStarted], asyncio.Future[Ack]]:
        """How a press sends the next game's start: made by the players (the device
        itself only presses and pauses), at the press's time as a press in the game is,
        and acknowledged to the device once on disk."""

        def send(start: GameStarted) -> asyncio.Future[Ack]:
            fut: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
            at = _press_time(dev, now)[0]
            self._enqueue(_Item(at, start, "clock start", fut, on_disk=dev.on_disk))
            return fut

        return send

    async def _device_writer(self) -> None:
        """Keep the device showing the latest state; coalesces bursts, never blocks the writer."""
        assert self.device is not None
        while True:
            await self._device_dirty.wait()
            self._device_dirty.clear()
            st = self.state
            now = self.timeline.now_ms()
            try:
                if self.expecting:
                    self._shown_text = await self._next.show(self.device, self._shown_text)
                else:
                    times = (st.clock.remaining(0, now), st.clock.remaining(1, now))
                    running = st.clock.running
                    if running is None and st.phase in (Phase.OVER, Phase.END_RACKS):
                        # Stopped with a side named (the host's pause): a press, which
                        # signs now, must not start a side on the device for a moment.
                        await self.device.set_times(times, st.turn, True)
                    else:
                        await self.device.set_times(times, running, running is None)
                    await self._display(st, now)
            except Exception:  # an unplugged device must not stop the game
                log.exception("clock device did not take the times")
            self._schedule_display(st, now)

    async def _display(self, st: GameState, now: int) -> None:
        """The device's text line and buzzer (clock/table/display.py): what changed only."""
        assert self.device is not None
        text = display_text(st, now)
        if text != self._shown_text:
            await self.device.show_text(text)
            self._shown_text = text
        if st.games != self._beeped_game:
            self._beeped, self._beeped_game = set(), st.games
        for key in beeps_due(st, now, self._beeped):
            self._beeped.add(key)
            await self.device.beep()

    def _schedule_display(self, st: GameState, now: int) -> None:
        """Wake the device writer when the text changes with time alone (overtime)."""
        if self._display_task is not None:
            self._display_task.cancel()
            self._display_task = None
        at = next_display_change(st, now)
        if at is not None and self._running:
            self._display_task = asyncio.create_task(self._display_at(at), name="table.display")

    async def _display_at(self, at: int) -> None:
        await self.timeline.sleep_until(at)
        self._display_task = None
        self._device_dirty.set()

    # --- heartbeat ---------------------------------------------------------------------
    async def _heartbeat(self) -> None:
        while True:
            try:
                write_alive(self.log_path, self.timeline.now_ms())
            except OSError:
                log.exception("cannot write the liveness file")
            await asyncio.sleep(self.heartbeat_ms / 1000)
