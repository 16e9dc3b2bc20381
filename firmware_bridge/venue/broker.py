"""A managed Mosquitto: the venue's embedded broker, and the test suite's.

``rackclock venue`` runs one for a room of tables; ``tests/conftest.py`` runs
one per test. Both go through :class:`Mosquitto`: a configuration written from
:class:`BrokerConfig` (:func:`config_text`), a process started in its own
session (so the ctrl+c meant for ``rackclock venue`` does not reach it first
and it can be stopped cleanly, with its persistence written), and a bounded
wait until it listens.

Mosquitto 2 started as root drops its privileges to the ``mosquitto`` user and
then cannot write a persistence directory it does not own: as root the
configuration says ``user root``.

With the logins ``rackclock venue`` made, a client id belongs to its login: the
broker loads rackclock's plugin (:attr:`BrokerConfig.id_plugin`:
``broker_plugin/id_owner.c``, built by ``make setup`` into the environment's
``lib/rackclock/``), which refuses a client whose id does not begin with
``<login>-`` (docs/mqtt.md, "Security"). Without the plugin the venue starts all
the same, on its logins and its ACL, and says that ids are not tied to logins
(:data:`PLUGIN_HINT`): a club laptop with only ``apt-get install mosquitto`` still
runs a venue.

>>> cfg = BrokerConfig(port=1884, bind="127.0.0.1", data_dir=Path("/var/lib/rc"))
>>> print(config_text(cfg, euid=1000).splitlines()[0])
listener 1884 127.0.0.1
>>> "user root" in config_text(cfg, euid=0)
True
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.mqtt.topics import MAX_MESSAGE_BYTES

__all__ = [
    "INSTALL_HINT",
    "PLUGIN_ENV",
    "PLUGIN_HINT",
    "START_TIMEOUT_S",
    "BrokerConfig",
    "Mosquitto",
    "MosquittoError",
    "config_text",
    "find_id_plugin",
    "find_mosquitto",
    "free_port",
    "lan_address",
    "listening",
    "wait_port",
]

START_TIMEOUT_S = 5.0
"""A broker that does not listen within this is a failure, not a wait."""
INSTALL_HINT = "mosquitto is not installed: apt-get install mosquitto"
"""What to tell someone without the broker."""
PLUGIN_ENV = "RACKCLOCK_ID_PLUGIN"
"""Names the client-id plugin (``id_owner.so``) when it is not where ``make setup`` puts it."""
PLUGIN_HINT = (
    "client ids are not tied to logins: id_owner.so is not built "
    "(sudo apt-get install gcc mosquitto-dev libmosquitto-dev, then make setup)"
)
"""What a venue with logins whose plugin is missing says in its start line."""


class MosquittoError(RuntimeError):
    """Mosquitto is missing, or did not start (its log is in the message)."""


def find_mosquitto() -> str | None:
    """The mosquitto binary: ``$MOSQUITTO``, ``PATH``, or /usr/sbin (where Debian puts it)."""
    env = os.environ.get("MOSQUITTO")
    if env:
        return env if os.access(env, os.X_OK) else None
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin" + os.pathsep + "/usr/local/sbin"
    return shutil.which("mosquitto", path=path)


def find_id_plugin() -> Path | None:
    """The client-id plugin: ``$RACKCLOCK_ID_PLUGIN``, or ``lib/rackclock/id_owner.so``
    in this Python environment (where ``make setup`` builds it); an absolute path
    (mosquitto.conf is read from elsewhere), or None when it is not there."""
    env = os.environ.get(PLUGIN_ENV)
    path = Path(env) if env else Path(sys.prefix) / "lib" / "rackclock" / "id_owner.so"
    return path.resolve() if path.is_file() else None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (a broker may still lose a race for it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def lan_address() -> str:
    """This machine's address on the network it would reach others through: the
    host the venue's tables and directors are told to connect to (its name when
    there is no route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: picks the route, sends nothing
            addr: str = s.getsockname()[0]
            return addr
        except OSError:
            return socket.gethostname()


