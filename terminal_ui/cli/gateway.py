"""``rackclock gateway``: a USB-attached clock republished to the venue broker."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``gateway`` command."""
    cmd = sub.add_parser(
        "gateway",
        help="republish a serial clock to an MQTT broker and relay commands back",
        description=(
            "Talks to a clock on a serial port (path, /dev/serial/by-id/..., hwgrep://VID:PID "
            "or socket://host:port) and acts as that table's clock on the broker: button "
            "messages go to the table's clock/events, SET/TEXT/BEEP come back from "
            "clock/commands. Runs until interrupted."
        ),
    )
    cmd.add_argument("--serial", required=True, metavar="PATH", help="the clock's serial port")
    cmd.add_argument(
        "--mqtt",
        required=True,
        metavar="URL",
        help="broker, e.g. mqtt://hub:1883 (a /venue/table path also names the table)",
    )
    cmd.add_argument("--table", metavar="T", help="table name (or from the URL path)")
    cmd.add_argument("--venue", metavar="V", help="venue name (or from the URL path; 'default')")
    cmd.add_argument("--hexdump", metavar="FILE", help="log every serial byte, for forensics")
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the gateway until ctrl+c."""
    from firmware_bridge.device.gateway import Gateway
    from firmware_bridge.host.serial_clock import SerialClock
    from firmware_bridge.mqtt.connection import parse_url
    from firmware_bridge.mqtt.topics import DEFAULT_VENUE, TableTopics, TopicError

    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s"
    )
    try:
        broker = parse_url(args.mqtt)
        named = broker.table
        venue = args.venue or (named.venue if named else DEFAULT_VENUE)
        table_name = args.table or (named.table if named else None)
        if not table_name:
            sys.stderr.write("rackclock gateway: name the table with --table or the URL path\n")
            return 2
        table = TableTopics(venue, table_name)
    except (ValueError, TopicError) as exc:
        sys.stderr.write(f"rackclock gateway: {exc}\n")
        return 2
    serial = SerialClock(args.serial, hexdump=args.hexdump)
    gateway = Gateway(serial, broker, table)
    sys.stderr.write(f"gateway: {args.serial} <-> {args.mqtt} as {table.base}\n")
    try:
        asyncio.run(gateway.run())
    except KeyboardInterrupt:
        return 0
    return 0
