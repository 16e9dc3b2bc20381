"""The event file: divisions, players and each division's pairing plan (TOML).

::

    name = "Spring Open"

    [[division]]
    name = "A"
    variant = "naspa"
    rounds = 11
    gibson = true          # NASPA Director's Manual, "The Gibson Rule"
    gibson_spread = [500, 800, 900]   # optional: spread no one catches in 1, 2, 3 rounds
    prizes = 3
    max_meetings = 2       # repeat control (KOTH may always repeat)
    back_to_back = false
    days = [1, 8]          # the first round of each day (Australian Draw's "no repeat in a day")
    plan = [
      { rounds = "1-7", system = "round-robin" },
      { rounds = "8-10", system = "swiss" },
      { rounds = "11", system = "koth" },
    ]
    players = [
      { name = "Ann Able", rating = 1800 },
      { name = "Ben Baker", rating = 1750, id = "NA1234", team = "North", club = "Kapiti" },
    ]

The standings follow the variant's ``[event]`` rules (docs/tournament.md).

Systems: ``round-robin`` (``method = "circle"`` or ``"berger"``; more rounds
than a cycle repeats it: a double round robin), ``john-green``, ``snake``
(``groups = N``: a round robin inside each snake group), ``split-round-robin``,
``grouped-round-robin`` (``groups = N``: #1 #2 ... #N dealt in turn),
``koth``, ``fp`` (``factor = N``), ``swiss``, ``portland`` (Portland Swiss),
``australian-draw``, ``speed`` (Speed Pairings: a 3-round stage of foursomes, by
rating at round 1 and by the standings' halves later, or a 2-round stage of
foursomes from dozens). Pure: the caller reads the file and passes its text.
"""

from __future__ import annotations

import tomllib
import unicodedata
from typing import Any

import msgspec

from engine.exports.names import entry_fault, line_fault
from engine.tournament.errors import EventFileError

__all__ = [
    "MAX_RATING",
    "MAX_ROUNDS",
    "SYSTEMS",
    "DivisionSpec",
    "EventSpec",
    "Player",
    "RatingClass",
    "Stage",
    "check_player",
    "one_line",
    "parse_event",
    "player_name",
    "results_name",
]

SYSTEMS = (
    "round-robin",
    "john-green",
    "snake",
    "split-round-robin",
    "grouped-round-robin",
    "koth",
    "fp",
    "swiss",
    "portland",
    "australian-draw",
    "speed",
)
FIXED = ("round-robin", "john-green", "snake", "split-round-robin", "grouped-round-robin")
"""Systems whose whole schedule is fixed when their first round is paired."""


MAX_ROUNDS = 100
"""A division's rounds at most. The longest events the director's manuals describe
run about 30 rounds in a few days (a championship's 31, NASPA Director's Manual);
100 leaves room for any marathon while a typo (100000000) is refused, not paired."""

MAX_RATING = 3000
"""A rating at most (and 0 at least). Ratings are on the NASPA/WESPA scale, where the
best players stand near 2200 and an unrated player is 0 (as tsh writes one); 3000
is above anyone rated, so only a typo is refused, and tsh's and NASPA's files get a
number they can hold."""


def one_line(text: str, what: str, where: str) -> str:
    """``text`` (a name), refused when it is not one line of printable text
    (:func:`engine.exports.names.line_fault`, the one rule): a newline would start a
    line of its own in a tsh or NASPA file or a sheet, an ESC would drive the
    terminal that shows it, U+202E would turn it around.

    Raises:
        EventFileError: The name quoted, with ``what`` it is (``player name``), what
            is wrong and ``where`` (the file).
    """
    fault = line_fault(text)
    if fault:
        raise EventFileError(
            f"{where}: {what} {text!r} {fault}: a name is one line of printable text"
        )
    return text


def player_name(text: str, where: str) -> str:
    """A player's name as the event keeps it: in Unicode's composed form (NFC: ``e``
    and a combining diaeresis are ``ë``, which ISO-8859-1 holds), runs of spaces made
    one, none at the ends.

    Raises:
        EventFileError: Empty, or not one line of printable text (:func:`one_line`),
            quoted.
    """
    one_line(text, "player name", where)
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise EventFileError(f"{where}: player name {text!r} is empty")
    return name


def results_name(name: str, where: str) -> str:
    """``name`` (a player's, as :func:`player_name` keeps it) as it enters an event
    (``event new``, ``event enter``, ``event import``), refused when tsh's or NASPA's
    file could not hold it: no letter, over :data:`~engine.exports.names.MAX_NAME`
    characters, a ``;`` or ``#`` (tsh's separator and comment mark), a ``/`` (where
    NASPA's name field ends), or filed ending in a number that tsh would read as the
    rating or too short for tsh to read (:mod:`engine.exports.names`, the one rule).
    An older ledger's names are not checked again when it is read: its writers
    refuse them instead.

    Raises:
        EventFileError: The name quoted, with what is wrong.
    """
    fault = entry_fault(name)
    if fault:
        raise EventFileError(
            f"{where}: player name {name!r} {fault}: "
            "a name must fit tsh's and NASPA's results files"
        )
    return name


