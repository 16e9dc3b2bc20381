"""A small layer over aiomqtt: broker URLs, TLS, persistent sessions, reconnects.

Every rackclock MQTT program (the service's clock link, the table publisher,
the emulated clock firmware, the benchmark) holds one :class:`MqttSession`:

- it connects with a fixed client identifier, ``clean_start=False`` and a v5
  session expiry, so the broker keeps its subscriptions and queues QoS 1
  messages for it across a Wi-Fi drop;
- it reconnects forever with capped exponential backoff and jitter, and
  re-subscribes and calls ``on_connect`` after every connect;
- it publishes from an outbox, in order, one QoS 1 message at a time, and keeps
  a message until the broker's PUBACK arrives, so what is published while the
  broker is away goes out when it is back (receivers drop the duplicates this
  may cause by ``seq``).

aiomqtt clients must be created inside a running event loop, so the client is
built in :meth:`MqttSession.start`, never in ``__init__``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import ssl
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

import aiomqtt
from paho.mqtt import client as paho_client
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from firmware_bridge.mqtt.topics import (
    MAX_PACKET_BYTES,
    TableTopics,
    TopicError,
    client_id,
    owned_id,
    table_from_path,
)

__all__ = [
    "DEFAULT_KEEPALIVE_S",
    "PASSWORD_ENV",
    "Backoff",
    "BrokerSettings",
    "MqttSession",
    "SessionStats",
    "TlsOptions",
    "is_broker_url",
    "parse_url",
    "parse_venue_url",
    "publish_properties",
    "table_connection",
]

log = logging.getLogger(__name__)

PASSWORD_ENV = "RACKCLOCK_MQTT_PASSWORD"
"""Read for the password when a URL has a user name but no password."""


DEFAULT_KEEPALIVE_S = 20
"""MQTT keepalive: a dead connection is noticed within 1.5 times this. 20 s, not
5: a venue's machines under load must not drop connections for a late PINGREQ
(a thousand of them reconnecting at once), and a table's clock and status still
turn ``offline`` within half a minute."""


@dataclass(frozen=True, slots=True)
class TlsOptions:
    """TLS for ``mqtts://``: the CA to trust, and a client certificate if the broker wants one."""

    ca_file: str | None = None
    """PEM file of the CA that signed the broker's certificate; None: the system's CAs."""
    cert_file: str | None = None
    """PEM client certificate (brokers with ``require_certificate true``)."""
    key_file: str | None = None
    """The client certificate's private key."""
    insecure: bool = False
    """Skip the host name check (a broker addressed by IP with a named certificate)."""

    def context(self) -> ssl.SSLContext:
        """An SSL context for these options (TLS 1.2 at least, certificate checked).

        Raises:
            OSError, ssl.SSLError: A file that cannot be read.
        """
        ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=self.ca_file)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        if self.cert_file is not None:
            ctx.load_cert_chain(self.cert_file, self.key_file)
        if self.insecure:
            ctx.check_hostname = False
        return ctx


@dataclass(frozen=True, slots=True)
class BrokerSettings:
    """Where the broker is and how to log in."""

    host: str = "127.0.0.1"
    """Broker host name or address."""
    port: int = 1883
    """1883 for ``mqtt://``, 8883 for ``mqtts://`` unless given."""
    username: str | None = None
    """Broker user (see deploy/mosquitto)."""
    password: str | None = field(default=None, repr=False)
    """Its password (never printed)."""
    tls: TlsOptions | None = None
    """TLS options; None for plain TCP."""
    table: TableTopics | None = None
    """The table the URL's path names, if any."""
    keepalive: int = DEFAULT_KEEPALIVE_S
    """Seconds between pings: a silent peer is noticed after about 1.5 times this."""
    protocol: Literal[5, 4] = 5
    """MQTT 5 (default) or 4 (that is, 3.1.1: no properties; sessions via clean_session)."""


BROKER_SCHEMES = ("mqtt://", "mqtts://")
"""How a broker URL starts."""


def is_broker_url(text: str) -> bool:
    """Whether ``text`` is a broker URL (``mqtt://`` or ``mqtts://``), not yet checked.

    >>> is_broker_url("mqtts://hub/club/t1"), is_broker_url("event.sqlite@t1")
    (True, False)
    """
    return text.startswith(BROKER_SCHEMES)


