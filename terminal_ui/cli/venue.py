"""``rackclock venue``: the hub for a room of tables.

Without ``--broker`` it runs a managed Mosquitto (:mod:`firmware_bridge.venue.broker`)
with its configuration and persistence in the data folder; with one, it uses
that broker. The managed broker is safe by default: on the first start the venue
makes a login for each role and each table (:mod:`firmware_bridge.venue.logins`),
kept in ``<data>/logins/`` and printed once with the connection lines, and an ACL
that confines each table to its own topics; nobody connects without one (``--open``
says otherwise, out loud). With the client-id plugin built (``make setup``) a client
id belongs to its login; without it the venue starts all the same and its start line
says that ids are not tied to logins. It listens on every interface, with ``--local`` on this
machine only, or with ``--listen ADDRESS`` on that address, and says which.

It prints how tables, clocks and directors connect, then runs the hub
(:mod:`firmware_bridge.venue.hub`), which archives every table under
``<data>/archive/<venue>/``: the latest state (``<table>.json``) whenever one
arrives, and the whole game log
(``<table>.jsonl``, fetched with the director command ``get_log``) whenever a
finished game's state changes, so results can be exported after the tables are
gone (``rackclock director --log <data>/archive``). It runs until ctrl+c, then
stops Mosquitto cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from firmware_bridge.venue.logins import VenueLogins

__all__ = ["register"]

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    """Add the ``venue`` command."""
    cmd = sub.add_parser(
        "venue",
        help="the hub for a room of tables: a managed MQTT broker and the archive",
        description=(
            "Starts the venue's MQTT broker (a managed mosquitto; or uses --broker), prints "
            "how tables and directors connect, and archives each table's state and, at the "
            "end of each game, its game log under the data folder. Runs until ctrl+c."
        ),
    )
    cmd.add_argument("--broker", metavar="URL", help="use this broker instead of starting one")
    cmd.add_argument("--port", type=int, default=1883, help="the managed broker's port (1883)")
    cmd.add_argument("--data", type=Path, help="data folder (default: the user's data dir)")
    cmd.add_argument(
        "--local", action="store_true", help="listen on 127.0.0.1 only (default: every interface)"
    )
    cmd.add_argument(
        "--listen",
        metavar="ADDRESS",
        help="listen on this address only (one of this machine's, e.g. the venue LAN's)",
    )
    cmd.add_argument(
        "--tables",
        type=int,
        default=20,
        metavar="N",
        help="logins for tables t1..tN (20; more are added, none removed, on a later start)",
    )
    cmd.add_argument(
        "--open",
        action="store_true",
        help="no logins: anyone who reaches the broker may connect and send anything "
        "(a test bench, never a venue)",
    )
    cmd.add_argument(
        "--password-file",
        type=Path,
        help="your own mosquitto_passwd file instead of the venue's logins",
    )
    cmd.add_argument("--acl-file", type=Path, help="mosquitto ACL (deploy/mosquitto/make_acl.py)")
    cmd.add_argument(
        "--user",
        help="the hub's broker login (default: director when there is a password file); "
        "the password is read from $RACKCLOCK_MQTT_PASSWORD",
    )
    cmd.add_argument("--advertise", metavar="HOST", help="the host name printed for clients")
    cmd.add_argument("--venue", default="<venue>", help="the venue name printed for tables")
    cmd.add_argument(
        "--page",
        type=int,
        metavar="PORT",
        help="also serve the venue screen for browsers on this port (needs --venue NAME)",
    )
    cmd.add_argument(
        "--event",
        type=Path,
        metavar="LEDGER",
        help="with --page: the event's ledger (rackclock event new), for live standings",
    )
    cmd.set_defaults(handler=run)


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def run(args: argparse.Namespace) -> int:
    """Start the broker (unless given one), print how to connect, archive until ctrl+c."""
    from firmware_bridge.mqtt.connection import parse_url
    from firmware_bridge.venue.broker import (
        INSTALL_HINT,
        PLUGIN_HINT,
        BrokerConfig,
        Mosquitto,
        MosquittoError,
        find_id_plugin,
        find_mosquitto,
        lan_address,
        listening,
    )
    from firmware_bridge.venue.hub import run_hub
    from firmware_bridge.venue.logins import LoginsError, VenueLogins
    from terminal_ui.shared.datadir import data_dir

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    out = sys.stdout
    if args.page is not None:
        from firmware_bridge.mqtt.topics import TableTopics, TopicError

        try:
            TableTopics(args.venue, "t1")
        except TopicError:
            sys.stderr.write("rackclock venue: --page needs --venue NAME (the venue to show)\n")
            return 2
    if args.event is not None:
        from clock.log.eventlog import LogError
        from clock.tournament.ledger import read_ledger
        from engine.errors import EngineError

        try:  # refused at the start, not a page that never shows the standings
            read_ledger(args.event)
        except (OSError, LogError, EngineError) as exc:
            sys.stderr.write(f"rackclock venue: --event {args.event}: {exc}\n")
            return 1
    if args.tables < 1 or args.tables > 9999:
        sys.stderr.write(f"rackclock venue: --tables {args.tables}: from 1 to 9999\n")
        return 2
    data: Path = (args.data or data_dir("venue")).resolve()
    data.mkdir(parents=True, exist_ok=True)
    broker: Mosquitto | None = None
    logins: VenueLogins | None = None
    page_url: str | None = None
    # the address the managed broker and the venue screen listen on
    bind = args.listen or ("127.0.0.1" if args.local else "0.0.0.0")
    if args.broker:
        try:
            settings = parse_url(args.broker)
        except ValueError as exc:
            sys.stderr.write(f"rackclock venue: {exc}\n")
            return 2
        host, port, url = settings.host, settings.port, args.broker
        scheme = "mqtts" if settings.tls is not None else "mqtt"
        _say(out, f"rackclock venue: using the broker {host}:{port}; data in {data}")
    else:
        password_file = args.password_file.resolve() if args.password_file else None
        acl_file = args.acl_file.resolve() if args.acl_file else None
        # what can refuse the start is checked before the logins are made: a refused
        # start writes none, so the first start that runs is the one that shows them
        if find_mosquitto() is None:
            sys.stderr.write(f"rackclock venue: {INSTALL_HINT}\n")
            return 1
        if listening(args.port, "127.0.0.1" if bind == "0.0.0.0" else bind):
            sys.stderr.write(
                f"rackclock venue: port {args.port} on {bind} is in use (another broker?): "
                "stop it or choose another --port\n"
            )
            return 1
        if password_file is None and not args.open:
            try:
                logins = VenueLogins.ensure(data / "logins", args.tables)
            except LoginsError as exc:
                sys.stderr.write(f"rackclock venue: {exc}\n")
                return 1
            password_file, acl_file = logins.password_file, logins.acl_file
        cfg = BrokerConfig(
            data / "mosquitto",
            port=args.port,
            bind=bind,
            password_file=password_file,
            acl_file=acl_file,
            max_queued_messages=1000,
            # the logins it made are rackclock's clients, whose ids begin with their
            # login; a password file of one's own may have clients that do not
            id_plugin=find_id_plugin() if logins is not None else None,
        )
        try:
            broker = Mosquitto.configure(cfg, data)
            broker.start()
        except MosquittoError as exc:
            sys.stderr.write(f"rackclock venue: {exc}\n")
            return 1
        if logins is not None:
            url = broker.url(user="hub", password=logins.passwords["hub"])
            page_url = broker.url(user="viewer", password=logins.passwords["viewer"])
        else:
            url = broker.url(user=args.user or ("director" if args.password_file else None))
        host = bind if bind != "0.0.0.0" else lan_address()
        port, scheme = args.port, "mqtt"
        where = (
            "every interface: anyone on this machine's networks can reach it"
            if bind == "0.0.0.0"
            else "this machine only"
            if bind == "127.0.0.1"
            else f"{bind} only"
        )
        who = (
            f"logins only, kept in {logins.folder}"
            + ("" if cfg.id_plugin is not None else f"; {PLUGIN_HINT}")
            if logins is not None
            else "logins only, from your password file; client ids are not tied to logins"
            if args.password_file
            else "NO LOGINS: anyone who reaches it may connect and send anything"
        )
        _say(out, f"rackclock venue: mosquitto listening on {bind}:{port} ({where}); {who}; "
                  f"data in {data}")  # fmt: skip
    host = args.advertise or host
    base = f"{scheme}://{host}:{port}"
    if logins is not None:
        _connection_lines(out, logins, base, args.venue)
    else:
        _say(out, "Tables (one command per table; the terminal for players, or headless):")
        _say(out, f"  rackclock table --clock {base}/{args.venue}/<table>")
        _say(out, f"  rackclock serve --variant nzasp --log TABLE.sqlite --clock {base}/"
                  f"{args.venue}/<table>")  # fmt: skip
        _say(out, "Clocks without hardware:")
        _say(out, f"  rackclock emulate-clock --mqtt {base}/{args.venue}/<table>")
        _say(out, "Director:")
        _say(out, f"  rackclock director --broker {base}")
    _say(out, f"Archive: {data / 'archive'} (afterwards: rackclock director --log "
              f"{data / 'archive'})")  # fmt: skip
    _say(out, "Stop with ctrl+c.")
    page: tuple[str, int, str] | None = None
    if args.page is not None:
        page = (args.venue, args.page, bind)
        _say(out, f"Venue screen: http://{host}:{args.page}/ (venue {args.venue})")
    try:
        asyncio.run(run_hub(url, data / "archive", page, args.event, page_url=page_url))
    except KeyboardInterrupt:
        pass
    finally:
        if broker is not None:
            status = broker.stop()
            _say(out, f"mosquitto stopped (exit status {status})")
    return 0


def _connection_lines(out: TextIO, logins: VenueLogins, base: str, venue: str) -> None:
    """How tables, clocks, the director and spectators connect with the venue's logins:
    with their passwords when this start made them (shown once), else with the login
    alone (the password is in the logins file; ``$RACKCLOCK_MQTT_PASSWORD`` supplies it)."""
    scheme, _, hostport = base.partition("://")
    new = set(logins.created)

    def login(name: str) -> str:
        secret = f":{logins.passwords[name]}" if name in new else ""
        return f"{scheme}://{name}{secret}@{hostport}"

    shown = "new passwords, shown this once" if new else f"passwords in {logins.path}"
    _say(out, f"Logins ({shown}; kept in {logins.path}):")
    _say(out, "Tables: each logs in as itself, for its terminal and its clock:")
    for table in logins.tables:
        _say(out, f"  {table}: {login(table)}/{venue}/{table}")
    _say(out, "A table's commands, with its URL above:")
    _say(out, "  rackclock table --clock URL")
    _say(out, "  rackclock serve --variant nzasp --log TABLE.sqlite --clock URL")
    _say(out, "Clocks without hardware:")
    _say(out, "  rackclock emulate-clock --mqtt URL")
    _say(out, "Director:")
    _say(out, f"  rackclock director --broker {login('director')}")
    _say(out, f"Spectators (read only): {login('viewer')}")
