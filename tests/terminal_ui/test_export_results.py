"""The director's console's results export (``export_results``, issue 24 §2): a name
one results file cannot hold withholds that file only, the other is written, and the
refusal names no flag the console lacks."""

from __future__ import annotations

from pathlib import Path

from clock.exports.results_files import NASPA_FILE, export_results, log_games
from tests.terminal_ui.test_export_cli import game


def test_each_file_that_cannot_hold_a_name_is_reported_alone(tmp_path: Path) -> None:
    games, _ = log_games("t1", list(enumerate(game(0, ("李 小龍", "Ben Ray"), rnd=1), 1)))
    report = export_results(games, {}, tmp_path)
    # 李 has no ASCII form, nor an ISO-8859-1 one: each file says so on its own line
    assert report.problems == [
        "results: '李 小龍' has letters with no ASCII form: NASPA's file (ASCII) cannot "
        f"hold that name: {NASPA_FILE} not written",
        "results: a.t: '小龍, 李' has '小龍', which iso-8859-1 cannot hold: export them "
        "with rackclock export tsh --encoding utf-8 (and tfile_encoding in tsh's config): "
        "the .t files not written",
    ]
    assert report.paths == []
    assert not any("--encoding" in p and "rackclock" not in p for p in report.problems)


def test_the_file_that_can_be_written_is(tmp_path: Path) -> None:
    games, _ = log_games("t1", list(enumerate(game(0, ("Łukasz Nowak", "Ben Ray"), rnd=1), 1)))
    report = export_results(games, {}, tmp_path)
    assert report.paths == [tmp_path / NASPA_FILE]
    assert " NOWAK LUKASZ/" in (tmp_path / NASPA_FILE).read_text("ascii")
    assert len(report.problems) == 1
    assert report.problems[0].startswith("results: a.t: 'Nowak, Łukasz' has 'Ł'")
    assert report.problems[0].endswith(": the .t files not written")
    assert not (tmp_path / "a.t").exists()
