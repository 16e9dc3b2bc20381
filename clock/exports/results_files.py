"""The results files from the finished games of table logs: ``results-naspa.txt``
(ASCII) and tsh's ``.t``, one per division (``a.t`` for a single unnamed one,
ISO-8859-1 unless told otherwise), as the console's export and ``rackclock export
naspa|tsh`` write them. The lines are the engine's (:mod:`engine.exports.results`);
this module finds the games in the logs, gives them their rounds, encodes and writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from clock.exports.game_records import ExportReport
from engine.events import Event, GameStarted
from engine.exports.results import GameResult, ResultsError, game_result, naspa_lines, tsh_files
from engine.exports.roster import Roster, parse_roster
from engine.rules.replay import replay, split_games
from engine.rules.state import GameState

__all__ = [
    "KnownGame",
    "export_results",
    "finished_games",
    "log_games",
    "read_roster",
    "results_files",
]


@dataclass(frozen=True, slots=True)
class KnownGame:
    """A finished game of a table's log."""

    key: str
    """``<label>#<n>``: the table and the game's number in its log."""
    label: str
    """The table (or the log as named)."""
    number: int
    """1-based, in the log."""
    state: GameState
    """The game at its end."""
    first: int | None = None
    """The seat that went first (its ``game_started``), for tsh's ``p12``."""

    def describe(self) -> str:
        """``t3 game 1: Ann v Ben``."""
        return f"{self.label} game {self.number}: {self.state.players[0]} v {self.state.players[1]}"

    def result(self, round_: int | None = None) -> GameResult:
        """The game's result; ``round_`` for a game whose log gives none.

        Raises:
            ResultsError: Neither the log nor ``round_`` gives the round.
        """
        rnd = round_ if self.state.round is None else None
        return game_result(self.state, rnd, first=self.first)


def log_games(label: str, events: Sequence[tuple[int, Event]]) -> tuple[list[KnownGame], list[int]]:
    """The finished games of one log, and the numbers of those not over."""
    done: list[KnownGame] = []
    open_: list[int] = []
    for n, game in enumerate(split_games(events), start=1):
        state, _ = replay(game)
        if state.result is None:
            open_.append(n)
            continue
        first = next((ev.first for _, ev in game if isinstance(ev, GameStarted)), None)
        done.append(KnownGame(f"{label}#{n}", label, n, state, first))
    return done, open_


def finished_games(logs: Iterable[tuple[str, Sequence[tuple[int, Event]]]]) -> list[KnownGame]:
    """Every finished game of the logs (each ``(label, events)``), by label and order."""
    out: list[KnownGame] = []
    for label, events in sorted(logs, key=lambda log: log[0]):
        out += log_games(label, events)[0]
    return out


def read_roster(path: Path) -> Roster:
    """The roster file ``--roster`` names (tsh ``.t`` lines or CSV, UTF-8 with or
    without a byte-order mark): the names as filed and the ratings.

    Raises:
        OSError, UnicodeDecodeError: It cannot be read.
        RosterError: It is not a roster (quoted).
    """
    return parse_roster(path.read_text(encoding="utf-8-sig"), str(path))


def results_files(
    results: Sequence[GameResult],
    *,
    roster: Roster | None = None,
    encoding: str = "iso-8859-1",
    notes: list[str] | None = None,
    kinds: tuple[str, ...] = ("naspa", "tsh"),
) -> dict[str, bytes]:
    """``results-naspa.txt`` and one tsh ``.t`` per division (of ``kinds``), by file
    name; ``notes`` gets what the director should know, each once.

    Raises:
        ResultsError: The games do not make a consistent file, or a name cannot be
            written in ``encoding`` (rather than writing it garbled).
    """
    said: list[str] = []
    out: dict[str, bytes] = {}
    if "naspa" in kinds:
        naspa = naspa_lines(results, roster, said)
        out["results-naspa.txt"] = ("\n".join(naspa) + "\n").encode("ascii")
    tsh = tsh_files(results, roster, said) if "tsh" in kinds else {}
    if notes is not None:
        notes.extend(dict.fromkeys(said))
    for name, lines in tsh.items():
        text = "\n".join(lines) + "\n"
        try:
            out[name] = text.encode(encoding)
        except UnicodeEncodeError as exc:
            bad = next(ln for ln in lines if not _encodes(ln, encoding))
            raise ResultsError(
                f"{name}: {bad.split(' ')[0]}... has {exc.object[exc.start : exc.end]!r}, which "
                f"{encoding} cannot hold: use --encoding utf-8 (and tfile_encoding in tsh's "
                "config) or spell the name in the roster"
            ) from None
    return out


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def export_results(
    games: Sequence[KnownGame],
    rounds: Mapping[str, int],
    directory: Path,
    *,
    default_round: int | None = None,
    roster: Roster | None = None,
) -> ExportReport:
    """``results-naspa.txt`` and a tsh ``.t`` per division from the finished games.

    A game's round is its ``game_started.round``, else ``rounds[game.key]``,
    else ``default_round``; nothing is written while any game has none.
    """
    out = ExportReport()
    results: list[GameResult] = []
    missing: list[str] = []
    for g in games:
        rnd = g.state.round or rounds.get(g.key) or default_round
        if rnd is None:
            missing.append(g.describe())
            continue
        results.append(g.result(rnd))
    if not games:
        out.problems.append("no finished game: no results file")
        return out
    if missing:
        out.problems.append(
            "no round number for " + "; ".join(missing) + " (give it here, or --round): "
            "no results file written"
        )
        return out
    notes: list[str] = []
    try:
        files = results_files(results, roster=roster, notes=notes)
    except ResultsError as exc:
        out.problems.append(f"results: {exc}")
        return out
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        path = directory / name
        path.write_bytes(data)
        out.paths.append(path)
    out.notes.extend(notes)
    return out