def parse_url(url: str, *, tls: TlsOptions | None = None) -> BrokerSettings:
    """Settings from ``mqtt[s]://[user[:password]@]host[:port][/venue/table][?options]``.

    Options: ``ca=``, ``cert=``, ``key=`` (TLS files, implying ``mqtts``),
    ``insecure=1``, ``keepalive=`` seconds, ``protocol=5`` or ``protocol=3.1.1``.
    A user without a password in the URL reads it from ``$RACKCLOCK_MQTT_PASSWORD``.

    >>> s = parse_url("mqtt://clock-t1:pw@broker.local:1884/club/t1")
    >>> (s.host, s.port, s.username, s.table)
    ('broker.local', 1884, 'clock-t1', TableTopics(venue='club', table='t1'))
    >>> parse_url("mqtts://hub").port
    8883

    Raises:
        ValueError: Not an ``mqtt://`` or ``mqtts://`` URL, or a bad option.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"broker URL {url!r} must start with mqtt:// or mqtts://")
    if not parts.hostname:
        raise ValueError(f"broker URL {url!r} has no host")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"broker URL {url!r} has a bad port") from None
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    unknown = set(query) - {"ca", "cert", "key", "insecure", "keepalive", "protocol"}
    if unknown:
        raise ValueError(f"broker URL {url!r}: unknown option(s) {sorted(unknown)}")
    if any(k in query for k in ("ca", "cert", "key", "insecure")):
        tls = TlsOptions(
            query.get("ca") or (tls.ca_file if tls else None),
            query.get("cert") or (tls.cert_file if tls else None),
            query.get("key") or (tls.key_file if tls else None),
            query.get("insecure", "0") in ("1", "true", "yes"),
        )
    if parts.scheme == "mqtts" and tls is None:
        tls = TlsOptions()
    protocol: Literal[5, 4] = 5
    if query.get("protocol", "5") in ("3.1.1", "311", "4"):
        protocol = 4
    elif query.get("protocol", "5") != "5":
        raise ValueError(f"broker URL {url!r}: protocol must be 5 or 3.1.1")
    try:
        keepalive = int(query.get("keepalive", str(DEFAULT_KEEPALIVE_S)))
    except ValueError:
        raise ValueError(f"broker URL {url!r}: keepalive must be whole seconds") from None
    username = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    if username is not None and password is None:
        password = os.environ.get(PASSWORD_ENV)
    return BrokerSettings(
        host=parts.hostname,
        port=port or (8883 if tls is not None else 1883),
        username=username,
        password=password,
        tls=tls,
        table=table_from_path(parts.path),
        keepalive=keepalive,
        protocol=protocol,
    )


def parse_venue_url(url: str) -> tuple[BrokerSettings, str]:
    """The broker and the venue of ``mqtt[s]://host[:port]/VENUE[?options]``: the
    address of a whole venue (``event publish`` and ``event verify --broker``), read
    by :func:`parse_url`, whose path names one venue and no table.

    >>> s, venue = parse_venue_url("mqtt://broker.local:1884/club")
    >>> (s.host, s.port, s.table, venue)
    ('broker.local', 1884, None, 'club')

    Raises:
        ValueError: What :func:`parse_url` refuses, more than the venue named, no
            venue, or a venue no topic can hold.
    """
    settings = parse_url(url)
    path = [p for p in urlsplit(url).path.split("/") if p]
    if len(path) > 1:
        raise TopicError(f"{url}: name only the venue: mqtt://host/VENUE")
    if not path:  # no silent default: the tables of the room are under their venue
        raise TopicError(f"{url}: the URL must name the venue (mqtt://host:port/VENUE)")
    venue = path[0]
    table_from_path(f"/{venue}/t1")  # a venue that cannot be a topic level is refused
    return replace(settings, table=None), venue


def _properties(packet_type: int) -> Properties:
    return Properties(packet_type)  # type: ignore[no-untyped-call]  # paho leaves it untyped


def publish_properties(
    *,
    expiry_s: int | None = None,
    response_topic: str | None = None,
    correlation: bytes | None = None,
) -> Properties:
    """v5 PUBLISH properties: message expiry, response topic, correlation data."""
    props = _properties(PacketTypes.PUBLISH)
    if expiry_s is not None:
        props.MessageExpiryInterval = expiry_s
    if response_topic is not None:
        props.ResponseTopic = response_topic
    if correlation is not None:
        props.CorrelationData = correlation
    return props


@dataclass
class Backoff:
    """Capped exponential backoff with jitter: 0.2 s doubling to 5 s, each +-25 %."""

    initial_s: float = 0.2
    """The first delay."""
    cap_s: float = 5.0
    """The longest delay."""
    factor: float = 2.0
    """Growth per failure."""
    jitter: float = 0.25
    """Each delay is scaled by a random factor in ``1 +- jitter``, so clients
    that lost the broker together do not all return in the same instant."""
    _next_s: float = 0.0

    def next(self) -> float:
        """The delay before the next attempt."""
        base = self._next_s or self.initial_s
        self._next_s = min(self.cap_s, base * self.factor)
        return base * random.uniform(1 - self.jitter, 1 + self.jitter)

    def reset(self) -> None:
        """After a success: start again from the initial delay."""
        self._next_s = 0.0


@dataclass
class SessionStats:
    """Counters for logs and tests."""

    connects: int = 0
    """Successful connections (the first, then each reconnect)."""
    failures: int = 0
    """Connection attempts that failed or connections that dropped."""
    published: int = 0
    """Messages the broker acknowledged."""
    superseded: int = 0
    """Queued messages replaced by a newer one with the same key before they went out."""
    dropped: int = 0
    """Messages dropped because the outbox was full."""
    received: int = 0
    """Messages received."""
    last_error: str = ""
    """Why the last connection failed or dropped."""


@dataclass
class _Out:
    topic: str
    payload: bytes
    qos: int
    retain: bool
    properties: Properties | None
    key: str | None
    done: asyncio.Future[bool]


MessageHandler = Callable[[aiomqtt.Message], None]


async def _cancel_and_wait(tasks: Sequence[asyncio.Task[None]], every_s: float) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again every ``every_s``
    those that run on: Python 3.11's ``asyncio.wait_for``, which aiomqtt's timeouts use,
    drops a cancellation that lands as the answer it waits for arrives (a SUBACK, a
    PUBACK), and the task goes on as if never cancelled (a close would wait for ever).
    Their errors are retrieved, not raised."""
    pending = {t for t in tasks if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=every_s)
    for task in tasks:
        if not task.cancelled():
            task.exception()


