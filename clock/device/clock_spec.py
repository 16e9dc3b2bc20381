"""The ``--clock`` spec: which clock a table runs on, parsed once into a typed record.

Each kind of clock is a :class:`Transport`: its name, its grammar, one line of
help, how to parse its text into a frozen :class:`ClockSpec`, and how to open that
spec as a :class:`~clock.device.interface.ClockDevice`. A :class:`ClockRegistry`
holds them in order; the first whose ``parse`` takes the text makes the spec, and
the command-line help is the registry's (:meth:`ClockRegistry.help`).

This package knows its own two clocks (:data:`CLOCKS`): ``emulated`` (an
:class:`~clock.device.emulated.EmulatedClock` whose buttons are keys or ``press``
lines) and ``none``. The transports to real clocks (a serial line, the venue
broker) live above it, in ``firmware_bridge/host``, whose registry extends this
one (``firmware_bridge.host.transports.TRANSPORTS``): clock never imports the
packages above it, and a table brought up by clock alone takes only its own two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from clock.device.interface import ClockDevice
    from clock.timeline import Timeline

__all__ = [
    "CLOCKS",
    "EMULATED",
    "NONE",
    "ClockContext",
    "ClockRegistry",
    "ClockSpec",
    "ClockSpecError",
    "EmulatedSpec",
    "NoClockSpec",
    "Transport",
]


class ClockSpecError(ValueError):
    """A ``--clock`` text no transport takes, or a transport's text with a bad part;
    the message starts with the text quoted (``clock 'usb:7': ...``)."""


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A parsed ``--clock``; each transport's record is a subclass."""

    text: str
    """As the user wrote it (messages quote it)."""

    def describe(self) -> str:
        """The clock as a screen names it (the start screen's ``Clock`` line): the
        text as written, unless the kind says more."""
        return self.text


@dataclass(frozen=True, slots=True)
class EmulatedSpec(ClockSpec):
    """``emulated``: the keys are the clock's buttons."""

    def describe(self) -> str:
        """Which keys are the clock: ``emulated (the clock keys)``."""
        return f"{self.text} (the clock keys)"


@dataclass(frozen=True, slots=True)
class NoClockSpec(ClockSpec):
    """``none``: no clock device at all."""


@dataclass(frozen=True, slots=True)
class ClockContext:
    """What opening a clock may need of the table."""

    timeline: Timeline
    """The table's time."""
    initial_ms: int
    """Each player's time at the start (the variant's)."""
    report_times: bool = False
    """Device-authoritative: the clock sends both times with each press."""


S = TypeVar("S", bound=ClockSpec)


@dataclass(frozen=True, slots=True)
class Transport(Generic[S]):
    """One kind of clock: a registry entry."""

    name: str
    """Its name (``serial``); an entry of the same name replaces it
    (:meth:`ClockRegistry.with_`)."""
    grammar: str
    """Its spec as help shows it (``serial:PATH[,hexdump=FILE][,baudrate=N]``)."""
    help: str
    """One line on what it is."""
    spec_type: type[S]
    """The record its ``parse`` makes."""
    parse: Callable[[str], S | None]
    """The spec, or None for text that is not this transport's. Raises
    :class:`ClockSpecError` for this transport's text with a bad part."""
    open: Callable[[S, ClockContext], ClockDevice | None]
    """The clock device (not started); None for no device. Raises ValueError (or
    OSError) when the spec cannot be opened."""


class ClockRegistry:
    """The transports a table can run on, in the order their specs are tried.

    A new kind of clock (the GPIO clock of a later issue) is one module and one
    entry: write the device (``firmware_bridge/host/gpio_clock.py``, a
    :class:`~clock.device.interface.ClockDevice`), and add a :class:`Transport`
    with its spec record, grammar, help line, parse and open to the registry that
    extends this one (``firmware_bridge.host.transports``). Nothing else reads the
    ``--clock`` text: the session, the commands and their help take it from here.
    """

    def __init__(self, transports: Iterable[Transport[Any]]) -> None:
        self.transports: tuple[Transport[Any], ...] = tuple(transports)
        """The entries, in the order they are tried."""
        names = [t.name for t in self.transports]
        if len(set(names)) != len(names):
            raise ValueError(f"transport names repeat: {names}")

    def with_(self, *more: Transport[Any]) -> ClockRegistry:
        """This registry with ``more``: an entry of a name already here takes its
        place, a new one is tried last."""
        given = {t.name: t for t in more}
        kept = [given.pop(t.name, t) for t in self.transports]
        return ClockRegistry([*kept, *given.values()])

    def parse(self, text: str) -> ClockSpec:
        """The spec ``text`` names.

        Raises:
            ClockSpecError: No transport takes it, or the one that does finds a bad part.
        """
        for transport in self.transports:
            spec: ClockSpec | None = transport.parse(text)
            if spec is not None:
                return spec
        raise ClockSpecError(f"clock {text!r}: names no clock ({self.grammar()})")

    def open(self, spec: ClockSpec, context: ClockContext) -> ClockDevice | None:
        """The device for ``spec`` (None for ``none``).

        Raises:
            ClockSpecError: No transport here made ``spec``.
            ValueError, OSError: The transport cannot open it.
        """
        for transport in self.transports:
            if type(spec) is transport.spec_type:
                return transport.open(spec, context)
        raise ClockSpecError(f"clock {spec.text!r}: no transport opens it here")

    def grammar(self) -> str:
        """Every spec, for messages and help: ``emulated, none, ... or mqtt://...``."""
        specs = [t.grammar for t in self.transports]
        return specs[0] if len(specs) == 1 else f"{', '.join(specs[:-1])} or {specs[-1]}"

    def help(self) -> str:
        """The ``--clock`` option's help: each spec with its line."""
        return "; ".join(f"{t.grammar}: {t.help}" for t in self.transports)


def _parse_word(word: str, spec_type: type[S]) -> Callable[[str], S | None]:
    def parse(text: str) -> S | None:
        return spec_type(text) if text == word else None

    return parse


def _open_emulated(spec: EmulatedSpec, context: ClockContext) -> ClockDevice:
    from clock.device.emulated import EmulatedClock

    return EmulatedClock(
        context.timeline, initial_ms=context.initial_ms, report_times=context.report_times
    )


def _open_none(spec: NoClockSpec, context: ClockContext) -> None:
    return None


EMULATED: Transport[EmulatedSpec] = Transport(
    name="emulated",
    grammar="emulated",
    help="the players' keys are the clock's buttons (the default)",
    spec_type=EmulatedSpec,
    parse=_parse_word("emulated", EmulatedSpec),
    open=_open_emulated,
)
"""The emulated clock, set to the variant's time per player."""

NONE: Transport[NoClockSpec] = Transport(
    name="none",
    grammar="none",
    help="no clock device",
    spec_type=NoClockSpec,
    parse=_parse_word("none", NoClockSpec),
    open=_open_none,
)
"""No clock device."""

CLOCKS = ClockRegistry((EMULATED, NONE))
"""This package's own clocks; ``firmware_bridge.host.transports.TRANSPORTS`` adds the
serial line and the broker."""
