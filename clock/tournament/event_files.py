"""The files a director starts an event's ledger from: the event file (TOML,
docs/tournament.md) for ``event new`` and tsh's ``.t`` files for ``event import``.
What they say is the engine's (:func:`engine.tournament.spec.parse_event`,
:func:`engine.tournament.tsh.parse_t`); here they are read and decoded as their
formats are, and checked against what a table will need. ``event export`` writes
its files with the one writer of each format, as ``rackclock export`` does
(:func:`clock.exports.results_files.write_t_files`,
:func:`clock.exports.results_files.write_naspa_file`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from clock.user_files import load_variant
from engine.errors import EngineError
from engine.exports.tfile import TSH_ENCODING
from engine.tournament.errors import EventFileError
from engine.tournament.spec import EventSpec, parse_event, player_name, results_name
from engine.tournament.tsh import TshDivision, parse_t

__all__ = ["read_event_file", "read_t_files"]


def read_event_file(path: Path) -> tuple[str, EventSpec]:
    """The event file's text and the event it describes, every division's variant
    loaded (a table could not start a game of an unknown one).

    Raises:
        OSError: The file cannot be read.
        EventFileError: Not UTF-8 text, not an event, a player's name its results
            files could not hold (:func:`engine.tournament.spec.results_name`), or a
            variant that cannot be loaded (the file, the division and the variant
            quoted).
    """
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EventFileError(
            f"{path}: not UTF-8 text at byte {exc.start}: an event file is "
            "TOML, which is UTF-8 (save it as UTF-8)"
        ) from None
    spec = parse_event(text, str(path))
    for div in spec.divisions:
        for player in div.players:  # names entering the event fit its results files
            results_name(player.name, f"{path}: division {div.name!r}")
        try:
            load_variant(div.variant)
        except EngineError as exc:
            raise EventFileError(
                f"{path}: division {div.name!r}: variant {div.variant!r}: {exc}"
            ) from None
    return text, spec


def read_t_files(paths: Sequence[Path]) -> list[tuple[str, TshDivision]]:
    """Each ``.t`` file read (UTF-8 when it is UTF-8, as ``export tsh --encoding
    utf-8`` and a ``tfile_encoding utf-8`` config write it; else ISO-8859-1, tsh's
    own), named for its division by its file name in capitals (``a.t``: division
    ``A``), in the order given.

    Raises:
        OSError: A file cannot be read.
        EngineError: A file that is not a ``.t`` file, or a player's name the
            event could not take (:func:`engine.tournament.spec.results_name`),
            quoted by its path.
    """
    out = []
    for path in paths:
        data = path.read_bytes()
        try:  # ISO-8859-1's accented letters are seldom valid UTF-8: no guess between
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode(TSH_ENCODING)
        t = parse_t(text, str(path))
        for number, player in enumerate(t.players, start=1):
            # names entering the event: one line that fits its results files
            where = f"{path}: player {number}"
            results_name(player_name(player.name, where), where)
        out.append((path.stem.upper(), t))
    return out
