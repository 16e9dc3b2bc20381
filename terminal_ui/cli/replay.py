"""``rackclock replay FILE [--at MS] [--json]``: the state of a game log at any instant."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clock.log.files import load_log
from engine.clocktext import clock_text
from engine.events import GameStarted
from engine.rules.replay import replay, report
from engine.tournament.scores import result_text

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``replay`` command."""
    cmd = sub.add_parser(
        "replay",
        help="replay a game log (SQLite or JSON Lines) to its end or to an instant",
        description=(
            "Replays a log and prints whose turn it is, the phase, both clocks, scores and "
            "penalties, the board, every ruling with its rule, refused lines, and the result."
        ),
    )
    cmd.add_argument("file", metavar="FILE", help="an event log (.sqlite) or JSON Lines file")
    cmd.add_argument("--at", type=int, metavar="MS", help="instant on the table's timeline")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.add_argument(
        "--force", action="store_true", help="replay a log whose hash chain is broken (warned)"
    )
    cmd.set_defaults(handler=run)


def _human(rep: dict[str, Any]) -> str:
    players = rep["players"]
    at = clock_text(rep["at_ms"], tenths=True)
    out = [f"{rep['variant']}: {players[0]} vs {players[1]}  (at {at})"]
    out.append(f"phase:   {rep['phase_text']}")
    clocks = []
    for name, c in zip(players, rep["clocks"], strict=True):
        run = " running" if c["running"] else ""
        pen = f" penalty {c['penalty']}" if c["penalty"] else ""
        clocks.append(f"{name} {clock_text(c['remaining_ms'], tenths=True)}{run}{pen}")
    if rep["neutralized"]:
        clocks.append(f"neutralized: {rep['neutralized']}")
    out.append("clocks:  " + " | ".join(clocks))
    out.append(
        "scores:  " + "  ".join(f"{n} {s}" for n, s in zip(players, rep["scores"], strict=True))
    )
    if rep["board"]:
        out.append("board:")
        out.extend("  " + row for row in rep["board"])
    if rep["history"]:
        out.append("moves:")
        for h in rep["history"]:
            out.append(
                f"  {clock_text(h['t'], tenths=True)}  {players[h['player']]:<12} {h['kind']:<10} "
                f"{h['text']:<16} {h['score']:+d}  {h['total']}"
            )
    out.append("rulings:")
    for r in rep["rulings"]:
        out.append(f"  {clock_text(r['t'])}  [{r['rule']}] {r['text']}")
    if rep["rejected"]:
        out.append("refused lines:")
        for r in rep["rejected"]:
            out.append(f"  line {r['line']}: {r['reason']} ({r['rule']})")
    res = rep["result"]
    if res:
        names = (players[0], players[1])
        scores = (res["scores"][0], res["scores"][1])
        text = result_text(names, scores, res["winner"], res["reason"], res["spread"])
        out.append(f"result:  {text}")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Replay and print. Exit 1 when the file cannot be read, holds no game, or (a SQLite
    log) its hash chain is broken, unless ``--force``; unreadable lines are reported."""
    from clock.log.eventlog import verify
    from clock.log.files import is_sqlite
    from engine.errors import EngineError

    path = Path(args.file)
    name = f"rackclock replay: {path}"
    try:
        chain = verify(path) if is_sqlite(path) else None
        events, bad = load_log(path)
    except IsADirectoryError:
        sys.stderr.write(f"{name}: a folder, not a log file\n")
        return 1
    except (OSError, EngineError) as exc:
        sys.stderr.write(f"{name}: {exc}\n")
        return 1
    if chain is not None and not chain.ok:
        # The first altered event says more than a missing trigger does.
        first = next((p for p in chain.problems if p[0]), chain.problems[0])
        where = f"seq {first[0]}" if first[0] else "the file"
        sys.stderr.write(
            f"{name}: the hash chain is broken ({where}: {first[1]}; {len(chain.problems)} "
            "problem(s), see rackclock log verify): this may not be what the table logged"
            + ("; replaying anyway (--force)\n" if args.force else "; --force replays it\n")
        )
        if not args.force:
            return 1
    if not any(isinstance(ev, GameStarted) for _, ev in events):
        sys.stderr.write(
            f"{name}: holds no game ({len(bad)} unreadable line(s)); a log starts with "
            "game_started (docs/events.md)\n"
        )
        for r in bad[:5]:
            sys.stderr.write(f"  line {r.line}: {r.reason}\n")
        return 1
    state, rejected = replay(events, at=args.at)
    rep = report(state, args.at, sorted(bad + rejected, key=lambda r: r.line))
    sys.stdout.write((json.dumps(rep) if args.json else _human(rep)) + "\n")
    if bad:
        # The game replays without them; they are listed in the report, and said here too.
        sys.stderr.write(f"{name}: {len(bad)} line(s) could not be read (listed above)\n")
    return 0
