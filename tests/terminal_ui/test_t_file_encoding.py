"""A name tsh's ISO-8859-1 cannot hold (``Ł``), in both commands that write ``.t``
files, ``rackclock export tsh`` (the tables' game logs) and ``rackclock event export
tsh`` (the event's ledger), run as a director runs them: the same refusal naming the
player, the same exit code, nothing written; ``--encoding utf-8`` writes it. And
NASPA's ASCII file spells the name the same way in both."""

from __future__ import annotations

from pathlib import Path

from tests.terminal_ui.test_event import rackclock
from tests.terminal_ui.test_export_cli import game, log_of

EVENT = """
name = "Club night"
[[division]]
name = "A"
rounds = 1
plan = [{ rounds = "1", system = "koth" }]
players = [
  { name = "Łukasz Nowak", rating = 1800 },
  { name = "Ben Ray", rating = 1700 },
]
"""

REFUSAL = (
    "a.t: 'Nowak, Łukasz' has 'Ł', which iso-8859-1 cannot hold: "
    "use --encoding utf-8 (and tfile_encoding in tsh's config)\n"
)


def _ledger(tmp_path: Path) -> Path:
    """The event of one game, round 1, Łukasz Nowak beating Ben Ray 400-300."""
    (tmp_path / "club.toml").write_text(EVENT, encoding="utf-8")
    ledger = tmp_path / "club.sqlite"
    for args in (
        ("event", "new", tmp_path / "club.toml", "-o", ledger),
        ("event", "pair", ledger),
        ("event", "result", ledger, "1", "Łukasz Nowak", "400", "Ben Ray", "300"),
    ):
        done = rackclock(*args)
        assert done.returncode == 0, (args, done.stderr)
    return ledger


def test_both_tsh_exports_refuse_a_name_iso_8859_1_cannot_hold_alike(tmp_path: Path) -> None:
    log = log_of(tmp_path / "t1.sqlite", game(0, ("Łukasz Nowak", "Ben Ray"), rnd=1))
    ledger = _ledger(tmp_path)
    for cmd, prefix in (
        (("export", "tsh", log), "rackclock export tsh: "),
        (("event", "export", "tsh", ledger), "rackclock event export: "),
    ):
        out = tmp_path / cmd[0]
        refused = rackclock(*cmd, "-o", out)
        assert refused.returncode == 1, refused.stderr
        assert refused.stderr == prefix + REFUSAL
        assert not out.exists()  # nothing written, not even the folder
        done = rackclock(*cmd, "-o", out, "--encoding", "utf-8")
        assert done.returncode == 0, done.stderr
        lines = (out / "a.t").read_text(encoding="utf-8").splitlines()
        assert any(line.startswith("Nowak, Łukasz ") for line in lines), lines


def test_both_naspa_exports_spell_a_latin_letter_with_no_accent_to_drop_alike(
    tmp_path: Path,
) -> None:
    """NASPA's file is ASCII: 'Ł' (no combining mark to drop) is written 'L', as
    ASCII spells it, by both commands (it was refused, with advice neither could take)."""
    log = log_of(tmp_path / "t1.sqlite", game(0, ("Łukasz Nowak", "Ben Ray"), rnd=1))
    ledger = _ledger(tmp_path)
    for cmd in (("export", "naspa", log), ("event", "export", "naspa", ledger)):
        out = tmp_path / f"{cmd[0]}.txt"
        done = rackclock(*cmd, "-o", out)
        assert done.returncode == 0, done.stderr
        lines = out.read_text(encoding="ascii").splitlines()
        assert any(" NOWAK LUKASZ/" in line for line in lines), lines
