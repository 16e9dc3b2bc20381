"""Results from paper slips: one game a line, typed as a tsh director types it.

A line is ``[DIVISION] [rROUND] PLAYER SCORE PLAYER SCORE``: ``3 410 7 385``,
``gus 410 dan 385``, ``Gray, Gus 410 Doe 385``. A player is a number (the
division's, as ``event show`` lists them) or the start of a name: of the whole
name, of its last name, or of "Last, First", a word at a time (``g gray``,
``gray, g``; case-insensitive). A prefix that
fits several players is refused with them listed, except that a whole name, then a
whole word of one name only, is that player (``dan`` is Dan Doe beside Dana Fox).
A forfeit is ``PLAYER f`` (``3 f``, ``3 forfeit``, ``3 f 7``): that player
forfeits, the opponent wins by the variant's forfeit spread (NZASP 10.2-10.3).
Neither player came is ``PLAYER absent PLAYER`` (``3 absent 7``): a loss for both,
no spread. A bye needs no slip: it counts by itself (``DivisionState.result``).

The round is the one in which the two players are paired and their game has no
result yet (for a correction, the one where it has a result), so a late slip from
an earlier round goes to its round; a line fitting several rounds (a repeat
pairing) or none is refused, and the director may name the round: ``r3 ...``.
The division is the event's only one, the
one the session chose, or the first word of the line when it names one. What is
read is echoed as understood (round, table, both players with their numbers, the
scores and the spread), and a line that cannot be right is refused with the
reason: players not paired together (saying whom each plays), a score no game
reaches (:func:`engine.tournament.scores.check_score`), an ambiguous or unknown
player, or a result already in (with the correction that would replace it). Pure.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from engine.tournament.assignment import table_numbers
from engine.tournament.errors import ResultError
from engine.tournament.records import Result
from engine.tournament.scores import check_score
from engine.tournament.state import DivisionState, EventState

__all__ = [
    "Slip",
    "find_player",
    "missing_lines",
    "missing_report",
    "open_rounds",
    "read_slip",
    "result_echo",
    "slip_division",
    "slip_round",
    "slip_where",
]

_FORFEIT = frozenset({"f", "forfeit", "forfeits"})
_EXAMPLE = "e.g. 3 410 7 385, gus 410 dan 385, or 3 f for a forfeit"
_FORFEIT_FORM = "a forfeit is PLAYER f [OPPONENT], no scores: 3 f or 3 f 7"
_ABSENT = frozenset({"absent", "neither"})


class Slip(msgspec.Struct, frozen=True):
    """One line read: the result to record and how it reads back."""

    result: Result
    """The record, in the pairing's order."""
    echo: str
    """``R4 T2  #3 Gus Gray 410 - #7 Dan Doe 385  (+25)``: as typed, players' order kept."""
    lead: int
    """The player typed first (a forfeit: the winner), who leads every echo of it."""
    before: Result | None = None
    """The result it replaces (a correction), else None."""


def slip_division(state: EventState, name: str | None) -> DivisionState:
    """The division a line is for: ``name`` (the line's or the session's), else the
    event's only one.

    Raises:
        TournamentError: ``name`` is no division, or the event has several and none is named.
    """
    if name is not None:
        return state.division(name)
    if len(state.divisions) == 1:
        return next(iter(state.divisions.values()))
    names = ", ".join(state.divisions)
    first = next(iter(state.divisions))
    raise ResultError(
        f"the event has divisions {names}: start the line with one "
        f"({first} 3 410 7 385) or choose one for the session (division {first})"
    )


def open_rounds(div: DivisionState) -> list[int]:
    """The paired rounds with games still without a result, oldest first."""
    return [r for r in sorted(div.pairings) if div.missing(r)]


