"""``rackclock replay FILE [--at TIME | --at-ms MS] [--game N] [--json]``: the state of
a game log at any instant, in game time (since the game started), with every event
in its place: the refused commands the log keeps too, marked refused with their
reason and rule (never replayed)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

from clock.log.log_files import load_log_with_refused
from engine.clocktext import clock_text, parse_clock_text, penalty_rate
from engine.events import Event
from engine.rules.replay import Refused, replay, report, split_games_with_refused
from engine.tournament.scores import result_text
from terminal_ui.director.tables import event_text

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``replay`` command."""
    cmd = sub.add_parser(
        "replay",
        help="replay a game log (SQLite or JSON Lines) to its end or to an instant",
        description=(
            "Replays a log and prints whose turn it is, the phase, both clocks, scores and "
            "penalties, the board, every event (refused commands marked, with their "
            "reason and rule), every ruling with its rule, the lines it could not replay "
            "(unreadable, or against the rules where they stand: a hand-edited or imported "
            "file), and the result. "
            "Times are game time: since the game started."
        ),
    )
    cmd.add_argument("file", metavar="FILE", help="a game log (.sqlite) or JSON Lines file")
    # Plain strings, checked in run(): a malformed value is one line and exit 2, as
    # the other commands' own checks (event, director, serve), not argparse's usage block.
    cmd.add_argument(
        "--at",
        metavar="TIME",
        help="instant in game time, since the game started: 5:30, 0:25.0, 1:02:03.5 "
        "(a time before the start is written --at=-0:01, and refused with the game's span)",
    )
    cmd.add_argument("--at-ms", metavar="MS", help="instant on the table's timeline (milliseconds)")
    cmd.add_argument(
        "--game",
        metavar="N",
        help="the log's game N (1 is the first; default: the last, or the one at --at-ms)",
    )
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.add_argument(
        "--force", action="store_true", help="replay a log whose hash chain is broken (warned)"
    )
    cmd.set_defaults(handler=run)


class _GameTime(NamedTuple):
    text: str
    """As typed (quoted back when refused)."""
    ms: int


def _game_time(text: str) -> _GameTime:
    """``--at``: a game time; a negative one (``--at=-0:01``) is kept, so that it is
    refused with the game's span like any instant outside the game.

    Raises:
        ValueError: Not a time, quoting ``text`` (and where table milliseconds go).
    """
    sign = -1 if text.strip().startswith("-") else 1
    try:
        return _GameTime(text, sign * parse_clock_text(text.strip().removeprefix("-")))
    except ValueError as exc:
        raise ValueError(
            f"{exc}; table milliseconds go to --at-ms" if ":" not in text else str(exc)
        ) from None


def _options(args: argparse.Namespace) -> str | None:
    """What is wrong with --at, --at-ms or --game (one line, exit 2), or None; parsed
    values are put back on ``args``."""
    if args.at is not None and args.at_ms is not None:
        return "give --at (game time) or --at-ms (table time), not both"
    if args.at is not None:
        try:
            args.at = _game_time(args.at)
        except ValueError as exc:
            return f"--at: {exc}"
    if args.at_ms is not None:
        if not args.at_ms.removeprefix("-").isdigit():
            return f"--at-ms: {args.at_ms!r} is not a whole number of milliseconds"
        args.at_ms = int(args.at_ms)
    if args.game is not None:
        if not args.game.isdigit() or int(args.game) < 1:
            return f"--game: {args.game!r} is not a game number (1, 2, ...)"
        args.game = int(args.game)
    return None


def _game_ms(t: int, t0: int) -> str:
    return clock_text(t - t0, tenths=True, plus=True)


def _events(
    rows: list[tuple[int, Event, Refused | None]], players: tuple[str, str], t0: int, at: int
) -> list[dict[str, Any]]:
    """The game's rows up to ``at`` (refused ones marked, with reason and rule)."""
    return [
        {
            "line": line,
            "t": ev.t,
            "game_ms": (ev.t or 0) - t0,
            "text": event_text(ev, players),
            "refused": refused is not None,
            "reason": refused.reason if refused else None,
            "rule": refused.rule if refused else None,
        }
        for line, ev, refused in rows
        if (ev.t or 0) <= at
    ]


