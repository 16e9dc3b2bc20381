"""Word lists and the word judge."""

from __future__ import annotations

import itertools
import string
from pathlib import Path

import pytest

from clock.user_files import load_word_list
from engine.errors import EngineError, WordListError
from engine.play.lexicon import Adjudicator, Judge, Verdict, WordList


def write(tmp_path: Path, data: bytes, name: str = "words.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --- loading ----------------------------------------------------------------------------


def test_any_case(tmp_path: Path) -> None:
    wl = load_word_list(write(tmp_path, b"cat\nDOG\nEmU\n"))
    assert wl.words == frozenset({"CAT", "DOG", "EMU"})
    assert len(wl) == 3


def test_definitions_ignored(tmp_path: Path) -> None:
    data = b"AA rough lava [n AAS]\nQI\tvital force\nZA  pizza\n"
    wl = load_word_list(write(tmp_path, data))
    assert wl.words == frozenset({"AA", "QI", "ZA"})


def test_comments_and_blank_lines_ignored(tmp_path: Path) -> None:
    data = b"# a comment line\n\ncat\n   \n#DOG\n\t\nemu\n  # indented comment\n"
    wl = load_word_list(write(tmp_path, data))
    assert wl.words == frozenset({"CAT", "EMU"})


def test_leading_spaces_and_crlf(tmp_path: Path) -> None:
    wl = load_word_list(write(tmp_path, b"  cat\r\ndog  \r\n"))
    assert wl.words == frozenset({"CAT", "DOG"})


def test_duplicates_counted_once(tmp_path: Path) -> None:
    wl = load_word_list(write(tmp_path, b"cat\nCAT\nCat\n"))
    assert len(wl) == 1


def test_utf8(tmp_path: Path) -> None:
    wl = load_word_list(write(tmp_path, "café\nñandu\n".encode()))
    assert wl.words == frozenset({"CAFÉ", "ÑANDU"})


def test_latin1_fallback(tmp_path: Path) -> None:
    # b"\xe9" alone is not valid UTF-8; read as Latin-1 it is "é"
    wl = load_word_list(write(tmp_path, b"caf\xe9\nna\xefve\n"))
    assert wl.words == frozenset({"CAFÉ", "NAÏVE"})


def test_utf8_bom(tmp_path: Path) -> None:
    wl = load_word_list(write(tmp_path, b"\xef\xbb\xbfcat\ndog\n"))
    assert wl.words == frozenset({"CAT", "DOG"})
    assert wl.judge(["CAT"]) is Verdict.ACCEPTABLE


def test_name_is_file_name(tmp_path: Path) -> None:
    wl = load_word_list(str(write(tmp_path, b"cat\n", name="my-list.txt")))
    assert wl.name == "my-list.txt"


def test_empty_file(tmp_path: Path) -> None:
    path = write(tmp_path, b"")
    with pytest.raises(WordListError) as info:
        load_word_list(path)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EngineError)
    assert "holds no words" in str(info.value)
    assert str(path) in str(info.value)


def test_only_comments(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="holds no words"):
        load_word_list(write(tmp_path, b"# nothing here\n\n   \n"))


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.txt"
    with pytest.raises(WordListError) as info:
        load_word_list(path)
    assert isinstance(info.value, ValueError)
    assert "absent.txt" in str(info.value)


def test_directory_is_not_a_word_list(tmp_path: Path) -> None:
    with pytest.raises(WordListError):
        load_word_list(tmp_path)


def test_large_list_loads(tmp_path: Path) -> None:
    count = 280_000
    # distinct four-letter strings AAAA, AAAB, ... (26**4 = 456,976 of them)
    words = ("".join(t) for t in itertools.product(string.ascii_uppercase, repeat=4))
    path = tmp_path / "big.txt"
    path.write_text("\n".join(itertools.islice(words, count)) + "\n", encoding="ascii")
    wl = load_word_list(path)
    assert len(wl) == count
    assert "AAAA" in wl.words
    # the last one, index 279,999 in base 26:
    # 15*17576 + 24*676 + 5*26 + 5 = 263,640 + 16,224 + 130 + 5 = 279,999 -> P Y F F
    assert "PYFF" in wl.words
    assert "PYFG" not in wl.words


# --- judging ----------------------------------------------------------------------------


@pytest.fixture
def word_list() -> WordList:
    return WordList.from_lines("test", ["cat", "at", "cats", "qi"])


@pytest.mark.parametrize(
    ("words", "verdict"),
    [
        pytest.param(["CAT"], Verdict.ACCEPTABLE, id="one-good"),
        pytest.param(["CAT", "AT", "QI"], Verdict.ACCEPTABLE, id="all-good"),
        pytest.param(["cat", "At"], Verdict.ACCEPTABLE, id="any-case"),
        pytest.param(["TA"], Verdict.UNACCEPTABLE, id="one-bad"),
        pytest.param(["CAT", "TA", "AT"], Verdict.UNACCEPTABLE, id="one-bad-among-several"),
        pytest.param(["CATS", "QI", "XU"], Verdict.UNACCEPTABLE, id="bad-last"),
        pytest.param(["XU", "CATS", "QI"], Verdict.UNACCEPTABLE, id="bad-first"),
        pytest.param(["CA"], Verdict.UNACCEPTABLE, id="prefix-is-not-a-word"),
    ],
)
def test_judge(word_list: WordList, words: list[str], verdict: Verdict) -> None:
    result = word_list.judge(words)
    assert result is verdict


def test_judge_answers_only_two_verdicts(word_list: WordList) -> None:
    # the answer is a bare verdict for the whole play: it never names a word
    assert set(Verdict) == {Verdict.ACCEPTABLE, Verdict.UNACCEPTABLE}
    result = word_list.judge(["CAT", "ZO"])
    assert result is Verdict.UNACCEPTABLE
    assert "ZO" not in repr(result)


def test_judge_accepts_any_iterable(word_list: WordList) -> None:
    assert word_list.judge(w for w in ("CAT", "AT")) is Verdict.ACCEPTABLE
    assert word_list.judge(("CAT", "ZZ")) is Verdict.UNACCEPTABLE


def test_adjudicator_returns_none() -> None:
    judge: Judge = Adjudicator()
    assert judge.judge(["CAT"]) is None
    assert judge.judge(["ZZZZZ"]) is None


def test_word_list_is_a_judge(word_list: WordList) -> None:
    judge: Judge = word_list
    assert judge.judge(["CAT"]) is Verdict.ACCEPTABLE


def test_a_binary_file_is_not_a_word_list(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite"
    db.write_bytes(b"SQLite format 3\x00" + b"\x00" * 40)
    with pytest.raises(WordListError, match=r"not a text file \(a NUL byte at offset 15\)"):
        load_word_list(db)