def slip_round(div: DivisionState) -> int:
    """The round a line without one is judged against when its players fit no round:
    the latest paired with games still without a result, else the latest paired.

    Raises:
        ResultError: No round is paired.
    """
    open_ = open_rounds(div)
    if open_:
        return open_[-1]
    if not div.pairings:
        raise ResultError(f"division {div.spec.name}: no round is paired yet")
    return max(div.pairings)


def slip_where(state: EventState, division: str | None, round_: int | None) -> str:
    """Where lines go, for a session's header: ``division A round 2``, or ``division A
    rounds 1, 2`` when several have games missing (each line to its players' round).

    Raises:
        TournamentError: The event has several divisions and none is chosen, or no
            round is paired (the reason, to show as it is).
    """
    div = slip_division(state, division)
    if round_ is not None:
        return f"division {div.spec.name} round {round_}"
    open_ = open_rounds(div) or [slip_round(div)]
    many = "s" if len(open_) > 1 else ""
    return f"division {div.spec.name} round{many} {', '.join(map(str, open_))}"


def _round_of(div: DivisionState, seeds: tuple[int, ...], correcting: bool) -> int:
    """The round a line names no round for: the one where a pairing holds ``seeds``
    (a game: both players; a forfeit: the one who forfeits, against an opponent)
    without a result yet (``correcting``: with one). A slip typed twice or a
    correction of nothing goes to the latest round the pairing has (the refusal says
    why); players paired in no round go to :func:`slip_round` (the refusal says whom
    each plays there).

    Raises:
        ResultError: Several rounds fit (a repeat pairing): the director names one.
    """
    found = [
        (rnd, pair)
        for rnd in sorted(div.pairings)
        for pair in div.pairings[rnd].pairs
        if 0 not in pair and all(s in pair for s in seeds)
    ]
    fit = [r for r, p in found if (p in div.results.get(r, {})) == correcting]
    if len(fit) > 1:
        who = " and ".join(_who(div, s) for s in seeds)
        fits = "are paired" if len(seeds) > 1 else "has games"
        raise ResultError(
            f"{who} {fits} in rounds {', '.join(map(str, fit))}: start the line with "
            f"its round (r{fit[-1]} ...)"
        )
    if fit:
        return fit[0]
    return found[-1][0] if found else slip_round(div)


def _forms(name: str) -> tuple[set[str], set[str]]:
    """A name's whole forms (``gus gray``, ``gray, gus``, ``gray gus``) and its words,
    casefolded, for matching what is typed. A name kept as "Last, First" (a tsh
    import) gives the same forms."""
    folded = " ".join(name.split()).casefold()
    if "," in folded:
        last, _, first = (part.strip() for part in folded.partition(","))
    else:
        *rest, last = folded.split()
        first = " ".join(rest)
    whole = {folded, f"{first} {last}".strip(), f"{last}, {first}", f"{last} {first}".strip()}
    words = {w.strip(",") for w in folded.replace(",", " ").split()}
    return whole, words - {""}


def find_player(div: DivisionState, typed: str) -> int:
    """The player ``typed`` names: a number of the division, or the start of a name.

    Raises:
        ResultError: No such number, no player fits, or several do (listed).
    """
    word = " ".join(typed.split()).casefold()
    if word.isdigit():
        seed = int(word)
        if not 1 <= seed <= len(div.players):
            raise ResultError(
                f"no player #{seed} in division {div.spec.name} (1-{len(div.players)})"
            )
        return seed
    whole: list[int] = []
    by_word: list[int] = []
    prefix: list[int] = []
    for seed, player in enumerate(div.players, start=1):
        forms, words = _forms(player.name)
        if word in forms:
            whole.append(seed)
        if word in words:
            by_word.append(seed)
        if any(_starts(word.split(), f.split()) for f in forms):
            prefix.append(seed)
    for found in (whole, by_word, prefix):
        if len(found) == 1:
            return found[0]
    if not prefix:
        # worded as DivisionState.seed_of words it: one refusal for a name nobody has
        raise ResultError(f"division {div.spec.name!r} has no player {typed!r}")
    shown = ", ".join(_who(div, s) for s in prefix[:8])
    more = f" and {len(prefix) - 8} more" if len(prefix) > 8 else ""
    raise ResultError(f"{typed!r} fits several players: {shown}{more}; type more of the name")


