"""The event at the director's desk (``rackclock director --event LEDGER``): results
taken from the tables as their games are signed, and the round and standings live.

Pure of Textual: :class:`EventDesk` holds the event's ledger; the console feeds it
each table's game log when it changes (offline) or when a table's state shows a
signed result (broker), and asks it for the text of the event screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec

from clock.tournament.gamelogs import read_game_log, take_results
from clock.tournament.ledger import EventLedger
from engine.clocktext import clock_text
from engine.errors import EngineError
from engine.events import Event
from engine.rules.game_report import GameReport, LiveReport
from engine.tournament.assignment import Assignment, round_assignments
from engine.tournament.live import TableGame, result_words, round_standings
from engine.tournament.report import standings_lines
from engine.tournament.scores import score_text
from engine.tournament.slips_session import SlipSession
from engine.tournament.state import DivisionState, EventState
from terminal_ui.director.rows import Row

__all__ = ["EventDesk", "game_identity", "line_parts", "signed_result"]

_GAME_LINE = re.compile(r"( *t\d+  .+? \(first\)) (v .+?:) (.+)")
"""A game's line on the event screen (:func:`_game_line`): the table and the first
player, `` v `` and the second, then the game's state."""


def signed_result(rep: LiveReport | GameReport) -> bool:
    """Whether a table's report (its live document's, as the link read it) shows a
    result both players signed."""
    return rep.result is not None and rep.signed == (True, True)


def game_identity(rep: LiveReport | GameReport) -> str:
    """Which signed game a table's report shows, for asking for its log once per
    game: its round, division and table, the log's game count and the result. A
    KOTH rematch at the same table with the same result in a later round is another
    game (another round, another count), so its log is asked for again."""
    fields = (rep.round, rep.division, rep.table, rep.games, rep.players, rep.result)
    return msgspec.json.encode(fields).decode()


class EventDesk:
    """The event's ledger, open while the console runs."""

    def __init__(self, path: Path) -> None:
        """Open the event's ledger.

        Raises:
            LogError, TournamentError: It cannot be read.
        """
        self.ledger = EventLedger.open(path)
        self.news: list[str] = []
        """What the desk did, newest last (results taken, games it could not place)."""
        self._taken: dict[str, object] = {}
        self._slips: SlipSession | None = None

    @property
    def state(self) -> EventState:
        """The event now."""
        return self.ledger.state

    def close(self) -> None:
        """Close the event's ledger."""
        self.ledger.close()

    def refresh(self) -> bool:
        """Take what others (``rackclock event`` in a shell) appended to the ledger since;
        whether there was anything. The console calls it on its one-second refresh,
        so a pairing, a correction or a withdrawal made elsewhere shows within it."""
        try:
            return self.ledger.refresh()
        except EngineError as exc:
            self.news.append(f"the event's ledger: {exc}")
            del self.news[:-20]
            return False

    def take(
        self,
        name: str,
        events: Sequence[tuple[int, Event]],
        key: object,
        *,
        table: str | None = None,
    ) -> None:
        """Take the signed results of a table's game log (again only when ``key`` changed).

        ``table`` is the table the log came from (its topic on the broker): only a
        game naming it, and assigned to it in its round, is taken from it."""
        if self._taken.get(name) == key:
            return
        self._taken[name] = key
        self.refresh()  # the game is judged against the event as it stands now
        got = take_results(
            self.ledger,
            name,
            events,
            table=table,
            # the console has no --round: the director takes such a game from a shell
            no_round="take it from the CLI with event results --round N",
        )
        for res in got.results:
            div = self.state.division(res.division)
            self.news.append(
                f"round {res.round}: {div.name(res.first)} {score_text(*res.scores)} "
                f"{div.name(res.second)} (from {name})"
            )
        self.news += [f"not taken: {line}" for line in got.refused]
        del self.news[:-20]

    def take_file(self, path: Path, name: str, key: object) -> None:
        """Take the signed results of a table's game log file, once it is found intact
        (a SQLite log's hash chain verifies; :mod:`clock.tournament.gamelogs`)."""
        if self._taken.get(name) == key:
            return
        try:
            events = read_game_log(path)
        except (OSError, EngineError) as exc:
            self._taken[name] = key
            self.news.append(f"not taken: {path}: {exc}")
            del self.news[:-20]
            return
        self.take(name, events, key)

    def slips(self, by: str) -> SlipSession:
        """The run of slip lines on this event (the slip screen), its records made
        ``by``: one for the console's life, so ``u`` still undoes the last entry after
        the screen is closed and opened again."""
        if self._slips is None or self._slips.by != by:
            self._slips = SlipSession(self.ledger, by)
        return self._slips

    def text(self, rows: Iterable[Row]) -> str:
        """The event screen: each division's current round with the tables' live
        scores, its standings after its complete rounds, and apart the round in play
        with its games counted as they stand."""
        live = list(rows)
        out = [self.state.spec.name or "the event"]
        for div in self.state.divisions.values():
            out += ["", *_division(self.state, div, live)]
        if self.news:
            out += ["", "Taken from the tables:", *(f"  {n}" for n in self.news[-8:])]
        return "\n".join(out)


