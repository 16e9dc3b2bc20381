"""The example ACL (deploy/mosquitto) proven rule by rule on a real Mosquitto.

The broker runs the shipped ``acl.example`` and ``passwd.example``. Each
publish is checked two ways:

- the MQTT v5 PUBACK reason code: Mosquitto answers a denied publish with
  135 "Not authorized";
- delivery: the ``director`` (who reads everything) watches ``rackclock/v1/#``.
  After the probe's PUBACK, the director publishes a sentinel; Mosquitto
  handles messages one at a time, so a probe message that got through reaches
  the watcher before the sentinel. The wait is "until the sentinel", never a
  fixed sleep.

Reads are checked the same way: the reader subscribes, an allowed writer
publishes, then a sentinel the reader may read follows.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

import engine
from tests.helpers import Broker, BrokerFactory

DEPLOY = Path(engine.__file__).resolve().parent.parent / "deploy" / "mosquitto"
WAIT_S = 5.0
NOT_AUTHORIZED = 135
P = "rackclock/v1/club"


def password(user: str) -> str:
    """The example passwords are public: the user name + ``-example`` (deploy/mosquitto)."""
    return f"{user}-example"


class Client:
    """A paho client on its own thread: publish and get the PUBACK reason code."""

    def __init__(
        self, broker: Broker, user: str | None, pw: str | None = None, *, threaded: bool = True
    ) -> None:
        self.user = user
        self.threaded = threaded
        self.got: list[tuple[str, bytes]] = []
        self._cond = threading.Condition()
        self._acks: dict[int, int] = {}
        self._connected = threading.Event()
        self.connect_rc: int | None = None
        self._subacks: dict[int, list[int]] = {}
        c = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"acl-{user or 'anon'}-{id(self)}",
            protocol=mqtt.MQTTv5,
        )
        if user is not None:
            c.username_pw_set(user, pw if pw is not None else password(user))
        c.on_connect = self._on_connect
        c.on_publish = self._on_publish
        c.on_message = self._on_message
        c.on_subscribe = self._on_subscribe
        self.c = c
        c.connect(broker.host, broker.port, keepalive=10)
        if threaded:
            c.loop_start()

    def _on_connect(self, c: Any, u: Any, flags: Any, rc: ReasonCode, props: Any) -> None:
        self.connect_rc = rc.value
        self._connected.set()

    def _on_publish(self, c: Any, u: Any, mid: int, rc: ReasonCode, props: Any) -> None:
        with self._cond:
            self._acks[mid] = rc.value
            self._cond.notify_all()

    def _on_subscribe(self, c: Any, u: Any, mid: int, rcs: list[ReasonCode], props: Any) -> None:
        with self._cond:
            self._subacks[mid] = [r.value for r in rcs]
            self._cond.notify_all()

    def _on_message(self, c: Any, u: Any, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.got.append((msg.topic, bytes(msg.payload)))
            self._cond.notify_all()

    def wait_connected(self) -> int:
        if not self.threaded:  # a refused client: no thread that would wait to reconnect
            for _ in range(int(WAIT_S / 0.05)):
                if self._connected.is_set():
                    break
                self.c.loop(0.05)
        assert self._connected.wait(WAIT_S), "no CONNACK"
        assert self.connect_rc is not None
        return self.connect_rc

    def publish(self, topic: str, payload: bytes) -> int:
        """Publish at QoS 1; the PUBACK's reason code (0 or 16 = accepted)."""
        info = self.c.publish(topic, payload, qos=1)
        with self._cond:
            assert self._cond.wait_for(lambda: info.mid in self._acks, WAIT_S), "no PUBACK"
            return self._acks.pop(info.mid)

    def subscribe(self, topic: str) -> list[int]:
        _, mid = self.c.subscribe(topic, qos=1)
        assert mid is not None
        with self._cond:
            assert self._cond.wait_for(lambda: mid in self._subacks, WAIT_S), "no SUBACK"
            return self._subacks.pop(mid)

    def wait_for(self, topic: str, payload: bytes) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: (topic, payload) in self.got, WAIT_S), (
                f"{self.user} never received {payload!r} on {topic}"
            )

    def close(self) -> None:
        self.c.disconnect()
        if self.threaded:
            self.c.loop_stop()


@pytest.fixture
def acl_broker(mosquitto_factory: BrokerFactory) -> Broker:
    return mosquitto_factory(
        password_file=DEPLOY / "passwd.example", acl_file=DEPLOY / "acl.example"
    )


