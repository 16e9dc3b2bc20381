"""Shared fixtures: a real Mosquitto broker per test.

``mosquitto`` starts one on a free loopback port and returns a :class:`Broker`
(host, port, ``url()``, ``stop()``, ``restart()`` on the same port with its
persistence kept, so persistent sessions survive). ``mosquitto_factory`` starts
more, or one with a password file, an ACL or extra configuration lines.

A missing mosquitto skips these tests, unless ``REQUIRE_SYSTEM_DEPS=1`` (CI,
``make test``), where it fails them: scripts/system-deps installs it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["Broker", "BrokerFactory", "find_mosquitto", "free_port", "wait_port"]

START_TIMEOUT_S = 5.0
"""A broker that does not listen within this is a failure, not a wait."""


def find_mosquitto() -> str | None:
    """The mosquitto binary ($MOSQUITTO, PATH, or /usr/sbin, where Debian puts it)."""
    env = os.environ.get("MOSQUITTO")
    if env:
        return env if os.access(env, os.X_OK) else None
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin" + os.pathsep + "/usr/local/sbin"
    return shutil.which("mosquitto", path=path)


def free_port() -> int:
    """A TCP port nobody listens on right now (the broker may still lose a race for it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait_port(port: int, timeout: float = START_TIMEOUT_S) -> bool:
    """Whether something listens on 127.0.0.1:``port`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not _listening(port):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@dataclass
class Broker:
    """A mosquitto process on 127.0.0.1:``port``; ``restart()`` keeps the port and the data."""

    exe: str
    conf: Path
    port: int
    log_path: Path
    host: str = "127.0.0.1"
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def url(self, path: str = "", *, user: str | None = None, password: str | None = None) -> str:
        """``mqtt://[user:password@]host:port[path]``."""
        auth = ""
        if user is not None:
            auth = user + (f":{password}" if password is not None else "") + "@"
        return f"mqtt://{auth}{self.host}:{self.port}{path}"

    def start(self) -> None:
        """Start the process and wait until it listens.

        Raises:
            RuntimeError: It died or did not listen in time (its log is in the message).
        """
        assert self.proc is None, "already running"
        out = self.log_path.open("ab")
        try:
            self.proc = subprocess.Popen(
                [self.exe, "-c", str(self.conf)], stdout=out, stderr=subprocess.STDOUT
            )
        finally:
            out.close()
        self.starts += 1
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if _listening(self.port):
                return
            time.sleep(0.01)
        self.kill()
        raise RuntimeError(f"mosquitto did not start on port {self.port}:\n{self.log()}")

    def stop(self) -> None:
        """Stop cleanly (SIGTERM: persistence is written); kill after 5 s."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """Kill at once (SIGKILL): nothing is saved."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        """Stop cleanly and start again on the same port, with the same persistence."""
        self.stop()
        self.start()

    def log(self) -> str:
        """What the broker logged so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


BrokerFactory = Callable[..., Broker]


def _require() -> str:
    exe = find_mosquitto()
    if exe is None:
        hint = "mosquitto is not installed: apt-get install -y mosquitto (or ./scripts/system-deps)"
        if os.environ.get("REQUIRE_SYSTEM_DEPS") == "1":
            pytest.fail(hint)
        pytest.skip(hint)
    return exe


@pytest.fixture
def mosquitto_factory(tmp_path: Path) -> Iterator[BrokerFactory]:
    """Start brokers: ``factory(password_file=, acl_file=, extra="", persistence=True)``.

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
    ) -> Broker:
        home = tmp_path / f"mosquitto-{len(brokers)}"
        (home / "data").mkdir(parents=True)
        last: Exception | None = None
        for _ in range(3):  # a free port can be taken before mosquitto binds it
            port = free_port()
            lines = [
                f"listener {port} 127.0.0.1",
                "allow_anonymous " + ("false" if password_file else "true"),
                f"persistence {'true' if persistence else 'false'}",
                f"persistence_location {home / 'data'}/",
                "log_dest stderr",
                "log_type error",
                "log_type warning",
                "log_type notice",
                "log_type information",
                "max_queued_messages 10000",
                "set_tcp_nodelay true",
            ]
            if password_file is not None:
                lines.append(f"password_file {password_file}")
            if acl_file is not None:
                lines.append(f"acl_file {acl_file}")
            if os.geteuid() == 0:
                lines.append("user root")  # else 2.x drops to 'mosquitto' and cannot write here
            conf = home / "mosquitto.conf"
            conf.write_text("\n".join(lines) + "\n" + extra)
            broker = Broker(exe, conf, port, home / "mosquitto.log")
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
