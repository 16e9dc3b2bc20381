"""The event's state: the log's records replayed, each checked as it is applied.

Players are numbered per division in entry order (the event file's order, then
late entries), as tsh numbers the lines of a ``.t`` file. A record that does
not fit (a result for a pairing that was not made, a correction without a
reason, pairings for a round already paired) is refused with the reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from msgspec.structs import replace

from engine.rules.variant import Variant, load_variant
from engine.tournament.errors import PairingError, ResultError, TournamentError
from engine.tournament.records import (
    Created,
    Entered,
    Paired,
    Record,
    Result,
    Retracted,
    Unpaired,
    Withdrew,
    encode_record,
)
from engine.tournament.spec import (
    DivisionSpec,
    EventSpec,
    Player,
    check_player,
    parse_event,
    player_name,
)
from engine.tournament.standings import Outcome, Standing, standings

__all__ = ["DivisionState", "EventState", "SeatStatus", "event_id", "replay"]

SeatStatus = Literal["paired", "not entered", "withdrawn", "not paired"]
"""Where a player is in a round (:meth:`DivisionState.status`)."""


@dataclass
class DivisionState:
    """One division as the log has it so far."""

    spec: DivisionSpec
    players: list[Player]
    joined: dict[int, int] = field(default_factory=dict)
    """Late entries: seed -> first round they are paired in."""
    left: dict[int, int] = field(default_factory=dict)
    """Withdrawals: seed -> first round they are not paired in."""
    pairings: dict[int, Paired] = field(default_factory=dict)
    results: dict[int, dict[tuple[int, int], Result]] = field(default_factory=dict)

    def name(self, seed: int) -> str:
        """A player's name (``bye`` for 0)."""
        return self.players[seed - 1].name if seed else "bye"

    def seed_of(self, name: str) -> int:
        """A player's number by name (case-insensitive).

        Raises:
            ResultError: No such player.
        """
        typed = " ".join(name.split()).casefold()  # spaced as the event keeps names
        for i, p in enumerate(self.players, start=1):
            if p.name.casefold() == typed:
                return i
        raise ResultError(f"division {self.spec.name!r} has no player {name!r}")

    @property
    def ratings(self) -> dict[int, int]:
        """Rating by seed."""
        return {i: p.rating for i, p in enumerate(self.players, start=1)}

    def active(self, round_: int) -> list[int]:
        """The seeds to pair in ``round_``."""
        return [
            s
            for s in range(1, len(self.players) + 1)
            if self.joined.get(s, 1) <= round_ < self.left.get(s, 1 << 30)
        ]

    def pair_of(self, seed: int, round_: int) -> tuple[int, int] | None:
        """The pair ``seed`` is in in ``round_`` (``(seed, 0)``: a bye), as paired (the
        first named starts); None when the round is not paired or ``seed`` not in it."""
        paired = self.pairings.get(round_)
        return next((p for p in paired.pairs if seed in p), None) if paired else None

    def status(self, seed: int, round_: int) -> SeatStatus:
        """Where ``seed`` is in ``round_``: paired (a bye too), else not entered yet (a
        late entry), withdrawn, or left out of a paired round (or the round unpaired)."""
        if self.pair_of(seed, round_) is not None:
            return "paired"
        if self.joined.get(seed, 1) > round_:
            return "not entered"
        return "withdrawn" if self.left.get(seed, 1 << 30) <= round_ else "not paired"

    def withdrawn_from(self, seed: int, through: int | None = None) -> int:
        """The first round ``seed`` is not paired in after withdrawing, once standings
        through round ``through`` reach it (None: any); 0 while still in, or not yet shown."""
        left = self.left.get(seed, 0)
        return left if left and (through is None or left <= through + 1) else 0

    def by_rating(self, seeds: Iterable[int]) -> list[int]:
        """Seeds ordered highest rated first (entry order among equals)."""
        ratings = self.ratings
        return sorted(seeds, key=lambda s: (-ratings[s], s))

    @property
    def variant(self) -> Variant:
        """The division's variant: its federation's rules, the event's among them.

        Raises:
            DataFileError: No variant has the name (a file's must be registered first).
        """
        return load_variant(self.spec.variant)

    @property
    def bye_spread(self) -> int:
        """A bye's spread: the event file's, else the variant's (NASPA V.E.4, NZASP 9.2: 50)."""
        return self.variant.bye_spread if self.spec.bye_spread is None else self.spec.bye_spread

    def result(self, round_: int, pair: tuple[int, int]) -> Result | None:
        """The result of a pairing: the one recorded, else for a bye the win by the
        division's bye spread it is by rule (nobody has to record a bye), else None."""
        res = self.results.get(round_, {}).get(pair)
        if res is None and not pair[1]:
            return Result(self.spec.name, round_, pair[0], 0, (self.bye_spread, 0), "bye")
        return res

    def ruling(self, res: Result) -> str:
        """What decided a result other than its scores, for people: ``Gus Gray
        resigned: Dan Dale wins, spread 50``; empty for a game or a bye."""
        if res.kind == "absent":
            return "neither player came: both lose"
        if res.kind != "forfeit":
            return ""
        if res.winner is None:  # logged before results named the winner
            return "forfeit"
        did = "resigned" if res.cause == "resigned" else "forfeits"
        if res.cause == "lateness":
            did = "forfeits (lateness)"
        loser = res.loser
        assert loser is not None
        ruled = f"{self.name(loser)} {did}: {self.name(res.winner)} wins"
        if not self.variant.spread_recorded:  # TOR-11: match points only, no spread
            return ruled
        return f"{ruled}, spread {res.margin(res.winner)}"

    def round_results(self, round_: int) -> list[Result]:
        """The results of a round so far, byes included, in the pairing's order."""
        paired = self.pairings.get(round_)
        pairs = paired.pairs if paired is not None else tuple(self.results.get(round_, {}))
        return [r for p in pairs if (r := self.result(round_, p)) is not None]

    def outcomes(self) -> dict[int, list[Outcome]]:
        """Each seed's results so far, in round order."""
        out: dict[int, list[Outcome]] = {}
        for rnd in sorted(set(self.results) | set(self.pairings)):
            for res in self.round_results(rnd):
                a, b = res.first, res.second
                out.setdefault(a, []).append(_outcome(res, a))
                if b:
                    out.setdefault(b, []).append(_outcome(res, b))
        return out

    def standings(
        self, through: int, seeds: Iterable[int] | None = None, *, shared: bool = False
    ) -> list[Standing]:
        """The standings after round ``through`` (of ``seeds``, by default everyone).
        ``shared``: players level on every tie-break share the rank, whatever the
        federation does (the same order): prize places split among them."""
        chosen = list(range(1, len(self.players) + 1)) if seeds is None else list(seeds)
        rules = self.variant.event
        # The event file's tie-breaks, else the federation's: by spread (NZASP 11.1),
        # or none where level players share the place (TOR-11).
        federation = ("wins", "spread") if rules.tiebreak == "spread" else ("wins",)
        return standings(
            chosen,
            self.outcomes(),
            through=through,
            ratings=self.ratings,
            rules=dataclasses.replace(rules, tiebreak="shared") if shared else rules,
            tiebreaks=self.spec.tiebreaks or federation,
        )

    def missing(self, round_: int) -> list[tuple[int, int]]:
        """The pairs of ``round_`` without a result."""
        paired = self.pairings.get(round_)
        if paired is None:
            return []
        return [p for p in paired.pairs if self.result(round_, p) is None]

    def rounds_paired(self, seed: int, from_round: int = 1) -> list[int]:
        """The rounds from ``from_round`` on whose pairings have ``seed`` in them (a
        bye too), in order: ``event withdraw`` names them, to be forfeited or unpaired."""
        return [
            rnd
            for rnd, paired in sorted(self.pairings.items())
            if rnd >= from_round and any(seed in p for p in paired.pairs)
        ]

    def meetings(self) -> dict[frozenset[int], list[int]]:
        """The rounds in which each two players were paired."""
        out: dict[frozenset[int], list[int]] = {}
        for rnd, paired in sorted(self.pairings.items()):
            for a, b in paired.pairs:
                if b:
                    out.setdefault(frozenset((a, b)), []).append(rnd)
        return out

    def starts(self) -> dict[int, list[bool]]:
        """Each seed's firsts (True) and seconds, in round order, byes left out."""
        out: dict[int, list[bool]] = {}
        for _, paired in sorted(self.pairings.items()):
            for a, b in paired.pairs:
                if b:
                    out.setdefault(a, []).append(True)
                    out.setdefault(b, []).append(False)
        return out

    def byes(self) -> dict[int, int]:
        """How many byes each seed has had."""
        out: dict[int, int] = {}
        for paired in self.pairings.values():
            for a, b in paired.pairs:
                if not b:
                    out[a] = out.get(a, 0) + 1
        return out


