"""``rackclock event ...``: run a tournament from its event file and its log.

``new`` starts the event's log from an event file (TOML, docs/tournament.md);
``pair`` pairs the next round of each division by its plan; ``result`` records a
result by hand (a correction needs ``--reason``); ``results`` takes finished
games from table logs; ``standings``, ``show``, ``verify``; ``enter`` and
``withdraw`` for late entries and withdrawals; ``export tsh|naspa`` and
``import`` (tsh ``.t`` files). Every change is a record in the event's
hash-chained log; a refused one leaves the log as it was.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clock.event.ledger import EventLedger
    from engine.tournament.records import Result
    from engine.tournament.state import DivisionState, EventState

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``event`` command group."""
    cmd = sub.add_parser("event", help="a tournament: pairings, results, standings")
    esub = cmd.add_subparsers(dest="event_command", metavar="ACTION", required=True)

    def action(name: str, help_: str, handler: Any, *, log: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = esub.add_parser(name, help=help_, description=help_)
        if log:
            p.add_argument("log", type=Path, metavar="EVENTLOG", help="the event's log (.sqlite)")
        p.set_defaults(handler=handler)
        return p

    new = action("new", "start an event's log from its event file", _new, log=False)
    new.add_argument("event_file", type=Path, metavar="EVENT.toml")
    new.add_argument("-o", "--output", type=Path, metavar="EVENTLOG", help="default: EVENT.sqlite")
    action("show", "the divisions, players and rounds so far", _show)
    action("verify", "check the log's hash chain and replay it", _verify)
    pair = action("pair", "pair the next round of each division (or --round N)", _pair)
    pair.add_argument("--division", metavar="NAME")
    pair.add_argument("--round", type=int, metavar="N")
    pub = action("publish", "send each table its game of a round over the venue broker", _publish)
    pub.add_argument("--broker", required=True, metavar="URL", help="mqtt://host:port/VENUE")
    pub.add_argument("--round", type=int, metavar="N", help="default: the latest paired")
    unpair = action("unpair", "withdraw a round's pairings (before any result)", _unpair)
    unpair.add_argument("--division", metavar="NAME")
    unpair.add_argument("--round", type=int, metavar="N", required=True)
    unpair.add_argument("--reason", required=True)
    res = action("result", "record (or correct) one result: ROUND NAME SCORE NAME SCORE", _result)
    res.add_argument("round", type=int, metavar="ROUND")
    res.add_argument("entries", nargs=4, metavar="NAME SCORE NAME SCORE")
    res.add_argument("--division", metavar="NAME")
    res.add_argument("--forfeit", action="store_true", help="the second named forfeits")
    res.add_argument("--reason", default="", help="why: required to correct a result")
    games = action("results", "take finished games' results from table logs", _results)
    games.add_argument(
        "games", nargs="+", type=Path, metavar="GAMELOG", help="table logs, or folders of them"
    )
    games.add_argument("--division", metavar="NAME", help="for games whose log does not say")
    games.add_argument("--round", type=int, metavar="N", help="for games whose log does not say")
    games.add_argument(
        "--unsigned", action="store_true", help="take finished games both players have not signed"
    )
    games.add_argument(
        "--watch", type=float, metavar="SECONDS", help="keep taking results every SECONDS"
    )
    st = action("standings", "the standings (after --round N; default: results so far)", _standings)
    st.add_argument("--division", metavar="NAME")
    st.add_argument("--round", type=int, metavar="N")
    st.add_argument(
        "--report", action="store_true", help="the results report (NZASP 11.4): name, club, wins"
    )
    enter = action("enter", "a late entry, paired from --round N", _enter)
    enter.add_argument("name")
    enter.add_argument("rating", type=int)
    enter.add_argument("--division", metavar="NAME")
    enter.add_argument("--round", type=int, metavar="N", required=True)
    wd = action("withdraw", "a player leaves: not paired from --round N", _withdraw)
    wd.add_argument("name")
    wd.add_argument("--division", metavar="NAME")
    wd.add_argument("--round", type=int, metavar="N", required=True)
    wd.add_argument("--reason", default="")
    exp = action(
        "export",
        "the event as tsh .t files (one per division) or NASPA results",
        _export,
        log=False,
    )
    exp.add_argument("format", choices=("tsh", "naspa"))
    exp.add_argument("log", type=Path, metavar="EVENTLOG", help="the event's log (.sqlite)")
    exp.add_argument("-o", "--output", type=Path, metavar="DIR|FILE")
    imp = action(
        "import", "start an event's log from tsh .t files (one per division)", _import, log=False
    )
    imp.add_argument("log", type=Path, metavar="EVENTLOG", help="the new event log (.sqlite)")
    imp.add_argument("tfiles", nargs="+", type=Path, metavar="FILE.t")
    imp.add_argument("--rounds", type=int, metavar="N", help="rounds in all (default: as paired)")
    imp.add_argument("--system", default="swiss", help="how the rounds after are paired")


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def _guard(args: argparse.Namespace, run: Any) -> int:
    from clock.log.eventlog import LogError
    from engine.errors import EngineError

    try:
        return int(run())
    except (LogError, EngineError, OSError) as exc:
        _say(f"rackclock event {args.event_command}: {exc}")
        return 1


def _open(args: argparse.Namespace) -> EventLedger:
    from clock.event.ledger import EventLedger

    return EventLedger.open(args.log)


def _divisions(state: EventState, name: str | None) -> list[DivisionState]:
    if name is not None:
        return [state.division(name)]
    return list(state.divisions.values())


def _one_division(state: EventState, name: str | None) -> DivisionState:
    from engine.tournament.errors import TournamentError

    if name is None and len(state.divisions) > 1:
        names = ", ".join(state.divisions)
        raise TournamentError(f"the event has several divisions ({names}): give --division")
    return _divisions(state, name)[0]


def _new(args: argparse.Namespace) -> int:
    def run() -> int:
        from clock.event.ledger import EventLedger

        text = args.event_file.read_text(encoding="utf-8")
        out = args.output or args.event_file.with_suffix(".sqlite")
        with EventLedger.create(out, text, str(args.event_file)) as ledger:
            for div in ledger.state.divisions.values():
                size = f"{len(div.players)} players, {div.spec.rounds} rounds"
                print(f"division {div.spec.name}: {size}")
        print(f"event log: {out}")
        return 0

    return _guard(args, run)


def _show(args: argparse.Namespace) -> int:
    def run() -> int:
        with _open(args) as ledger:
            st = ledger.state
            print(f"{st.spec.name}: {st.records} records")
            for div in st.divisions.values():
                print(f"division {div.spec.name} ({div.spec.variant}, {div.spec.rounds} rounds)")
                for i, p in enumerate(div.players, start=1):
                    gone = f" (withdrew from round {div.left[i]})" if i in div.left else ""
                    print(f"  {i:>3} {p.name} {p.rating}{gone}")
                for rnd, paired in sorted(div.pairings.items()):
                    left = len(div.missing(rnd))
                    print(f"  round {rnd} ({paired.system}): {left} game(s) without a result")
                    _print_pairs(div, rnd)
        return 0

    return _guard(args, run)


def _print_pairs(div: DivisionState, rnd: int) -> None:
    paired = div.pairings[rnd]
    for table, (a, b) in enumerate(paired.pairs, start=1):
        res = div.result(rnd, (a, b))
        score = f"  {res.scores[0]}-{res.scores[1]}" if res is not None and b else ""
        if b:
            print(f"    table {table:>3}: {div.name(a)} (first) v {div.name(b)}{score}")
        else:
            print(f"    bye: {div.name(a)}")
    for note in paired.notes:
        print(f"    note: {note}")


def _game_line(div: DivisionState, res: Result) -> str:
    """``round 3: Ann Able 420 - 388 Ben Baker (table-2.sqlite#9f2c...)``."""
    where = f" ({res.game})" if res.game else ""
    a, b = res.scores
    return f"round {res.round}: {div.name(res.first)} {a} - {b} {div.name(res.second)}{where}"


def _verify(args: argparse.Namespace) -> int:
    def run() -> int:
        from clock.event.ledger import verify_ledger

        print(f"{args.log}: {verify_ledger(args.log)} records, chain intact")
        return 0

    return _guard(args, run)


def _pair(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.pairing.draw import draw

        with _open(args) as ledger:
            for div in _divisions(ledger.state, args.division):
                rnd = args.round or (max(div.pairings, default=0) + 1)
                if rnd > div.spec.rounds and args.round is None:
                    print(f"division {div.spec.name}: all {div.spec.rounds} rounds are paired")
                    continue
                ledger.append(draw(div, rnd))
                print(f"division {div.spec.name} round {rnd}:")
                _print_pairs(div, rnd)
        return 0

    return _guard(args, run)


def _publish(args: argparse.Namespace) -> int:
    def run() -> int:
        import asyncio
        from urllib.parse import urlsplit, urlunsplit

        from engine.tournament.assignment import round_assignments
        from firmware_bridge.venue.assignments import publish_assignments
        from firmware_bridge.venue.mqtt_session import parse_url
        from firmware_bridge.venue.topics import DEFAULT_VENUE, table_from_path

        with _open(args) as ledger:
            state = ledger.state
        latest = max((max(d.pairings) for d in state.divisions.values() if d.pairings), default=0)
        rnd = args.round or latest
        games = round_assignments(state, rnd)
        parts = urlsplit(args.broker)
        path = [p for p in parts.path.split("/") if p]
        if len(path) > 1:
            _say(f"rackclock event publish: {args.broker}: name only the venue: mqtt://host/VENUE")
            return 2
        venue = path[0] if path else DEFAULT_VENUE
        table_from_path(f"/{venue}/t1")  # a venue that cannot be a topic level is refused
        broker = parse_url(urlunsplit((parts.scheme, parts.netloc, "", parts.query, "")))
        try:
            acked = asyncio.run(publish_assignments(broker, venue, games))
        except TimeoutError:
            _say(f"rackclock event publish: the broker {args.broker} did not answer")
            return 1
        for g in games:
            who = f"{g.players[0]} (first) v {g.players[1]}"
            print(f"round {rnd} {g.division} table {g.table_name}: {who}")
        print(f"published {acked} of {len(games)} table(s) to venue {venue!r}")
        return 0 if acked == len(games) else 1

    return _guard(args, run)


def _unpair(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.records import Unpaired

        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            ledger.append(Unpaired(div.spec.name, args.round, args.reason))
            print(f"division {div.spec.name} round {args.round}: pairings withdrawn")
        return 0

    return _guard(args, run)


def _result(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.errors import ResultError
        from engine.tournament.records import Result

        name_a, score_a, name_b, score_b = args.entries
        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            try:
                sa, sb = int(score_a), int(score_b)
            except ValueError:
                raise ResultError(
                    f"scores are whole numbers, got {score_a!r} and {score_b!r} "
                    "(e.g. event result LOG 3 'Ann Able' 420 'Ben Baker' 388)"
                ) from None
            a, b = div.seed_of(name_a), div.seed_of(name_b)
            pairs = div.pairings.get(args.round, None)
            first_a = pairs is not None and (a, b) in pairs.pairs
            first, second, scores = (a, b, (sa, sb)) if first_a else (b, a, (sb, sa))
            kind = "forfeit" if args.forfeit else "game"
            ledger.append(
                Result(div.spec.name, args.round, first, second, scores, kind, reason=args.reason)
            )
            print(_game_line(div, div.results[args.round][(first, second)]))
        return 0

    return _guard(args, run)


def _results(args: argparse.Namespace) -> int:
    def once(ledger: EventLedger, quiet: bool) -> int:
        from clock.log.files import load_log
        from engine.errors import EngineError
        from engine.tournament.intake import results_from_log
        from terminal_ui.cli.director import log_files

        failed = 0
        for path in log_files(args.games):
            try:
                events, _ = load_log(path)
                got = results_from_log(
                    ledger.state,
                    path.name,
                    events,
                    division=args.division,
                    round_=args.round,
                    unsigned=args.unsigned,
                )
                for res in got.results:
                    ledger.append(res)
                    print(_game_line(ledger.state.division(res.division), res), flush=True)
                if not quiet:
                    for note in got.notes:
                        _say(note)
            except (OSError, EngineError) as exc:
                _say(f"rackclock event results: {path}: {exc}")
                failed += 1
        return failed

    def run() -> int:
        import time

        with _open(args) as ledger:
            failed = once(ledger, quiet=False)
            while args.watch:
                time.sleep(args.watch)
                once(ledger, quiet=True)
        return 1 if failed else 0

    try:
        return _guard(args, run)
    except KeyboardInterrupt:
        return 0


def _standings(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.report import played_through, results_report, standings_lines

        with _open(args) as ledger:
            divisions = _divisions(ledger.state, args.division)
            if args.report:
                print("\n".join(results_report(ledger.state, divisions)))
                return 0
            for div in divisions:
                through = args.round or played_through(div)
                print(f"division {div.spec.name} after round {through}:")
                print("\n".join(standings_lines(div, div.standings(through))))
        return 0

    return _guard(args, run)


def _enter(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.records import Entered
        from engine.tournament.spec import Player

        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            ledger.append(Entered(div.spec.name, Player(args.name, args.rating), args.round))
            seed = len(div.players)
            print(f"{args.name} entered in {div.spec.name} from round {args.round} as #{seed}")
        return 0

    return _guard(args, run)


def _withdraw(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.records import Withdrew

        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            ledger.append(Withdrew(div.spec.name, div.seed_of(args.name), args.round, args.reason))
            print(f"{args.name} withdrawn from round {args.round}")
        return 0

    return _guard(args, run)


def _export(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.exports.results import GameResult, division_file, naspa_lines
        from engine.tournament.tsh import division_lines

        with _open(args) as ledger:
            divs = list(ledger.state.divisions.values())
            if args.format == "tsh":
                folder = args.output or Path(".")
                folder.mkdir(parents=True, exist_ok=True)
                for div in divs:
                    out = folder / division_file(div.spec.name)
                    text = "\n".join(division_lines(div)) + "\n"
                    out.write_text(text, encoding="iso-8859-1", errors="replace")
                    print(f"wrote {out}")
                return 0
            games = []
            for div in divs:
                for rnd in sorted(div.pairings):
                    for res in div.round_results(rnd):
                        a, b = res.scores
                        winner = None if a == b else (0 if a > b else 1)
                        reason = {"bye": "bye", "forfeit": "forfeit"}.get(res.kind, "out")
                        names = (div.name(res.first), div.name(res.second) if res.second else "")
                        games.append(
                            GameResult(
                                rnd, names, res.scores, winner, reason, abs(a - b), div.spec.name
                            )
                        )
            notes: list[str] = []
            lines = naspa_lines(games, None, notes)
            for note in notes:
                _say(f"note: {note}")
            text = "\n".join(lines) + "\n"
            if args.output is None:
                sys.stdout.write(text)
            else:
                args.output.write_text(text, encoding="ascii")
                print(f"wrote {args.output}")
        return 0

    return _guard(args, run)


def _import(args: argparse.Namespace) -> int:
    def run() -> int:
        from clock.event.ledger import EventLedger
        from engine.tournament.tsh import parse_t, records_from_t

        parsed = []
        for path in args.tfiles:
            parsed.append(
                (path.stem.upper(), parse_t(path.read_text(encoding="iso-8859-1"), str(path)))
            )
        lines = [f"name = {json.dumps(args.log.stem)}"]
        for name, t in parsed:
            paired = max((len(o) for o in t.opponents), default=0)
            rounds = max(args.rounds or 0, paired, 1)
            # the rounds tsh paired come in as they were; the plan pairs the rest
            lines += [
                "[[division]]",
                f"name = {json.dumps(name)}",
                f"rounds = {rounds}",
                f'plan = [{{ rounds = "1-{rounds}", system = {json.dumps(args.system)} }}]',
                "players = [",
                *(f"  {{ name = {json.dumps(p.name)}, rating = {p.rating} }}," for p in t.players),
                "]",
            ]
        with EventLedger.create(args.log, "\n".join(lines) + "\n", "tsh import") as ledger:
            for name, t in parsed:
                for record in records_from_t(t, name):
                    ledger.append(record)
            print(f"event log: {args.log} ({ledger.state.records} records)")
        return 0

    return _guard(args, run)