@pytest.fixture
def clients(acl_broker: Broker) -> Iterator[dict[str, Client]]:
    users = [
        "director",
        "viewer",
        "clock-club-t1",
        "table-club-t1",
        "clock-club-t2",
        "table-club-t2",
    ]
    made = {u: Client(acl_broker, u) for u in users}
    try:
        for c in made.values():
            assert c.wait_connected() == 0
        assert made["director"].subscribe("rackclock/v1/#") == [1]
        yield made
    finally:
        for c in made.values():
            c.close()


_count = 0


def delivered(clients: dict[str, Client], user: str, topic: str) -> tuple[int, bool]:
    """``user`` publishes on ``topic``: (PUBACK reason code, whether it got through)."""
    global _count
    _count += 1
    probe = f"probe-{_count}".encode()
    rc = clients[user].publish(topic, probe)
    director = clients["director"]
    sentinel = f"sentinel-{_count}".encode()
    assert director.publish(f"{P}/t1/director/commands", sentinel) in (0, 16)
    director.wait_for(f"{P}/t1/director/commands", sentinel)
    return rc, (topic, probe) in director.got


WRITES = [
    # a table's clock writes only its own table's clock topics
    ("clock-club-t1", f"{P}/t1/clock/events", True),
    ("clock-club-t1", f"{P}/t1/clock/status", True),
    ("clock-club-t1", f"{P}/t2/clock/events", False),
    ("clock-club-t1", f"{P}/t2/clock/status", False),
    ("clock-club-t2", f"{P}/t1/clock/events", False),
    ("clock-club-t1", f"{P}/t1/clock/commands", False),
    ("clock-club-t1", f"{P}/t1/state", False),
    ("clock-club-t1", f"{P}/t1/status", False),
    # a table's terminal writes only its own table's topics
    ("table-club-t1", f"{P}/t1/clock/commands", True),
    ("table-club-t1", f"{P}/t1/state", True),
    ("table-club-t1", f"{P}/t1/live", True),
    ("table-club-t1", f"{P}/t1/events", True),
    ("table-club-t1", f"{P}/t2/live", False),
    ("clock-club-t1", f"{P}/t1/events", False),
    ("table-club-t1", f"{P}/t1/status", True),
    ("table-club-t1", f"{P}/t1/director/replies/desk-1", True),
    ("table-club-t1", f"{P}/t2/state", False),
    ("table-club-t1", f"{P}/t2/clock/commands", False),
    ("table-club-t1", f"{P}/t2/director/replies/desk-1", False),
    ("table-club-t1", f"{P}/t1/clock/events", False),  # cannot forge presses
    # only the director writes director commands
    ("director", f"{P}/t1/director/commands", True),
    ("director", f"{P}/t2/director/commands", True),
    ("table-club-t1", f"{P}/t1/director/commands", False),
    ("clock-club-t1", f"{P}/t1/director/commands", False),
    ("viewer", f"{P}/t1/director/commands", False),
    # only the director's event publishes a table's assignment
    ("director", f"{P}/t1/assignment", True),
    ("table-club-t1", f"{P}/t1/assignment", False),
    ("viewer", f"{P}/t1/assignment", False),
    ("director", f"{P}/t1/state", False),
    ("director", f"{P}/t1/clock/commands", False),
    # a viewer writes nothing
    ("viewer", f"{P}/t1/state", False),
    ("viewer", f"{P}/t1/status", False),
    ("viewer", f"{P}/t1/clock/events", False),
    # nothing outside the rackclock tree
    ("table-club-t1", "elsewhere", False),
]


def test_write_rules(clients: dict[str, Client]) -> None:
    wrong = []
    for user, topic, allowed in WRITES:
        rc, through = delivered(clients, user, topic)
        if allowed != through or (rc == NOT_AUTHORIZED) == allowed:
            wrong.append(f"{user} -> {topic}: reason code {rc}, delivered {through}")
    assert not wrong, "\n".join(wrong)