@dataclass
class EventState:
    """The whole event."""

    spec: EventSpec
    divisions: dict[str, DivisionState]
    records: int = 0
    id: str = ""
    """The event's identity: the digest of its log's first record (the event file
    as the log was made), which never changes; a table's game carries it from its
    assignment, so a game of another event (same players, same round) is refused."""

    def division(self, name: str) -> DivisionState:
        """A division by name (case-insensitive).

        Raises:
            EventFileError: There is none.
        """
        return self.divisions[self.spec.division(name).name]

    def apply(self, record: Record) -> None:
        """Take one more record.

        Raises:
            TournamentError: It does not fit the event as it stands.
        """
        if isinstance(record, Created):
            raise TournamentError("the event's ledger already has its event file")
        div = self.division(record.division)
        if isinstance(record, Entered):
            div.players.append(_check_entered(div, record))
            div.joined[len(div.players)] = record.round
        elif isinstance(record, Withdrew):
            _check_withdrew(div, record)
            div.left[record.seed] = record.round
        elif isinstance(record, Paired):
            _check_paired(div, record)
            div.pairings[record.round] = record
        elif isinstance(record, Unpaired):
            if record.round not in div.pairings:
                raise PairingError(f"round {record.round} is not paired")
            if div.results.get(record.round):
                raise PairingError(
                    f"round {record.round} already has results: correct them instead"
                )
            if not record.reason.strip():
                raise PairingError("withdrawing a round's pairings needs a reason")
            del div.pairings[record.round]
        elif isinstance(record, Retracted):
            _check_retracted(div, record)
            del div.results[record.round][(record.first, record.second)]
        else:
            _check_result(div, record)
            div.results.setdefault(record.round, {})[(record.first, record.second)] = record
        self.records += 1


