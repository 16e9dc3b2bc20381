"""The venue hub (``rackclock venue``): the archive of every table
(:class:`~firmware_bridge.venue.archive.Archive`) and, when asked, the venue page
for browsers (:class:`~firmware_bridge.venue.page.server.VenuePage`), run together
on one broker until SIGTERM or until cancelled (ctrl+c).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

__all__ = ["run_hub"]


async def run_hub(
    url: str,
    root: Path,
    page: tuple[str, int, str] | None = None,
    event: Path | None = None,
    *,
    page_url: str | None = None,
) -> None:
    """Archive every table on the broker at ``url`` under ``root``, and with ``page``
    (the venue, the port, the address to listen on) serve the venue page, with the
    standings of the event's ledger ``event`` when given, until SIGTERM or cancelled.
    The page connects with ``page_url`` (a viewer's login: it only reads), else ``url``."""
    from firmware_bridge.venue.archive import Archive

    archive = Archive(url, root)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    tasks = [asyncio.create_task(archive.run(), name="venue.archive")]
    server = None
    if page is not None:
        from firmware_bridge.mqtt.connection import parse_url
        from firmware_bridge.venue.page.server import VenuePage

        venue, port, host = page
        server = VenuePage(parse_url(page_url or url), venue, host=host, port=port, event=event)
        served = asyncio.create_task(server.run(), name="venue.page")
    try:
        await stop.wait()
    finally:
        if server is not None:
            # the web server stops by itself (browsers' streams closed), not by cancelling
            server.server.should_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(served, 10)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
