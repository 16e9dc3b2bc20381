"""The benchmarks' own broker: a private Mosquitto on a free loopback port.

The MQTT latency benchmark and the venue benchmark both start one, with the same
settings (no persistence, no logging, Nagle off, a deep queue), so their figures
are for the same broker.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from firmware_bridge.mqtt.connection import BrokerSettings
from firmware_bridge.mqtt.topics import TableTopics

__all__ = ["mosquitto"]

WAIT_S = 5.0
"""How long the broker has to start listening."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def mosquitto(workdir: Path, table: TableTopics | None = None) -> Iterator[BrokerSettings]:
    """A private Mosquitto on a free loopback port, stopped on exit; its settings name
    ``table`` if given.

    Raises:
        RuntimeError: No mosquitto binary, or it did not start.
    """
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin"
    exe = os.environ.get("MOSQUITTO") or shutil.which("mosquitto", path=path)
    if not exe:
        raise RuntimeError("mosquitto is not installed: apt-get install -y mosquitto")
    for _ in range(3):  # a free port can be taken before mosquitto binds it: try another
        port = _free_port()
        conf = workdir / "mosquitto.conf"
        conf.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            "log_dest none\nmax_queued_messages 10000\nset_tcp_nodelay true\n"
            + ("user root\n" if os.geteuid() == 0 else "")
        )
        proc = subprocess.Popen([exe, "-c", str(conf)], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + WAIT_S
        up = False
        while time.monotonic() < deadline and proc.poll() is None:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    up = True
                    break
            time.sleep(0.01)
        if not up:
            proc.kill()
            proc.wait()
            continue
        try:
            yield BrokerSettings("127.0.0.1", port, table=table)
        finally:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return
    raise RuntimeError("mosquitto did not start")