def _starts(typed: list[str], name: list[str]) -> bool:
    """Whether each typed word starts the name's word in its place: ``g gray`` fits
    Gus Gray, ``gray, g`` fits "Gray, Gus"."""
    return len(typed) <= len(name) and all(map(str.startswith, name, typed))


def _who(div: DivisionState, seed: int) -> str:
    return f"#{seed} {div.name(seed)}"


def _opponent(state: EventState, div: DivisionState, rnd: int, seed: int) -> str:
    """Whom ``seed`` plays in ``rnd``, in words, for a refusal."""
    for pair in div.pairings[rnd].pairs:
        if seed in pair:
            other = pair[1] if pair[0] == seed else pair[0]
            if not other:
                return f"{_who(div, seed)} has the bye"
            table = table_numbers(state, div, rnd)[pair]
            return f"{_who(div, seed)} plays {_who(div, other)} at T{table}"
    return f"{_who(div, seed)} is not paired in round {rnd}"


def _pairing(state: EventState, div: DivisionState, rnd: int, a: int, b: int) -> tuple[int, int]:
    """The pairing of ``a`` and ``b`` in ``rnd``, in its order.

    Raises:
        ResultError: They are not paired together (saying whom each plays).
    """
    if a == b:
        raise ResultError(f"both players are {_who(div, a)}")
    for pair in div.pairings[rnd].pairs:
        if pair in ((a, b), (b, a)):
            return pair
    each = "; ".join(_opponent(state, div, rnd, s) for s in (a, b))
    raise ResultError(
        f"{_who(div, a)} and {_who(div, b)} are not paired together in round {rnd}: {each}"
    )


def result_echo(state: EventState, res: Result, lead: int | None = None) -> str:
    """A result as the desk reads it back: ``R4 T2  #3 Gus Gray 410 - #7 Dan Doe 385
    (+25)``, ``lead`` (a seed of the pairing, default its first) named first and the
    spread his; a forfeit ``R4 T2  #7 Dan Doe wins: #3 Gus Gray forfeits  (+50)``."""
    div = state.division(res.division)
    pair = (res.first, res.second)
    where = f"R{res.round} T{table_numbers(state, div, res.round)[pair]}"
    spread = div.variant.spread_recorded  # TOR-11: match points only, no spread
    if res.kind == "forfeit" and res.winner is not None and res.loser is not None:
        won = f"{_who(div, res.winner)} wins: {_who(div, res.loser)} forfeits"
        return f"{where}  {won}" + (f"  (+{res.margin(res.winner)})" if spread else "")
    a = res.first if lead is None else lead
    b = res.second if a == res.first else res.first
    if res.kind == "absent":
        return f"{where}  {_who(div, a)} v {_who(div, b)}: neither came"
    mine, theirs = res.scores if a == res.first else res.scores[::-1]
    line = f"{where}  {_who(div, a)} {mine} - {_who(div, b)} {theirs}"
    return line + (f"  ({res.margin(a):+d})" if spread else "")