def _outcome(res: Result, seed: int) -> Outcome:
    """``seed``'s side of a result. A forfeit's win and spread come from the record
    (who resigned or forfeited, the variant's spread), not from its scores."""
    mine, theirs = res.scores if seed == res.first else res.scores[::-1]
    opponent = res.second if seed == res.first else res.first
    if res.winner is None:
        return Outcome(res.round, opponent, mine, theirs, res.kind)
    return Outcome(
        res.round, opponent, mine, theirs, res.kind, won=res.won(seed), margin=res.margin(seed)
    )


def _check_entered(div: DivisionState, record: Entered) -> Player:
    """The late entry's player, checked as the event file's are (name, rating), with
    the name as the event keeps it."""
    where = "late entry"
    name = player_name(record.player.name, where)
    check_player(name, record.player.rating, where)
    if any(p.name.casefold() == name.casefold() for p in div.players):
        raise TournamentError(f"{name!r} is already entered")
    if not 1 <= record.round <= div.spec.rounds:
        raise TournamentError(
            f"{name} cannot enter from round {record.round}: "
            f"the division has rounds 1-{div.spec.rounds}"
        )
    if any(r >= record.round for r in div.pairings):
        raise PairingError(
            f"round {record.round} is already paired: a late entry joins a later round"
        )
    return replace(record.player, name=name)


