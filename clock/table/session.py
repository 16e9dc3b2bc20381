"""Bringing up one table: the one way ``rackclock serve``, ``rackclock table`` and
``rackclock scorekeeper`` start a table.

A :class:`TableSession` opens (or resumes) the table's log, opens its clock from
the ``--clock`` spec, builds the :class:`~clock.table.service.TableService`, and,
when started, runs the service, enters what its caller attached (the venue
publisher, for a table whose clock is on a broker), and starts a game when the
rule below says so.

The clock is named by the ``--clock`` text, parsed once into a
:class:`~clock.device.clock_spec.ClockSpec` by a registry of transports and opened
by it. This package's registry (:data:`~clock.device.clock_spec.CLOCKS`) knows
``emulated`` (an :class:`~clock.device.emulated.EmulatedClock` set to the
variant's time per player, driven by keys or ``press`` lines) and ``none``; the
transports to real clocks live in ``firmware_bridge``, above this package, which
passes its registry in, and what runs beside the service there (the venue
publisher, on a broker) as an :data:`Attachment`
(:func:`firmware_bridge.table_setup.open_table`). This module knows nothing of either.

**When a game starts (the one rule).** A new game starts when the log holds
none yet, or when the caller asks for one (``new_game``) and the log's game is
over. Otherwise the log's game goes on: a game in progress comes back
neutralized with the time the table was down logged (the service's recovery),
and a finished game is shown with its result (and its signatures, if they are
still missing).

**Until it starts** (a start screen is up), the game the session's spec describes is
the service's next game (:meth:`~clock.table.service.TableService.expect_game`): the
clock device shows its starting time, and a press on the device starts it as
:meth:`TableSession.begin` does. Setting :attr:`TableSession.spec` (the next game, after
one is over) tells the service at once.

**The next round's game.** A table given its games by the event's assignments
(``--assignment mqtt://...``) goes on to the next round's game when a new
assignment arrives for it, once its game is over and both players have signed
(:func:`next_game_ready`): the players start it (the table terminal), or the
operator does (``next`` to ``rackclock serve``); never in the middle of a game.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from clock.device.clock_spec import CLOCKS, ClockContext, ClockRegistry, ClockSpec, ClockSpecError
from clock.device.emulated import EmulatedClock
from clock.table.service import Ack, TableService
from clock.timeline import MonotonicTimeline, Timeline
from clock.user_files import load_variant
from engine import GameState, Phase
from engine.errors import EngineError
from engine.events import GameStarted
from engine.tournament.assignment import Assignment

__all__ = [
    "Attachment",
    "SessionError",
    "TableSession",
    "TableSpec",
    "assigned",
    "next_game_ready",
    "parse_clock",
    "same_game",
    "start_event",
    "starts_a_game",
]

Attachment = Callable[[TableService], contextlib.AbstractAsyncContextManager[object]]
"""What runs beside a running table's service, entered once the service runs and left
before it stops (the venue publisher of a table on a broker)."""


class SessionError(ValueError):
    """The table cannot be brought up as asked (an unknown or bad clock spec)."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a table is asked to be."""

    log: Path
    """The table's SQLite game log (created if new, resumed if not)."""
    variant: str
    """The rule variant of a new game: a bundled name or a TOML file."""
    players: tuple[str, str] = ("Player 1", "Player 2")
    """The players of a new game, left then right."""
    first: int = 0
    """Who starts a new game."""
    mode: Literal["board", "scoresheet"] | None = None
    """Overrides the variant's mode for a new game."""
    clock: str = "emulated"
    """Which clock the table runs on: the ``--clock`` text (parsed by the session's
    registry of transports, :mod:`clock.device.clock_spec`)."""
    authority: Literal["host", "device"] = "host"
    """Whose times rule: the service's (host) or the device's at each press."""
    drift_ms: int = 250
    """Device-authoritative: a gap beyond this between the two is a ruling."""
    heartbeat_ms: int = 1000
    """How often the service writes its liveness sidecar (0: never). Once a second:
    the time a crashed table was down is charged to nobody, so a second more or less
    in the ruling changes no clock, and a laptop's disk and battery are spared."""
    new_game: bool = False
    """Start a new game after the log's finished one."""
    round: int | None = None
    """The event's round this game is (from the table's assignment), for its result."""
    division: str | None = None
    """The event's division."""
    table: str | None = None
    """The table's name in the event (``t3``)."""
    event: str | None = None
    """The event's name, from the assignment."""
    event_id: str | None = None
    """The event's identity, from the assignment: the game's result is that event's only."""


def next_game_ready(state: GameState) -> bool:
    """Whether the table may go on to its next assigned game: the game is over and
    both players have signed its result."""
    return state.phase is Phase.OVER and all(state.signed)


def assigned(spec: TableSpec, game: Assignment) -> TableSpec:
    """``spec`` for the game an assignment gives the table (started after the log's
    finished one); the assignment names the starter first."""
    return replace(
        spec,
        variant=game.variant,
        players=game.players,
        first=0,
        round=game.round,
        division=game.division,
        table=game.table_name,
        event=game.event or None,
        event_id=game.event_id or None,
        new_game=True,
    )


