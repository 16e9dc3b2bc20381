"""Who sent a command decides its actor, not what the command says: a line typed at
the table's own command line (``rackclock serve``'s standard input, the table
terminal) that claims ``"actor": "director"`` is the table's. A director's ruling
so claimed is refused by the rules (only the director may make it) and logged
refused with the table's actor; an act the table may make is logged with the
table's actor. The director's own path (the publisher's director commands,
source ``director``) still makes the director the actor."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from clock.table.service import TableService
from clock.timeline import FakeTimeline
from engine.events import Adjusted, Forfeited, GameStarted, Resigned
from tests.support.log_rows import log_rows

RACKCLOCK = str(Path(sys.executable).parent / "rackclock")
START = GameStarted(variant="nzasp", players=("Ann", "Ben"), mode="scoresheet")


async def test_a_table_command_claiming_the_director_is_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    async with TableService(path, timeline=FakeTimeline(), heartbeat_ms=0) as svc:
        assert (await svc.submit(START)).accepted
        for source in ("keyboard", "stdin"):
            ack = await svc.submit(Forfeited(player=0, by="Dee", actor="director"), source)
            assert not ack.accepted, source
            assert ack.event.actor == "player0"  # the player it names, at the table
            assert "director" in (ack.reason or "")
        ack = await svc.submit(Adjusted(by="Dee", player=1, score_delta=50, actor="director"))
        assert not ack.accepted
        assert svc.state.scores == (0, 0)
        # the director's own path: the source makes the director the actor
        ruled = await svc.submit(Adjusted(by="Dee", player=1, score_delta=5), "director")
        assert ruled.accepted
        assert ruled.event.actor == "director"
        ack = await svc.submit(Resigned(player=1, actor="director"), "stdin")
        assert ack.accepted
        assert ack.event.actor == "player1"
    rows = log_rows(path)
    assert [(r.type_name, r.refused, r.body.get("actor")) for r in rows[1:]] == [
        ("Forfeited", True, "player0"),
        ("Forfeited", True, "player0"),
        ("Adjusted", True, "player1"),
        ("Adjusted", False, "director"),
        ("Resigned", False, "player1"),
    ]


async def test_serve_standard_input_cannot_speak_for_the_director(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    proc = await asyncio.create_subprocess_exec(
        RACKCLOCK, "serve", "--variant", "nzasp", "--players", "Ann Lee,Ben Ray",
        "--log", str(path),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    lines = [
        {"type": "forfeited", "player": 0, "by": "Dee", "actor": "director"},
        {"type": "resigned", "player": 1, "actor": "director"},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode()
    _, err = await asyncio.wait_for(proc.communicate(stdin), 30)
    assert proc.returncode == 0, err.decode()
    rows = [r for r in log_rows(path) if r.type_name in ("Forfeited", "Resigned")]
    assert [(r.type_name, r.refused, r.body.get("actor")) for r in rows] == [
        ("Forfeited", True, "player0"),
        ("Resigned", False, "player1"),
    ]
