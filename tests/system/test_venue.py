"""``rackclock venue`` for real: a managed mosquitto, a table that connects, the archive.

The hub runs as a subprocess with its data folder in ``tmp_path`` and a free
port; a ``rackclock serve --clock mqtt://...`` subprocess is the table. The hub
must archive the table's state and, once the game is over, its log; ctrl+c
(SIGINT) stops the table and the hub, and the hub stops mosquitto cleanly.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.rules.replay import parse_jsonl, replay
from firmware_bridge.venue.broker import (
    PLUGIN_ENV,
    PLUGIN_HINT,
    BrokerConfig,
    config_text,
    find_id_plugin,
    find_mosquitto,
    listening,
)
from firmware_bridge.venue.logins import VenueLogins
from tests.helpers import REPO, free_port, missing_part, wait_for

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")
WAIT_S = 15.0


class Lines:
    """A subprocess's standard output, read line by line in the background."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        self.lines: list[str] = []
        self._task = asyncio.create_task(self._read(proc.stdout))

    async def _read(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self.lines.append(line.decode().rstrip("\n"))

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def close(self) -> None:
        await asyncio.wait_for(self._task, WAIT_S)


async def stop(proc: asyncio.subprocess.Process) -> int:
    """ctrl+c, then the exit status (killed after a while: a failure)."""
    proc.send_signal(signal.SIGINT)
    try:
        return await asyncio.wait_for(proc.wait(), WAIT_S)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        pytest.fail("the process did not stop on SIGINT")


def test_doctests() -> None:
    import doctest

    from firmware_bridge.venue import broker

    assert doctest.testmod(broker).failed == 0


def test_config_of_the_managed_broker(tmp_path: Path) -> None:
    cfg = BrokerConfig(tmp_path / "data", port=1999, acl_file=tmp_path / "acl")
    text = config_text(cfg, euid=1000)
    assert text.splitlines()[:2] == ["listener 1999 0.0.0.0", "allow_anonymous true"]
    assert f"persistence_location {tmp_path / 'data'}/" in text
    assert "set_tcp_nodelay true" in text
    assert f"acl_file {tmp_path / 'acl'}" in text
    assert "user root" not in text
    assert "user root" in config_text(cfg, euid=0)
    logins = config_text(BrokerConfig(tmp_path, password_file=tmp_path / "pw"), euid=1000)
    assert "allow_anonymous false" in logins
    assert "plugin " not in logins  # a password file of one's own: its clients' ids as they are


def test_the_client_id_plugin_is_loaded_when_the_config_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    venue = VenueLogins.ensure(tmp_path / "logins", 2)
    cfg = BrokerConfig(tmp_path, password_file=venue.password_file, acl_file=venue.acl_file)
    assert "plugin " not in config_text(cfg, euid=1000)  # only when asked: no guessing
    plugin = tmp_path / "id_owner.so"
    with_plugin = replace(cfg, id_plugin=plugin)
    assert f"plugin {plugin}" in config_text(with_plugin, euid=1000).splitlines()
    # a relative $RACKCLOCK_ID_PLUGIN is made absolute: mosquitto reads its conf elsewhere
    plugin.write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(PLUGIN_ENV, "id_owner.so")
    assert find_id_plugin() == plugin.resolve()
    monkeypatch.delenv(PLUGIN_ENV)
    if find_id_plugin() is None:
        missing_part(f"{PLUGIN_HINT}; or set {PLUGIN_ENV}")
    assert find_id_plugin() == Path(sys.prefix, "lib", "rackclock", "id_owner.so")  # make setup


async def start_line(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """The first line a managed venue prints (it is then stopped with ctrl+c)."""
    if find_mosquitto() is None:
        missing_part("mosquitto is not installed: apt-get install mosquitto")
    proc = await asyncio.create_subprocess_exec(
        RACKCLOCK, "venue", "--data", str(tmp_path / "data"), "--local", "--port",
        str(free_port()), *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        return (await asyncio.wait_for(proc.stdout.readline(), WAIT_S)).decode()
    finally:
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.communicate(), WAIT_S)


async def test_without_the_plugin_the_venue_starts_and_says_so(tmp_path: Path) -> None:
    env = {**os.environ, PLUGIN_ENV: str(tmp_path / "no-such-plugin.so")}
    first = await start_line(tmp_path, env=env)
    assert "mosquitto listening on 127.0.0.1:" in first
    assert f"logins only, kept in {tmp_path / 'data' / 'logins'}; {PLUGIN_HINT};" in first
    assert "plugin " not in (tmp_path / "data" / "mosquitto.conf").read_text()


async def test_a_password_file_of_ones_own_says_ids_are_not_tied(tmp_path: Path) -> None:
    # named passwd beside a logins.json, as a venue's are: still one's own, no plugin
    own = VenueLogins.ensure(tmp_path / "own", 1)
    first = await start_line(tmp_path, "--password-file", str(own.password_file))
    assert "logins only, from your password file; client ids are not tied to logins" in first
    assert "plugin " not in (tmp_path / "data" / "mosquitto.conf").read_text()


def test_make_setup_goes_on_when_the_plugin_does_not_compile(tmp_path: Path) -> None:
    """``make run`` on a machine whose compiler refuses the plugin: one line, and on;
    under ``REQUIRE_SYSTEM_DEPS=1`` (CI) a failure with the compiler's words."""
    make = shutil.which("make")
    if make is None:
        missing_part("make is not installed: apt-get install -y make")
    bad = tmp_path / "bad.c"
    bad.write_text("int x = ;\n")
    out = tmp_path / "lib" / "id_owner.so"
    cmd = [make, "-s", "-C", str(REPO), "-o", ".venv/.synced", f"ID_PLUGIN={out}",
           f"ID_PLUGIN_SRC={bad}", str(out)]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "REQUIRE_SYSTEM_DEPS"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("setup: the venue broker's client-id plugin did not compile")
    assert len(done.stderr.splitlines()) == 1
    assert not out.exists()
    env["REQUIRE_SYSTEM_DEPS"] = "1"
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    assert done.returncode != 0
    assert "error" in done.stderr


async def test_without_mosquitto_it_says_how_to_install_it(tmp_path: Path) -> None:
    env = {**os.environ, "MOSQUITTO": str(tmp_path / "no-such-mosquitto")}
    proc = await asyncio.create_subprocess_exec(
        RACKCLOCK, "venue", "--data", str(tmp_path / "data"), "--local",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), WAIT_S)
    assert proc.returncode == 1
    assert "apt-get install mosquitto" in err.decode()
    assert not (tmp_path / "data" / "logins").exists()  # the next start shows the passwords


async def test_a_port_in_use_is_refused_before_any_login_is_made(tmp_path: Path) -> None:
    if find_mosquitto() is None:
        missing_part("mosquitto is not installed: apt-get install mosquitto")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = await asyncio.create_subprocess_exec(
            RACKCLOCK, "venue", "--data", str(tmp_path / "data"), "--local", "--port",
            str(port), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), WAIT_S)
    assert proc.returncode == 1
    assert err.decode() == (
        f"rackclock venue: port {port} on 127.0.0.1 is in use (another broker?): "
        "stop it or choose another --port\n"
    )
    assert b"mosquitto listening" not in out
    assert not (tmp_path / "data" / "logins").exists()