def same_game(spec: TableSpec, game: Assignment) -> bool:
    """Whether the assignment is the game ``spec`` already is (a broker's retained copy
    arriving again, or the one the table started with)."""
    return (spec.round, spec.division, spec.table, spec.players) == (
        game.round,
        game.division,
        game.table_name,
        game.players,
    )


def start_event(spec: TableSpec) -> GameStarted:
    """The event that starts the game ``spec`` describes."""
    return GameStarted(
        variant=spec.variant,
        players=spec.players,
        first=spec.first,
        mode=spec.mode,
        round=spec.round,
        division=spec.division,
        table=spec.table,
        event=spec.event,
        event_id=spec.event_id,
    )


def starts_a_game(state: GameState, *, new_game: bool) -> bool:
    """The one rule for when a table starts a game (see the module's docstring)."""
    if state.phase is Phase.NOT_STARTED:
        return True
    return new_game and state.phase is Phase.OVER


def parse_clock(text: str, clocks: ClockRegistry = CLOCKS) -> ClockSpec:
    """The clock ``text`` names among ``clocks``.

    Raises:
        SessionError: It names none of them, or names one badly.
    """
    try:
        return clocks.parse(text)
    except ClockSpecError as exc:
        raise SessionError(f"cannot open {exc}") from None


class TableSession:
    """One table: its log, its clock, its service and what is attached to it.

    Use ``async with TableSession(spec, ...) as session``, or :meth:`start` and
    :meth:`stop`. Listeners added to :attr:`service` before :meth:`start` see
    every commit from the game's start on.

    Raises:
        SessionError: The clock spec names no clock in ``clocks``, or a bad one.
        engine.errors.EngineError: The variant cannot be loaded.
    """

    def __init__(
        self,
        spec: TableSpec,
        *,
        timeline: Timeline | None = None,
        clocks: ClockRegistry = CLOCKS,
        clock: ClockSpec | None = None,
        attach: Attachment | None = None,
    ) -> None:
        self._spec = spec
        self.timeline: Timeline = timeline or MonotonicTimeline()
        """The table's time."""
        if clock is None:
            clock = parse_clock(spec.clock, clocks)
        self.clock: ClockSpec = clock
        """The clock it runs on, parsed."""
        context = ClockContext(
            self.timeline,
            initial_ms=load_variant(spec.variant).initial_ms,
            report_times=spec.authority == "device",
        )
        try:
            device = clocks.open(clock, context)
        except ClockSpecError as exc:
            raise SessionError(f"cannot open {exc}") from None
        except ValueError as exc:
            raise SessionError(f"cannot open clock {clock.text!r}: {exc}") from None
        self.emulated: EmulatedClock | None = device if isinstance(device, EmulatedClock) else None
        """The emulated clock, when the table runs on one (its buttons are keys)."""
        self.service = TableService(
            spec.log,
            timeline=self.timeline,
            device=device,
            authority=spec.authority,
            drift_threshold_ms=spec.drift_ms,
            heartbeat_ms=spec.heartbeat_ms,
        )
        """The table's clock service."""
        self.started: Ack | None = None
        """The answer to the game start, when this session started a game."""
        self._attach = attach
        self._attached = contextlib.AsyncExitStack()
        self.publisher: object | None = None
        """What was attached, once the service runs (the venue publisher of a table
        on a broker)."""

    @property
    def spec(self) -> TableSpec:
        """What the table was asked to be. Setting it (the next game, once one is over)
        shows the new game's starting time on the clock device."""
        return self._spec

    @spec.setter
    def spec(self, spec: TableSpec) -> None:
        self._spec = spec
        self._expect()

    def _expect(self) -> None:
        """Name the spec's game to the service as the next one, when it starts a game."""
        state = self.service.state
        if not starts_a_game(state, new_game=self._spec.new_game):
            return
        try:
            initial_ms = load_variant(self._spec.variant).initial_ms
        except EngineError:
            return  # its start is refused with the reason (begin); the device waits as it is
        self.service.expect_game(start_event(self._spec), initial_ms)

    async def __aenter__(self) -> TableSession:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """:meth:`open`, then :meth:`begin`."""
        await self.open()
        await self.begin()

    async def open(self) -> None:
        """Run the service (replaying the log, recovering from a crash) and enter the
        attachment."""
        await self.service.start()
        self._expect()
        if self._attach is not None:
            self.publisher = await self._attached.enter_async_context(self._attach(self.service))

    async def begin(self) -> None:
        """Start a game when :func:`starts_a_game` says so (:attr:`started` answers it),
        unless a press on the clock device has just started it; a start a press has sent
        and the log has not yet taken answers here too. None: this call started none."""
        self.started = None  # not the last game's answer
        if not starts_a_game(self.service.state, new_game=self.spec.new_game):
            return
        if not self.service.expecting:  # not named to it (a bad variant: refused, said why)
            self.started = await self.service.submit(start_event(self.spec))
        elif (sent := self.service.start_next()) is not None:
            self.started = await sent

    async def stop(self) -> None:
        """Leave the attachment, finish queued commands, stop the service."""
        try:
            await self._attached.aclose()
        finally:
            await self.service.stop()
