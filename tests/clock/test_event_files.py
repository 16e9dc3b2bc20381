"""The files a ledger is started from, read from disk: the event file as UTF-8 with
every division's variant loaded, and tsh's ``.t`` files as ISO-8859-1, each named
for its division by its file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from clock.exports.results_files import write_anchor, write_naspa_file, write_t_files
from clock.tournament.event_files import read_event_file, read_t_files
from engine.exports.results import ResultsError
from engine.tournament.errors import EventFileError

EVENT = """
name = "Walk Open"
[[division]]
name = "A"
rounds = 2
variant = "{variant}"
plan = [{{ rounds = "1-2", system = "koth" }}]
players = [
  {{ name = "Ann Ames", rating = 1800 }},
  {{ name = "Gus Gray", rating = 1700 }},
]
"""


def test_an_event_file_is_read_with_its_variants_loaded(tmp_path: Path) -> None:
    path = tmp_path / "walk.toml"
    path.write_text(EVENT.format(variant="nzasp"), encoding="utf-8")
    text, spec = read_event_file(path)
    assert text == path.read_text(encoding="utf-8")
    assert [d.name for d in spec.divisions] == ["A"]


def test_an_unknown_variant_or_a_non_utf8_file_is_refused_quoting_it(tmp_path: Path) -> None:
    path = tmp_path / "walk.toml"
    path.write_text(EVENT.format(variant="klingon"), encoding="utf-8")
    with pytest.raises(EventFileError, match=r"walk.toml: division 'A': variant 'klingon'"):
        read_event_file(path)
    path.write_bytes(b'name = "Caf\xe9"\n')
    with pytest.raises(EventFileError, match=r"walk.toml: not UTF-8 text at byte 11"):
        read_event_file(path)


def test_t_files_are_named_for_their_divisions(tmp_path: Path) -> None:
    a, b = tmp_path / "a.t", tmp_path / "b.t"
    a.write_text("Ames, Ann 1800 2; 400\nGray, Gus 1700 1; 380\n", encoding="iso-8859-1")
    b.write_text("Caf\xe9, Cid 1600 0; 350\n", encoding="iso-8859-1")
    read = read_t_files([b, a])
    assert [name for name, _ in read] == ["B", "A"]


def test_the_exports_are_written_in_their_formats_encodings(tmp_path: Path) -> None:
    written = write_t_files(tmp_path / "out", {"a.t": ["Caf\u00e9, Cid 1600", "Zoe, Zed 1500"]})
    assert written == [tmp_path / "out" / "a.t"]
    assert written[0].read_bytes() == b"Caf\xe9, Cid 1600\nZoe, Zed 1500\n"  # tsh's ISO-8859-1
    write_naspa_file(tmp_path / "r.txt", ["line 1", "line 2"])
    side = write_anchor(tmp_path / "r.txt", "anchor 3:abc")
    assert (tmp_path / "r.txt").read_bytes() == b"line 1\nline 2\n"
    assert side == tmp_path / "r.txt.anchor"
    assert side.read_text(encoding="ascii") == "anchor 3:abc\n"


def test_a_name_the_encoding_cannot_hold_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    # a.t would encode; b.t's name would not: neither is written (never a '?' for the letter)
    files = {"a.t": ["Caf\u00e9, Cid 1600 0; 50"], "b.t": ["Zo\u0107, Zed 1500 0; 50"]}
    with pytest.raises(ResultsError, match=r"^b\.t: 'Zoć, Zed' has 'ć', which iso-8859-1"):
        write_t_files(tmp_path / "out", files)
    assert not (tmp_path / "out").exists()
    written = write_t_files(tmp_path / "out", files, "utf-8")
    assert written[1].read_text(encoding="utf-8") == "Zo\u0107, Zed 1500 0; 50\n"
