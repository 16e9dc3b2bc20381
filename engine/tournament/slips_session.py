"""A session of slip entry: the lines a director types, one after another, at the
CLI (``rackclock event slips``) or the console's slip screen, read the same way.

Each line is a slip (:mod:`engine.tournament.slips`) or one of the session's
commands: ``u`` undoes this session's last entry, ``c LINE --reason WHY`` corrects
a result already in, ``m`` lists the games still missing, ``division NAME`` and
``round N`` choose where lines go, ``h`` helps, ``q`` quits. Every entry, undo and
correction is a record in the event's ledger with who made it (``by``), so the
ledger says who changed what and why. A line refused changes nothing.

Pure: the ledger comes as a :class:`Book` (``clock.tournament.ledger.EventLedger``
is one), which does the writing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from msgspec.structs import replace

from engine.errors import EngineError
from engine.tournament.records import Record, Result, Retracted
from engine.tournament.slips import missing_report, read_slip, result_echo, slip_division
from engine.tournament.state import EventState

__all__ = ["HELP", "Book", "Reply", "SlipSession"]

HELP = """\
a game a line: PLAYER SCORE PLAYER SCORE, a player by number or the start of a name
  3 410 7 385    gus 410 dan 385    Gray, Gus 410 Doe 385    r3 3 410 7 385 (round 3)
  3 f            #3 forfeits (3 f 7: checked against the pairing); a bye needs no slip
  3 absent 7     neither came: a loss for both, no spread
  c LINE --reason WHY   correct a result already in (a line starting with the word c is one)
  u              undo this session's last entry
  m              the games still without a result, by table
  round N / division NAME   where the lines go (default: the round the two players are
                 paired in without a result; m lists every round with games missing)
  q              quit"""


class Book(Protocol):
    """Where the session's records go: the event's ledger."""

    @property
    def state(self) -> EventState:
        """The event as the ledger has it now."""
        ...

    def append(self, record: Record) -> EventState:
        """Check ``record`` against the event and keep it (raises when refused)."""
        ...

    def refresh(self) -> bool:
        """Take what others appended since."""
        ...


@dataclass(frozen=True)
class Reply:
    """What the session answers a line."""

    text: str
    ok: bool = True
    """False: the line was refused and changed nothing."""
    done: bool = False
    """The director quit."""


@dataclass
class SlipSession:
    """One director's run of slip lines on one event."""

    book: Book
    by: str
    """Who enters: ``by`` on every record the session makes."""
    division: str | None = None
    round: int | None = None
    """None: each line goes to the round its players are paired in without a result."""
    entries: list[tuple[Result, Result | None, int]] = field(default_factory=list)
    """This session's entries, oldest first: the record made, the one it replaced and
    the player typed first (who leads its echoes, the undo's too)."""

    def handle(self, line: str) -> Reply:
        """Read one line and act on it."""
        line = line.strip()  # a piped line keeps its newline: not part of what is quoted
        words = line.split()
        head = words[0].casefold() if words else ""
        try:
            if not words:
                return Reply("")
            if len(words) == 1 and head in ("q", "quit", "exit"):
                return Reply("bye", done=True)
            if len(words) == 1 and head in ("h", "help", "?"):
                return Reply(HELP)
            if len(words) == 1 and head in ("u", "undo"):
                return self.undo()
            if len(words) == 1 and head in ("m", "missing"):
                return Reply("\n".join(self.missing()))
            if len(words) == 2 and head in ("round", "r"):
                if not words[1].isdigit() or int(words[1]) < 1:
                    return Reply(f"refused: round {words[1]!r}: rounds are numbered from 1", False)
                return self._choose_round(int(words[1]))
            if len(words) == 2 and (head == "division" or (head == "d" and self._is_div(words[1]))):
                self.book.state.division(words[1])  # refused with the event's divisions
                self.division = self.book.state.division(words[1]).spec.name
                return Reply(f"lines go to division {self.division}")
            if head in ("c", "correct"):
                return self._correct(line.split(None, 1)[1] if len(words) > 1 else "")
            return self._enter(line)
        except EngineError as exc:
            return Reply(f"refused: {exc}", ok=False)

    def _is_div(self, word: str) -> bool:
        return word.casefold() in (d.casefold() for d in self.book.state.divisions)

    def _choose_round(self, rnd: int) -> Reply:
        div = slip_division(self.book.state, self.division)
        if rnd not in div.pairings:
            return Reply(f"refused: round {rnd} is not paired in division {div.spec.name}", False)
        self.round = rnd
        return Reply(f"lines go to round {rnd}")

    def _enter(self, line: str) -> Reply:
        self.book.refresh()  # judged against the event as it stands now
        slip = read_slip(
            self.book.state, line, division=self.division, round_=self.round, by=self.by
        )
        self.book.append(slip.result)
        self.entries.append((slip.result, None, slip.lead))
        return Reply(slip.echo)

    def _correct(self, rest: str) -> Reply:
        line, _, reason = rest.partition("--reason")
        if not reason.strip() or not line.strip():
            return Reply("refused: a correction is c LINE --reason WHY", ok=False)
        self.book.refresh()
        slip = read_slip(
            self.book.state,
            line,
            division=self.division,
            round_=self.round,
            by=self.by,
            reason=reason.strip(),
        )
        self.book.append(slip.result)
        self.entries.append((slip.result, slip.before, slip.lead))
        assert slip.before is not None  # read_slip refuses a correction of nothing
        was = result_echo(self.book.state, slip.before, slip.lead)
        return Reply(f"corrected: {slip.echo}  (was {was.split('  ', 1)[1]})")

    def undo(self) -> Reply:
        """Take back this session's last entry: a new result is taken back
        (:class:`Retracted`), a correction puts back the result it replaced."""
        if not self.entries:
            return Reply("refused: nothing entered in this session to undo", ok=False)
        self.book.refresh()
        made, before, lead = self.entries[-1]
        div = self.book.state.division(made.division)
        now = div.results.get(made.round, {}).get((made.first, made.second))
        if now is None or _core(now) != _core(made):  # changed since elsewhere: keep theirs
            return Reply(
                "refused: that result was changed since it was entered here "
                f"({result_echo(self.book.state, made, lead)}): "
                "correct it with c LINE --reason WHY",
                ok=False,
            )
        echo = result_echo(self.book.state, made, lead)
        if before is None:
            self.book.append(
                Retracted(
                    made.division,
                    made.round,
                    made.first,
                    made.second,
                    self.by,
                    "undo",
                    made.scores,  # what it takes back: refused if another desk changed it
                    made.winner,
                )
            )
            self.entries.pop()
            return Reply(f"undone: {echo}  (no result again)")
        back = replace(before, by=self.by, reason=f"undo of the correction ({made.reason})")
        self.book.append(back)
        self.entries.pop()
        again = result_echo(self.book.state, back, lead).split("  ", 1)[1]
        return Reply(f"undone: {echo}  (back to {again})")

    def missing(self) -> list[str]:
        """The games without a result, by table: of the session's round, else of every
        round with games missing (:func:`missing_report`)."""
        self.book.refresh()
        return missing_report(self.book.state, self.division, self.round)


def _core(res: Result) -> tuple[object, ...]:
    """What a result says (who won, the scores, the spread), not who wrote it or why."""
    return (res.kind, res.scores, res.winner, res.spread)