def _check_withdrew(div: DivisionState, record: Withdrew) -> None:
    if not 1 <= record.seed <= len(div.players):
        raise TournamentError(f"no player number {record.seed} in {div.spec.name!r}")
    name = div.name(record.seed)
    if record.seed in div.left:
        # one withdrawal a player: a second would move the first (and the games and
        # byes paired meanwhile) without a trace of why
        raise TournamentError(f"{name} already withdrew from round {div.left[record.seed]}")
    if not 1 <= record.round <= div.spec.rounds:
        raise TournamentError(
            f"{name} cannot withdraw from round {record.round}: "
            f"the division has rounds 1-{div.spec.rounds}"
        )
    # A withdrawal takes effect from a round the player has not played: the games
    # played stay in the standings, and a result is never orphaned.
    played = [
        rnd
        for rnd, paired in div.pairings.items()
        if rnd >= record.round
        for pair in paired.pairs
        if record.seed in pair and div.result(rnd, pair) is not None
    ]
    if played:
        raise TournamentError(
            f"{name} has a result in round {max(played)}: "
            f"a withdrawal takes effect from round {max(played) + 1} at the earliest"
        )


def _check_paired(div: DivisionState, record: Paired) -> None:
    if record.round in div.pairings:
        raise PairingError(f"round {record.round} is already paired (unpair it first)")
    if not 1 <= record.round <= div.spec.rounds:
        raise PairingError(f"round {record.round}: the division has {div.spec.rounds} rounds")
    seen = [s for pair in record.pairs for s in pair if s]
    if sorted(seen) != sorted(div.active(record.round)):
        raise PairingError(
            f"round {record.round}'s pairings must name every active player once "
            f"(active {sorted(div.active(record.round))}, paired {sorted(seen)})"
        )


def _check_result(div: DivisionState, record: Result) -> None:
    paired = div.pairings.get(record.round)
    pair = (record.first, record.second)
    if paired is None or pair not in paired.pairs:
        who = f"{div.name(record.first)} v {div.name(record.second)}"
        raise ResultError(f"round {record.round}: {who} was not paired")
    if record.kind not in ("game", "forfeit", "absent", "bye"):
        raise ResultError(f"result kind {record.kind!r}: expected game, forfeit, absent or bye")
    if record.winner is not None and (
        record.kind != "forfeit" or not record.second or record.winner not in pair
    ):
        raise ResultError(
            f"round {record.round}: a winner by rule ({record.winner}) is one of the two "
            "players of a forfeit"
        )
    if record.spread is not None and record.spread < 0:
        raise ResultError(f"round {record.round}: a forfeit's spread is not negative")
    if pair in div.results.get(record.round, {}) and not record.reason.strip():
        raise ResultError(
            f"round {record.round} {div.name(record.first)} v {div.name(record.second)} "
            "already has a result: a correction needs a reason"
        )


def _check_retracted(div: DivisionState, record: Retracted) -> None:
    pair = (record.first, record.second)
    now = div.results.get(record.round, {}).get(pair)
    if now is None:
        raise ResultError(f"round {record.round}: pairing {pair} has no result to take back")
    if record.scores is not None and (now.scores, now.winner) != (record.scores, record.winner):
        raise ResultError(
            f"round {record.round} {div.name(record.first)} v {div.name(record.second)}: "
            f"the result to take back ({record.scores[0]} to {record.scores[1]}) is no longer "
            f"the one in ({now.scores[0]} to {now.scores[1]})"
        )
    if not record.reason.strip() or not record.by.strip():
        raise ResultError("taking a result back needs who (by) and why (reason)")


def event_id(created: Created) -> str:
    """An event's identity: ``sha256:`` and 16 hex digits of its first record (64
    bits: two events never share it by chance). The first record never changes, so
    neither does the id, however many records follow."""
    return "sha256:" + hashlib.sha256(encode_record(created)).hexdigest()[:16]


def replay(records: Iterable[Record]) -> EventState:
    """The event after its log's records.

    Raises:
        TournamentError: The first record is not the event file, or a record does
            not fit (with its number).
    """
    state: EventState | None = None
    for n, record in enumerate(records, start=1):
        if state is None:
            if not isinstance(record, Created):
                raise TournamentError(f"record 1 is {type(record).__name__}, not the event file")
            spec = parse_event(record.event, record.source or "the event file")
            state = EventState(
                spec,
                {d.name: DivisionState(d, list(d.players)) for d in spec.divisions},
                1,
                event_id(record),
            )
            continue
        try:
            state.apply(record)
        except TournamentError as exc:
            raise type(exc)(f"record {n}: {exc}") from exc
    if state is None:
        raise TournamentError("the event's ledger is empty")
    return state
