"""The prize list: places with ties split or broken by the standings' order, rating
class prizes (a division prizewinner takes none), and the special prizes from real
game logs (tests/support/gamelog.py) matched to the event's results by digest."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from engine.events import ClockPressed, Event, GameStarted, Resigned, Signed, TilesPlaced
from engine.exports.gcg import to_gcg
from engine.gcg.record import EventKind
from engine.rules.replay import replay as replay_game
from engine.tournament.intake import game_digest, results_from_log
from engine.tournament.prizes import place_prizes, prize_list
from engine.tournament.records import Created, Paired, Record, Result, Withdrew
from engine.tournament.sheets.html import sheet_html
from engine.tournament.sheets.prizes import prizes_sheet, prizes_text
from engine.tournament.sheets.sheet import cell_width
from engine.tournament.sheets.text import sheet_text
from engine.tournament.state import DivisionState, EventState, replay
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


def one_round(extra: str, players: Sequence[tuple[str, int]] = SIX, rounds: int = 1) -> EventState:
    """Ann beats Ben by 100, Cyd beats Dee by 100 (level), Eli beats Fay by 150."""
    records: list[Record] = [
        event(players, extra, rounds),
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
    assert [(g.round, g.table) for g in best.games] == [(1, 1)]  # four bingos, one game
    high = next(s for s in plist.specials if s.kind == "high play")
    assert high.games[0].logged
    assert high.games[0].table in (1, 2)
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
    assert re.search(r"round 1 table \d: ", text)  # numbered as the other sheets number it
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


# --- after review (issue 23 §6) ---------------------------------------------------


def respaced_event(
    names: tuple[str, str], seed: int = 24, *, signed_later: bool = False
) -> tuple[EventState, list[tuple[int, Event]]]:
    """Ann Able v Cyd Cole in round 1, the game from its log, whose table typed the
    players as ``names``; ``signed_later``: taken unsigned, then both signed."""
    evs = list(game_events(seed, "naspa"))
    start = evs[0]
    assert isinstance(start, GameStarted)
    evs[0] = msgspec.structs.replace(start, players=names)
    players = [("Ann Able", 1500), ("Cyd Cole", 1400)]
    state = replay([event(players, "prizes = 1"), Paired("A", 1, ((1, 2),))])
    got = results_from_log(state, "t1.sqlite", numbered(evs), round_=1, unsigned=True)
    assert got.results, got
    for res in got.results:
        state.apply(res)
    if signed_later:
        end = evs[-1].t or 0
        evs += [Signed(player=0, t=end + 1000), Signed(player=1, t=end + 2000)]
    return state, numbered(evs)


def test_a_name_spaced_otherwise_in_the_log_still_gives_its_plays() -> None:
    # the table typed "Cyd  Cole": the event took the result (seed_of collapses
    # spaces), so the prizes must too, not stop on it
    state, log = respaced_event(("ann  able", "Cyd   Cole"))
    plist = prize_list(state, state.division("A"), 1, [log])
    best = next(s for s in plist.specials if s.kind == "most bingos")
    assert (best.name, best.value) == ("Cyd Cole", 4)
    assert all(s.name in ("Ann Able", "Cyd Cole") for s in plist.specials)
    assert plist.notes == ()


def test_a_log_of_other_players_is_passed_over_with_a_note_never_raised() -> None:
    state, log = respaced_event(("Ann Able", "Cyd Cole"))
    res = state.division("A").results[1][(1, 2)]
    # the result names the log, but the log's seats are two other people
    start = log[0][1]
    assert isinstance(start, GameStarted)
    other = [(log[0][0], msgspec.structs.replace(start, players=("Zed", "Yan"))), *log[1:]]
    digest = game_digest(ev for _, ev in other)
    state.apply(msgspec.structs.replace(res, game=f"t1.sqlite {digest}", reason="relinked"))
    plist = prize_list(state, state.division("A"), 1, [other])
    assert not [s for s in plist.specials if s.kind in ("high play", "most bingos")]
    assert any("'Zed' and 'Yan' are not 'Ann Able' and 'Cyd Cole'" in n for n in plist.notes)


def test_a_game_signed_after_it_was_taken_keeps_its_plays() -> None:
    state, log = respaced_event(("Ann Able", "Cyd Cole"), signed_later=True)
    assert isinstance(log[-1][1], Signed)
    plist = prize_list(state, state.division("A"), 1, [log])
    best = next(s for s in plist.specials if s.kind == "most bingos")
    assert (best.name, best.value, best.games[0].logged) == ("Cyd Cole", 4, True)
    assert "(slip)" not in sheet_text(prizes_sheet("Prize Day", plist))


def test_a_table_game_whose_log_is_not_at_hand_says_no_log_not_slip() -> None:
    state, _ = respaced_event(("Ann Able", "Cyd Cole"))
    plist = prize_list(state, state.division("A"), 1, [])
    game = next(s for s in plist.specials if s.kind == "high game")
    assert game.games[0].text.endswith(" (no log)")
    assert any("no log at hand (give --games)" in n for n in plist.notes)
    # the caller's own advice (the venue page has no --games)
    plist = prize_list(state, state.division("A"), 1, [], "copy them")
    assert any("no log at hand (copy them)" in n for n in plist.notes)


def test_a_resigned_game_gives_its_plays_but_no_high_game() -> None:
    evs = list(game_events(4, "naspa"))  # Dee v Eli; Eli resigns after Dee's 176
    i = next(k for k, e in enumerate(evs) if isinstance(e, TilesPlaced) and e.score == 176)
    j = next(k for k in range(i, len(evs)) if isinstance(evs[k], ClockPressed))
    log = numbered([*evs[: j + 1], Resigned(player=1, t=(evs[j].t or 0) + 10)])
    state = replay([event([("Dee", 1500), ("Eli", 1400)]), Paired("A", 1, ((1, 2),))])
    got = results_from_log(state, "t1.sqlite", log, round_=1, unsigned=True)
    (res,) = got.results
    assert (res.kind, res.cause) == ("forfeit", "resigned")
    state.apply(res)
    plist = prize_list(state, state.division("A"), 1, [log])
    kinds = {s.kind: s for s in plist.specials}
    assert (kinds["high play"].name, kinds["high play"].value) == ("Dee", 176)
    assert "high game" not in kinds  # its score stopped short: not a game played out
    assert "high loss" not in kinds


def test_the_high_play_shows_the_move_once() -> None:
    state, games = logged_event()
    plist = prize_list(state, state.division("A"), 1, games)
    high = next(s for s in plist.specials if s.kind == "high play")
    coord, word = high.play.split()
    assert re.fullmatch(r"\d{1,2}[A-O]|[A-O]\d{1,2}", coord), high.play
    assert word.isalpha(), high.play  # the main word whole, not the move's dots


def test_before_any_round_is_complete_nobody_is_a_prizewinner() -> None:
    state = replay([event(SIX, "prizes = 3"), Paired("A", 1, ((1, 2), (3, 4), (5, 6)))])
    plist = prize_list(state, state.division("A"), 0)
    assert (plist.places, plist.specials) == ((), ())
    assert prizes_text("Prize Day", plist) == "division A: no round complete yet\n"


def test_a_toronto_division_has_no_spread_column() -> None:
    records: list[Record] = [
        event(SIX, "prizes = 1", variant="toronto-speed"),
        Paired("A", 1, ((1, 2), (3, 4), (5, 6))),
        Result("A", 1, 1, 2, (400, 300)),
    ]
    state = replay(records)
    text = sheet_text(prizes_sheet("Prize Day", prize_list(state, state.division("A"), 1)))
    head = next(ln for ln in text.splitlines() if ln.startswith("prize  #"))
    assert head.split() == ["prize", "#", "player", "rating", "won", "lost"]
    text = sheet_text(prizes_sheet("Prize Day", prize_list(*_div(one_round("prizes = 1")))))
    assert "spread" in text  # a NASPA division keeps it


def _div(state: EventState) -> tuple[EventState, DivisionState, int]:
    return state, state.division("A"), 1


def test_a_withdrawn_prizewinner_is_marked() -> None:
    state = one_round("prizes = 1", rounds=2)
    state.apply(Withdrew("A", 5, 2, "went home"))  # Eli, the winner
    plist = prize_list(*_div(state))
    assert [(p.name, p.withdrew) for p in plist.places] == [("Eli", 2)]
    line = next(ln for ln in sheet_text(prizes_sheet("P", plist)).splitlines() if "Eli" in ln)
    assert line.endswith("withdrew from round 2")


def test_a_wide_name_keeps_the_columns_in_line() -> None:
    state = one_round("prizes = 6", [("王小明", 1800), *SIX[1:]])
    lines = sheet_text(prizes_sheet("P", prize_list(*_div(state)))).splitlines()
    rows = [ln for ln in lines if ln[:1].isdigit()]
    assert any("王小明" in ln for ln in rows)
    # the last column (spread) is aligned right: every line ends in the same
    # terminal cell when a CJK character is counted as the two it takes
    assert len({cell_width(ln) for ln in rows}) == 1, rows