async def test_venue_runs_the_broker_and_archives_a_table(tmp_path: Path) -> None:
    if find_mosquitto() is None:
        missing_part("mosquitto is not installed: apt-get install mosquitto")
    port, page = free_port(), free_port()
    data = tmp_path / "data"
    hub = await asyncio.create_subprocess_exec(
        RACKCLOCK, "venue", "--port", str(port), "--data", str(data), "--local",
        "--venue", "club", "--page", str(page),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    hub_out = Lines(hub)
    table: asyncio.subprocess.Process | None = None
    clock: asyncio.subprocess.Process | None = None
    try:
        await wait_for(lambda: hub_out.has("Stop with ctrl+c"), "the connection lines")
        # safe by default: a login per table and per role, printed once with its password
        assert hub_out.has(f"mosquitto listening on 127.0.0.1:{port} (this machine only)")
        logins = json.loads((data / "logins" / "logins.json").read_text())["passwords"]
        base = f"mqtt://127.0.0.1:{port}"
        t1_url = f"mqtt://t1:{logins['t1']}@127.0.0.1:{port}/club/t1"
        assert hub_out.has(f"  t1: {t1_url}")
        assert hub_out.has(f"  t20: mqtt://t20:{logins['t20']}@127.0.0.1:{port}/club/t20")
        director = f"mqtt://director:{logins['director']}@127.0.0.1:{port}"
        assert hub_out.has(f"rackclock director --broker {director}")
        assert hub_out.has("rackclock emulate-clock --mqtt URL")
        assert hub_out.has("rackclock serve --variant nzasp --log TABLE.sqlite --clock URL")
        assert not hub_out.has(f"{base}/club/<table>")  # no URL without a login
        assert listening(port)
        table = await asyncio.create_subprocess_exec(
            RACKCLOCK, "serve", "--variant", "nzasp", "--players", "Ann Lee,Ben Ray",
            "--log", str(tmp_path / "t1.sqlite"), "--clock", t1_url,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        table_out = Lines(table)
        # the table's clock, on the same printed URL (the table's login)
        clock = await asyncio.create_subprocess_exec(
            RACKCLOCK, "emulate-clock", "--mqtt", t1_url,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        await wait_for(lambda: table_out.has('"online": true'), "the clock online at the table")
        state_file = data / "archive" / "club" / "t1.json"

        def archived_game() -> bool:
            # the table may publish its state before its game starts (no players yet)
            with contextlib.suppress(OSError, ValueError):
                return bool(json.loads(state_file.read_text())["state"]["players"][0])
            return False

        await wait_for(archived_game, "the archived state of the game")
        doc = json.loads(state_file.read_text())
        assert doc["state"]["players"] == ["Ann Lee", "Ben Ray"]
        assert doc["state"]["phase"] == "playing"
        await wait_for(lambda: hub_out.has("table club/t1: online"), "the table online")
        # the venue screen (--page) knows the table too
        assert hub_out.has(f"Venue screen: http://127.0.0.1:{page}/ (venue club)")
        venue = await asyncio.to_thread(_get_json, f"http://127.0.0.1:{page}/venue")
        assert [t["table"] for t in venue["tables"]] == ["t1"]
        # the page reads with the viewer's login, the archive with the hub's
        connected = [ln for ln in (data / "mosquitto.log").read_text().splitlines()
                     if "New client connected" in ln]  # fmt: skip
        assert any("rackclock-viewer-club-page" in ln and "u'viewer'" in ln for ln in connected)
        assert any("u'hub'" in ln for ln in connected)
        assert not any("u'director'" in ln for ln in connected)
        assert venue["tables"][0]["players"] == ["Ann Lee", "Ben Ray"]
        # the game ends: the hub fetches the log
        assert table.stdin is not None
        table.stdin.write(b'{"type":"resigned","player":1}\n')
        await table.stdin.drain()
        log_file = data / "archive" / "club" / "t1.jsonl"
        await wait_for(log_file.exists, "the archived log")
        events, bad = parse_jsonl(log_file.read_text())
        assert not bad
        assert [type(ev).__name__ for _, ev in events] == ["GameStarted", "Resigned"]
        state, _ = replay(events)
        assert state.result is not None
        assert state.result.winner == 0
        # the hub says so once the file is in place: wait for its line
        await wait_for(lambda: hub_out.has("archived club/t1: 2 events"), "the archive's line")
        assert table_out.has('"type": "Resigned"')
        # ctrl+c: the clock and the table first (its terminal says offline), then the hub
        assert await stop(clock) in (0, 130)
        assert await stop(table) in (0, 130)
        await table_out.close()
        await wait_for(lambda: hub_out.has("table club/t1: offline"), "the table offline")
        assert await stop(hub) == 0
        await hub_out.close()
        assert hub_out.lines[-1] == "mosquitto stopped (exit status 0)"
        assert not listening(port)
        assert (data / "mosquitto" / "mosquitto.db").exists()  # persistence written on stop
        err = await hub.stderr.read() if hub.stderr else b""
        assert b"Traceback" not in err
        assert not (data / "mosquitto.pid").exists()
    finally:
        for proc in (clock, table, hub):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
        pid_file = data / "mosquitto.pid"  # a hub killed above leaves its broker running
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)


def _get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=5) as r:
        doc: dict[str, Any] = json.loads(r.read())
    return doc
