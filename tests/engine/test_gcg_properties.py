"""Property tests of GCG records over randomly generated legal games.

The games come from :mod:`tests.support.corpus`, which plays out whole games through
the engine, so each one is a known-good record. On top of them these tests
check that: the checker accepts every generated game and agrees with the
generator's totals; writing then reading a record gives it back unchanged,
including notes, unknown pragmas, annotations and UTF-8 names; and a single
corrupted total is caught at exactly its line, so the check can fail.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs

from clock.user_files import check_file
from engine.gcg import (
    EventKind,
    GameRecord,
    Player,
    Pragma,
    check_record,
    parse_gcg,
    write_gcg,
)
from engine.rules.variant import load_variant
from terminal_ui.cli import main as cli_main
from tests.helpers import REPO
from tests.support.corpus import corpus, generate, random_game

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
NZASP = load_variant("nzasp")
"""The rules ``rackclock gcg check`` checks by default."""

# Characters for free text. Curated rather than arbitrary: the GCG reader
# splits lines with str.splitlines and fields with str.split/strip, which treat
# many code points (\x85, \u2028, NBSP, ...) as line breaks or blanks, so such
# characters cannot survive in any line-oriented format and are not a round-trip
# property. The Latin-1 set must encode in the GCG default ISO-8859-1.
_LATIN1 = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    ".,;:!?'\"()[]-+/&%*=#<>@_~"
    "éèêëàâäçñöüßÅØæ£©±¿"
)
_UNICODE_EXTRA = "ŁłōŽžЖжΩλ李王ह€…—“”😀"
_HEADER_ONLY = ("title", "description", "id", "lexicon")
# Pragma names the reader treats specially or the checker interprets; the
# unknown ones are drawn from everything else.
_RESERVED = {"player1", "player2", "character-encoding", "note", "rack1", "rack2", "incomplete"}
_RESERVED.update(_HEADER_ONLY)


def _value(alphabet: str, *, min_size: int = 0) -> st.SearchStrategy[str]:
    """Text for one line: inner runs of spaces allowed, no leading or trailing blanks
    (the reader strips each line, so those are layout, not content)."""
    return (
        st.text(alphabet + "  ", min_size=min_size, max_size=30)
        .map(str.strip)
        .filter(lambda s: len(s) >= min_size)
    )


def _note(alphabet: str) -> st.SearchStrategy[str]:
    """A note, possibly over several lines; continuation lines are non-empty and
    start with neither ``#`` nor ``>`` (else they would be pragmas or moves)."""
    more = _value(alphabet, min_size=1).filter(lambda s: s[0] not in "#>")
    return st.tuples(_value(alphabet), st.lists(more, max_size=3)).map(
        lambda t: "\n".join([t[0], *t[1]])
    )


def _pragmas(alphabet: str, *, header: bool) -> st.SearchStrategy[list[Pragma]]:
    unknown_name = st.one_of(
        st.sampled_from(["tile", "somethingnew", "rating", "x-app"]),
        st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True),
    ).filter(lambda n: n not in _RESERVED)
    names = [unknown_name]
    if header:
        names.append(st.sampled_from(_HEADER_ONLY))
    plain = st.builds(Pragma, st.one_of(*names), _value(alphabet))
    note = st.builds(Pragma, st.just("note"), _note(alphabet))
    return st.lists(st.one_of(plain, note), max_size=4)


@st.composite
def decorated_games(draw: st.DrawFn) -> GameRecord:
    """A generated game dressed with everything a record may carry besides moves."""
    record = random_game(draw(SEEDS))
    utf8 = draw(st.booleans())
    alphabet = _LATIN1 + _UNICODE_EXTRA if utf8 else _LATIN1
    players = record.players
    if utf8:
        # Nicknames stay one token without ':' (the event line's '>nick:').
        nick = st.text(_LATIN1[:52] + "éñöЖλ李", min_size=1, max_size=8)
        nicks = draw(st.lists(nick, min_size=2, max_size=2, unique=True))
        names = [draw(_value(alphabet)) for _ in nicks]
        players = tuple(Player(n, full) for n, full in zip(nicks, names, strict=True))
    renamed = {old.nick: new.nick for old, new in zip(record.players, players, strict=True)}
    events = [structs.replace(ev, nick=renamed[ev.nick]) for ev in record.events]
    n = len(events)
    annotation = st.lists(st.text(alphabet, min_size=1, max_size=8), min_size=1, max_size=4)
    for i, words in draw(st.lists(st.tuples(st.integers(0, n - 1), annotation), max_size=3)):
        events[i] = structs.replace(events[i], annotation=" ".join(words))
    for i, extra in draw(
        st.lists(st.tuples(st.integers(0, n - 1), _pragmas(alphabet, header=False)), max_size=4)
    ):
        events[i] = structs.replace(events[i], pragmas=events[i].pragmas + tuple(extra))
    header = tuple(draw(_pragmas(alphabet, header=True)))
    return GameRecord(players, header, tuple(events), "UTF-8" if utf8 else "ISO-8859-1")


