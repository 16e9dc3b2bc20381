"""The word judge.

A tournament word judge rules on a *play*, not on single words: given every
word challenged in one turn it answers only "acceptable" or "unacceptable" and
never says which word failed (NZASP 6.13-6.15). :class:`WordList` does that
from a plain text list; without a list the engine works on and the verdict is
entered by an adjudicator (:class:`Adjudicator`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from engine.errors import WordListError

__all__ = ["Adjudicator", "Judge", "Verdict", "WordList"]


class Verdict(enum.Enum):
    """The outcome of a challenge, for the play as a whole."""

    ACCEPTABLE = "acceptable"
    UNACCEPTABLE = "unacceptable"


class Judge(Protocol):
    """Anything that rules on a challenged play. ``None`` means "ask a human"."""

    def judge(self, words: Iterable[str]) -> Verdict | None:
        """Rule on every word challenged in one turn, together."""
        ...


class Adjudicator:
    """The null judge: no word list is loaded, so every verdict is entered by an
    adjudicator or referee (NZASP 6.15.3) and recorded as an event."""

    def judge(self, words: Iterable[str]) -> Verdict | None:
        """Always ``None``: the verdict must come from a person."""
        return None


@dataclass(frozen=True, slots=True)
class WordList:
    """A set of acceptable words, upper case."""

    name: str
    """Where the list came from (file name or label)."""
    words: frozenset[str]
    """The acceptable words."""

    def __len__(self) -> int:
        return len(self.words)

    def judge(self, words: Iterable[str]) -> Verdict:
        """Acceptable only if every word is in the list; the answer names no word.

        >>> wl = WordList.from_lines("t", ["cat", "at"])
        >>> wl.judge(["CAT", "AT"]).value, wl.judge(["CAT", "TA"]).value
        ('acceptable', 'unacceptable')
        """
        listed = self.words
        ok = all(w.upper() in listed for w in words)
        return Verdict.ACCEPTABLE if ok else Verdict.UNACCEPTABLE

    @classmethod
    def from_lines(cls, name: str, lines: Iterable[str]) -> WordList:
        """Build from lines: one word per line, any case. A definition after the word
        (as exported lexicon lists have) is ignored, and so are blank lines and
        comment lines starting with ``#``."""
        words: set[str] = set()
        add = words.add
        for line in lines:
            parts = line.split(None, 1)
            if not parts:
                continue
            word = parts[0]
            if word[0] == "#":
                continue
            add(word.upper())
        return cls(name, frozenset(words))

    @classmethod
    def from_bytes(cls, name: str, raw: bytes, *, source: str | None = None) -> WordList:
        """Build from the bytes of a word list file: UTF-8 (a byte order mark is
        skipped), or Latin-1 when it is not valid UTF-8; lines as :meth:`from_lines`.

        >>> WordList.from_bytes("t", b"caf\\xe9\\nna\\xefve\\n").words == {"CAFÉ", "NAÏVE"}
        True

        Args:
            name: Where the list came from (the file's name).
            raw: The file's bytes.
            source: Where it was read from, quoted in errors (``name`` if not given).

        Raises:
            WordListError: It is not text (a NUL byte: a database or a program given
                by mistake), or it holds no word at all.
        """
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise WordListError(
                f"word list {source or name!r} is not a text file (a NUL byte at offset {nul})"
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        wl = cls.from_lines(name, text.splitlines())
        if not wl.words:
            raise WordListError(f"word list {source or name!r} holds no words")
        return wl
