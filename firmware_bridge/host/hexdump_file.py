"""The hexdump file of a clock link: every byte a serial link sends and receives,
appended as it goes, in the format of :mod:`firmware_bridge.wire.hexdump`. The host's
serial clock writes one (``serial:PATH,hexdump=FILE``), and so do the device's serial
runner (``rackclock emulate-clock --hexdump``) and the gateway (``--hexdump``).

Lines are flushed as they are written, so a crash loses nothing already
logged. ``python -m firmware_bridge.host.hexdump_file FILE`` decodes a dump back into
messages (frames split across reads are reassembled per direction).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from firmware_bridge.wire.hexdump import DumpLine, decode_dump

__all__ = ["HexDump", "main"]


def _default_now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class HexDump:
    """Appends a line per chunk of bytes to a file (or any text stream)."""

    def __init__(
        self, target: str | Path | TextIO, now_ms: Callable[[], int] | None = None
    ) -> None:
        if isinstance(target, str | Path):
            self._out: TextIO = Path(target).open("a", encoding="utf-8")  # noqa: SIM115
            self._owned = True
        else:
            self._out = target
            self._owned = False
        self._now_ms = now_ms or _default_now_ms
        self.closed = False
        """True after :meth:`close`."""

    def _line(self, direction: str, data: bytes = b"", note: str = "") -> None:
        if self.closed:
            return
        wall = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
        line = DumpLine(self._now_ms(), wall, direction, data, note)
        try:
            self._out.write(line.text() + "\n")
            self._out.flush()
        except (OSError, ValueError):  # a full disk must not stop the clock
            pass

    def rx(self, data: bytes) -> None:
        """Bytes received."""
        if data:
            self._line("RX", data)

    def tx(self, data: bytes) -> None:
        """Bytes sent."""
        if data:
            self._line("TX", data)

    def note(self, text: str) -> None:
        """A link event: opened, closed, lost."""
        self._line("--", note=text)

    def close(self) -> None:
        """Close the file (idempotent)."""
        if not self.closed:
            self.closed = True
            if self._owned:
                self._out.close()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_bridge.host.hexdump_file FILE``: decode a dump."""
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.host.hexdump_file",
        description="Decode a clock link hexdump.",
    )
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    with args.file.open(encoding="utf-8") as fh:
        for line in decode_dump(fh):
            sys.stdout.write(line + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
