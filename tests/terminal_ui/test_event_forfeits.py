"""A resignation from the table to the event's files, and a forfeit and a withdrawal
by hand, on the command line: the player who resigns or forfeits loses (even ahead,
even at 0-0), and the table, ``replay``, the GCG export, ``event results``,
``event standings``, and the NASPA and tsh files say the same."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from clock.tournament.ledger import EventLedger
from engine.events import ClockPressed, Event, GameStarted, Passed, Signed, TilesPlaced
from engine.rules.replay import replay
from terminal_ui.table.commands import interpret
from tests.terminal_ui.test_event import new_event, rackclock, table_log


def resigned_game(
    players: tuple[str, str], table: str, opening: Sequence[Event], says: str
) -> list[Event]:
    """Round 1 of division A at ``table``: the opening moves, then ``says`` typed at
    the table (``resign left``/``resign right``), then both signatures."""
    events: list[Event] = [
        GameStarted(t=0, variant="naspa", players=players, round=1, division="A", table=table),
        *opening,
    ]
    state, refused = replay(list(enumerate(events, start=1)))
    assert not refused, refused
    resign = interpret(says, state)
    assert isinstance(resign, Event)
    return [*events, resign, Signed(t=9_500, player=0), Signed(t=9_600, player=1)]


def test_a_resignation_is_a_loss_at_the_table_and_in_every_file(tmp_path: Path) -> None:
    log = new_event(tmp_path)  # round 1: t1 Ann Able v Ben Baker, t2 Cid Cole v Dee Dunn
    tables = tmp_path / "tables"
    tables.mkdir()
    # t1: Ben Baker, ahead 32-0 and NOT on turn, resigns (the event used to make him
    # the winner, by the scores)
    ahead: list[Event] = [
        TilesPlaced(t=1_000, player=0, move="8D WINDY"),
        ClockPressed(t=1_500, player=0),
    ]
    t1 = table_log(
        tables / "t1.sqlite",
        resigned_game(("Ben Baker", "Ann Able"), "t1", ahead, "resign left"),
    )
    # t2: at 0-0, Dee Dunn (not on turn: Cid Cole is) resigns: a loss, not a tie
    passes = [Passed(t=1_000, player=0), Passed(t=2_000, player=1)]
    t2 = table_log(
        tables / "t2.sqlite",
        resigned_game(("Cid Cole", "Dee Dunn"), "t2", passes, "resign right"),
    )
    shown = rackclock("replay", t1)
    assert shown.returncode == 0, shown.stderr
    result = next(line for line in shown.stdout.splitlines() if line.startswith("result:"))
    # who won, why, each player's score (Ben's lead was his) and the spread as ruled
    assert result == (
        "result:  Ann Able wins: Ben Baker resigned (scores Ann Able 0, Ben Baker 32; "
        "spread 50 by rule)"
    )
    gcg = rackclock("export", "gcg", t1)
    assert gcg.returncode == 0, gcg.stderr
    assert "#note result: Ann Able wins: Ben Baker resigned (scores Ann Able 0, " in gcg.stdout
    at_zero = rackclock("export", "gcg", t2)
    assert at_zero.returncode == 0, at_zero.stderr
    assert "#rackclock-result resigned 0 0 CidCole 50" in at_zero.stdout
    taken = rackclock("event", "results", log, tables)
    assert taken.returncode == 0, taken.stderr
    assert "round 1: Ann Able 0 to 32 Ben Baker: Ben Baker resigned: Ann Able wins, spread 50" in (
        taken.stdout
    )
    assert "round 1: Cid Cole 0 to 0 Dee Dunn: Dee Dunn resigned: Cid Cole wins, spread 50" in (
        taken.stdout
    )
    with EventLedger.open(log) as ledger:
        res = ledger.state.division("A").results[1]
        assert {(r.winner, r.loser, r.cause) for r in res.values()} == {
            (1, 2, "resigned"),
            (3, 4, "resigned"),
        }
    table = rackclock("event", "standings", log)
    assert table.returncode == 0, table.stderr
    rows = [line.split() for line in table.stdout.splitlines()[2:]]
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("1-0", "+50", "Ann"),
        ("1-0", "+50", "Cid"),
        ("0-1", "-50", "Ben"),
        ("0-1", "-50", "Dee"),
    ]
    # the standings mark the games decided by rule
    assert table.stdout.splitlines()[2].endswith("Ann Able  (round 1: won by resignation)")
    assert table.stdout.splitlines()[5].endswith("Dee Dunn  (round 1: lost by resignation)")
    naspa = rackclock("event", "export", "naspa", log)
    assert naspa.returncode == 0, naspa.stderr
    assert naspa.stdout.splitlines() == [
        "1 ABLE ANN/50: B",
        "2 BAKER BEN/-50: B",
        "3 COLE CID/50: B",
        "4 DUNN DEE/-50: B",
    ]
    assert rackclock("event", "export", "tsh", log, "-o", tmp_path / "t").returncode == 0
    lines = (tmp_path / "t" / "a.t").read_text(encoding="iso-8859-1").splitlines()[1:]
    assert lines == [
        "Able, Ann 1800 0; 50; p12 0",
        "Baker, Ben 1700 0; -50; p12 0",
        "Cole, Cid 1600 0; 50; p12 0",
        "Dunn, Dee 1500 0; -50; p12 0",
    ]


def test_a_forfeit_and_a_withdrawal_by_hand(tmp_path: Path) -> None:
    log = new_event(tmp_path)
    # the forfeiter is named, whatever the scores typed
    done = rackclock(
        "event", "result", log, "1", "Ann Able", "0", "Ben Baker", "0", "--forfeit", "Ann Able"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "round 1: Ann Able 0 to 0 Ben Baker: Ann Able forfeits: Ben Baker wins, spread 50\n"
    )
    with EventLedger.open(log) as ledger:
        before = ledger.state.records
    for bad, said in (
        (("--forfeit", "Ann Able"), "--forfeit 'Ann Able': name the player who forfeits"),
        (("--forfeit", "Nobody"), "has no player 'Nobody'"),
    ):
        refused = rackclock("event", "result", log, "1", "Cid Cole", "300", "Dee Dunn", "200", *bad)
        assert refused.returncode == 1
        assert said in refused.stderr
        assert len(refused.stderr.splitlines()) == 1
    assert (
        rackclock("event", "result", log, "1", "Cid Cole", "300", "Dee Dunn", "200").returncode == 0
    )
    gone = rackclock("event", "withdraw", log, "Dee Dunn", "--round", "1")
    assert gone.returncode == 1
    assert gone.stderr == (
        "rackclock event withdraw: Dee Dunn has a result in round 1: "
        "a withdrawal takes effect from round 2 at the earliest\n"
    )
    with EventLedger.open(log) as ledger:
        assert ledger.state.records == before + 1  # the refusals left the log as it was
    assert rackclock("event", "withdraw", log, "Dee Dunn", "--round", "2").returncode == 0
    paired = rackclock("event", "pair", log)
    assert paired.returncode == 0, paired.stderr
    assert "Dee Dunn" not in paired.stdout
    show = rackclock("event", "show", log)
    assert "Ann Able forfeits: Ben Baker wins, spread 50" in show.stdout
    assert "Dee Dunn 1500 (withdrew from round 2)" in show.stdout