READS = [
    # anyone may read table state and status
    ("viewer", "table-club-t1", f"{P}/t1/state", True),
    ("viewer", "table-club-t1", f"{P}/t1/status", True),
    ("viewer", "table-club-t1", f"{P}/t1/live", True),
    ("viewer", "table-club-t1", f"{P}/t1/events", True),
    ("clock-club-t2", "table-club-t1", f"{P}/t1/state", True),
    # but not a table's clock traffic or its director commands
    ("viewer", "clock-club-t1", f"{P}/t1/clock/events", False),
    ("viewer", "table-club-t1", f"{P}/t1/clock/commands", False),
    ("clock-club-t2", "table-club-t1", f"{P}/t1/clock/commands", False),
    ("viewer", "director", f"{P}/t1/director/commands", False),
    # the table's own traffic reaches its own parties
    ("clock-club-t1", "table-club-t1", f"{P}/t1/clock/commands", True),
    ("table-club-t1", "clock-club-t1", f"{P}/t1/clock/events", True),
    ("table-club-t1", "director", f"{P}/t1/director/commands", True),
    ("director", "table-club-t1", f"{P}/t1/director/replies/desk-1", True),
    # the round's assignments are public (the pairings are posted on the wall)
    ("table-club-t1", "director", f"{P}/t1/assignment", True),
    ("viewer", "director", f"{P}/t1/assignment", True),
]


def test_read_rules(clients: dict[str, Client]) -> None:
    wrong = []
    for n, (reader, writer, topic, allowed) in enumerate(READS):
        r, w = clients[reader], clients[writer]
        r.subscribe(topic)
        r.subscribe(f"{P}/t1/status")  # every user may read it: the sentinel's topic
        probe = f"read-probe-{n}".encode()
        assert w.publish(topic, probe) in (0, 16)
        sentinel = f"read-sentinel-{n}".encode()
        assert clients["table-club-t1"].publish(f"{P}/t1/status", sentinel) in (0, 16)
        r.wait_for(f"{P}/t1/status", sentinel)
        if ((topic, probe) in r.got) != allowed:
            wrong.append(f"{reader} reading {topic} from {writer}: expected allowed={allowed}")
    assert not wrong, "\n".join(wrong)


def test_logins(acl_broker: Broker) -> None:
    bad = Client(acl_broker, "director", "wrong", threaded=False)
    anon = Client(acl_broker, None, threaded=False)
    stranger = Client(acl_broker, "mallory", "mallory-example", threaded=False)
    try:
        assert bad.wait_connected() != 0
        assert anon.wait_connected() != 0
        assert stranger.wait_connected() != 0
    finally:
        for c in (bad, anon, stranger):
            c.close()


def test_the_example_acl_is_what_make_acl_writes() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_acl", DEPLOY / "make_acl.py")
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.acl("club", ["t1", "t2"]) == (DEPLOY / "acl.example").read_text()


def test_wills_need_write_access(clients: dict[str, Client], acl_broker: Broker) -> None:
    """A will is published with its client's rights: the clock's and the table's
    ``offline`` wills go out when their connections die; a will on a topic the
    client may not write never does."""
    cases = (
        ("clock-club-t1", f"{P}/t1/clock/status", True),
        ("table-club-t1", f"{P}/t1/status", True),
        ("viewer", f"{P}/t1/state", False),
        ("clock-club-t1", f"{P}/t2/clock/status", False),
    )
    for n, (user, topic, allowed) in enumerate(cases):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"will-{n}", protocol=mqtt.MQTTv5)
        c.username_pw_set(user, password(user))
        will = f"will-{n}".encode()
        c.will_set(topic, will, qos=1, retain=False)
        assert c.connect(acl_broker.host, acl_broker.port) == 0
        for _ in range(100):  # until CONNACK
            c.loop(0.05)
            if c.is_connected():
                break
        assert c.is_connected()
        sock = c.socket()
        assert isinstance(sock, socket.socket)
        sock.shutdown(socket.SHUT_RDWR)  # the link dies without DISCONNECT: the will fires
        sock.close()
        # the broker has handled the disconnect (and routed the will, if allowed)
        # once it logs it; only then does the sentinel go out
        deadline = time.monotonic() + WAIT_S
        while not re.search(
            rf"Client will-{n} (closed its connection|disconnected)", acl_broker.log()
        ):
            assert time.monotonic() < deadline, "the broker did not notice the dead link"
            time.sleep(0.01)
        director = clients["director"]
        sentinel = f"will-sentinel-{n}".encode()
        if allowed:
            director.wait_for(topic, will)
        assert director.publish(f"{P}/t1/director/commands", sentinel) in (0, 16)
        director.wait_for(f"{P}/t1/director/commands", sentinel)
        assert ((topic, will) in director.got) == allowed, (user, topic)