def _direct_queue(session: MqttSession) -> type[asyncio.Queue[aiomqtt.Message]]:
    """A queue class for aiomqtt that hands each message straight to the session.

    aiomqtt puts every received message into its queue (from paho's read
    callback, on the event loop) and its iterator takes it out through a fresh
    task per message. Delivering at the put saves those hops on every press;
    the iterator is still run, to notice a lost connection.
    """

    class _Direct(asyncio.Queue[aiomqtt.Message]):
        def put_nowait(self, item: aiomqtt.Message) -> None:
            session._deliver(item)

    return _Direct


class MqttSession:
    """One persistent connection to the broker, kept alive until :meth:`close`.

    ``subscriptions`` are (re)subscribed at QoS 1 after each connect, then
    ``on_connect`` runs (publish a retained ``online`` there; :meth:`add_on_connect`
    adds more). A second user of the connection takes its topics with
    :meth:`route` (one connection per table process). Each message
    received goes to ``on_message`` at once, in arrival order; it must not
    block (queue the work for a task if it has to wait). ``on_disconnect``
    hears why a connection ended (it must not block either).
    """

    def __init__(
        self,
        broker: BrokerSettings,
        *,
        identifier: str,
        subscriptions: Sequence[str] = (),
        on_message: MessageHandler | None = None,
        on_connect: Callable[[], Awaitable[None]] | None = None,
        on_disconnect: Callable[[str], None] | None = None,
        will: aiomqtt.Will | None = None,
        session_expiry_s: int = 7200,
        backoff: Backoff | None = None,
        outbox_limit: int = 1000,
        publish_timeout_s: float = 10.0,
        connect_timeout_s: float = 5.0,
        manual_ack: bool = False,
        held_topics: Sequence[str] = (),
    ) -> None:
        self.broker = broker
        self.manual_ack = manual_ack
        """Acknowledge a received message (PUBACK) after ``on_message`` returns, unless
        the handler took the acknowledgement over with :meth:`ack_later`."""
        """Where to connect."""
        self.identifier = owned_id(broker.username, identifier)
        """The fixed client identifier (the key of the broker-side session), behind the
        login's name and ``-``: a venue's broker refuses an id its login does not own."""
        self.subscriptions = tuple(subscriptions)
        """Topic filters subscribed at QoS 1 on every connect."""
        self.session_expiry_s = session_expiry_s
        """How long the broker keeps the session (and queues for it) while we are away."""
        self.stats = SessionStats()
        """Counters."""
        self.connected = asyncio.Event()
        """Set while connected."""
        self.failed = asyncio.Event()
        """Set at the first failure (a connect that failed, a connection lost), and stays
        set: what a caller waits on to tell a broker never reached, without polling."""
        self._on_message = on_message
        self._on_connect = on_connect
        self._on_disconnect = on_disconnect
        self._will = will
        self.backoff = backoff or Backoff()
        """The delays between reconnection attempts (a test may set shorter ones)."""
        self._outbox: deque[_Out] = deque()
        self._outbox_limit = outbox_limit
        self._outbox_ready = asyncio.Event()
        self._publish_timeout_s = publish_timeout_s
        self._connect_timeout_s = connect_timeout_s
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._paho: paho_client.Client | None = None
        self._later: set[int] = set()
        self._connection = 0  # counts connections: a message id belongs to one
        self._routes: dict[str, MessageHandler] = {}
        self._held_topics = frozenset(held_topics)
        self._held: list[aiomqtt.Message] = []
        self._hook_tasks: set[asyncio.Future[None]] = set()
        self._connect_hooks: list[Callable[[], Awaitable[None]]] = []
        self._disconnect_hooks: list[Callable[[str], None]] = []

    # --- sharing one connection ---------------------------------------------------
    def route(self, topic: str, handler: MessageHandler) -> None:
        """Deliver the messages of ``topic`` (one of the subscriptions) to ``handler``
        instead of ``on_message``: a second user of this connection (the table's
        publisher on its clock link's connection). Messages of a topic named in
        ``held_topics`` that came before its handler are delivered now, in order.
        """
        self._routes[topic] = handler
        held, self._held = self._held, []
        for msg in held:
            if msg.topic.value == topic:
                handler(msg)
            else:
                self._held.append(msg)

    def add_on_disconnect(self, hook: Callable[[str], None]) -> None:
        """Tell ``hook`` why each connection ended (after ``on_disconnect``); it must not
        block."""
        self._disconnect_hooks.append(hook)

    def add_on_connect(self, hook: Callable[[], Awaitable[None]]) -> None:
        """Run ``hook`` after every connect (and now, if connected)."""
        self._connect_hooks.append(hook)
        if self.connected.is_set():
            task: asyncio.Future[None] = asyncio.ensure_future(hook())
            self._hook_tasks.add(task)
            task.add_done_callback(self._hook_tasks.discard)

    # --- lifecycle -------------------------------------------------------------
    def start(self) -> None:
        """Start connecting (in the background) and keep connected. Idempotent."""
        if self._task is None and not self._closing:
            self._task = asyncio.create_task(self._run(), name=f"mqtt[{self.identifier}]")

    async def wait_connected(self, timeout_s: float) -> None:
        """Wait until connected.

        Raises:
            TimeoutError: Not connected within ``timeout_s``.
        """
        async with asyncio.timeout(timeout_s):
            await self.connected.wait()

    async def flush(self, timeout_s: float) -> bool:
        """Wait until the outbox is empty (every message acknowledged); False on timeout."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                while self._outbox:
                    await asyncio.shield(self._outbox[-1].done)
                return True
        return not self._outbox

    async def close(self, *, flush_s: float = 1.0) -> None:
        """Send what is queued (waiting at most ``flush_s``), then disconnect cleanly.

        A clean disconnect does not fire the will: publish your ``offline`` first.
        """
        if self._task is not None and self.connected.is_set():
            await self.flush(flush_s)
        self._closing = True
        if self._task is not None:
            await _cancel_and_wait([self._task], every_s=1.0)
            self._task = None
        self.connected.clear()
        while self._outbox:
            item = self._outbox.popleft()
            if not item.done.done():
                item.done.set_result(False)

    # --- publishing ---------------------------------------------------------------
    def send(
        self,
        topic: str,
        payload: bytes,
        *,
        qos: int = 1,
        retain: bool = False,
        properties: Properties | None = None,
        key: str | None = None,
    ) -> asyncio.Future[bool]:
        """Queue a message; the future is True once the broker has it (PUBACK),
        False if it was superseded, dropped, or the session closed first.

        ``key``: a queued message with the same key that has not gone out yet is
        replaced (only the latest SET or table state matters).
        """
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self._closing:
            fut.set_result(False)
            return fut
        if self.broker.protocol != 5:
            properties = None
        if key is not None:
            # the head may be on the wire already; only replace items behind it
            for i in range(1, len(self._outbox)):
                old = self._outbox[i]
                if old.key == key:
                    del self._outbox[i]
                    old.done.set_result(False)
                    self.stats.superseded += 1
                    break
        self._outbox.append(_Out(topic, payload, qos, retain, properties, key, fut))
        while len(self._outbox) > self._outbox_limit:
            old = self._outbox.popleft()
            old.done.set_result(False)
            self.stats.dropped += 1
        self._outbox_ready.set()
        return fut

    async def publish(
        self,
        topic: str,
        payload: bytes,
        *,
        qos: int = 1,
        retain: bool = False,
        properties: Properties | None = None,
    ) -> bool:
        """Queue a message and wait for the broker's acknowledgement (see :meth:`send`)."""
        return await self.send(topic, payload, qos=qos, retain=retain, properties=properties)

    def ack_later(self, msg: aiomqtt.Message) -> Callable[[], None]:
        """Called by ``on_message`` in a ``manual_ack`` session: the message is not
        acknowledged when the handler returns; the function returned sends its PUBACK.
        Until then the broker keeps it, and delivers it again after a reconnect (the
        PUBACK is then for nothing: it belongs to the connection that is gone)."""
        self._later.add(id(msg))
        paho, mid, qos, connection = self._paho, msg.mid, msg.qos, self._connection

        def ack() -> None:
            # only on the connection it came by (a message id names a message on one
            # connection); "connected" is not waited for: the broker delivers what it
            # kept for us before our subscriptions are confirmed
            if paho is not None and connection == self._connection:
                paho.ack(mid, qos)

        return ack

    @property
    def pending(self) -> int:
        """Messages queued or in flight."""
        return len(self._outbox)

    # --- the connection loop -----------------------------------------------------------
    def _client(self) -> aiomqtt.Client:
        b = self.broker
        props: Properties | None = None
        if b.protocol == 5:
            props = _properties(PacketTypes.CONNECT)
            props.SessionExpiryInterval = self.session_expiry_s
            # a broker without a size limit (one not the venue's) must not hand us a
            # message no consumer of ours reads whole (MQTT 5 3.1.2.11.4)
            props.MaximumPacketSize = MAX_PACKET_BYTES
        client = aiomqtt.Client(
            b.host,
            b.port,
            username=b.username,
            password=b.password,
            identifier=self.identifier,
            protocol=aiomqtt.ProtocolVersion(b.protocol),
            clean_session=None if b.protocol == 5 else False,
            clean_start=False,
            properties=props,
            will=self._will,
            keepalive=b.keepalive,
            tls_context=b.tls.context() if b.tls is not None else None,
            # bounds the wait for CONNACK (a broker that drops us before it, e.g. for a
            # missing client certificate, is otherwise only noticed here) and DISCONNECT
            timeout=self._connect_timeout_s,
            # small messages that must not wait for the peer's delayed ACK (Nagle)
            socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
            queue_type=_direct_queue(self),
        )
        # aiomqtt does not expose paho's manual acknowledgement; its paho client does.
        client._client.manual_ack_set(self.manual_ack)
        self._paho = client._client
        return client

    async def _run(self) -> None:
        client: aiomqtt.Client | None = None
        while not self._closing:
            try:
                if client is None:
                    client = self._client()  # TLS files are read here
                # before connecting: the broker may deliver as soon as it accepts us
                self._connection += 1
                async with client:
                    await self._connected(client)
            except aiomqtt.MqttError as exc:
                self._lost(str(exc) or type(exc).__name__)
            except OSError as exc:  # TLS files, or socket errors outside aiomqtt's wrapping
                self._lost(f"{type(exc).__name__}: {exc}")
            except Exception as exc:  # a bug below us must not end the session for good
                log.exception("MQTT %s: unexpected error; starting over", self.identifier)
                self._lost(f"{type(exc).__name__}: {exc}")
                client = None  # a fresh client: the old one's state is suspect
            if self._closing:
                return
            await asyncio.sleep(self.backoff.next())

    def _lost(self, why: str) -> None:
        was = self.connected.is_set()
        self.connected.clear()
        self.stats.failures += 1
        self.stats.last_error = why
        self.failed.set()
        if was:
            log.warning("MQTT %s: connection lost: %s", self.identifier, why)
            if self._on_disconnect is not None:
                self._on_disconnect(why)
            for hook in self._disconnect_hooks:
                hook(why)
        else:
            log.info("MQTT %s: cannot connect: %s", self.identifier, why)

    async def _connected(self, client: aiomqtt.Client) -> None:
        for topic in self.subscriptions:
            await client.subscribe(topic, qos=1, timeout=self._publish_timeout_s)
        self.stats.connects += 1
        self.backoff.reset()
        self.connected.set()
        log.info("MQTT %s: connected to %s:%d", self.identifier, self.broker.host, self.broker.port)
        if self._on_connect is not None:
            await self._on_connect()
        for hook in self._connect_hooks:
            await hook()
        sender = asyncio.create_task(self._sender(client), name=f"mqtt[{self.identifier}].out")
        receiver = asyncio.create_task(self._receiver(client), name=f"mqtt[{self.identifier}].in")
        try:
            done, _ = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await _cancel_and_wait([sender, receiver], every_s=0.1)
        for task in done:
            exc = task.exception()
            if exc is not None:
                raise exc
        raise aiomqtt.MqttError("connection ended")  # pragma: no cover - both loops are endless

    async def _receiver(self, client: aiomqtt.Client) -> None:
        # messages are delivered by the queue (_direct_queue): this loop waits for the
        # connection to end (MqttError), and delivers anything that reached the queue
        # another way (should aiomqtt ever stop using put_nowait)
        async for msg in client.messages:
            self._deliver(msg)

    def _deliver(self, msg: aiomqtt.Message) -> None:
        self.stats.received += 1
        try:
            topic = msg.topic.value
            routed = self._routes.get(topic)
            if routed is not None:
                routed(msg)
            elif topic in self._held_topics:
                self._held.append(msg)  # its handler is not there yet (route())
                del self._held[:-100]
            elif self._on_message is not None:
                self._on_message(msg)
        except Exception:  # a bad handler must not take the connection down
            log.exception("MQTT %s: handler failed on %s", self.identifier, msg.topic)
        if self.manual_ack and self._paho is not None:
            if id(msg) in self._later:
                self._later.discard(id(msg))
            else:
                self._paho.ack(msg.mid, msg.qos)

    async def _sender(self, client: aiomqtt.Client) -> None:
        while True:
            while not self._outbox:
                self._outbox_ready.clear()
                await self._outbox_ready.wait()
            item = self._outbox[0]
            await client.publish(
                item.topic,
                item.payload,
                qos=item.qos,
                retain=item.retain,
                properties=item.properties,
                timeout=self._publish_timeout_s,
            )
            if self._outbox and self._outbox[0] is item:
                self._outbox.popleft()
            self.stats.published += 1
            if not item.done.done():
                item.done.set_result(True)


def table_connection(
    broker: BrokerSettings,
    table: TableTopics | None = None,
    *,
    identifier: str | None = None,
    session_expiry_s: int = 7200,
) -> MqttSession:
    """A table process's one broker connection, made by what brings the table up and
    handed to its clock link (``clock/events``, ``clock/status``) and its publisher
    (``director/commands``), each taking its topics with :meth:`MqttSession.route`.

    Messages are acknowledged after their handler (a press only once it is on disk:
    :meth:`MqttSession.ack_later`); director commands that come before the publisher
    routes them are held for it; the will says the table is ``offline``. The broker
    keeps the session ``session_expiry_s`` (the clock's presses queue meanwhile).

    Raises:
        ValueError: No table given, and none in the broker URL's path.
    """
    table = table or broker.table
    if table is None:
        raise ValueError("a table's connection needs a table: a URL path /<venue>/<table>")
    return MqttSession(
        broker,
        identifier=identifier or client_id("service", table.venue, table.table),
        subscriptions=(table.clock_events, table.clock_status, table.director_commands),
        session_expiry_s=session_expiry_s,
        manual_ack=True,
        held_topics=(table.director_commands,),
        will=aiomqtt.Will(table.status, b"offline", qos=1, retain=True),
    )