def read_slip(
    state: EventState,
    line: str,
    *,
    division: str | None = None,
    round_: int | None = None,
    by: str = "director",
    reason: str = "",
    correct_how: str = "c {line} --reason WHY",
) -> Slip:
    """One slip line read against the event: the result to record and its echo.

    ``division`` and ``round_`` are the session's (None: as the line or the event
    says); ``reason`` makes it a correction of a result already in; ``correct_how``
    says how to make one where the line came from (``{line}``: the line).

    Raises:
        TournamentError: The line cannot be right (the reason quotes it).
    """
    line = line.strip()
    words = line.split()
    # a division named by a number would take a player's number: such a division
    # is chosen for the session (division NAME), not at the line's start
    if words and len(state.divisions) > 1 and not words[0].isdigit():
        named = {d.casefold(): d for d in state.divisions}
        if words[0].casefold() in named:
            division, words = named[words[0].casefold()], words[1:]
    div = slip_division(state, division)
    if words and words[0][:1] in "rR" and words[0][1:].isdigit():
        round_, words = int(words[0][1:]), words[1:]
    if round_ is not None and round_ not in div.pairings:
        raise ResultError(f"round {round_} is not paired in division {div.spec.name}")
    if not words:
        raise ResultError(f"nothing to read in {line!r}: {_EXAMPLE}")
    correcting = bool(reason.strip())
    folded = [w.casefold() for w in words]
    if "bye" in folded:
        named_ = " ".join(words[: folded.index("bye")])
        if not named_:
            raise ResultError(f"a bye needs no slip: it counts by itself ({line!r})")
        seed = find_player(div, named_)
        rnd = slip_round(div) if round_ is None else round_
        raise ResultError(f"{_opponent(state, div, rnd, seed)}: a bye counts by itself")
    gone = next((i for i, w in enumerate(folded) if w in _ABSENT), None)
    cut = next((i for i, w in enumerate(folded) if w in _FORFEIT), None)
    if gone is not None:
        a, b = _absent_players(div, words[:gone], words[gone + 1 :], line)
        rnd = _round_of(div, (a, b), correcting) if round_ is None else round_
        pair = _pairing(state, div, rnd, a, b)
        res = Result(div.spec.name, rnd, pair[0], pair[1], (0, 0), "absent", cause="director")
        lead = a
    elif cut is not None:
        out, other = _forfeit_players(div, words[:cut], words[cut + 1 :], line)
        seeds = (out,) if other is None else (out, other)
        rnd = _round_of(div, seeds, correcting) if round_ is None else round_
        res, lead = _forfeit(state, div, rnd, out, other)
    else:
        (a, sa), (b, sb) = _entries(div, words, line)
        if a == b:
            raise ResultError(f"both players are {_who(div, a)}")
        rnd = _round_of(div, (a, b), correcting) if round_ is None else round_
        pair = _pairing(state, div, rnd, a, b)
        scores = (sa, sb) if pair == (a, b) else (sb, sa)
        res, lead = Result(div.spec.name, rnd, pair[0], pair[1], scores), a
    res = replace(res, by=by, reason=reason)
    before = div.results.get(rnd, {}).get((res.first, res.second))
    echo = result_echo(state, res, lead)
    same = before is not None and (before.kind, before.scores, before.winner) == (
        res.kind,
        res.scores,
        res.winner,
    )
    if same:  # a slip handed in twice, or a correction that changes nothing
        raise ResultError(f"already in as typed: {echo}")
    if before is not None and not correcting:
        raise ResultError(
            f"already in: {result_echo(state, before, lead)}; "
            f"to correct it: {correct_how.format(line=line)}"
        )
    if before is None and correcting:
        raise ResultError(f"nothing to correct: {echo} has no result yet (enter it without c)")
    return Slip(res, echo, lead, before)


def _forfeit_players(
    div: DivisionState, loser: list[str], winner: list[str], line: str
) -> tuple[int, int | None]:
    """``PLAYER f [OPPONENT]``: who forfeits, and the opponent if named."""
    if not loser or any(_whole(w) for w in loser[1:] + winner[1:]):
        raise ResultError(f"{_FORFEIT_FORM} (in {line!r})")
    out = find_player(div, " ".join(loser))
    return out, (find_player(div, " ".join(winner)) if winner else None)


