"""``rackclock event slips`` and ``event missing``: results from paper slips at the
desk, a game a line, and the games still without a result.

``slips`` reads lines from the terminal (a prompt) or from a pipe (a file of
lines), each read by :class:`engine.tournament.slips_session.SlipSession` as the
console's slip screen reads it, and prints what each line was read as; a refused
line changes nothing. Every record it makes carries ``--by`` (default: the OS
user). Piped, a refused line is said on stderr with its line number and the exit
status is 1 when any was refused.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.tournament.slips_session import SlipSession

__all__ = ["register", "who"]


def register(esub: Any, action: Any) -> None:
    """Add ``event slips`` and ``event missing`` (``action`` is ``event``'s helper)."""
    del esub  # every action is made through ``action``, as event's own are
    slips = action(
        "slips", "enter results from paper slips, a game a line (h: the forms, q: quit)", _slips
    )
    slips.add_argument(
        "--round", type=int, metavar="N", help="default: the latest with games missing"
    )
    slips.add_argument("--division", metavar="NAME")
    slips.add_argument("--by", metavar="NAME", help="who enters them (default: the OS user)")
    missing = action("missing", "the round's games without a result, by table", _missing)
    missing.add_argument(
        "--round", type=int, metavar="N", help="default: the latest with games missing"
    )
    missing.add_argument("--division", metavar="NAME")


def who(by: str | None) -> str:
    """Who records a result typed here: ``--by``, else the OS user (else ``director``,
    the ledger's default, where the system names no user)."""
    if by:
        return by
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment nor the user database
        return "director"


def _fail(args: argparse.Namespace, text: str) -> None:
    sys.stderr.write(f"rackclock event {args.event_command}: {text}\n")


def _run(args: argparse.Namespace, body: Any) -> int:
    """``body()``'s status; bad input or a ledger that cannot be read: one line, no traceback."""
    from clock.log.eventlog import LogError
    from engine.errors import EngineError

    if args.round is not None and args.round < 1:
        _fail(args, f"--round {args.round}: rounds are numbered from 1")
        return 2
    try:
        return int(body())
    except (LogError, EngineError, OSError) as exc:
        _fail(args, str(exc))
        return 1


def _slips(args: argparse.Namespace) -> int:
    def body() -> int:
        from clock.tournament.ledger import EventLedger
        from engine.tournament.slips import slip_division, slip_round
        from engine.tournament.slips_session import SlipSession

        by = who(args.by)
        with EventLedger.open(args.log) as ledger:
            session = SlipSession(ledger, by)
            for chosen in (
                () if args.division is None else (f"division {args.division}",),
                () if args.round is None else (f"round {args.round}",),
            ):
                for line in chosen:
                    reply = session.handle(line)
                    if not reply.ok:
                        _fail(args, reply.text.removeprefix("refused: "))
                        return 1
            interactive = sys.stdin.isatty()
            if interactive:
                state = ledger.state
                if session.division is None and len(state.divisions) > 1:
                    where = "start a line with its division, or type division NAME"
                else:
                    div = slip_division(state, session.division)
                    where = f"division {div.spec.name} round {session.round or slip_round(div)}"
                print(f"slips for {state.spec.name}, {where}, as {by} (h: help, q: quit)")
            return _read_lines(session, interactive)

    return _run(args, body)


def _read_lines(session: SlipSession, interactive: bool) -> int:
    """Feed the session every line; 1 when a piped line was refused."""
    refused = 0
    number = 0
    while True:
        try:
            line = input("slip> ") if interactive else sys.stdin.readline()
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        if not interactive and not line:
            return 1 if refused else 0
        number += 1
        reply = session.handle(line)
        if reply.ok:
            if reply.text:
                print(reply.text, flush=True)
        elif interactive:
            print(reply.text, flush=True)
        else:
            refused += 1
            sys.stderr.write(f"line {number}: {reply.text}\n")
        if reply.done:
            return 1 if refused else 0


def _missing(args: argparse.Namespace) -> int:
    def body() -> int:
        from clock.tournament.ledger import EventLedger
        from engine.tournament.slips import missing_lines, slip_round

        with EventLedger.open(args.log, readonly=True) as ledger:
            state = ledger.state
            if args.division is not None:
                divs = [state.division(args.division)]
            else:
                divs = [d for d in state.divisions.values() if d.pairings]
            if not divs:
                print("no round is paired yet")
            for div in divs:
                print("\n".join(missing_lines(state, div, args.round or slip_round(div))))
        return 0

    return _run(args, body)
