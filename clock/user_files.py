"""The files a user names: variants, tile sets, layouts, word lists, GCG records.

The engine opens no file (``tests/engine/test_engine_purity.py``): it parses
text it is given and loads its bundled data by name. This is the edge that
reads what a user names, on the command line or in a game's ``game_started``,
hands the text to the engine's parsers and registers the result under the
name the user wrote, so the engine resolves that name like a bundled one: a
log whose game starts with ``"variant": "./club-night.toml"`` replays once
:func:`register_variant_files` has read the file.

A name is a file when it has a suffix and such a file exists; any other name
is the engine's (bundled, or registered before).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.equipment import layout as layouts
from engine.equipment import tiles
from engine.equipment.layout import Layout
from engine.equipment.tiles import TileSet
from engine.errors import DataFileError, WordListError
from engine.events import Event, GameStarted
from engine.gcg.check import CheckResult, Problem, check_bytes
from engine.play.lexicon import WordList
from engine.rules import variant as variants
from engine.rules.variant import Variant, VariantFile

__all__ = [
    "check_file",
    "load_layout",
    "load_tile_set",
    "load_variant",
    "load_word_list",
    "register_variant_files",
]


def _user_file(name: str) -> Path | None:
    """The file ``name`` names, or None when it is a name for the engine."""
    path = Path(name)
    return path if path.suffix and path.is_file() else None


def load_tile_set(name: str = "english") -> TileSet:
    """A tile set: read from the TOML file ``name`` and registered under it, or the
    engine's of that name.

    Raises:
        DataFileError: The file is malformed, or no tile set has that name.
    """
    path = _user_file(name)
    if path is None:
        return tiles.load_tile_set(name)
    tile_set = tiles.parse_tile_set(name, path.read_text(encoding="utf-8"), str(path))
    tiles.register_tile_set(name, tile_set)
    return tile_set


def load_layout(name: str = "standard") -> Layout:
    """A board layout: read from the text file ``name`` and registered under it, or
    the engine's of that name.

    Raises:
        DataFileError: The file is malformed, or no layout has that name.
    """
    path = _user_file(name)
    if path is None:
        return layouts.load_layout(name)
    layout = layouts.parse_layout(name, path.read_text(encoding="utf-8"), str(path))
    layouts.register_layout(name, layout)
    return layout


def _variant_file(path: Path) -> VariantFile:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"variant {str(path)!r}: {exc.strerror}") from None
    return VariantFile(text, str(path), path.stem)


def load_variant(name: str) -> Variant:
    """A variant: read from the TOML file ``name`` with the files it ``extends`` and
    the tile set and layout files it names, and registered under ``name``; or the
    engine's of that name.

    Raises:
        DataFileError: A file is malformed, or a name is unknown.
    """
    if _user_file(name) is None:
        return variants.load_variant(name)
    files: dict[str, VariantFile] = {}
    pending: str | None = name
    while pending is not None and pending not in files:
        path = _user_file(pending)
        if path is None:
            break  # a bundled variant (the engine says if there is none)
        files[pending] = _variant_file(path)
        pending = variants.extends_of(files[pending])
    variant = variants.parse_variant(name, files)
    # The equipment must exist now, not when a game starts.
    load_tile_set(variant.tile_set)
    load_layout(variant.layout)
    variants.register_variant(name, variant)
    return variant


def register_variant_files(events: Iterable[Event]) -> None:
    """Read and register every variant file the games in ``events`` start with.

    Call it before replaying or applying events: the engine resolves a game's
    variant by name only. A file that cannot be read is registered as its error,
    so the engine refuses that start with the reason.
    """
    for event in events:
        if isinstance(event, GameStarted) and _user_file(event.variant) is not None:
            try:
                load_variant(event.variant)
            except DataFileError as exc:
                variants.register_variant(event.variant, exc)


def load_word_list(path: str | Path) -> WordList:
    """A word list read from a text file (UTF-8, or Latin-1 when not valid UTF-8).

    Raises:
        WordListError: The file cannot be read, or it holds no word at all.
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise WordListError(f"cannot read word list {str(p)!r}: {exc.strerror}") from None
    return WordList.from_bytes(p.name, raw, source=str(p))


def check_file(path: str | Path, variant: Variant) -> CheckResult:
    """Read and check one GCG file; an unreadable file is reported, never raised."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return CheckResult(str(path), False, False, (Problem(0, f"cannot read: {exc.strerror}"),))
    return check_bytes(data, str(path), variant)