def listening(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex((host, port)) == 0


def wait_port(port: int, timeout: float = START_TIMEOUT_S, host: str = "127.0.0.1") -> bool:
    """Whether something listens on ``host:port`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not listening(port, host):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@dataclass(frozen=True, slots=True)
class BrokerConfig:
    """What the generated ``mosquitto.conf`` says."""

    data_dir: Path
    """Persistence goes to ``<data_dir>/`` (mosquitto.db)."""
    port: int = 1883
    """The plain MQTT listener's port."""
    bind: str = "0.0.0.0"
    """The address it listens on: every interface (a venue LAN) or ``127.0.0.1``."""
    persistence: bool = True
    """Keep sessions and queued QoS 1 messages across a restart."""
    password_file: Path | None = None
    """A mosquitto_passwd file: logins only (deploy/mosquitto/passwd.example)."""
    acl_file: Path | None = None
    """An ACL (deploy/mosquitto/make_acl.py)."""
    max_queued_messages: int = 10000
    """Per persistent session."""
    message_size_limit: int = MAX_MESSAGE_BYTES
    """The largest payload the broker takes: a bigger message is dropped at the door,
    not forwarded to every subscriber (the consumers refuse it too)."""
    id_plugin: Path | None = None
    """The client-id plugin (:func:`find_id_plugin`), loaded so that the broker refuses
    a client whose id does not begin with its login and ``-``: ``rackclock venue``
    sets it with the logins it made, whose clients are rackclock's; never with a
    password file of one's own, whose clients may not follow the rule (docs/mqtt.md,
    "Security"). None: ids as the clients give them."""
    extra: str = ""
    """More configuration lines, appended as they are."""


def config_text(cfg: BrokerConfig, *, euid: int | None = None) -> str:
    """The configuration file for ``cfg`` (``euid``: the user it will run as, default
    ours)."""
    lines = [
        f"listener {cfg.port} {cfg.bind}",
        "allow_anonymous " + ("false" if cfg.password_file else "true"),
        f"persistence {'true' if cfg.persistence else 'false'}",
        f"persistence_location {cfg.data_dir}/",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        f"max_queued_messages {cfg.max_queued_messages}",
        f"message_size_limit {cfg.message_size_limit}",
        "set_tcp_nodelay true",
    ]
    if cfg.password_file is not None:
        lines.append(f"password_file {cfg.password_file}")
    if cfg.acl_file is not None:
        lines.append(f"acl_file {cfg.acl_file}")
    if cfg.id_plugin is not None:
        # its check runs before the password file's (it is registered first)
        lines.append(f"plugin {cfg.id_plugin}")
    if (os.geteuid() if euid is None else euid) == 0:
        lines.append("user root")  # else 2.x drops to 'mosquitto' and cannot write data_dir
    return "\n".join(lines) + "\n" + cfg.extra


@dataclass
class Mosquitto:
    """A mosquitto process on ``host:port``; ``restart()`` keeps the port and the data."""

    exe: str
    """The binary."""
    conf: Path
    """Its configuration file."""
    port: int
    """The port it listens on (as the configuration says)."""
    log_path: Path
    """Where its output goes."""
    host: str = "127.0.0.1"
    """Where clients on this machine reach it."""
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    """The running process."""
    starts: int = 0
    """How many times it was started."""

    @classmethod
    def configure(cls, cfg: BrokerConfig, home: Path, *, exe: str | None = None) -> Mosquitto:
        """Write ``home/mosquitto.conf`` for ``cfg`` (creating ``cfg.data_dir``); not started.

        Raises:
            MosquittoError: No mosquitto binary (:data:`INSTALL_HINT`).
        """
        exe = exe or find_mosquitto()
        if exe is None:
            raise MosquittoError(INSTALL_HINT)
        text = config_text(cfg)
        home.mkdir(parents=True, exist_ok=True)
        cfg.data_dir.mkdir(parents=True, exist_ok=True)
        conf = home / "mosquitto.conf"
        conf.write_text(text)
        host = "127.0.0.1" if cfg.bind in ("0.0.0.0", "127.0.0.1") else cfg.bind
        return cls(exe, conf, cfg.port, home / "mosquitto.log", host)

    def url(self, path: str = "", *, user: str | None = None, password: str | None = None) -> str:
        """``mqtt://[user[:password]@]host:port[path]``."""
        auth = ""
        if user is not None:
            auth = user + (f":{password}" if password is not None else "") + "@"
        return f"mqtt://{auth}{self.host}:{self.port}{path}"

    @property
    def pid_path(self) -> Path:
        """Holds the process id while it runs (beside the configuration)."""
        return self.conf.with_suffix(".pid")

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = START_TIMEOUT_S) -> None:
        """Start the process and wait until it listens.

        Raises:
            MosquittoError: It died or did not listen in time (its log is in the message).
        """
        assert self.proc is None, "already running"
        out = self.log_path.open("ab")
        logged = out.tell()  # this start's lines begin here (the log is appended to)
        try:
            # its own session: a ctrl+c at the terminal goes to us, and we stop it cleanly
            self.proc = subprocess.Popen(
                [self.exe, "-c", str(self.conf)],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            out.close()
        self.starts += 1
        self.pid_path.write_text(f"{self.proc.pid}\n")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            # someone else may listen on the port (a broker that lost the race for it
            # is still starting, then exits): ours says "running" once it has bound
            if self._says_running(logged) and listening(self.port, self.host):
                return
            time.sleep(0.01)
        self.kill()
        raise MosquittoError(f"mosquitto did not start on port {self.port}:\n{self.log()}")

    def _says_running(self, offset: int) -> bool:
        """Whether the log, after ``offset``, has mosquitto's line for a start that bound
        every listener ("mosquitto version 2.0.11 running")."""
        try:
            with self.log_path.open("rb") as f:
                f.seek(offset)
                return b" running" in f.read()
        except OSError:
            return False

    def stop(self, timeout: float = 5.0) -> int | None:
        """Stop cleanly (SIGTERM: persistence is written), kill after ``timeout``;
        returns the exit status (None if it was not running)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        status = self.proc.returncode
        self.proc = None
        self.pid_path.unlink(missing_ok=True)
        return status

    def kill(self) -> None:
        """Kill at once (SIGKILL): nothing is saved."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc = None
        self.pid_path.unlink(missing_ok=True)

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
