"""A property test over random events: for every game, who won and by what spread agree
between the table's replay, the event's standings, the NASPA results file and the
tsh file.

Each event is built through the real engine: the rounds are paired by the plan
(KOTH, so the pairings read the standings), every game is a small table log
replayed by the rules (a result the director declares at the table, a
resignation, a forfeit, a win by lateness, a double absence; a bye is the
table's bye), its result taken into the event as a signed game is
(:func:`engine.tournament.intake.result_of_game`), and players withdraw
between rounds. The files are written by the event's writers and read back.
"""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.events import Bye, Event, Forfeited, GameStarted, Resigned, ResultDeclared
from engine.exports.results import GameResult, game_result
from engine.rules.replay import replay as replay_game
from engine.tournament.intake import game_digest, result_of_game
from engine.tournament.naspa import event_naspa_lines
from engine.tournament.pairing.pair_round import draw
from engine.tournament.records import Created, Withdrew
from engine.tournament.state import DivisionState, EventState, replay
from engine.tournament.tsh import division_lines, parse_t

NAMES = ("Ann Able", "Ben Baker", "Cid Cole", "Dee Dunn", "Eve Eng", "Fay Fox", "Gil Gray")
ENDINGS = ("played", "played", "played", "tie", "resigned", "forfeit", "lateness", "absent")


def event(variant: str, players: int, rounds: int) -> EventState:
    lines = ['name = "Random"', "[[division]]", 'name = "A"', f'variant = "{variant}"']
    lines += [f"rounds = {rounds}", f'plan = [{{ rounds = "1-{rounds}", system = "koth" }}]']
    lines += ["players = ["]
    lines += [f'  {{ name = "{n}", rating = {1900 - 50 * i} }},' for i, n in enumerate(NAMES)][
        :players
    ]
    return replay([Created("\n".join([*lines, "]"]))])


def table_log(
    div: DivisionState, rnd: int, pair: tuple[int, int], data: st.DataObject
) -> list[Event]:
    """The game of ``pair`` as a table would log it, ended the way ``data`` draws."""
    a, b = pair
    start = GameStarted(
        t=0,
        variant=div.spec.variant,
        players=(div.name(a), div.name(b) if b else "bye"),
        round=rnd,
        division=div.spec.name,
    )
    if not b:
        return [start, Bye(t=10, player=0)]
    ending = data.draw(st.sampled_from(ENDINGS))
    side = data.draw(st.integers(0, 1))
    if ending in ("played", "tie"):
        mine = data.draw(st.integers(-20, 650))
        theirs = mine if ending == "tie" else data.draw(st.integers(-20, 650))
        return [start, ResultDeclared(t=10, by="director", scores=(mine, theirs))]
    if ending == "resigned":
        return [start, Resigned(t=10, player=side)]
    lateness = ending == "lateness"
    both = ending == "absent"
    return [start, Forfeited(t=10, player=side, lateness=lateness, both=both)]


def each_players_side(game: GameResult) -> Iterator[tuple[str, float, int]]:
    """Each player's name, what the table gave them (1, a half, 0) and their spread."""
    for seat, name in enumerate(game.players):
        if not name:
            continue
        if game.reason == "absent":  # neither came: both lose, no spread
            yield name, 0.0, 0
        elif game.winner is None:
            yield name, 0.5, 0
        else:
            won = game.winner == seat
            yield name, float(won), game.spread if won else -game.spread


