"""The clock transports, one registry entry each: :data:`TRANSPORTS` is
:data:`clock.device.clock_spec.CLOCKS` (``emulated``, ``none``) with the real clocks
this package reaches.

- ``serial:URL[,hexdump=FILE][,baudrate=N]``
  (:class:`~firmware_bridge.host.serial_clock.SerialClock`): a path,
  ``hwgrep://VID:PID`` or ``socket://host:port``; ``hexdump=`` logs every byte in
  and out for dispute forensics.
- a broker URL (:class:`~firmware_bridge.host.mqtt_clock.MqttClock`):
  ``mqtt[s]://[user[:password]@]host[:port]/<venue>/<table>[?ca=...]``, its path
  naming the table; also written ``mqtt:mqtt://...`` (docs/mqtt.md). On its own
  here the clock opens its own connection; a table brought up with one
  (:func:`firmware_bridge.table_setup.open_table`) gives it the table's one connection,
  shared with the publisher.
- ``gpio[:wiring=FILE,display=KIND,mock]``
  (:class:`~firmware_bridge.host.gpio_clock.GpioClock`): the all-in-one, this
  Raspberry Pi's own buttons and displays (docs/pi-clock.md); ``mock``: gpiozero's
  mock pins and luma's dummy displays. It needs the ``pi`` extra, imported only
  when it opens.

A new transport is one module here (its
:class:`~clock.device.interface.ClockDevice`) and one entry below: a frozen spec
record (a :class:`~clock.device.clock_spec.ClockSpec` subclass), a ``parse`` that
returns None for text that is not its own and raises
:class:`~clock.device.clock_spec.ClockSpecError` quoting a bad part, an ``open``
that imports its module (so a command's start and its ``--help`` stay quick), and
the entry added to :data:`TRANSPORTS`. The help of every ``--clock`` comes from
here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clock.device.clock_spec import (
    CLOCKS,
    ClockContext,
    ClockSpec,
    ClockSpecError,
    Transport,
)
from firmware_bridge.pi import extra_refusal

if TYPE_CHECKING:
    from clock.device.interface import ClockDevice
    from firmware_bridge.mqtt.connection import BrokerSettings

__all__ = [
    "GPIO",
    "MQTT",
    "SERIAL",
    "TRANSPORTS",
    "GpioSpec",
    "MqttSpec",
    "SerialSpec",
    "parse_gpio",
    "parse_mqtt",
    "parse_serial",
]


@dataclass(frozen=True, slots=True)
class SerialSpec(ClockSpec):
    """``serial:URL[,options]``: a clock on a serial line."""

    url: str
    """The port: a path, ``hwgrep://VID:PID`` or ``socket://host:port``."""
    hexdump: str | None = None
    """A file that logs every byte in and out."""
    baudrate: int = 115_200
    """The line's speed."""


@dataclass(frozen=True, slots=True)
class MqttSpec(ClockSpec):
    """A broker URL: a clock on the venue broker, the URL's path naming the table."""

    url: str
    """The plain broker URL (``mqtt://...`` or ``mqtts://...``, without ``mqtt:``)."""
    broker: BrokerSettings
    """The URL read (its ``table`` is set)."""


@dataclass(frozen=True, slots=True)
class GpioSpec(ClockSpec):
    """``gpio[:options]``: this Raspberry Pi's own buttons and displays."""

    wiring: str | None = None
    """A wiring file over the defaults (firmware_bridge/pi/wiring.toml)."""
    display: str | None = None
    """The displays, over the wiring's: ``oled``, ``sh1106``, ``max7219`` or ``none``."""
    mock: bool = False
    """gpiozero's mock pins and luma's dummy displays: no hardware is touched."""


def parse_serial(text: str) -> SerialSpec | None:
    """``serial:URL[,hexdump=FILE][,baudrate=N]``.

    >>> parse_serial("serial:socket://h:1,hexdump=/tmp/x.hex")
    SerialSpec(text='serial:socket://h:1,hexdump=/tmp/x.hex', url='socket://h:1', hexdump='/tmp/x.hex', baudrate=115200)
    >>> parse_serial("emulated") is None
    True
    """  # noqa: E501
    if not text.startswith("serial:"):
        return None
    url, *opts = text.removeprefix("serial:").split(",")
    options: dict[str, str] = {}
    for opt in opts:
        key, sep, value = opt.partition("=")
        if not sep or key not in ("hexdump", "baudrate"):
            raise ClockSpecError(
                f"clock {text!r}: unknown serial option {opt!r} (known: hexdump=FILE, baudrate=N)"
            )
        options[key] = value
    if not url:
        raise ClockSpecError(f"clock {text!r}: serial: needs a port, e.g. serial:/dev/ttyACM0")
    baudrate = options.get("baudrate", "115200")
    if not baudrate.isdigit():
        raise ClockSpecError(f"clock {text!r}: baudrate must be a number, not {baudrate!r}")
    return SerialSpec(text, url, hexdump=options.get("hexdump") or None, baudrate=int(baudrate))


