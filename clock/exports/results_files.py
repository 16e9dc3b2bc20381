"""The results files: ``results-naspa.txt`` (ASCII) and tsh's ``.t``, one per
division (``a.t`` for a single unnamed one, ISO-8859-1 unless told otherwise), from
the finished games of table logs as the console's export and ``rackclock export
naspa|tsh`` write them, and the one writer of both formats, which ``event export``
uses too (:func:`write_t_files`, :func:`write_naspa_file`). The lines are the
engine's (:mod:`engine.exports.results`, :mod:`engine.tournament.tsh`); this module
finds the games in the logs, gives them their rounds, encodes and writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from clock.exports.game_records import ExportReport
from engine.events import Event, GameStarted
from engine.exports.results import GameResult, ResultsError, game_result, naspa_lines, tsh_files
from engine.exports.roster import Roster, parse_roster
from engine.exports.tfile import ENCODING_WAY_OUT, TSH_ENCODING, t_file_bytes
from engine.rules.replay import replay, split_games
from engine.rules.state import GameState

__all__ = [
    "NASPA_FILE",
    "KnownGame",
    "export_results",
    "finished_games",
    "log_games",
    "naspa_bytes",
    "read_roster",
    "results_files",
    "results_lines",
    "write_anchor",
    "write_files",
    "write_naspa_file",
    "write_t_files",
]

NASPA_FILE = "results-naspa.txt"
"""The NASPA results file's name in an export's folder."""


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


def results_lines(
    results: Sequence[GameResult],
    *,
    roster: Roster | None = None,
    notes: list[str] | None = None,
    kinds: tuple[str, ...] = ("naspa", "tsh"),
) -> dict[str, list[str]]:
    """``results-naspa.txt``'s lines and each tsh ``.t`` file's, one per division (of
    ``kinds``), by file name; ``notes`` gets what the director should know, each once.

    Raises:
        ResultsError: The games do not make a consistent file.
    """
    said: list[str] = []
    out: dict[str, list[str]] = {}
    if "naspa" in kinds:
        out[NASPA_FILE] = naspa_lines(results, roster, said)
    if "tsh" in kinds:
        out.update(tsh_files(results, roster, said))
    if notes is not None:
        notes.extend(dict.fromkeys(said))
    return out


def results_files(
    results: Sequence[GameResult],
    *,
    roster: Roster | None = None,
    encoding: str = TSH_ENCODING,
    notes: list[str] | None = None,
    kinds: tuple[str, ...] = ("naspa", "tsh"),
    way_out: str = ENCODING_WAY_OUT,
) -> dict[str, bytes]:
    """:func:`results_lines` as written: NASPA's file in ASCII, each ``.t`` file in
    ``encoding`` (:func:`engine.exports.tfile.t_file_bytes`).

    Raises:
        ResultsError: The games do not make a consistent file, or a name cannot be
            written in ``encoding`` (rather than writing it garbled).
    """
    files = results_lines(results, roster=roster, notes=notes, kinds=kinds)
    return {
        name: naspa_bytes(lines)
        if name == NASPA_FILE
        else t_file_bytes(name, lines, encoding, way_out)
        for name, lines in files.items()
    }


def naspa_bytes(lines: Sequence[str]) -> bytes:
    """NASPA's results file as written: ASCII (:func:`engine.exports.results.naspa_lines`
    has refused a name with no ASCII form)."""
    return ("\n".join(lines) + "\n").encode("ascii")


def write_t_files(
    folder: Path, files: Mapping[str, Sequence[str]], encoding: str = TSH_ENCODING
) -> list[Path]:
    """The one writer of tsh's ``.t`` files, for ``rackclock export tsh`` (the tables'
    games) and ``event export tsh`` (the event's ledger): each file's lines
    (:func:`engine.exports.tfile.division_files`) into ``folder`` (made if need be),
    in ``encoding``; the files written.

    Every file is encoded before any is written, so a name ``encoding`` cannot hold
    leaves the folder as it was.

    Raises:
        ResultsError: A name ``encoding`` cannot hold (the player quoted).
        OSError: A file cannot be written.
    """
    return write_files(
        folder, {name: t_file_bytes(name, lines, encoding) for name, lines in files.items()}
    )


def write_naspa_file(path: Path, lines: Sequence[str]) -> None:
    """The one writer of NASPA's results file (ASCII), for ``rackclock export naspa``
    and ``event export naspa``.

    Raises:
        OSError: The file cannot be written.
        UnicodeEncodeError: A line that is not ASCII.
    """
    path.write_bytes(naspa_bytes(lines))


def write_anchor(path: Path, anchor: str) -> Path:
    """The event ledger's ``anchor`` line beside ``path`` (``<name>.anchor``), for a
    format with no comment line (NASPA's); the anchor's file.

    Raises:
        OSError: The file cannot be written.
    """
    side = path.with_name(path.name + ".anchor")
    side.write_text(anchor + "\n", encoding="ascii")
    return side


def write_files(folder: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write each file's bytes into ``folder`` (made if need be); the files written.

    Raises:
        OSError: A file cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, data in files.items():
        path = folder / name
        path.write_bytes(data)
        out.append(path)
    return out


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
    files: dict[str, bytes] = {}
    # each kind on its own: a name one file cannot hold does not withhold the other
    for kind, what in (("naspa", NASPA_FILE), ("tsh", "the .t files")):
        try:
            files.update(
                results_files(
                    results, roster=roster, notes=notes, kinds=(kind,), way_out=CONSOLE_WAY_OUT
                )
            )
        except ResultsError as exc:
            out.problems.append(f"results: {exc}: {what} not written")
    out.paths.extend(write_files(directory, files) if files else [])
    out.notes.extend(dict.fromkeys(notes))
    return out


CONSOLE_WAY_OUT = (
    "export them with rackclock export tsh --encoding utf-8 (and tfile_encoding in tsh's config)"
)
"""The console writes ``.t`` files in tsh's ISO-8859-1 and has no ``--encoding``: the
way out it names is the command line's."""
