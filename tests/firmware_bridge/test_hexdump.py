"""The clock link's hexdump: the format read back as written (:mod:`firmware_bridge.wire.hexdump`,
pure), the file a link appends to, and the command that decodes one
(:mod:`firmware_bridge.host.hexdump_file`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.host.hexdump_file import HexDump, main
from firmware_bridge.wire.framing import encode_frame
from firmware_bridge.wire.hexdump import DumpLine, decode_dump, parse_dump
from firmware_bridge.wire.protocol import Press, encode


def test_a_line_reads_back_as_written() -> None:
    lines = [
        DumpLine(123456789, "2026-11-21T14:03:07.123456Z", "RX", bytes([3, 1, 2, 0, 7])),
        DumpLine(123456790, "2026-11-21T14:03:07.124001Z", "TX", bytes(range(12))),
        DumpLine(123457000, "2026-11-21T14:03:07.333170Z", "--", b"", "open socket://h:1"),
    ]
    texts = [line.text() for line in lines]
    assert texts[0] == "t=123456789 2026-11-21T14:03:07.123456Z RX 5  | 03 01 02 00 07"
    assert texts[2] == "t=123457000 2026-11-21T14:03:07.333170Z -- open socket://h:1"
    assert list(parse_dump([*texts, "not a dump line"])) == lines


def test_the_file_decodes_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = encode_frame(encode(Press(7, 0, 1000)))
    path = tmp_path / "link.hex"
    dump = HexDump(path, now_ms=lambda: 42)
    dump.note("open fd 3")
    dump.tx(frame[:4])  # a frame split across writes is reassembled
    dump.tx(frame[4:])
    dump.close()
    dump.tx(b"after close")  # ignored
    written = path.read_text(encoding="utf-8").splitlines()
    assert len(written) == 3
    assert [line.direction for line in parse_dump(written)] == ["--", "TX", "TX"]

    assert main([str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" ", 2)[2] for line in out] == [
        "-- open fd 3",
        "TX Press(seq=7, side=0, device_ms=1000, remaining_ms=None)",
    ]
    assert out == list(decode_dump(io.StringIO("\n".join(written))))