def _human(rep: dict[str, Any]) -> str:
    players = rep["players"]
    t0 = rep["game_started_ms"]
    at = _game_ms(rep["at_ms"], t0)
    out = [
        f"{rep['variant']}: {players[0]} vs {players[1]}  "
        f"(at {at} game time, table time {rep['at_ms']} ms)"
    ]
    out.append(f"phase:   {rep['phase_text']}")
    clocks = []
    rate = f" ({rep['penalty_rate']})" if rep["penalty_rate"] else ""
    for name, c in zip(players, rep["clocks"], strict=True):
        run = " running" if c["running"] else ""
        pen = f" penalty {c['penalty']}{rate}" if c["penalty"] else ""
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
                f"  {_game_ms(h['t'], t0)}  {players[h['player']]:<12} {h['kind']:<10} "
                f"{h['text']:<16} {h['score']:+d}  {h['total']}"
            )
    out.append("events:")
    for e in rep["events"]:
        what = f"REFUSED {e['text']}: {e['reason']} ({e['rule']})" if e["refused"] else e["text"]
        out.append(f"  {e['line']:>4}  {_game_ms(e['t'] or 0, t0)}  {what}")
    out.append("rulings:")
    for r in rep["rulings"]:
        out.append(f"  {_game_ms(r['t'], t0)}  [{r['rule']}] {r['text']}")
    if rep["rejected"]:
        # Not the REFUSED events above (commands the table refused and kept): lines of
        # the file itself that could not be replayed (docs/events.md, "rejected").
        out.append("lines not replayed (unreadable, or against the rules where they stand):")
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
    from clock.log.log_files import is_sqlite
    from engine.errors import EngineError

    bad_option = _options(args)
    if bad_option is not None:
        sys.stderr.write(f"rackclock replay: {bad_option}\n")
        return 2
    path = Path(args.file)
    name = f"rackclock replay: {path}"
    try:
        chain = verify(path) if is_sqlite(path) else None
        events, bad, refused = load_log_with_refused(path)
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
    games = split_games_with_refused(events, refused)
    if not games:
        sys.stderr.write(
            f"{name}: holds no game ({len(bad)} unreadable line(s)); a log starts with "
            "game_started (docs/events.md)\n"
        )
        for r in bad[:5]:
            sys.stderr.write(f"  line {r.line}: {r.reason}\n")
        return 1
    spans = [((g[0][1].t or 0), max(ev.t or 0 for _, ev, _ in g)) for g in games]
    if args.game is not None and args.game > len(games):
        sys.stderr.write(f"{name}: --game {args.game}: the log holds {len(games)} game(s)\n")
        return 1
    if args.game is not None:
        n = args.game - 1
    elif args.at_ms is not None:  # the game the instant falls in (the first, before it)
        n = max(0, sum(1 for start, _ in spans if start <= args.at_ms) - 1)
    else:
        n = len(games) - 1
    start, end = spans[n]
    at = start + args.at.ms if args.at is not None else args.at_ms
    if at is not None and not start <= at <= end:
        asked = f"--at {args.at.text}" if args.at is not None else f"--at-ms {args.at_ms}"
        sys.stderr.write(
            f"{name}: {asked} is outside game {n + 1}: it runs from +0:00.0 to "
            f"{_game_ms(end, start)} game time (table time {start} to {end} ms)\n"
        )
        return 1
    # Replay the log up to the instant (the end of game n), so the state is that game's.
    last = games[n][-1][0]
    upto = at if at is not None else (end if n < len(games) - 1 else None)
    state, rejected = replay((e for e in events if e[0] <= last), at=upto)
    rep = report(state, upto, sorted(bad + rejected, key=lambda r: r.line))
    rep["game"] = n + 1
    rep["game_started_ms"] = start
    rep["game_ms"] = rep["at_ms"] - start
    rep["penalty_rate"] = penalty_rate(state.variant) if state.variant is not None else ""
    players = (state.players[0], state.players[1])
    rep["events"] = _events(games[n], players, start, rep["at_ms"])
    for item in (*rep["history"], *rep["rulings"]):
        item["game_ms"] = item["t"] - start
    sys.stdout.write((json.dumps(rep) if args.json else _human(rep)) + "\n")
    if bad:
        # The game replays without them; they are listed in the report, and said here too.
        sys.stderr.write(f"{name}: {len(bad)} line(s) could not be read (listed above)\n")
    return 0