def check_player(name: str, rating: int, where: str) -> None:
    """Refuse a rating outside 0..:data:`MAX_RATING` (the name is checked by
    :func:`player_name`).

    Raises:
        EventFileError: Out of range, naming the player and the rating.
    """
    if not 0 <= rating <= MAX_RATING:
        raise EventFileError(
            f"{where}: player {name!r}: rating {rating}: expected 0-{MAX_RATING} "
            "(0 for an unrated player)"
        )


class Player(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An entrant."""

    name: str
    rating: int = 0
    id: str = ""
    team: str = ""
    club: str = ""
    """The player's club, for the results report (NZASP 11.4)."""


class Stage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One pairing system over a range of rounds."""

    first: int
    last: int
    system: str
    method: str = "circle"
    groups: int = 0
    factor: int = 0
    max_meetings: int | None = None
    """None: the division's; KOTH defaults to no limit (the manual allows repeats)."""
    back_to_back: bool | None = None


class RatingClass(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A rating class of a division (tsh's classes; class prizes, docs/tournament.md):
    the players rated ``min`` or more who are in no higher class."""

    name: str
    min: int = 0


class DivisionSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A division: its players, its rounds and how each is paired."""

    name: str
    rounds: int
    players: tuple[Player, ...]
    plan: tuple[Stage, ...]
    variant: str = "naspa"
    gibson: bool = False
    gibson_spread: tuple[int, ...] = ()
    prizes: int = 1
    max_meetings: int = 2
    back_to_back: bool = False
    bye_spread: int | None = None
    """A bye's spread; None: the variant's ``bye_spread`` (50: NASPA V.E.4, NZASP 9.2)."""
    days: tuple[int, ...] = (1,)
    tiebreaks: tuple[str, ...] = ()
    """The standings' order; empty: the variant's ``[event] tiebreak`` (NZASP 11.1, TOR-11)."""
    classes: tuple[RatingClass, ...] = ()
    """Rating classes, highest first; empty: one class, the division."""
    class_prizes: int = 0
    """Prizes per rating class below the top one (places within the class)."""
    ties: str = "split"
    """Players level on the prize places: ``split`` shares the places' prizes among them
    (the manual's split prize money); ``tiebreak``: the standings' order decides."""
    manual: int = 2013
    """Which NASPA Director's Manual decides where the 2011 and 2013 editions differ
    (the Gibson clinch; whom a clinched leader plays): 2011 or 2013."""

    def rating_class(self, rating: int) -> str:
        """The class a player of ``rating`` is in (empty: the division has no classes)."""
        for klass in self.classes:
            if rating >= klass.min:
                return klass.name
        return self.classes[-1].name if self.classes else ""

    def stage(self, round_: int) -> Stage:
        """The stage that pairs ``round_``."""
        for stage in self.plan:
            if stage.first <= round_ <= stage.last:
                return stage
        raise EventFileError(f"division {self.name!r}: no plan pairs round {round_}")

    def day(self, round_: int) -> int:
        """The day (from 0) a round is played on."""
        return sum(1 for start in self.days if start <= round_) - 1


class EventSpec(msgspec.Struct, frozen=True):
    """The whole event."""

    name: str
    divisions: tuple[DivisionSpec, ...]

    def division(self, name: str) -> DivisionSpec:
        """A division by name (case-insensitive).

        Raises:
            EventFileError: There is none.
        """
        for div in self.divisions:
            if div.name.casefold() == name.casefold():
                return div
        names = ", ".join(repr(d.name) for d in self.divisions)
        raise EventFileError(f"no division {name!r} (the event has {names})")


def _rounds(text: object, where: str) -> tuple[int, int]:
    if isinstance(text, int):
        return text, text
    if isinstance(text, str):
        first, _, last = text.partition("-")
        if first.strip().isdigit() and (not last or last.strip().isdigit()):
            return int(first), int(last or first)
    raise EventFileError(f'{where}: rounds {text!r}: expected a round (8) or a range ("1-7")')


_TIEBREAKS = ("wins", "spread", "score", "rating")


def _division(raw: dict[str, Any], source: str, number: int) -> DivisionSpec:
    raw = dict(raw)
    where = f"{source} division {number}"
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise EventFileError(f"{where}: a division needs a name")
    one_line(name, "division name", where)
    where = f"division {name!r}"
    plan = []
    for i, stage in enumerate(raw.pop("plan", []) or [], start=1):
        if not isinstance(stage, dict):
            raise EventFileError(f"{where}: plan entry {i} {stage!r} is not a table")
        stage = dict(stage)
        first, last = _rounds(stage.pop("rounds", None), f"{where} plan entry {i}")
        system = stage.get("system")
        if system not in SYSTEMS:
            raise EventFileError(
                f"{where} plan entry {i}: system {system!r}: expected one of {', '.join(SYSTEMS)}"
            )
        try:
            plan.append(msgspec.convert({"first": first, "last": last, **stage}, Stage))
        except msgspec.ValidationError as exc:
            raise EventFileError(f"{where} plan entry {i}: {exc}") from exc
    manual = raw.get("manual", 2013)
    if isinstance(manual, bool) or not isinstance(manual, int):
        # msgspec's type error would not quote the value (manual = "2013")
        raise EventFileError(f"{where}: manual = {manual!r}: expected 2011 or 2013")
    try:
        div = msgspec.convert({**raw, "plan": plan}, DivisionSpec)
    except msgspec.ValidationError as exc:
        raise EventFileError(f"{where}: {exc}") from exc
    players = tuple(
        # a name's refusal says where as results_name's does: the file, then the division
        msgspec.structs.replace(p, name=player_name(p.name, f"{source}: {where}"))
        for p in div.players
    )
    div = msgspec.structs.replace(div, players=players)
    _check(div, where)
    return div


def _check(div: DivisionSpec, where: str) -> None:
    if not 1 <= div.rounds <= MAX_ROUNDS:
        raise EventFileError(f"{where}: rounds = {div.rounds}: expected 1-{MAX_ROUNDS}")
    for i, st in enumerate(div.plan, start=1):
        if not 1 <= st.first <= st.last <= div.rounds:  # before the rounds are listed
            raise EventFileError(
                f"{where} plan entry {i}: rounds {st.first}-{st.last} are not among "
                f"the division's rounds 1-{div.rounds}"
            )
    covered = sorted(r for st in div.plan for r in range(st.first, st.last + 1))
    if covered != list(range(1, div.rounds + 1)):
        raise EventFileError(
            f"{where}: the plan must pair each of rounds 1-{div.rounds} exactly once "
            f"(it pairs {covered})"
        )
    seen: dict[str, str] = {}
    for p in div.players:
        first = seen.get(p.name.casefold())
        if first is not None:
            also = "" if first == p.name else f" (also as {first!r})"
            raise EventFileError(f"{where}: player {p.name!r} is entered twice{also}")
        seen[p.name.casefold()] = p.name
        check_player(p.name, p.rating, where)
    mins = [k.min for k in div.classes]
    if mins != sorted(mins, reverse=True) or len(set(mins)) != len(mins):
        raise EventFileError(
            f"{where}: classes must be listed highest first, each with its own min, got "
            + ", ".join(f"{k.name}={k.min}" for k in div.classes)
        )
    if len({k.name.casefold() for k in div.classes}) != len(div.classes):
        raise EventFileError(f"{where}: two rating classes share a name")
    if div.ties not in ("split", "tiebreak"):
        raise EventFileError(f"{where}: ties = {div.ties!r}: expected 'split' or 'tiebreak'")
    if div.manual not in (2011, 2013):
        raise EventFileError(f"{where}: manual = {div.manual}: expected 2011 or 2013")
    for tb in div.tiebreaks:
        if tb not in _TIEBREAKS:
            raise EventFileError(f"{where}: tiebreak {tb!r}: expected one of {_TIEBREAKS}")
    for st in div.plan:
        if st.system in ("fp",) and (st.factor < 2 or st.factor % 2):
            raise EventFileError(f"{where}: fp needs an even factor >= 2, got {st.factor}")
        if st.system in ("snake", "grouped-round-robin") and st.groups < 1:
            raise EventFileError(f"{where}: {st.system} needs groups = N")
        # the manual's Speed Pairings: rounds 1-3 and 4-6 (round robins in foursomes),
        # rounds 7-8 (two KOTH rounds in foursomes, by the standings)
        span = st.last - st.first + 1
        if st.system == "speed" and (span not in (2, 3) or (span == 2 and st.first == 1)):
            rounds = f"round {st.first}" if span == 1 else f"rounds {st.first}-{st.last}"
            raise EventFileError(
                f"{where}: speed {rounds}: a speed stage is 3 rounds "
                "(as rounds 1-3 or 4-6) or 2 rounds after round 1 (as rounds 7-8)"
            )


def parse_event(text: str, source: str) -> EventSpec:
    """Read an event file.

    Raises:
        EventFileError: Not TOML (with its line), or not an event, quoted.
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EventFileError(f"{source}: {exc}") from exc
    name = one_line(str(doc.get("name", "")), "event name", source)
    divisions = doc.get("division", [])
    if not isinstance(divisions, list) or not divisions:
        raise EventFileError(f"{source}: no [[division]] (an event has at least one)")
    divs = tuple(_division(d, source, i) for i, d in enumerate(divisions, 1))
    seen = [d.name.casefold() for d in divs]
    for d in divs:
        if seen.count(d.name.casefold()) > 1:
            raise EventFileError(f"{source}: two divisions named {d.name!r}")
    return EventSpec(name, divs)