def _row_at(live: list[Row], at: Assignment, names: tuple[str, str]) -> Row | None:
    """The row of the game ``at`` put at its table. On the broker (rows with no file
    ``source``): the row of that table (``venue/t3``), if it shows the pairing's
    players; a table naming another game's players moves nothing of that game.
    Offline, where the director chose the files: the file showing them."""
    want = frozenset(names)
    if any(not r.source for r in live):
        return next(
            (
                r
                for r in live
                if not r.source
                and r.key.rpartition("/")[2] == at.table_name
                and frozenset(r.players) == want
            ),
            None,
        )
    return next((r for r in live if frozenset(r.players) == want), None)


def _division(event: EventState, div: DivisionState, live: list[Row]) -> list[str]:
    if not div.pairings:
        return [f"Division {div.spec.name}: no round paired yet"]
    rnd = max(div.pairings)
    paired = div.pairings[rnd]
    out = [f"Division {div.spec.name}, round {rnd} of {div.spec.rounds} ({paired.system})"]
    # the tables as the broker and event pair number them
    tables = {a.seeds: a for a in round_assignments(event, rnd) if a.division == div.spec.name}
    games: dict[tuple[int, int], TableGame] = {}
    for a, b in paired.pairs:
        if not b:
            out.append(f"  bye   {div.name(a)}")
            continue
        res = div.result(rnd, (a, b))
        row = _row_at(live, tables[(a, b)], (div.name(a), div.name(b)))
        if res is not None:
            # the ruling (a forfeit, a resignation) as event show words it
            ruling = div.ruling(res)
            state = f"{score_text(*res.scores)}  result in" + (f" ({ruling})" if ruling else "")
        elif row is not None:
            game = TableGame(row.players, row.scores, row.result, row.signed)
            games[(a, b)] = game
            state = _at_table(row, game, div.name(a))
        else:
            state = "not started"
        out.append(_game_line(tables[(a, b)].table_name, div.name(a), div.name(b), state))
    # "after round N" is the complete rounds, as event standings and the page show
    # it; the round in play apart, as it stands at the tables (one function decides)
    now = round_standings(div, lambda _rnd, pair: games.get(pair))
    out += ["", f"Standings {now.label}", *standings_lines(div, now.standings, now.complete)]
    if now.in_play is not None and now.in_play.standings is not None:
        live_rows = standings_lines(div, now.in_play.standings, now.in_play.round)
        out += ["", f"Standings {now.in_play.label}", *live_rows]
    return out


def _game_line(table: str, first: str, second: str, state: str) -> str:
    """A game's line: :data:`_GAME_LINE` reads its parts back for the screen's wrapping."""
    return f"  {table:>4}  {first} (first) v {second}: {state}"


def line_parts(line: str) -> tuple[str, ...] | None:
    """The parts of a game's line of the event screen, where it may wrap when it is
    too wide, so a name is never split across lines: the table and the first player,
    `` v `` and the second, and the game's state in its phrases (the score, the
    phase, the clocks; after a comma or a semicolon); None for any other line. The
    parts joined are the line: each after the first starts with its spaces."""
    found = _GAME_LINE.fullmatch(line)
    if found is None:
        return None
    head, second, state = found.groups()
    words = re.split(r"((?<=[,;]) |  )", state)  # phrase, spaces, phrase...
    phrases = [sep + text for sep, text in zip(words[1::2], words[2::2], strict=True)]
    return (head, f" {second}", f" {words[0]}", *phrases)


def _at_table(row: Row, game: TableGame, first: str) -> str:
    """A game with no result in the event yet, as its table has it: over, the table's
    ruling (the standings count it so) until both sign; in play, the scores in the
    pairing's order, the phase and the clocks."""
    if row.result is not None:
        words = result_words(row.players, row.result)  # as the overview's "game over: ..."
        unsigned = [name for name, done in zip(row.players, game.signed, strict=True) if not done]
        return f"{words}; not signed yet by {' and '.join(unsigned)}" if unsigned else words
    sa, sb = row.scores if row.players[0] == first else row.scores[::-1]
    clocks = " / ".join(clock_text(ms) for ms in row.remaining_ms)
    return f"{score_text(sa, sb)}  {row.phase_text}, clocks {clocks}"
