"""Pairing one round of a division by its plan: the :class:`Paired` record to log.

Fixed systems (round robins and their group forms) are laid out over the
players active at the stage's first round, highest rated first; Speed Pairings
over them in the standings after the round before the stage; ranked systems
pair the standings (Portland Swiss: as of round X-2, else X-1), after the
Gibson rule and the bye, the Modified Swiss one win group at a time. Repeat
control keeps each two players under the stage's meeting limit, with no
back-to-back repeat unless the plan allows it; when no pairing meets the limits
they are relaxed one step at a time and the record's notes say so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.tournament.errors import PairingError
from engine.tournament.pairing import schedule, speed
from engine.tournament.pairing.byes import bye_for
from engine.tournament.pairing.gibson import clinched, gibson_opponents
from engine.tournament.pairing.ranked import Allowed, ideal, pair_ranked, pair_swiss, win_groups
from engine.tournament.pairing.starts import order_pair
from engine.tournament.records import Paired
from engine.tournament.spec import FIXED, Stage
from engine.tournament.state import DivisionState

__all__ = ["draw"]


def draw(div: DivisionState, round_: int) -> Paired:
    """The pairings of ``round_``.

    Raises:
        PairingError: The round is paired already, a round it depends on has no
            results yet, or the plan cannot pair it.
    """
    spec = div.spec
    if round_ in div.pairings:
        raise PairingError(f"division {spec.name!r} round {round_} is already paired")
    if not 1 <= round_ <= spec.rounds:
        raise PairingError(f"division {spec.name!r} has rounds 1-{spec.rounds}, not {round_}")
    stage = spec.stage(round_)
    notes: list[str] = []
    if stage.system in FIXED:
        pairs = _fixed(div, stage, round_, notes)
    elif stage.system == "speed":
        pairs = _speed(div, stage, round_, notes)
    else:
        pairs = _ranked(div, stage, round_, notes)
    history = div.starts()
    ordered = tuple(order_pair(a, b, history) if b else (a, 0) for a, b in pairs)
    return Paired(spec.name, round_, ordered, stage.system, tuple(notes))


def _fixed(
    div: DivisionState, stage: Stage, round_: int, notes: list[str]
) -> list[tuple[int, int]]:
    seeds = div.by_rating(div.active(stage.first))
    count = stage.last - stage.first + 1
    at = round_ - stage.first
    if len(seeds) < 2:
        raise PairingError(f"{stage.system}: {len(seeds)} player(s) to pair")
    if stage.system == "round-robin":
        plan = schedule.round_robin(len(seeds), count, method=stage.method)
        rnd = [(seeds[a - 1], None if b is None else seeds[b - 1]) for a, b in plan[at]]
    elif stage.system == "john-green":
        plan = schedule.john_green(len(seeds))
        if at >= len(plan):
            raise PairingError("the John Green system pairs five rounds (then KOTH)")
        rnd = [(seeds[a - 1], None if b is None else seeds[b - 1]) for a, b in plan[at]]
    elif stage.system == "snake":
        rnd = schedule.within_groups(schedule.snake_groups(seeds, stage.groups), count)[at]
    elif stage.system == "grouped-round-robin":
        rnd = schedule.within_groups(schedule.grouped(seeds, stage.groups), count)[at]
    else:
        rnd = schedule.split_round_robin(seeds, count)[at]
    return _seat(div, seeds, rnd, round_, notes)


def _speed(
    div: DivisionState, stage: Stage, round_: int, notes: list[str]
) -> list[tuple[int, int]]:
    """Speed Pairings (:mod:`engine.tournament.pairing.speed`): groups fixed at the
    stage's first round, by rating when that is round 1, else by the standings
    after the round before it."""
    through = stage.first - 1
    robin = stage.last - stage.first == 2  # rounds 1-3 or 4-6, else rounds 7-8
    # a round robin stage and round 7 pair on the standings before the stage; round 8
    # on round 7's results too
    _ready(div, round_, through if robin or round_ == stage.first else round_ - 1, stage.system)
    first = div.active(stage.first)
    if len(first) < 4:
        raise PairingError(f"speed pairings: {len(first)} player(s); groups of four need 4")
    if through == 0:
        seeds = div.by_rating(first)
    else:
        seeds = [row.seed for row in div.standings(through, first)]
    if robin:
        groups = speed.foursomes(seeds) if through == 0 else speed.halves(seeds)
        # the stage's byes are laid out at its start: the byes before it, then its own
        earlier: dict[int, int] = {}
        for rnd_no, paired in div.pairings.items():
            for a, b in paired.pairs:
                if not b and rnd_no < stage.first:
                    earlier[a] = earlier.get(a, 0) + 1

        def pick(group: Sequence[int], byes: Mapping[int, int]) -> int:
            return bye_for(group, div.ratings, byes, by_standings=through > 0)

        rnd = speed.round_robin_stage(groups, 3, earlier, pick)[round_ - stage.first]
        return _seat(div, seeds, rnd, round_, notes)
    byes = div.byes()

    def bye(group: Sequence[int]) -> int:
        return bye_for(group, div.ratings, byes, by_standings=True)

    active = set(div.active(round_))
    groups = [[s for s in g if s in active] for g in speed.dozens(seeds)]
    met: set[frozenset[int]] = set()
    if round_ > stage.first:
        # round 8: the winners of round 7 first, then a tie, then the losers; within
        # each, the order of the stage's standings
        before = {row.seed: row.wins for row in div.standings(through)}
        after = {row.seed: row.wins for row in div.standings(stage.first)}
        groups = [sorted(g, key=lambda s: before[s] - after[s]) for g in groups]
        met = {frozenset(p) for p in div.pairings[stage.first].pairs}
    rnd = speed.koth_in_groups(groups, bye, lambda a, b: frozenset((a, b)) in met)
    for one, other in rnd:
        if other is not None and frozenset((one, other)) in met:
            # a group a withdrawal left with no other pairing: say so, as the ranked
            # systems do when they relax repeats
            notes.append(
                f"{div.name(one)} and {div.name(other)} met in round {stage.first} and meet "
                "again: their group has no other pairing"
            )
    return _seat(div, seeds, rnd, round_, notes)


def _seat(
    div: DivisionState,
    seeds: Sequence[int],
    rnd: schedule.Round,
    round_: int,
    notes: list[str],
) -> list[tuple[int, int]]:
    """A schedule's round as played: a withdrawn player's opponent has the bye, and
    players not in ``seeds`` (late entries) are paired among themselves."""
    active = set(div.active(round_))
    out: list[tuple[int, int]] = []
    for a, b in rnd:
        here = [s for s in (a, b) if s is not None and s in active]
        gone = [s for s in (a, b) if s is not None and s not in active]
        for s in gone:
            notes.append(f"{div.name(s)} has withdrawn: the opponent has the bye")
        if len(here) == 2:
            out.append((here[0], here[1]))
        elif here:
            out.append((here[0], 0))
    late = sorted(active - set(seeds))
    if late:
        notes.append(
            "late entries outside the schedule: "
            + ", ".join(div.name(s) for s in late)
            + " (paired among themselves and with the byes)"
        )
        loose = [a for a, b in out if not b] + late
        out = [(a, b) for a, b in out if b]
        while len(loose) >= 2:
            out.append((loose.pop(0), loose.pop(0)))
        out.extend((s, 0) for s in loose)
    return out


def _ranked(
    div: DivisionState, stage: Stage, round_: int, notes: list[str]
) -> list[tuple[int, int]]:
    spec = div.spec
    lag = 2 if stage.system == "portland" else 1
    through = max(0, round_ - lag)
    _ready(div, round_, through, stage.system)
    active = div.active(round_)
    table = div.standings(through, active)
    ranked = [row.seed for row in table]
    wins = {row.seed: row.wins for row in table}
    out: list[tuple[int, int]] = []
    factor = stage.factor
    if stage.system == "portland":
        factor = 2 * (stage.last - round_ + 1)  # groups of the Swiss rounds still to play
    # the Gibson rule judges the standings the system pairs on (Portland: round X-2),
    # with every round still to be played after them
    rounds_left = spec.rounds - through
    leader = clinched(table, rounds_left, spec.gibson_spread, spec.manual) if spec.gibson else None
    if leader is not None:
        # 2013 (A.2.C (b)): not one the system would pair against a contender in the
        # field without the leader; where nobody is, rule (a) alone, as in 2011
        rest = [s for s in ranked if s != leader]
        partner = ideal(stage.system, rest, wins, factor)
        outs = gibson_opponents(table, rounds_left, spec.prizes, spec.manual, partner)
        outs = outs or gibson_opponents(table, rounds_left, spec.prizes, 2011)
        # the highest placed of them whom the repeat limits allow (else the highest
        # placed: the rule comes first)
        strict = _limits(div, stage, round_)[0][0]
        opp = next((s for s in outs if strict(leader, s)), outs[0] if outs else None)
        if opp is not None:
            out.append((leader, opp))
            notes.append(
                f"Gibson rule ({spec.manual} manual): {div.name(leader)} has clinched first "
                f"and plays {div.name(opp)}, who cannot finish in the prizes"
                + ("" if strict(leader, opp) else ": beyond the repeat limits, the rule first")
            )
            ranked = [s for s in ranked if s not in (leader, opp)]
        elif len(ranked) % 2:
            out.append((leader, 0))
            notes.append(f"Gibson rule: {div.name(leader)} has clinched first: the bye")
            ranked = [s for s in ranked if s != leader]
    if len(ranked) % 2:
        bye = _john_green_bye(div, round_, ranked) or bye_for(
            ranked, div.ratings, div.byes(), by_standings=through > 0
        )
        out.append((bye, 0))
        ranked = [s for s in ranked if s != bye]
    target = ideal(stage.system, ranked, wins, factor)
    out.extend(_search(div, stage, round_, ranked, wins, target, notes))
    return out


def _ready(div: DivisionState, round_: int, through: int, system: str) -> None:
    """Refuse to pair ``round_`` before the rounds it depends on are paired and the
    results it pairs on (up to round ``through``) are in."""
    for rnd in range(1, round_):
        if div.missing(rnd) and rnd <= through:
            raise PairingError(
                f"round {round_} ({system}) pairs on the standings after round {through}: "
                f"round {rnd} still has {len(div.missing(rnd))} game(s) without a result"
            )
        if rnd not in div.pairings:
            raise PairingError(f"round {rnd} is not paired yet: pair the rounds in order")


def _john_green_bye(div: DivisionState, round_: int, ranked: Sequence[int]) -> int | None:
    """The KOTH round after a John Green stage: the bye to whichever of seeds 6 and
    7 has the poorer record (the manual, "John Green System")."""
    for st in div.spec.plan:
        if st.system == "john-green" and round_ == st.last + 1 and len(ranked) == 7:
            six, seven = div.by_rating(div.active(st.first))[5:7]
            if six not in ranked or seven not in ranked:
                return None
            return six if ranked.index(six) > ranked.index(seven) else seven
    return None


def _limits(div: DivisionState, stage: Stage, round_: int) -> list[tuple[Allowed, str]]:
    """The repeat rules of a round, strictest first, each with what it relaxes."""
    spec = div.spec
    meetings = div.meetings()
    last = div.pairings.get(round_ - 1)
    previous = {frozenset(p) for p in last.pairs} if last is not None else set()
    day = spec.day(round_)
    if stage.system == "portland":
        limit: int | None = 1  # "No rematches permitted during the Swiss rounds"
    elif stage.max_meetings is not None:
        limit = stage.max_meetings
    elif stage.system == "koth":
        limit = None  # KOTH: "More than one meeting is allowable"
    else:
        limit = spec.max_meetings
    back = spec.back_to_back if stage.back_to_back is None else stage.back_to_back

    def rule(limit: int | None, back: bool, same_day: bool) -> Allowed:
        def ok(a: int, b: int) -> bool:
            met = meetings.get(frozenset((a, b)), [])
            if limit is not None and len(met) >= limit:
                return False
            if not back and frozenset((a, b)) in previous:
                return False
            return not (same_day and any(spec.day(r) == day for r in met))

        return ok

    no_repeat_today = stage.system == "australian-draw"
    ladder = [(rule(limit, back, no_repeat_today), "")]
    if no_repeat_today:
        ladder.append((rule(limit, back, False), "a repeat within the day"))
    if not back:
        ladder.append((rule(limit, True, False), "a back-to-back repeat"))
    if limit is not None:
        ladder.append((rule(limit + 1, True, False), f"a meeting beyond the limit of {limit}"))
    ladder.append((rule(None, True, False), "any repeat"))
    return ladder


def _search(
    div: DivisionState,
    stage: Stage,
    round_: int,
    ranked: list[int],
    wins: dict[int, float],
    target: dict[int, int],
    notes: list[str],
) -> list[tuple[int, int]]:
    groups = win_groups(ranked, wins)
    meetings = div.meetings()

    def fresh(a: int, b: int) -> bool:
        return frozenset((a, b)) not in meetings

    # the manual's switching away from repeats is "prior to the last 2 rounds"
    early = round_ <= div.spec.rounds - 2
    for ok, relaxed in _limits(div, stage, round_):
        if stage.system == "swiss":
            pairs = pair_swiss(groups, target, ok, fresh if early else None)
        else:
            pairs = pair_ranked(ranked, target, ok)
        if pairs is not None:
            if relaxed:
                notes.append(f"no pairing met the repeat limits: allowed {relaxed}")
            return pairs
    raise PairingError(f"round {round_}: no pairing found for {len(ranked)} players")
