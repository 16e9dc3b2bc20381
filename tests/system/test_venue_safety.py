"""A venue safe by default (issue 22, part 2), on the real parts: the venue page over
real HTTP answers only GET and HEAD and sends its Content-Security-Policy; the broker
``rackclock venue`` generates refuses strangers, confines each login to its role, and
drops a message over its size limit."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import time
from collections.abc import AsyncIterator
from pathlib import Path

from firmware_bridge.mqtt.connection import parse_url
from firmware_bridge.venue.broker import free_port
from firmware_bridge.venue.page.server import CONTENT_SECURITY_POLICY, VenuePage
from tests.helpers import Broker


@contextlib.asynccontextmanager
async def page_server(broker: Broker) -> AsyncIterator[int]:
    """The venue page on a free port; the port."""
    port = free_port()
    page = VenuePage(parse_url(broker.url()), "club", host="127.0.0.1", port=port)
    task = asyncio.create_task(page.run())
    try:
        deadline = time.monotonic() + 10
        while not page.server.started:
            assert time.monotonic() < deadline, "the page server did not start"
            await asyncio.sleep(0.02)
        yield port
    finally:
        page.server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


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
    async with page_server(mosquitto) as port:
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