def _absent_players(
    div: DivisionState, one: list[str], other: list[str], line: str
) -> tuple[int, int]:
    """``PLAYER absent PLAYER``: the two players, neither of whom came."""
    if not one or not other or any(_whole(w) for w in one[1:] + other[1:]):
        raise ResultError(
            f"neither came is PLAYER absent PLAYER, no scores: 3 absent 7 (in {line!r})"
        )
    a, b = find_player(div, " ".join(one)), find_player(div, " ".join(other))
    if a == b:
        raise ResultError(f"both players are {_who(div, a)}")
    return a, b


def _forfeit(
    state: EventState, div: DivisionState, rnd: int, out: int, named: int | None
) -> tuple[Result, int]:
    """``out`` forfeits the round's game (against ``named``, checked, when given)."""
    pair = div.pair_of(out, rnd)
    if pair is None or not pair[1]:
        raise ResultError(f"{_opponent(state, div, rnd, out)}: no game to forfeit")
    won = pair[1] if pair[0] == out else pair[0]
    if named is not None:
        pair = _pairing(state, div, rnd, out, named)
    res = Result(
        div.spec.name,
        rnd,
        pair[0],
        pair[1],
        (0, 0),
        "forfeit",
        winner=won,
        spread=div.variant.forfeit_spread,
        cause="director",
    )
    return res, won


def _entries(div: DivisionState, words: list[str], line: str) -> list[tuple[int, int]]:
    """``PLAYER SCORE PLAYER SCORE``: a player is a number or a run of name words."""
    entries: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if words[i].isdigit():  # a player's number
            who, i = words[i], i + 1
        else:
            j = i
            while j < len(words) and not _whole(words[j]):
                j += 1
            who, i = " ".join(words[i:j]), j
        if not who or i >= len(words) or not _whole(words[i]):
            raise ResultError(_expected(line))
        seed = find_player(div, who)
        entries.append((seed, check_score(int(words[i]), _who(div, seed))))
        i += 1
    if len(entries) != 2:
        raise ResultError(_expected(line))
    return entries


def _expected(line: str) -> str:
    return f"expected PLAYER SCORE PLAYER SCORE in {line.strip()!r} ({_EXAMPLE})"


def _whole(word: str) -> bool:
    """A score as typed: a whole number, a minus sign allowed."""
    return word.removeprefix("-").isdigit()


def missing_lines(state: EventState, div: DivisionState, rnd: int) -> list[str]:
    """The games of ``rnd`` without a result, by table: ``R4 T2  #3 Gus Gray v #7 Dan
    Doe``, after a line counting them.

    Raises:
        ResultError: ``rnd`` is not paired.
    """
    if rnd not in div.pairings:
        raise ResultError(f"round {rnd} is not paired in division {div.spec.name}")
    tables = table_numbers(state, div, rnd)
    games = sorted((tables[p], p) for p in div.missing(rnd))
    head = f"division {div.spec.name} round {rnd}: "
    if not games:
        return [head + "every result is in"]
    return [
        head + f"{len(games)} game(s) without a result",
        *(f"  R{rnd} T{t}  {_who(div, a)} v {_who(div, b)}" for t, (a, b) in games),
    ]


def missing_report(state: EventState, division: str | None, round_: int | None) -> list[str]:
    """The games without a result (``m``, ``event missing``): of ``round_``, else of
    every paired round with games missing, oldest first (a late slip of an earlier
    round is as missing as the latest round's); of ``division``, else of the event's
    only one, else of every division paired.

    Raises:
        TournamentError: ``division`` is none of the event's, or ``round_`` is not paired.
    """
    if division is not None or len(state.divisions) == 1:
        divs = [slip_division(state, division)]
    else:
        divs = [d for d in state.divisions.values() if d.pairings]
    out: list[str] = []
    for div in divs:
        if round_ is not None:
            rounds = [round_]
        elif div.pairings:
            rounds = open_rounds(div) or [max(div.pairings)]
        else:
            rounds = []
            out.append(f"division {div.spec.name}: no round is paired yet")
        for rnd in rounds:
            out += missing_lines(state, div, rnd)
    return out or ["no round is paired yet"]
