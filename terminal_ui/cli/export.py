"""``rackclock export gcg|naspa|tsh LOG...``: a table's games as GCG records, and the
event's results files, from SQLite logs or JSON Lines exports; the same code as the
director console's exports (:mod:`clock.exports`, docs/director.md).

What is written goes to the file or folder given (GCG and NASPA to stdout without
``-o``); what had to be guessed or changed, and what a strict reader will not take,
goes to stderr. Exit 1 when nothing could be written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from terminal_ui.cli.args import add_t_encoding

if TYPE_CHECKING:  # the command line loads the engine only when a command runs
    from engine.events import Event

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``export`` command group to a sub-parser collection."""
    cmd = sub.add_parser("export", help="write GCG records and results files from logs")
    esub = cmd.add_subparsers(dest="export_format", metavar="FORMAT", required=True)
    gcg = esub.add_parser(
        "gcg",
        help="each board game of a log as a GCG record",
        description="One record per game; a log holding several games needs -o FILE "
        "(written FILE-1.gcg, FILE-2.gcg...).",
    )
    gcg.add_argument("log", metavar="LOG", help="a game log (.sqlite) or JSON Lines file")
    gcg.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: stdout")
    gcg.set_defaults(handler=run_gcg)
    for name, what, out in (
        ("naspa", "NASPA's results file (ASCII, scores included)", "FILE"),
        ("tsh", "tsh .t files, one per division (a.t, b.t...)", "DIR"),
    ):
        res = esub.add_parser(name, help=what, description=what)
        res.add_argument("logs", nargs="+", metavar="LOG", help="the tables' game logs")
        res.add_argument(
            "-o",
            "--output",
            type=Path,
            metavar=out,
            help="default: stdout" if out == "FILE" else "default: the current folder",
        )
        res.add_argument(
            "--round", type=int, metavar="N", help="the round of games whose log does not say"
        )
        res.add_argument(
            "--roster",
            type=Path,
            metavar="FILE",
            help="names as filed (Last, First) and ratings: tsh .t lines or CSV",
        )
        if name == "tsh":
            add_t_encoding(res)
        res.set_defaults(handler=run_results, kind=name)


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def _events(path: Path, command: str) -> list[tuple[int, Event]] | None:
    """The log's events, or None after saying why it cannot be read."""
    from clock.log.log_files import load_log
    from engine.errors import EngineError

    try:
        events, bad = load_log(path)
    except IsADirectoryError:
        _say(f"rackclock export {command}: {path}: a folder, not a log file")
        return None
    except (OSError, EngineError) as exc:
        _say(f"rackclock export {command}: {path}: {exc}")
        return None
    for r in bad:
        _say(f"rackclock export {command}: {path} line {r.line}: skipped: {r.reason}")
    return events


def run_gcg(args: argparse.Namespace) -> int:
    """Write each game of one log as GCG."""
    from clock.exports.game_records import game_path, gcg_files

    path = Path(args.log)
    events = _events(path, "gcg")
    if events is None:
        return 1
    files, problems = gcg_files(path.stem, events)
    for p in problems:
        _say(f"rackclock export gcg: {p}")
    if not files:
        _say(f"rackclock export gcg: {path}: no game to write")
        return 1
    # one file or problem per game: a log of several games names each file by its
    # game's number, even when only one of them has a record (as the console's export)
    games = len(files) + len(problems)
    if games > 1 and args.output is None:
        _say(
            f"rackclock export gcg: {path} holds {games} games: give -o FILE "
            "(written FILE-1.gcg, FILE-2.gcg...)"
        )
        return 1
    for f in files:
        for note in f.notes:
            _say(f"note: {note}")
        if args.output is None:
            sys.stdout.buffer.write(f.data)
            continue
        out = game_path(Path(args.output), f.number, games > 1)
        try:
            out.write_bytes(f.data)
        except OSError as exc:
            _say(f"rackclock export gcg: cannot write {out}: {exc.strerror}")
            return 1
        _say(f"wrote {out}")
    return 0


def run_results(args: argparse.Namespace) -> int:
    """Write the NASPA or tsh results of every finished game in the logs."""
    from clock.exports.results_files import (
        NASPA_FILE,
        log_games,
        naspa_bytes,
        read_roster,
        results_lines,
        write_naspa_file,
        write_t_files,
    )
    from engine.errors import EngineError
    from engine.exports.results import ResultsError
    from engine.exports.roster import RosterError

    name = f"rackclock export {args.kind}"
    roster = None
    if args.roster is not None:
        try:
            roster = read_roster(args.roster)
        except (OSError, UnicodeDecodeError) as exc:
            _say(f"{name}: cannot read the roster {args.roster}: {exc}")
            return 1
        except RosterError as exc:
            _say(f"{name}: {exc}")
            return 1
    if args.round is not None and args.round < 1:
        _say(f"{name}: --round {args.round}: rounds count from 1")
        return 1
    results = []
    for log in args.logs:
        events = _events(Path(log), args.kind)
        if events is None:
            return 1
        done, not_over = log_games(str(log), events)
        finished = {g.number: g for g in done}
        for n in range(1, len(done) + len(not_over) + 1):  # said in the log's order
            if n not in finished:
                _say(f"{name}: {log} game {n} is not over: left out")
                continue
            try:
                results.append(finished[n].result(args.round))
            except ResultsError as exc:
                _say(f"{name}: {log} game {n}: {exc}; give --round N")
                return 1
    if not results:
        _say(f"{name}: no finished game in {', '.join(args.logs)}")
        return 1
    notes: list[str] = []
    try:
        files = results_lines(results, roster=roster, notes=notes, kinds=(args.kind,))
        if args.kind == "naspa":
            lines = files[NASPA_FILE]
            for note in notes:
                _say(f"note: {note}")
            if args.output is None:
                sys.stdout.buffer.write(naspa_bytes(lines))
            else:
                write_naspa_file(args.output, lines)
                _say(f"wrote {args.output}")
            return 0
        # the one .t writer: a name the encoding cannot hold is refused before any is written
        written = write_t_files(args.output or Path(), files, args.encoding)
    except (ResultsError, EngineError) as exc:
        _say(f"{name}: {exc}")
        return 1
    except OSError as exc:
        _say(f"{name}: cannot write: {exc}")
        return 1
    for note in notes:
        _say(f"note: {note}")
    for path in written:
        _say(f"wrote {path}")
    return 0
