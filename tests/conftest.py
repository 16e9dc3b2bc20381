"""Shared fixtures: a real Mosquitto broker per test.

``mosquitto`` starts one on a free loopback port and returns a :class:`Broker`
(host, port, ``url()``, ``stop()``, ``restart()`` on the same port with its
persistence kept, so persistent sessions survive). ``mosquitto_factory`` starts
more, or one with a password file, an ACL or extra configuration lines.
The process and its configuration are the product's own managed broker
(:mod:`firmware_bridge.venue.broker`, what ``rackclock venue`` runs).

A missing mosquitto skips these tests, unless ``REQUIRE_SYSTEM_DEPS=1`` (CI,
``make test``), where it fails them: scripts/system-deps installs it. So does a
missing client-id plugin for a broker that loads it (``ids_owned=True``): ``make
setup`` builds it with what scripts/system-deps installs.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.venue.broker import (
    PLUGIN_ENV,
    PLUGIN_HINT,
    BrokerConfig,
    find_id_plugin,
    find_mosquitto,
    free_port,
)
from tests.helpers import Broker, BrokerFactory, missing_part


def _require() -> str:
    exe = find_mosquitto()
    if exe is None:
        missing_part(
            "mosquitto is not installed: apt-get install -y mosquitto (or ./scripts/system-deps)"
        )
    return exe


def _require_plugin() -> Path:
    plugin = find_id_plugin()
    if plugin is None:
        missing_part(f"{PLUGIN_HINT}; or set {PLUGIN_ENV}")
    return plugin


@pytest.fixture
def mosquitto_factory(tmp_path: Path) -> Iterator[BrokerFactory]:
    """Start brokers: ``factory(password_file=, acl_file=, extra="", persistence=True,
    message_size_limit=None, ids_owned=False)`` (None: the venue's own limit; 0: none;
    ``ids_owned``: load the client-id plugin, as ``rackclock venue`` does with its logins).

    Each gets its own directory under ``tmp_path``; all are stopped at the end.
    """
    exe = _require()
    brokers: list[Broker] = []

    def start(
        *,
        password_file: Path | None = None,
        acl_file: Path | None = None,
        extra: str = "",
        persistence: bool = True,
        message_size_limit: int | None = None,
        ids_owned: bool = False,
    ) -> Broker:
        home = tmp_path / f"mosquitto-{len(brokers)}"
        id_plugin = _require_plugin() if ids_owned else None
        last: Exception | None = None
        for _ in range(3):  # a free port can be taken before mosquitto binds it
            cfg = BrokerConfig(
                home / "data",
                port=free_port(),
                bind="127.0.0.1",
                persistence=persistence,
                password_file=password_file,
                acl_file=acl_file,
                id_plugin=id_plugin,
                extra=extra,
                **(
                    {} if message_size_limit is None else {"message_size_limit": message_size_limit}
                ),
            )
            broker = Broker.configure(cfg, home, exe=exe)
            try:
                broker.start()
            except RuntimeError as exc:
                last = exc
                continue
            brokers.append(broker)
            return broker
        raise RuntimeError(f"could not start mosquitto: {last}")

    yield start
    for b in brokers:
        b.stop()


@pytest.fixture
def mosquitto(mosquitto_factory: BrokerFactory) -> Broker:
    """A fresh anonymous broker on a free loopback port, persistence on."""
    return mosquitto_factory()


def pytest_configure(config: pytest.Config) -> None:
    """Tests press ctrl+c on the programs they start (SIGINT), which must then start with
    SIGINT's default action, as from a terminal. A suite started in the background by a
    shell without job control (``make test &`` in a script, some CI runners) has SIGINT
    ignored, and an ignored signal stays ignored in every program it starts: Python
    then installs no KeyboardInterrupt, and those programs never stopped."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start the longest test first (the 200 kill -9 rounds of the clock, about 90 s):
    ``make test`` runs the suite on two workers, and a long test that started last
    would run alone at the end instead of beside the rest."""
    first = [i for i in items if "test_kill9_clock" in i.nodeid]
    items[:] = first + [i for i in items if i not in first]
