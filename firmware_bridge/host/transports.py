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

A new transport (the GPIO clock of a later issue) is one module here (its
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

if TYPE_CHECKING:
    from clock.device.interface import ClockDevice
    from firmware_bridge.mqtt.connection import BrokerSettings

__all__ = ["MQTT", "SERIAL", "TRANSPORTS", "MqttSpec", "SerialSpec", "parse_mqtt", "parse_serial"]


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

TRANSPORTS = CLOCKS.with_(SERIAL, MQTT)
"""Every clock a table can run on, in the order their specs are tried."""