# --- (a) generated games are legal and complete ----------------------------------


def test_first_300_seeds_check_ok_and_complete() -> None:
    for seed in range(300):
        game = generate(seed)
        result = check_record(game.record, NZASP)
        assert result.ok, (seed, result.errors)
        assert result.complete, seed
        assert result.final_scores == game.final_scores, seed


def test_corpus_shape() -> None:
    """The corpus is deterministic and exercises every kind of event line."""
    games = [generate(seed) for seed in range(300)]
    assert corpus(3, 7) == [random_game(7), random_game(8), random_game(9)]
    kinds = Counter(ev.kind for g in games for ev in g.record.events)
    assert set(kinds) == set(EventKind)
    mean_placements = sum(g.placements for g in games) / len(games)
    assert 20 <= mean_placements <= 30
    assert sum(g.went_out for g in games) > 0.75 * len(games)


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS)
def test_generated_game_checks_and_totals_agree(seed: int) -> None:
    game = generate(seed)
    result = check_record(game.record, NZASP)
    assert result.ok, result.errors
    assert result.complete
    assert result.final_scores == game.final_scores
    assert generate(seed).record == game.record


# --- (b) write then read ----------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_write_then_read_gives_the_record_back(seed: int) -> None:
    record = random_game(seed)
    text = write_gcg(record)
    parsed = parse_gcg(text)
    assert parsed.errors == ()
    assert parsed.record == record
    from_bytes = parse_gcg(text.encode(record.encoding))
    assert from_bytes.errors == ()
    assert from_bytes.record == record
    assert write_gcg(record) == text
    assert write_gcg(parsed.record) == text


# --- (c) everything besides the moves survives too ---------------------------------


@settings(max_examples=150, deadline=None)
@given(record=decorated_games())
def test_pragmas_notes_annotations_and_names_survive(record: GameRecord) -> None:
    text = write_gcg(record)
    parsed = parse_gcg(text)
    assert parsed.errors == ()
    assert parsed.record == record
    from_bytes = parse_gcg(text.encode(record.encoding))
    assert from_bytes.errors == ()
    assert from_bytes.record == record
    assert write_gcg(from_bytes.record) == text
    # Decorations change nothing about the game itself.
    result = check_record(from_bytes.record, NZASP)
    assert result.ok, result.errors
    assert result.complete


# --- (d) the check can fail ---------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, data=st.data())
def test_corrupted_total_is_reported_at_its_line(seed: int, data: st.DataObject) -> None:
    record = random_game(seed)
    i = data.draw(st.integers(0, len(record.events) - 1), label="event")
    k = data.draw(st.integers(-60, 60).filter(lambda x: x != 0), label="k")
    events = list(record.events)
    events[i] = structs.replace(events[i], cumulative=events[i].cumulative + k)
    text = write_gcg(structs.replace(record, events=tuple(events)))
    parsed = parse_gcg(text.encode(record.encoding))
    assert parsed.errors == ()
    line = parsed.record.events[i].line
    assert line > 0

    result = check_record(parsed.record, NZASP)
    assert not result.ok
    # Nothing before the slip is blamed, and the slip itself is.
    assert result.errors[0].line == line, result.errors

    # The same through the command line: a failing file and a non-zero exit.
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corrupt.gcg"
        path.write_bytes(text.encode(record.encoding))
        assert not check_file(path, NZASP).ok
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli_main(["gcg", "check", "--json", str(path)])
    assert status != 0
    verdict = json.loads(out.getvalue())
    assert verdict["ok"] is False
    assert line in {e["line"] for e in verdict["errors"]}


# --- the benchmark runs ----------------------------------------------------------------


def test_bench_runs_and_ends_with_json() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.gcg", "--games", "20", "--repeat", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = {
        "games",
        "placements",
        "games_per_s",
        "us_per_placement",
        "floor_games_per_s",
        "ratio_to_floor",
    }
    assert expected <= set(summary)
    assert summary["games"] == 20
    assert summary["placements"] > 20 * 10
    assert summary["floor_games_per_s"] == 2000
    assert summary["games_per_s"] > 0
    assert summary["ratio_to_raw_decode"] > 1
    # the line make bench gathers: the figure, the floor, the ratio, met or NOT MET
    (line,) = [x for x in proc.stdout.splitlines() if x.startswith("bench.gcg: ")]
    form = r"bench\.gcg: [0-9,]+ games/s, floor 2,000: [0-9.]+x (met|NOT MET) .*"
    assert re.fullmatch(form, line)
