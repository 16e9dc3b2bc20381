"""``rackclock event ...``: run a tournament from its event file and its ledger.

``new`` starts the event's ledger from an event file (TOML, docs/tournament.md);
``pair`` pairs the next round of each division by its plan; ``result`` records a
result by hand (a correction needs ``--reason``); ``results`` takes finished
games from the tables' game logs; ``standings``, ``show``, ``verify``; ``enter`` and
``withdraw`` for late entries and withdrawals; ``export tsh|naspa`` and
``import`` (tsh ``.t`` files). Every change is a record in the event's
hash-chained ledger; a refused one leaves the ledger as it was. The work is
below: the ledger in :mod:`clock.tournament`, the event's rules, text and files
in :mod:`engine.tournament`; this module parses, calls and prints.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from terminal_ui.cli import event_prizes, event_sheets, event_slips
from terminal_ui.cli.args import add_t_encoding, who
from terminal_ui.cli.event_divisions import divisions as _divisions
from terminal_ui.cli.event_divisions import one_division as _one_division

if TYPE_CHECKING:
    from clock.tournament.ledger import EventLedger

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``event`` command group."""
    cmd = sub.add_parser("event", help="a tournament: pairings, results, standings")
    esub = cmd.add_subparsers(dest="event_command", metavar="ACTION", required=True)

    def action(name: str, help_: str, handler: Any, *, log: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = esub.add_parser(name, help=help_, description=help_)
        if log:
            p.add_argument("log", type=Path, metavar="LEDGER", help="the event's ledger (.sqlite)")
        p.set_defaults(handler=handler)
        return p

    new = action("new", "start an event's ledger from its event file", _new, log=False)
    new.add_argument("event_file", type=Path, metavar="EVENT.toml")
    new.add_argument("-o", "--output", type=Path, metavar="LEDGER", help="default: EVENT.sqlite")
    show = action("show", "the divisions, players and rounds so far", _show)
    show.add_argument(
        "--history", action="store_true", help="every result, correction and undo: who and why"
    )
    ver = action("verify", "check the ledger's hash chain and head, and replay it", _verify)
    ver.add_argument(
        "--anchor", metavar="COUNT:HASH", help="as event pair/publish printed it: nothing cut since"
    )
    ver.add_argument(
        "--broker", metavar="URL", help="mqtt://host:port/VENUE: check the published anchor"
    )
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
    # Four positionals gathered into args.entries: one nargs=4 argument shows its metavar
    # four times, and CPython 3.11's --help fails on a positional's tuple metavar.
    for i, word in enumerate(("NAME", "SCORE", "NAME", "SCORE")):
        res.add_argument(f"entry{i}", metavar=word, action=_Entry)
    res.add_argument("--division", metavar="NAME")
    res.add_argument(
        "--forfeit",
        metavar="NAME",
        help="NAME (one of the two) forfeits: the other wins by the variant's forfeit spread",
    )
    res.add_argument("--by", metavar="NAME", help="who records it (default: the OS user)")
    res.add_argument("--reason", default="", help="why: required to correct a result")
    games = action("results", "take finished games' results from the tables' game logs", _results)
    games.add_argument(
        "games", nargs="+", type=Path, metavar="GAMELOG", help="game logs, or folders of them"
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
    exp.add_argument("log", type=Path, metavar="LEDGER", help="the event's ledger (.sqlite)")
    exp.add_argument("-o", "--output", type=Path, metavar="DIR|FILE")
    add_t_encoding(exp)
    imp = action(
        "import", "start an event's ledger from tsh .t files (one per division)", _import, log=False
    )
    imp.add_argument("log", type=Path, metavar="LEDGER", help="the new event's ledger (.sqlite)")
    imp.add_argument("tfiles", nargs="+", type=Path, metavar="FILE.t")
    imp.add_argument("--rounds", type=int, metavar="N", help="rounds in all (default: as paired)")
    imp.add_argument("--system", default="swiss", help="how the rounds after are paired")
    event_slips.register(action, _guard)  # slips, missing: results from paper slips
    event_sheets.register(action)  # sheets: pairings, standings, scorecards, wallchart
    event_prizes.register(action, _guard)  # prizes: places, rating classes, high game and plays


class _Entry(argparse.Action):
    """One word of ``event result``'s NAME SCORE NAME SCORE, appended to ``entries``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        namespace.entries = [*getattr(namespace, "entries", []), values]


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def _bad_input(args: argparse.Namespace) -> str | None:
    """What is wrong with the command's own arguments, before any file is opened
    (exit 2, as argparse's own refusals: docs/tournament.md)."""
    from engine.errors import EngineError

    rnd = getattr(args, "round", None)
    if rnd is not None and rnd < 1:
        what = "ROUND" if args.event_command == "result" else "--round"
        return f"{what} {rnd}: rounds are numbered from 1"
    if args.event_command == "result":
        from engine.tournament.scores import check_score

        name_a, score_a, name_b, score_b = args.entries
        if not (_whole(score_a) and _whole(score_b)):
            return (
                f"scores are whole numbers, got {score_a!r} and {score_b!r} "
                "(e.g. event result LOG 3 'Ann Able' 420 'Ben Baker' 388)"
            )
        for name, score in ((name_a, score_a), (name_b, score_b)):
            try:  # judged before the ledger is read: the player as typed
                check_score(int(score), f"player {name}" if name.isdigit() else name)
            except EngineError as exc:
                return str(exc)
    if args.event_command == "enter":
        from engine.tournament.spec import check_player, player_name, results_name

        try:
            name = results_name(player_name(args.name, "late entry"), "late entry")
            check_player(name, args.rating, "late entry")
        except EngineError as exc:
            return str(exc)
    if args.event_command == "import":
        from engine.tournament.spec import MAX_ROUNDS, SYSTEMS

        if args.rounds is not None and not 1 <= args.rounds <= MAX_ROUNDS:
            return f"--rounds {args.rounds}: expected 1-{MAX_ROUNDS}"
        if args.system not in SYSTEMS:
            return f"--system {args.system!r}: expected one of {', '.join(SYSTEMS)}"
    if getattr(args, "anchor", None) is not None:
        from clock.log.eventlog import LogError
        from clock.tournament.ledger import parse_anchor

        try:
            parse_anchor(args.anchor)
        except LogError as exc:
            return str(exc)  # quotes the anchor as typed
    watch = getattr(args, "watch", None)
    if watch is not None and not 0 < watch < 86_400:  # NaN and inf too: sleep refuses them
        return f"--watch {watch}: the seconds between passes, more than 0 and under a day"
    broker = getattr(args, "broker", None)
    if broker is not None:
        from firmware_bridge.mqtt.connection import parse_venue_url

        try:
            parse_venue_url(broker)  # the URL as typed in its message
        except ValueError as exc:
            return f"--broker: {exc}"
    return None


def _whole(text: str) -> bool:
    """A whole number as typed (a minus sign allowed): ``420``, ``-12``."""
    return text.removeprefix("-").isdigit()


def _guard(args: argparse.Namespace, run: Any) -> int:
    from clock.log.eventlog import LogError
    from engine.errors import EngineError

    bad = _bad_input(args)
    if bad is not None:
        _say(f"rackclock event {args.event_command}: {bad}")
        return 2
    try:
        return int(run())
    except (LogError, EngineError, OSError) as exc:
        _say(f"rackclock event {args.event_command}: {exc}")
        return 1


def _open(args: argparse.Namespace) -> EventLedger:
    from clock.tournament.ledger import EventLedger

    # a command that only reads opens the ledger read-only: the console may be writing it
    return EventLedger.open(args.log, readonly=args.event_command in _READERS)


_READERS = frozenset({"show", "standings", "export", "publish"})


def _new(args: argparse.Namespace) -> int:
    def run() -> int:
        from clock.tournament.event_files import read_event_file
        from clock.tournament.ledger import EventLedger

        text, _ = read_event_file(args.event_file)
        out = args.output or args.event_file.with_suffix(".sqlite")
        with EventLedger.create(out, text, str(args.event_file)) as ledger:
            for div in ledger.state.divisions.values():
                size = f"{len(div.players)} players, {div.spec.rounds} rounds"
                print(f"division {div.spec.name}: {size}")
        print(f"event's ledger: {out}")
        return 0

    return _guard(args, run)


def _show(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.report import pairing_lines

        with _open(args) as ledger:
            st = ledger.state
            if args.history:
                from engine.tournament.report import history_lines

                print("\n".join(history_lines(st, ledger.records())))
                return 0
            print(f"{st.spec.name}: {st.records} records")
            for div in st.divisions.values():
                print(f"division {div.spec.name} ({div.spec.variant}, {div.spec.rounds} rounds)")
                for i, p in enumerate(div.players, start=1):
                    gone = f" (withdrew from round {div.left[i]})" if i in div.left else ""
                    print(f"  {i:>3} {p.name} {p.rating}{gone}")
                for rnd, paired in sorted(div.pairings.items()):
                    left = len(div.missing(rnd))
                    print(f"  round {rnd} ({paired.system}): {left} game(s) without a result")
                    for line in pairing_lines(st, div, rnd):
                        print(line)
            print(f"anchor {ledger.anchor} (event verify LEDGER --anchor {ledger.anchor})")
        return 0

    return _guard(args, run)


def _verify(args: argparse.Namespace) -> int:
    def run() -> int:
        import asyncio

        from clock.tournament.ledger import parse_anchor, verify_ledger
        from firmware_bridge.venue.assignment_feed import published_anchor

        anchor = None if args.anchor is None else parse_anchor(args.anchor)
        source = "by --anchor"
        if args.broker is not None:
            try:
                got = asyncio.run(published_anchor(args.broker))
            except TimeoutError:
                _say(f"rackclock event verify: the broker {args.broker} did not answer")
                return 1
            if anchor is None or got.count > anchor.count:
                anchor, source = got, "on the broker"
        head = verify_ledger(args.log, anchor=anchor)
        print(f"{args.log}: {head.count} records, chain intact, head matches, anchor {head}")
        if anchor is None:
            print("without --anchor or --broker a ledger cut short as a whole cannot be told")
            return 0
        # An anchor covers the records up to it, no more: the broker's moves only on
        # publish, so the last round's later records (cut, the head set back) are not
        # covered by it, even when the log ends at the anchor.
        n = anchor.count
        print(
            f"records 1..{n} are as anchored {source}; records after {n} (this ledger has "
            f"{head.count}) are not covered by that anchor: check them against the anchor "
            "an export or `event show` printed"
        )
        return 0

    return _guard(args, run)


def _pair(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.pairing.pair_round import draw
        from engine.tournament.report import pairing_lines

        with _open(args) as ledger:
            for div in _divisions(ledger.state, args.division):
                rnd = args.round or (max(div.pairings, default=0) + 1)
                if rnd > div.spec.rounds and args.round is None:
                    print(f"division {div.spec.name}: all {div.spec.rounds} rounds are paired")
                    continue
                ledger.append(draw(div, rnd))
                print(f"division {div.spec.name} round {rnd}:")
                for line in pairing_lines(ledger.state, div, rnd):
                    print(line)
            print(f"anchor {ledger.anchor} (keep it: event verify LEDGER --anchor {ledger.anchor})")
        return 0

    return _guard(args, run)


def _publish(args: argparse.Namespace) -> int:
    def run() -> int:
        import asyncio

        from engine.tournament.assignment import (
            latest_paired_round,
            other_rounds_tables,
            round_assignments,
        )
        from firmware_bridge.mqtt.connection import parse_venue_url
        from firmware_bridge.venue.assignment_feed import publish_assignments

        with _open(args) as ledger:
            state, anchor = ledger.state, ledger.anchor
        rnd = args.round or latest_paired_round(state)
        games = round_assignments(state, rnd, anchor=str(anchor))
        # the tables other rounds used are cleared with those the broker holds
        before = other_rounds_tables(state, rnd)
        broker, venue = parse_venue_url(args.broker)  # _bad_input checked it
        try:
            acked, cleared = asyncio.run(publish_assignments(broker, venue, games, clear=before))
        except TimeoutError:
            _say(f"rackclock event publish: the broker {args.broker} did not answer")
            return 1
        for g in games:
            who = f"{g.players[0]} (first) v {g.players[1]}"
            print(f"round {rnd} {g.division} table {g.table_name}: {who}")
        if cleared:
            print(f"cleared the assignment of {', '.join(cleared)} (not used in round {rnd})")
        print(f"published {acked} of {len(games)} table(s) to venue {venue!r}, anchor {anchor}")
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
        from engine.tournament.report import result_line
        from engine.tournament.slips import find_player, read_slip

        name_a, score_a, name_b, score_b = args.entries
        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            # a player by number, name or unambiguous prefix, as a slip names one; the
            # result is then read as the slip line it is, one way for both
            a, b = find_player(div, name_a), find_player(div, name_b)
            line = f"r{args.round} {a} {score_a} {b} {score_b}"  # whole: _bad_input
            if args.forfeit is not None:
                out = find_player(div, args.forfeit)
                if out not in (a, b) or a == b:
                    raise ResultError(
                        f"--forfeit {args.forfeit!r}: name the player who forfeits, "
                        f"#{a} {div.name(a)} or #{b} {div.name(b)}"
                    )
                line = f"r{args.round} {out} f {b if out == a else a}"
            slip = read_slip(
                ledger.state,
                line,
                division=div.spec.name,
                by=who(args.by),
                reason=args.reason,
                correct_how="add --reason WHY (a correction needs a reason)",
            )
            ledger.append(slip.result)
            res = slip.result
            print(
                result_line(
                    div,
                    ledger.state.division(div.spec.name).results[res.round][
                        (res.first, res.second)
                    ],
                )
            )
        return 0

    return _guard(args, run)


def _results(args: argparse.Namespace) -> int:
    said: set[str] = set()

    def say_once(line: str) -> None:  # --watch: each line once, not every pass
        if line not in said:
            said.add(line)
            _say(line)

    def take(ledger: EventLedger, path: Path) -> bool:
        """Take one file's results; whether it gave a result (new or already in)
        with nothing refused."""
        from clock.tournament.gamelogs import read_game_log, take_results
        from engine.errors import EngineError
        from engine.tournament.report import result_line

        try:
            events = read_game_log(path)
        except (OSError, EngineError) as exc:
            say_once(f"skipped {path}: {exc}")
            return False
        got = take_results(
            ledger,
            str(path),
            events,
            division=args.division,
            round_=args.round,
            unsigned=args.unsigned,
        )
        for res in got.results:
            print(result_line(ledger.state.division(res.division), res), flush=True)
        for line in got.notes:
            say_once(line)
        for line in got.refused:
            say_once(f"not taken: {line}")
        return not got.refused and (len(got.results) + got.known) > 0

    def once(ledger: EventLedger) -> int:
        """Every file once; the number of files named on the command line that gave nothing."""
        from clock.log.log_files import log_files

        ledger.refresh()  # --watch beside the console: the event as it stands now
        failed = 0
        for given in args.games:
            if given.is_dir():
                found = log_files([given])
                if not found:
                    say_once(f"{given}: no game logs in it")
                for path in found:
                    take(ledger, path)  # a folder scan: each file says what it skipped
            elif not take(ledger, given):
                failed += 1  # a file named on its own must give its result
        return failed

    def run() -> int:
        import time

        with _open(args) as ledger:
            if args.division is not None:  # refused with the event's divisions, not ignored
                ledger.state.division(args.division)
            failed = once(ledger)
            while args.watch:
                time.sleep(args.watch)
                once(ledger)
        return 1 if failed else 0

    try:
        return _guard(args, run)
    except KeyboardInterrupt:
        return 0


def _standings(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.live import round_standings, standings_label
        from engine.tournament.report import check_played_through, results_report, standings_lines

        with _open(args) as ledger:
            divisions = _divisions(ledger.state, args.division)
            check_played_through(divisions, args.round)
            if args.report:
                print("\n".join(results_report(ledger.state, divisions, args.round)))
                return 0
            for div in divisions:
                if args.round:  # as of the round asked for, labelled by what it counts
                    label, through = standings_label(div, args.round), args.round
                    rows, in_play = div.standings(through), None
                else:  # "after round N": the complete rounds (as the console and page)
                    now = round_standings(div)
                    label, through, rows = now.label, now.complete, now.standings
                    in_play = now.in_play
                print(f"division {div.spec.name} {label}:")
                print("\n".join(standings_lines(div, rows, through)))
                if in_play is not None:
                    print(f"  {in_play.text}")
        return 0

    return _guard(args, run)


def _enter(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.records import Entered
        from engine.tournament.spec import Player, player_name

        name = player_name(args.name, "late entry")  # as the event keeps it (checked before)
        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            ledger.append(Entered(div.spec.name, Player(name, args.rating), args.round))
            seed = len(div.players)
            print(f"{name} entered in {div.spec.name} from round {args.round} as #{seed}")
        return 0

    return _guard(args, run)


def _withdraw(args: argparse.Namespace) -> int:
    def run() -> int:
        from engine.tournament.records import Withdrew

        with _open(args) as ledger:
            div = _one_division(ledger.state, args.division)
            seed = div.seed_of(args.name)
            ledger.append(Withdrew(div.spec.name, seed, args.round, args.reason))
            print(f"{div.name(seed)} withdrawn from round {args.round}: not paired from then on")
            for rnd in div.rounds_paired(seed, args.round):
                _say(
                    f"note: round {rnd} is paired with {div.name(seed)} in it: record the "
                    f"game as a forfeit (event result ... --forfeit {div.name(seed)!r}) "
                    "or unpair the round"
                )
        return 0

    return _guard(args, run)


def _export(args: argparse.Namespace) -> int:
    def run() -> int:
        from clock.exports.results_files import write_anchor, write_naspa_file, write_t_files
        from engine.tournament.naspa import event_naspa_lines
        from engine.tournament.tsh import event_t_files

        with _open(args) as ledger:
            # the ledger's anchor goes with every export: the file can vouch for the ledger
            anchor = f"rackclock event ledger anchor {ledger.anchor}"
            if args.format == "tsh":
                # the one .t writer, export tsh's: a name the encoding cannot hold is refused
                files = event_t_files(ledger.state, anchor)
                for out in write_t_files(args.output or Path("."), files, args.encoding):
                    print(f"wrote {out}")
                return 0
            notes: list[str] = []
            lines = event_naspa_lines(ledger.state, notes)
            for note in notes:
                _say(f"note: {note}")
            # NASPA's results file has no comment line: the anchor goes next to it
            if args.output is None:
                sys.stdout.write("\n".join(lines) + "\n")
                _say(anchor)
            else:
                write_naspa_file(args.output, lines)
                side = write_anchor(args.output, anchor)
                print(f"wrote {args.output} ({anchor}, also in {side.name})")
        return 0

    return _guard(args, run)


def _import(args: argparse.Namespace) -> int:
    def run() -> int:
        from clock.tournament.event_files import read_t_files
        from clock.tournament.ledger import EventLedger
        from engine.tournament.tsh import event_text_of_t, records_from_t

        parsed = read_t_files(args.tfiles)
        text = event_text_of_t(args.log.stem, parsed, args.rounds, args.system)
        with EventLedger.create(args.log, text, "tsh import") as ledger:
            for name, t in parsed:
                for record in records_from_t(t, name):
                    ledger.append(record)
            print(f"event's ledger: {args.log} ({ledger.state.records} records)")
        return 0

    return _guard(args, run)
