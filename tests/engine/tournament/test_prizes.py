"""The prize list: places with ties split or broken by the standings' order, rating
class prizes (a division prizewinner takes none), and the special prizes from real
game logs (tests/support/gamelog.py) matched to the event's results by digest."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Event
from engine.exports.gcg import to_gcg
from engine.gcg.record import EventKind
from engine.rules.replay import replay as replay_game
from engine.tournament.intake import results_from_log
from engine.tournament.prizes import place_prizes, prize_list
from engine.tournament.records import Created, Paired, Record, Result
from engine.tournament.sheets.html import sheet_html
from engine.tournament.sheets.prizes import prizes_sheet
from engine.tournament.sheets.text import sheet_text
from engine.tournament.state import EventState, replay
from tests.support.gamelog import game_events, numbered

SIX = [("Ann", 1800), ("Ben", 1700), ("Cyd", 1600), ("Dee", 1300), ("Eli", 1200), ("Fay", 900)]


def event(
    players: Sequence[tuple[str, int]], extra: str = "", rounds: int = 1, variant: str = "naspa"
) -> Created:
    lines = ['name = "Prize Day"', "[[division]]", 'name = "A"', f'variant = "{variant}"']
    lines += [f"rounds = {rounds}", f'plan = [{{ rounds = "1-{rounds}", system = "swiss" }}]']
    lines += [extra, "players = ["]
    lines += [f'  {{ name = "{n}", rating = {r} }},' for n, r in players]
    return Created("\n".join([*lines, "]"]))


def one_round(extra: str) -> EventState:
    """Ann beats Ben by 100, Cyd beats Dee by 100 (level), Eli beats Fay by 150."""
    records: list[Record] = [
        event(SIX, extra),
        Paired("A", 1, ((1, 2), (3, 4), (5, 6))),
        Result("A", 1, 1, 2, (400, 300)),
        Result("A", 1, 3, 4, (400, 300)),
        Result("A", 1, 5, 6, (450, 300)),
    ]
    return replay(records)


def labels(state: EventState) -> list[tuple[str, str]]:
    return [(p.label, p.name) for p in place_prizes(state.division("A"), 1)]


def test_level_players_split_the_places_they_cover() -> None:
    got = labels(one_round('prizes = 3\nties = "split"'))
    assert got == [("1st", "Eli"), ("2=/3= split", "Ann"), ("2=/3= split", "Cyd")]


def test_level_players_on_the_last_prize_place_share_it() -> None:
    got = labels(one_round('prizes = 2\nties = "split"'))
    assert got == [("1st", "Eli"), ("2= split", "Ann"), ("2= split", "Cyd")]


def test_with_tiebreak_the_standings_order_decides() -> None:
    # level on wins and spread: the standings put the higher rated first (Ann)
    got = labels(one_round('prizes = 2\nties = "tiebreak"'))
    assert got == [("1st", "Eli"), ("2nd", "Ann")]


def test_class_prizes_go_to_the_best_of_each_class_not_placed_already() -> None:
    classes = 'classes = [{ name = "A", min = 1500 }, { name = "B", min = 1000 }, { name = "C" }]'
    got = labels(one_round(f'prizes = 1\nclass_prizes = 1\nties = "tiebreak"\n{classes}'))
    # Eli (1200, class B) wins the division: class B's prize is Dee's, not his again
    assert got == [("1st", "Eli"), ("class B 1st", "Dee"), ("class C 1st", "Fay")]


def test_a_split_tie_inside_a_class() -> None:
    classes = 'classes = [{ name = "Open", min = 1850 }, { name = "B" }]'
    got = labels(one_round(f'prizes = 1\nclass_prizes = 1\nties = "split"\n{classes}'))
    # Eli takes the division's one place; Ann and Cyd, level, split class B's
    assert got == [("1st", "Eli"), ("class B 1= split", "Ann"), ("class B 1= split", "Cyd")]


# --- special prizes from the tables' logs ---------------------------------------

ROUND_1 = (24, 17)
"""Two generated naspa games: Ann v Cyd (Cyd's four bingos) and Ben v Hal."""


def logged_event() -> tuple[EventState, list[list[tuple[int, Event]]]]:
    games = [numbered(game_events(seed, "naspa")) for seed in ROUND_1]
    names = [p for g in games for p in replay_game(g)[0].players]
    players = [(n, 1500 - 10 * i) for i, n in enumerate(names)]
    state = replay([event(players, "prizes = 2", rounds=2), Paired("A", 1, ((1, 2), (3, 4)))])
    for i, g in enumerate(games):
        got = results_from_log(state, f"t{i + 1}.sqlite", g, round_=1, unsigned=True)
        assert got.results, got
        assert not got.refused, got
        for res in got.results:
            state.apply(res)
    # round 2 from slips: the high game of the day is typed, not logged
    state.apply(Paired("A", 2, ((1, 3), (2, 4))))
    state.apply(Result("A", 2, 1, 3, (720, 300)))
    state.apply(Result("A", 2, 2, 4, (350, 351)))
    return state, games


def plays_of(game: list[tuple[int, Event]]) -> list[tuple[str, int, bool]]:
    """(player, score, bingo) of every play that stood, read from the GCG export (a
    second reading of the game: withdrawn plays dropped, settled scores applied)."""
    state, _ = replay_game(game)
    record = to_gcg(state)
    names = {p.nick: p.name for p in record.players}
    out: list[tuple[str, int, bool]] = []
    for ev in record.events:
        if ev.kind is EventKind.PLACEMENT:
            assert ev.move is not None
            out.append((names[ev.nick], ev.score, sum(c != "." for c in ev.move.tiles) == 7))
        elif ev.kind is EventKind.WITHDRAWN:
            del out[max(i for i, p in enumerate(out) if p[0] == names[ev.nick])]
    return out


def test_special_prizes_from_the_logs_and_the_slips() -> None:
    state, games = logged_event()
    div = state.division("A")
    plist = prize_list(state, div, 2, games)
    won = {(s.kind, s.name): s for s in plist.specials}
    plays = [p for g in games for p in plays_of(g)]
    top = max(score for _, score, _ in plays)
    bingos: dict[str, int] = {}
    for name, _, bingo in plays:
        bingos[name] = bingos.get(name, 0) + bingo
    most = max(bingos.values())
    assert (top, most) == (183, 4)  # checked once by hand in the two logs
    assert ("high play", "Hal") in won
    assert [s.value for s in plist.specials if s.kind == "high play"] == [top]
    best = next(s for s in plist.specials if s.kind == "most bingos")
    assert (best.name, best.value) == (max(bingos, key=lambda n: bingos[n]), 4)
    assert [(g.round, g.table) for g in best.games] == [(1, "t1")]  # four bingos, one game
    high = next(s for s in plist.specials if s.kind == "high play")
    assert high.games[0].logged
    assert high.games[0].table in ("t1", "t2")
    assert high.name in high.games[0].players
    assert high.play
    # high game: the slip's 720 (round 2, no table log); high loss: the best losing score
    game = next(s for s in plist.specials if s.kind == "high game")
    assert (game.value, game.games[0].logged, game.games[0].round) == (720, False, 2)
    loss = next(s for s in plist.specials if s.kind == "high loss")
    r1_losses = [min(r.scores) for r in div.results[1].values()]
    assert loss.value == max([350, 300, *r1_losses])
    assert any("slips" in n for n in plist.notes)
    text = sheet_text(prizes_sheet("Prize Day", plist))
    assert "\nhigh play " in text
    assert "round 1 table t" in text
    assert "(slip)" in text


def test_a_log_not_in_the_event_gives_no_plays() -> None:
    state, _games = logged_event()
    stranger = numbered(game_events(3, "naspa"))  # a practice game: no result names it
    plist = prize_list(state, state.division("A"), 1, [stranger])
    assert not [s for s in plist.specials if s.kind in ("high play", "most bingos")]
    assert any("no log at hand" in n for n in plist.notes)


def test_a_list_before_the_last_round_is_provisional() -> None:
    state, games = logged_event()
    plist = prize_list(state, state.division("A"), 1, games)
    assert not plist.final
    text = sheet_text(prizes_sheet("Prize Day", plist))
    assert text.startswith("Prize Day, division A: prizes after round 1\n")
    assert "Provisional: the division plays 2 rounds." in text
    page = sheet_html(prizes_sheet("Prize Day", plist))
    assert "Provisional: the division plays 2 rounds." in page
    assert "<td>high play</td>" in page