def naspa_cells(lines: list[str]) -> dict[str, tuple[int, int, list[str]]]:
    """By the line's name: the player's number, total spread and game cells."""
    out = {}
    for line in lines:
        head, _, cells = line.partition(": ")
        number, _, rest = head.partition(" ")
        name, _, total = rest.rpartition("/")
        out[name] = (int(number), int(total), cells.split())
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(("naspa", "nzasp", "indonesia-open", "wespa")),
    players=st.integers(3, 7),
    rounds=st.integers(1, 4),
    data=st.data(),
)
def test_every_game_agrees_between_table_standings_naspa_and_tsh(
    variant: str, players: int, rounds: int, data: st.DataObject
) -> None:
    ev = event(variant, players, rounds)
    div = ev.division("A")
    table: dict[tuple[int, str], tuple[float, int]] = {}
    """(round, name) -> what the table gave the player and their spread."""
    games: dict[tuple[int, str], GameResult] = {}
    for rnd in range(1, rounds + 1):
        paired = draw(div, rnd)
        ev.apply(paired)
        for n, pair in enumerate(paired.pairs, start=1):
            log = list(enumerate(table_log(div, rnd, pair, data), start=1))
            state, refused = replay_game(log)
            assert not refused
            game = game_result(state)
            for name, won, spread in each_players_side(game):
                table[(rnd, name)] = (won, spread)
                games[(rnd, name)] = game
            if pair[1]:  # a bye needs no result: the division's rule gives it
                ref = f"t{n}.sqlite {game_digest(e for _, e in log)}"
                ev.apply(result_of_game(div, game, ref))
        active = div.active(rnd + 1)
        if rnd < rounds and len(active) > 2 and data.draw(st.booleans()):
            ev.apply(Withdrew("A", data.draw(st.sampled_from(active)), rnd + 1))

    # The standings: each game as the standings count it, and the totals.
    outcomes = div.outcomes()
    for seed in range(1, players + 1):
        for o in outcomes.get(seed, []):
            assert (o.win, o.spread) == table[(o.round, div.name(seed))]
    if div.variant.event.bye_counts == "always":  # NZASP 9.2 counts equal byes as nothing
        for row in div.standings(rounds):
            sides = [v for (_, name), v in table.items() if name == div.name(row.seed)]
            assert row.wins == sum(won for won, _ in sides)
            assert row.spread == sum(spread for _, spread in sides)

    # The NASPA file: each rated game's letter, opponent and scores; byes and
    # forfeits are B (unrated); the total spread counts them all.
    naspa = naspa_cells(event_naspa_lines(ev))
    number = {name: naspa[_naspa_name(name)][0] for name in NAMES[:players]}
    for name in NAMES[:players]:
        _, total, cells = naspa[_naspa_name(name)]
        played = sorted((rnd, v) for (rnd, who), v in table.items() if who == name)
        assert total == sum(spread for _, (_, spread) in played)
        assert len(cells) == len(played)
        for cell, (rnd, (won, spread)) in zip(cells, played, strict=True):
            game = games[(rnd, name)]
            if game.unrated:
                assert cell == "B"
                continue
            seat = game.players.index(name)
            assert (
                cell == f"{'LTW'[int(2 * won)]}{number[game.players[1 - seat]]}-{game.scores[seat]}"
            )
            assert game.scores[seat] - game.scores[1 - seat] == spread

    # The tsh file, read back by the tsh reader: a game's two scores, or a bye's or
    # forfeit's spread against opponent 0.
    tsh = parse_t("\n".join(division_lines(div)), "a.t")
    for seed, name in enumerate(NAMES[:players], start=1):
        opps, scores = tsh.opponents[seed - 1], tsh.scores[seed - 1]
        for rnd in range(1, rounds + 1):
            if (rnd, name) not in table:  # withdrawn: tsh's inactive player, nothing scored
                assert (opps[rnd - 1], scores[rnd - 1]) == (0, 0)
                continue
            spread = table[(rnd, name)][1]
            against = opps[rnd - 1]
            if against:
                game = games[(rnd, name)]
                assert NAMES[against - 1] in game.players
                assert scores[rnd - 1] - tsh.scores[against - 1][rnd - 1] == spread
            else:
                assert scores[rnd - 1] == spread


def _naspa_name(name: str) -> str:
    first, last = name.split()
    return f"{last} {first}".upper()