def parse_mqtt(text: str) -> MqttSpec | None:
    """A broker URL, also written with the older ``mqtt:`` prefix.

    >>> parse_mqtt("mqtt:mqtts://venue/club/t7").url
    'mqtts://venue/club/t7'
    >>> parse_mqtt("serial:/dev/ttyACM0") is None
    True
    """
    if not text.startswith(("mqtt:", "mqtts:")):
        return None  # not ours, and the broker client is not imported for it
    from firmware_bridge.mqtt.connection import is_broker_url, parse_url

    url = text if is_broker_url(text) else text.removeprefix("mqtt:")
    try:
        broker = parse_url(url)
    except ValueError as exc:
        raise ClockSpecError(f"clock {text!r}: {exc}") from None
    if broker.table is None:
        raise ClockSpecError(f"clock {text!r}: name the table: mqtt://BROKER/VENUE/TABLE")
    return MqttSpec(text, url, broker)


def parse_gpio(text: str) -> GpioSpec | None:
    """``gpio`` or ``gpio:OPTION,...``: ``wiring=FILE``, ``display=KIND``, ``mock``.

    >>> parse_gpio("gpio:display=max7219,mock")
    GpioSpec(text='gpio:display=max7219,mock', wiring=None, display='max7219', mock=True)
    >>> parse_gpio("serial:/dev/ttyGS0") is None
    True
    """
    if text != "gpio" and not text.startswith("gpio:"):
        return None
    from firmware_bridge.pi.wiring import DISPLAYS, WiringError, display_kind  # no Pi library

    wiring: str | None = None
    display: str | None = None
    mock = False
    options = text.removeprefix("gpio").removeprefix(":")
    for opt in options.split(",") if options else ():
        key, sep, value = opt.partition("=")
        if opt == "mock":
            mock = True
        elif sep and key == "wiring" and value:
            wiring = value
        elif sep and key == "display" and value:
            try:
                display = display_kind(value)
            except WiringError as exc:
                raise ClockSpecError(f"clock {text!r}: display={exc}") from None
        elif sep and not value and key in ("wiring", "display"):  # known, its value left out
            needs = "a wiring file" if key == "wiring" else "|".join(DISPLAYS)
            raise ClockSpecError(f"clock {text!r}: {key}= needs a value ({needs})")
        else:
            raise ClockSpecError(
                f"clock {text!r}: unknown gpio option {opt!r}"
                f" (known: wiring=FILE, display={'|'.join(DISPLAYS)}, mock)"
            )
    return GpioSpec(text, wiring, display, mock)


def _open_serial(spec: SerialSpec, context: ClockContext) -> ClockDevice:
    from firmware_bridge.host.serial_clock import SerialClock

    return SerialClock(
        spec.url,
        timeline=context.timeline,
        initial_ms=context.initial_ms,
        hexdump=spec.hexdump,
        baudrate=spec.baudrate,
    )


def _open_mqtt(spec: MqttSpec, context: ClockContext) -> ClockDevice:
    from firmware_bridge.host.mqtt_clock import MqttClock

    return MqttClock(spec.broker, timeline=context.timeline)


def _open_gpio(spec: GpioSpec, context: ClockContext) -> ClockDevice:
    from pathlib import Path

    refusal = extra_refusal("the gpio clock")
    if refusal is not None:  # a laptop install: the pi extra left out
        raise ValueError(refusal)
    from firmware_bridge.host.gpio_clock import open_gpio_clock

    return open_gpio_clock(
        context.timeline,
        initial_ms=context.initial_ms,
        report_times=context.report_times,
        wiring_file=None if spec.wiring is None else Path(spec.wiring),
        display=spec.display,
        mock=spec.mock,
    )


SERIAL: Transport[SerialSpec] = Transport(
    name="serial",
    grammar="serial:PATH[,hexdump=FILE][,baudrate=N]",
    help="a clock on a serial port (a path, hwgrep://VID:PID or socket://HOST:PORT)",
    spec_type=SerialSpec,
    parse=parse_serial,
    open=_open_serial,
)
"""A clock on a serial line."""

MQTT: Transport[MqttSpec] = Transport(
    name="mqtt",
    grammar="mqtt://BROKER/VENUE/TABLE",
    help="a clock on the venue broker (or mqtts://); the table is published there too",
    spec_type=MqttSpec,
    parse=parse_mqtt,
    open=_open_mqtt,
)
"""A clock on the venue broker."""

GPIO: Transport[GpioSpec] = Transport(
    name="gpio",
    grammar="gpio[:wiring=FILE,display=KIND,mock]",
    help="this Raspberry Pi's buttons and displays (docs/pi-clock.md; mock: none touched)",
    spec_type=GpioSpec,
    parse=parse_gpio,
    open=_open_gpio,
)
"""The all-in-one: the table on a Raspberry Pi whose buttons are its clock."""

TRANSPORTS = CLOCKS.with_(SERIAL, MQTT, GPIO)
"""Every clock a table can run on, in the order their specs are tried."""
