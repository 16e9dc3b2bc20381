"""A venue safe by default (issue 22, part 2), on the real parts: the venue page over
real HTTP answers only GET and HEAD and sends its Content-Security-Policy; the broker
``rackclock venue`` generates refuses strangers, confines each login to its role, and
drops a message over its size limit."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiomqtt
import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from clock.table.service import TableService
from clock.timeline import MonotonicTimeline
from engine.events import Adjusted, GameStarted
from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.mqtt.topics import MAX_MESSAGE_BYTES, TableTopics, client_id, owned_id
from firmware_bridge.venue.broker import (
    PLUGIN_ENV,
    PLUGIN_HINT,
    find_mosquitto,
    free_port,
    listening,
)
from firmware_bridge.venue.director_link import DirectorLink
from firmware_bridge.venue.logins import LoginsError, VenueLogins, password_hash, verify_hash
from firmware_bridge.venue.page.server import CONTENT_SECURITY_POLICY, VenuePage
from firmware_bridge.venue.publisher import TablePublisher
from tests.helpers import REPO, Broker, BrokerFactory, missing_part, wait_for
from tests.support.log_rows import log_rows
from tests.system.test_bridge import make_bridge
from tests.system.test_venue_page import venue_page

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")


def _ask(port: int, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request(method, path, body=b"x" if method in ("POST", "PUT") else None)
        res = conn.getresponse()
        return res.status, {k.lower(): v for k, v in res.getheaders()}, res.read()
    finally:
        conn.close()


async def test_the_page_answers_get_and_head_only_with_its_policy(
    mosquitto: Broker, tmp_path: Path
) -> None:
    async with venue_page(mosquitto) as url:
        port = urlsplit(url).port
        assert port is not None
        for path in ("/", "/app.js", "/style.css", "/venue", "/events"):
            status, headers, body = await asyncio.to_thread(_ask, port, "HEAD", path)
            assert status == 200, path
            assert body == b"", path
            assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY.decode(), path
        status, headers, body = await asyncio.to_thread(_ask, port, "GET", "/")
        assert status == 200
        assert b'<script src="/app.js">' in body
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "default-src 'none'" in headers["content-security-policy"]
        status, headers, _ = await asyncio.to_thread(_ask, port, "GET", "/no-such-page")
        assert status == 404
        assert "content-security-policy" in headers
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
            for path in ("/", "/venue", "/events", "/table/t1"):
                status, headers, _ = await asyncio.to_thread(_ask, port, method, path)
                assert status == 405, (method, path)
                assert headers["allow"] == "GET, HEAD"
                assert "content-security-policy" in headers


# --- the venue's own broker: logins, the ACL, the size limit --------------------------


def venue_broker(
    factory: BrokerFactory, tmp_path: Path, tables: int = 2
) -> tuple[Broker, VenueLogins]:
    """A broker with the files ``rackclock venue`` writes on its first start, and the
    client-id plugin it loads with them."""
    logins = VenueLogins.ensure(tmp_path / "logins", tables)
    broker = factory(password_file=logins.password_file, acl_file=logins.acl_file, ids_owned=True)
    return broker, logins


def client(
    broker: Broker, logins: VenueLogins | None, user: str | None, **kw: Any
) -> aiomqtt.Client:
    password = None if user is None or logins is None else logins.passwords.get(user)
    return aiomqtt.Client(
        broker.host, broker.port, username=user, password=kw.pop("password", password),
        identifier=kw.pop("identifier", f"{user}-test-{time.monotonic_ns()}"),
        protocol=aiomqtt.ProtocolVersion.V5, **kw,
    )  # fmt: skip


class Watch:
    """The director, reading everything: which probes got through. Mosquitto handles one
    client's messages in order, so a probe that got through arrives before the sentinel
    the director publishes after it (no fixed wait)."""

    def __init__(self, director: aiomqtt.Client) -> None:
        self.director = director
        self.got: list[tuple[str, int]] = []
        self.n = 0

    async def start(self) -> None:
        await self.director.subscribe("rackclock/v1/#", qos=1)
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.director.messages:
            payload = msg.payload if isinstance(msg.payload, bytes) else b""
            self.got.append((msg.topic.value, len(payload)))

    async def stop(self) -> None:
        """Stop reading (and take the reader's end, so nothing is left unretrieved)."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await self.task

    async def settle(self) -> list[tuple[str, int]]:
        """Everything that arrived before a fresh sentinel, then cleared."""
        self.n += 1
        sentinel = f"rackclock/v1/club/sentinel{self.n}/assignment"
        await self.director.publish(sentinel, b"{}", qos=1)
        await wait_for(lambda: any(t == sentinel for t, _ in self.got), "the sentinel")
        got = [g for g in self.got if "sentinel" not in g[0]]
        self.got.clear()
        return got


async def test_the_venue_broker_refuses_strangers(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    broker, logins = venue_broker(mosquitto_factory, tmp_path)
    for user, password in (
        (None, None),
        ("t1", "wrong"),
        ("nobody", "x"),
        ("t1", logins.passwords["t2"]),
    ):
        with pytest.raises(aiomqtt.MqttError):
            async with client(broker, logins, user, password=password):
                pass
    async with client(broker, logins, "t1"):
        pass


async def test_each_login_writes_only_what_its_role_may(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    broker, logins = venue_broker(mosquitto_factory, tmp_path)
    t1 = "rackclock/v1/club/t1"
    async with (
        client(broker, logins, "director") as director,
        client(broker, logins, "t1") as table1,
        client(broker, logins, "t2") as table2,
        client(broker, logins, "viewer") as viewer,
        client(broker, logins, "hub") as hub,
    ):
        watch = Watch(director)
        await watch.start()
        # a table on its own topics: its terminal's and its clock's
        for topic in ("live", "state", "status", "events", "clock/events", "clock/commands",
                      "clock/status", "director/replies/desk"):  # fmt: skip
            await table1.publish(f"{t1}/{topic}", b"{}", qos=1)
        assert len(await watch.settle()) == 8
        # never on another table's, never as the director
        for topic in ("live", "state", "events", "clock/events", "clock/commands"):
            await table2.publish(f"{t1}/{topic}", b"{}", qos=1)
        for who in (table1, table2, viewer):
            await who.publish(f"{t1}/director/commands", b'{"type":"forfeited"}', qos=1)
            await who.publish(f"{t1}/assignment", b"{}", qos=1, retain=True)
        await viewer.publish(f"{t1}/live", b"{}", qos=1)
        await hub.publish(f"{t1}/assignment", b"{}", qos=1, retain=True)
        await hub.publish(f"{t1}/live", b"{}", qos=1)
        assert await watch.settle() == []
        # the hub fetches game logs; the director assigns
        await hub.publish(f"{t1}/director/commands", b'{"type":"get_log"}', qos=1)
        await director.publish(f"{t1}/assignment", b"{}", qos=1, retain=True)
        assert [t for t, _ in await watch.settle()] == [
            f"{t1}/director/commands", f"{t1}/assignment",
        ]  # fmt: skip
        await watch.stop()


async def test_a_message_over_the_size_limit_is_not_delivered(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    broker, logins = venue_broker(mosquitto_factory, tmp_path)
    assert f"message_size_limit {MAX_MESSAGE_BYTES}" in broker.conf.read_text()
    live = "rackclock/v1/club/t1/live"
    async with client(broker, logins, "director") as director:
        watch = Watch(director)
        await watch.start()
        # Mosquitto drops the message and closes the sender's connection
        async with client(broker, logins, "t1") as t1:
            await t1.publish(live, b"x" * (MAX_MESSAGE_BYTES + 1), qos=0)
        async with client(broker, logins, "t1") as t1:
            await t1.publish(live, b"x" * MAX_MESSAGE_BYTES, qos=1)
        assert await watch.settle() == [(live, MAX_MESSAGE_BYTES)]
        await watch.stop()


def test_a_later_start_keeps_the_logins_and_adds_tables(tmp_path: Path) -> None:
    first = VenueLogins.ensure(tmp_path, 2)
    assert first.created == ["director", "hub", "viewer", "t1", "t2"]
    again = VenueLogins.ensure(tmp_path, 3)
    assert again.created == ["t3"]
    assert {k: again.passwords[k] for k in first.passwords} == first.passwords
    assert again.tables == ["t1", "t2", "t3"]
    for path in (again.path, again.password_file, again.acl_file):
        assert path.stat().st_mode & 0o077 == 0, path
    hashed = dict(line.split(":", 1) for line in again.password_file.read_text().splitlines())
    assert set(hashed) == {"director", "hub", "viewer", "t1", "t2", "t3"}
    assert all(verify_hash(again.passwords[n], h) for n, h in hashed.items())
    assert "user t3" in again.acl_file.read_text()
    # the hash is mosquitto_passwd's: its own file (deploy/mosquitto) verifies
    example = Path(__file__).parents[2] / "deploy" / "mosquitto" / "passwd.example"
    director = example.read_text().splitlines()[0].split(":", 1)
    assert director[0] == "director"
    assert verify_hash("director-example", director[1])
    assert not verify_hash("director-wrong", director[1])
    (tmp_path / "logins.json").write_text("{not json")
    with pytest.raises(LoginsError, match=r"logins\.json"):
        VenueLogins.ensure(tmp_path, 3)


async def test_a_second_start_prints_no_password(tmp_path: Path) -> None:
    if find_mosquitto() is None:
        missing_part("mosquitto is not installed: apt-get install mosquitto")
    data = tmp_path / "data"
    outs = []
    for _ in range(2):
        port = free_port()
        proc = await asyncio.create_subprocess_exec(
            RACKCLOCK, "venue", "--port", str(port), "--data", str(data), "--local",
            "--venue", "club", "--tables", "2",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None
        lines: list[str] = []
        while not lines or lines[-1] != "Stop with ctrl+c.":
            line = await asyncio.wait_for(proc.stdout.readline(), 15)
            assert line, lines
            lines.append(line.decode().rstrip("\n"))
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.communicate(), 15)
        outs.append("\n".join(lines))
    passwords = json.loads((data / "logins" / "logins.json").read_text())["passwords"]
    hub = passwords.pop("hub")  # the venue's own login: never printed
    assert hub not in outs[0]
    assert all(pw in outs[0] for pw in passwords.values())
    assert not any(pw in outs[1] for pw in passwords.values())
    assert "t1: mqtt://t1@127.0.0.1:" in outs[1]
    assert f"passwords in {data / 'logins' / 'logins.json'}" in outs[1]


async def test_open_says_anyone_may_connect(tmp_path: Path) -> None:
    if find_mosquitto() is None:
        missing_part("mosquitto is not installed: apt-get install mosquitto")
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        RACKCLOCK, "venue", "--port", str(port), "--data", str(tmp_path), "--local", "--open",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    first = (await asyncio.wait_for(proc.stdout.readline(), 15)).decode()
    proc.send_signal(signal.SIGINT)
    await asyncio.wait_for(proc.communicate(), 15)
    assert "NO LOGINS: anyone who reaches it may connect and send anything" in first
    assert not (tmp_path / "logins").exists()


async def test_another_login_cannot_take_a_tables_client_id(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    broker, logins = venue_broker(mosquitto_factory, tmp_path)
    table_id = owned_id("t1", client_id("service", "club", "t1", host="pc"))
    commands = "rackclock/v1/club/t1/director/commands"
    got: list[bytes] = []

    def table() -> aiomqtt.Client:
        """The table's persistent session: the broker queues its commands while it is away."""
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = 60
        return client(broker, logins, "t1", identifier=table_id, clean_start=False,
                      properties=props)  # fmt: skip

    async def read(t1: aiomqtt.Client) -> None:
        async for msg in t1.messages:
            got.append(msg.payload if isinstance(msg.payload, bytes) else b"")

    async def intruders() -> None:
        """Other logins with the table's id, and the table's login with an id not its own:
        each refused at CONNECT (the session is not handed over)."""
        for user, ident in (
            ("viewer", table_id),
            ("director", table_id),
            ("hub", table_id),
            ("t2", table_id),
            ("t1", client_id("service", "club", "t1", host="pc")),  # no login in front
            ("t1", "t10-" + table_id),  # t10's, not t1's
            ("t1", ""),  # left to the broker: it would be auto-<uuid>, not t1's
        ):
            with pytest.raises(aiomqtt.MqttError, match=r"[Nn]ot authori[sz]ed"):
                async with client(broker, logins, user, identifier=ident):
                    pass
        assert f"refused client id '{table_id}' for login 'viewer'" in broker.log()
        assert "refused client id 'auto-" in broker.log()

    async with table() as t1:
        await t1.subscribe(commands, qos=1)
    # the table is away: a director command waits in its session; intruders try its id
    async with client(broker, logins, "director") as director:
        await director.publish(commands, b'{"id":"c1"}', qos=1)
    await intruders()
    async with table() as t1:
        reader = asyncio.create_task(read(t1))
        try:
            await wait_for(lambda: got == [b'{"id":"c1"}'], "the queued command", 2.0)
            # and while the table is here: it is not knocked off, and keeps receiving
            await intruders()
            async with client(broker, logins, "director") as director:
                await director.publish(commands, b'{"id":"c2"}', qos=1)
            await wait_for(lambda: got[-1:] == [b'{"id":"c2"}'], "the next command", 2.0)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                await reader
    assert got == [b'{"id":"c1"}', b'{"id":"c2"}']


def test_the_plugin_asks_for_version_5_only_when_the_broker_offers_it(tmp_path: Path) -> None:
    """Built from its source here (the installed one may be older), loaded lazily: the
    broker's functions it calls are only in mosquitto itself."""
    cc = shutil.which("cc")
    if cc is None or not Path("/usr/include/mosquitto_broker.h").is_file():
        missing_part(f"{PLUGIN_HINT}; or set {PLUGIN_ENV}")
    so = tmp_path / "id_owner.so"
    src = REPO / "firmware_bridge" / "venue" / "broker_plugin" / "id_owner.c"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(so), str(src)], check=True)
    version = ctypes.CDLL(str(so), mode=os.RTLD_LAZY).mosquitto_plugin_version

    def offered(*versions: int) -> int:
        got: int = version(len(versions), (ctypes.c_int * len(versions))(*versions))
        return got

    assert offered(4, 5) == 5
    assert offered(5) == 5
    assert offered(4) == -1
    assert offered() == -1


async def test_a_halls_bridge_with_a_login_is_let_into_a_central_broker_that_ties_ids(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    """deploy/mosquitto/make_bridge.py with a login: the central broker's plugin takes
    its client id (the login in front), and the hall's tables reach the centre."""
    passwd = tmp_path / "central-passwd"
    passwd.write_text(
        f"bridge-hall1:{password_hash('hall-pw')}\nwatcher:{password_hash('watch-pw')}\n"
    )
    central = mosquitto_factory(password_file=passwd, ids_owned=True)
    hall = mosquitto_factory(
        extra=make_bridge().bridge("hall1", f"127.0.0.1:{central.port}", "bridge-hall1")
        + "remote_password hall-pw\n"
    )
    live = TableTopics("hall1", "t1").live
    async with aiomqtt.Client(hall.host, hall.port, identifier="test-hall-table") as table:
        await table.publish(live, b'{"seq":1}', qos=1, retain=True)
    async with aiomqtt.Client(
        central.host, central.port, username="watcher", password="watch-pw",
        identifier="watcher-test",
    ) as watcher:  # fmt: skip
        await watcher.subscribe(live, qos=1)
        async with asyncio.timeout(10):
            async for msg in watcher.messages:
                assert msg.payload == b'{"seq":1}'
                break
    assert "refused client id" not in central.log()


async def test_two_pages_and_two_hubs_on_one_broker_keep_receiving(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    """A second projector (page) or a second hub on the same host does not knock the first
    off: each connection has its own id, behind its login's name."""
    broker, logins = venue_broker(mosquitto_factory, tmp_path)

    def url(user: str) -> str:
        return f"mqtt://{user}:{logins.passwords[user]}@{broker.host}:{broker.port}"

    pages = [
        VenuePage(parse_url(url("viewer")), "club", host="127.0.0.1", port=0) for _ in range(2)
    ]
    hubs = [DirectorLink(parse_url(url("hub")), desk="hub", venue="club") for _ in range(2)]
    sessions = [p.session for p in pages] + [h.session for h in hubs]
    assert len({s.identifier for s in sessions}) == 4
    assert all(s.identifier.startswith(("viewer-", "hub-")) for s in sessions)
    for s in sessions:
        s.start()
    try:
        for s in sessions:
            await s.wait_connected(5)
        async with client(broker, logins, "t1") as t1:
            for n, status in enumerate((b"online", b"offline", b"online"), 1):
                await t1.publish("rackclock/v1/club/t1/status", status, qos=1, retain=True)
                await wait_for(
                    lambda n=n: all(s.stats.received >= n for s in sessions),  # type: ignore[misc]
                    f"status {n} at every page and hub",
                    2.0,
                )
        assert [s.stats.connects for s in sessions] == [1, 1, 1, 1]
        assert [s.stats.failures for s in sessions] == [0, 0, 0, 0]
        assert all(h.tables[TableTopics("club", "t1")].online is True for h in hubs)
    finally:
        for s in sessions:
            await s.close()


async def test_the_table_and_the_director_work_on_their_logins(
    mosquitto_factory: BrokerFactory, tmp_path: Path
) -> None:
    broker, logins = venue_broker(mosquitto_factory, tmp_path)
    hostport = f"{broker.host}:{broker.port}"
    t1 = TableTopics("club", "t1")
    svc = TableService(tmp_path / "t1.sqlite", timeline=MonotonicTimeline(), heartbeat_ms=0)
    async with svc:
        ack = await svc.submit(
            GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")
        )
        assert ack.accepted
        table_url = f"mqtt://t1:{logins.passwords['t1']}@{hostport}/club/t1"
        pub = TablePublisher(svc, parse_url(table_url), t1, refresh_s=5, expiry_s=60)
        director_url = f"mqtt://director:{logins.passwords['director']}@{hostport}"
        async with pub, DirectorLink(parse_url(director_url), desk="test-desk") as link:
            await wait_for(lambda: t1 in link.tables and link.tables[t1].doc is not None, "t1")
            reply = await link.command(t1, Adjusted(by="Dee", player=1, score_delta=5))
            assert reply.accepted is True
            assert svc.state.scores == (0, 5)
    assert log_rows(tmp_path / "t1.sqlite")[-1].body["actor"] == "director"


async def test_it_listens_where_asked_and_says_so(tmp_path: Path) -> None:
    if find_mosquitto() is None:
        missing_part("mosquitto is not installed: apt-get install mosquitto")
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        RACKCLOCK, "venue", "--port", str(port), "--data", str(tmp_path), "--listen", "127.0.0.2",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        first = (await asyncio.wait_for(proc.stdout.readline(), 15)).decode()
        assert f"mosquitto listening on 127.0.0.2:{port} (127.0.0.2 only)" in first
        assert "logins only" in first
        assert listening(port, "127.0.0.2")
        assert not listening(port, "127.0.0.1")
    finally:
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.communicate(), 15)


def test_doctests() -> None:
    import doctest

    from firmware_bridge.venue import logins

    assert doctest.testmod(logins).failed == 0
