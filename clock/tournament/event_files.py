"""The event's files on disk: those a director starts an event's ledger from, the
event file (TOML, docs/tournament.md) for ``event new`` and tsh's ``.t`` files for
``event import``, and those ``event export`` writes, tsh's ``.t`` files and
NASPA's results file with the ledger's anchor beside it. What they say is the
engine's (:func:`engine.tournament.spec.parse_event`,
:func:`engine.tournament.tsh.parse_t`, :func:`engine.tournament.tsh.event_t_files`,
:func:`engine.tournament.naspa.event_naspa_lines`); here they are opened, encoded
and decoded as their formats are, and checked against what a table will need.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from clock.user_files import load_variant
from engine.errors import EngineError
from engine.tournament.errors import EventFileError
from engine.tournament.spec import EventSpec, parse_event
from engine.tournament.tsh import TshDivision, parse_t

__all__ = ["read_event_file", "read_t_files", "write_naspa_file", "write_t_files"]


def read_event_file(path: Path) -> tuple[str, EventSpec]:
    """The event file's text and the event it describes, every division's variant
    loaded (a table could not start a game of an unknown one).

    Raises:
        OSError: The file cannot be read.
        EventFileError: Not UTF-8 text, not an event, or a variant that cannot be
            loaded (the file, the division and the variant quoted).
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
        try:
            load_variant(div.variant)
        except EngineError as exc:
            raise EventFileError(
                f"{path}: division {div.name!r}: variant {div.variant!r}: {exc}"
            ) from None
    return text, spec


def read_t_files(paths: Sequence[Path]) -> list[tuple[str, TshDivision]]:
    """Each ``.t`` file read (ISO-8859-1, tsh's own encoding), named for its division
    by its file name in capitals (``a.t``: division ``A``), in the order given.

    Raises:
        OSError: A file cannot be read.
        EngineError: A file that is not a ``.t`` file (quoted by its path).
    """
    return [
        (path.stem.upper(), parse_t(path.read_text(encoding="iso-8859-1"), str(path)))
        for path in paths
    ]


def write_t_files(folder: Path, files: Mapping[str, list[str]]) -> Iterator[Path]:
    """Write each ``.t`` file's lines (:func:`engine.tournament.tsh.event_t_files`) into
    ``folder`` (made if need be), in tsh's ISO-8859-1 (a letter it lacks becomes
    ``?``), yielding each file once it is written.

    Raises:
        OSError: A file cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in files.items():
        out = folder / name
        out.write_text("\n".join(lines) + "\n", encoding="iso-8859-1", errors="replace")
        yield out


def write_naspa_file(path: Path, lines: Sequence[str], anchor: str) -> Path:
    """Write NASPA's results file (ASCII) and, since it has no comment line, the
    ledger's ``anchor`` line beside it (``<name>.anchor``); the anchor's file.

    Raises:
        OSError: A file cannot be written.
        UnicodeEncodeError: A line that is not ASCII.
    """
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    side = path.with_name(path.name + ".anchor")
    side.write_text(anchor + "\n", encoding="ascii")
    return side
