"""Opening a clock device from a ``--clock`` spec (``serial:PATH``, ``mqtt:URL``).

``serial:URL`` opens :class:`firmware_bridge.host.serial_clock.SerialClock` on a
path, ``hwgrep://VID:PID`` or ``socket://host:port``. Options follow the URL
after commas: ``serial:/dev/ttyACM0,hexdump=/var/log/table7.hex`` logs every
byte in and out for dispute forensics.

A broker URL opens :class:`firmware_bridge.host.mqtt_clock.MqttClock`; its path
names the table: ``mqtt://broker:1883/<venue>/<table>`` (also written
``mqtt:mqtt://...``; docs/mqtt.md).

:func:`open_table` wires these transports (and the venue publisher) into the one
way a table comes up, :class:`clock.table.session.TableSession`.
"""

from __future__ import annotations

from pathlib import Path

from clock.device.interface import ClockDevice
from clock.table.session import TableSession, TableSpec, mqtt_url
from clock.timeline import Timeline

__all__ = ["open_device", "open_table", "parse_serial_spec"]


def parse_serial_spec(rest: str) -> tuple[str, dict[str, str]]:
    """Split ``URL[,key=value...]`` into the URL and its options.

    Raises:
        ValueError: An option without ``=``, or an unknown option.
    """
    url, *opts = rest.split(",")
    options: dict[str, str] = {}
    for opt in opts:
        key, sep, value = opt.partition("=")
        if not sep or key not in ("hexdump", "baudrate"):
            raise ValueError(f"unknown serial option {opt!r} (known: hexdump=FILE, baudrate=N)")
        options[key] = value
    if not url:
        raise ValueError("serial: needs a port, e.g. serial:/dev/ttyACM0")
    return url, options


def open_device(
    spec: str,
    timeline: Timeline,
    initial_ms: int,
    *,
    hexdump: str | Path | None = None,
) -> ClockDevice | None:
    """The device for ``spec``; None when the spec names no transport we have.

    Raises:
        ValueError: A ``serial:`` spec with a bad option.
    """
    if spec.startswith("serial:"):
        from firmware_bridge.host.serial_clock import SerialClock

        url, options = parse_serial_spec(spec.removeprefix("serial:"))
        dump = options.get("hexdump") or hexdump
        return SerialClock(
            url,
            timeline=timeline,
            initial_ms=initial_ms,
            hexdump=dump,
            baudrate=int(options.get("baudrate", "115200")),
        )
    broker = mqtt_url(spec)
    if broker is not None:
        # mqtt[s]://[user[:password]@]host[:port]/<venue>/<table>[?ca=...] (docs/mqtt.md)
        from firmware_bridge.host.mqtt_clock import MqttClock

        # the table process's one broker connection: the publisher joins it (open_table)
        return MqttClock.from_url(broker, timeline=timeline, share=True)
    return None


def open_table(spec: TableSpec, *, timeline: Timeline | None = None) -> TableSession:
    """The table session for ``spec`` with this package's transports wired in: its clock
    opened by :func:`open_device`, and, when the clock is on a broker, the table
    published there (:class:`~firmware_bridge.venue.publisher.TablePublisher`).

    Raises:
        clock.table.session.SessionError: The clock spec names no clock, or a bad one.
        engine.errors.EngineError: The variant cannot be loaded.
    """
    from firmware_bridge.venue.publisher import TablePublisher

    return TableSession(
        spec, timeline=timeline, open_device=open_device, publish=TablePublisher.from_url
    )
