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
import contextlib
import sys
from typing import TYPE_CHECKING, Any

from terminal_ui.cli.args import who

if TYPE_CHECKING:
    from engine.tournament.slips_session import SlipSession

__all__ = ["register"]


def register(action: Any, guard: Any) -> None:
    """Add ``event slips`` and ``event missing`` (``action`` and ``guard`` are
    ``event``'s: its refusals, one line and exit 2 or 1, are these commands' too)."""

    def guarded(body: Any) -> Any:
        return lambda args: guard(args, lambda: body(args))

    slips = action(
        "slips",
        "enter results from paper slips, a game a line (h: the forms, q: quit)",
        guarded(_slips),
    )
    slips.add_argument(
        "--round", type=int, metavar="N", help="default: the round the two players are paired in"
    )
    slips.add_argument("--division", metavar="NAME")
    slips.add_argument("--by", metavar="NAME", help="who enters them (default: the OS user)")
    missing = action("missing", "the games without a result, by round and table", guarded(_missing))
    missing.add_argument(
        "--round", type=int, metavar="N", help="default: every round with games missing"
    )
    missing.add_argument("--division", metavar="NAME")


def _fail(args: argparse.Namespace, text: str) -> None:
    sys.stderr.write(f"rackclock event {args.event_command}: {text}\n")


def _slips(args: argparse.Namespace) -> int:
    from clock.tournament.ledger import EventLedger
    from engine.errors import EngineError
    from engine.tournament.slips import slip_where
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
            # line editing and history at the prompt (Up: the last line again); a
            # Python built without readline still reads lines
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401
            try:
                where = slip_where(ledger.state, session.division, session.round)
            except EngineError as exc:
                where = str(exc)
            print(f"slips for {ledger.state.spec.name}, {where}, as {by} (h: help, q: quit)")
        return _read_lines(session, interactive)


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
    from clock.tournament.ledger import EventLedger
    from engine.tournament.slips import missing_report

    with EventLedger.open(args.log, readonly=True) as ledger:
        print("\n".join(missing_report(ledger.state, args.division, args.round)))
    return 0
