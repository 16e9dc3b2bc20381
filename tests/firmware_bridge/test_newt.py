"""tsh's live feed (``/tourney.js``, :mod:`engine.exports.newt`) read the way the
tools that follow tsh events read it: :class:`TshReader` below follows Woogles'
``pkg/broadcasts/tsh_parser.go`` (woogles-io/liwords) step by step, and is first
checked on a hand-written feed shaped like the real ones in its ``testdata/``
(tests/data/newt/README.md says what is in it). Then an event with a bye, a
forfeit, a withdrawal, a round in play and two divisions is read back from our
feed, and the page serves it, current after every record, with its content type
and the page's CSP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

import pytest

from engine.exports.newt import tourney_js
from engine.tournament.records import Created, Paired, Record, Result, Withdrew
from engine.tournament.state import EventState, replay
from firmware_bridge.venue.page.model import VenueModel
from firmware_bridge.venue.page.server import CONTENT_SECURITY_POLICY, app
from tests.helpers import REPO

FIXTURE = REPO / "tests" / "data" / "newt" / "tourney.js"


# --- a reader that follows tsh_parser.go ---------------------------------------------
@dataclass
class FeedPlayer:
    id: int
    name: str
    rating: int
    scores: list[int]
    pairings: list[int]
    boards: list[int]
    p12: list[int]


@dataclass
class FeedData:
    players: list[FeedPlayer]
    total_rounds: int
    current_round: int
    division: str


@dataclass
class RoundPairing:
    table: int
    player1: str
    player2: str
    score1: int
    score2: int
    finalized: bool


def _ints(values: Any) -> list[int]:
    # Go's json.Unmarshal into []int: a null element leaves its 0
    return [v if isinstance(v, int) else 0 for v in values or []]


def _flex(value: Any) -> str:
    # tsh_parser.go's flexString: a string, or a number's literal text
    return value if isinstance(value, str) else json.dumps(value)


def extract_newt_json(data: bytes) -> str:
    """extractNewtJSON: from ``newt=`` on, trailing blanks and ``;`` trimmed, JS's
    ``undefined`` read as null."""
    text = data.decode()
    at = text.find("newt=")
    if at != -1:
        text = text[at + len("newt=") :].rstrip(" \t\r\n;")
    return text.replace("undefined", "null")


def list_divisions(data: bytes) -> list[str]:
    newt = json.loads(extract_newt_json(data))
    assert newt["divisions"], "tsh parser: no divisions found"
    return [_flex(d.get("name", "")) for d in newt["divisions"]]


def parse_division(data: bytes, name: str = "") -> FeedData:
    """ParseDivision: the named division (the first without a name); players[0] and
    players without an id skipped; total rounds ``maxr + 1`` or the longest
    pairings; the current round as detectCurrentRound has it."""
    newt = json.loads(extract_newt_json(data))
    divisions = newt["divisions"]
    assert divisions, "tsh parser: no divisions found"
    div = divisions[0] if not name else next(d for d in divisions if _flex(d["name"]) == name)
    players = []
    for raw in div["players"]:
        if raw is None or not raw.get("id"):
            continue
        etc = raw.get("etc") or {}
        players.append(
            FeedPlayer(
                raw["id"],
                _flex(raw.get("name", "")),
                raw.get("rating") or 0,
                _ints(raw.get("scores")),
                _ints(raw.get("pairings")),
                _ints(etc.get("board")),
                _ints(etc.get("p12")),
            )
        )
    total = max([div.get("maxr", 0) + 1, *(len(p.pairings) for p in players)])
    return FeedData(players, total, detect_current_round(players), _flex(div.get("name", "")))


def detect_current_round(players: list[FeedPlayer]) -> int:
    """detectCurrentRound: the latest round with a score against an opponent, one on
    when it is fully scored (a 0 against a score: a forfeit loss) and the next round
    is paired."""
    last = 0
    for p in players:
        for r in range(len(p.scores) - 1, -1, -1):
            if r >= len(p.pairings):
                continue
            if p.pairings[r] and p.scores[r]:
                last = max(last, r + 1)
                break
    if not last:
        return 0
    i = last - 1
    by_id = {p.id: p for p in players}
    for p in players:
        if i >= len(p.pairings) or not p.pairings[i]:
            continue
        if i < len(p.scores) and p.scores[i]:
            continue
        opp = by_id.get(p.pairings[i])
        if opp is not None and i < len(opp.scores) and opp.scores[i]:
            continue
        return last
    if any(last < len(p.pairings) and p.pairings[last] for p in players):
        return last + 1
    return last


def round_pairings(fd: FeedData, rnd: int) -> list[RoundPairing]:
    """GetRoundPairings: each game once by table, byes and forfeits (opponent 0) and
    games without a table left out, the first player first, by table."""
    if not 1 <= rnd <= fd.total_rounds:
        return []
    r = rnd - 1
    seen: set[int] = set()
    out = []
    by_id = {p.id: p for p in fd.players}
    for p in fd.players:
        if r >= len(p.pairings) or not p.pairings[r]:
            continue
        table = p.boards[r] if r < len(p.boards) else 0
        if not table or table in seen:
            continue
        seen.add(table)
        opp = by_id.get(p.pairings[r])
        if opp is None:
            continue
        s1 = p.scores[r] if r < len(p.scores) else 0
        s2 = opp.scores[r] if r < len(opp.scores) else 0
        finalized = s1 != 0 or s2 != 0
        names = (p.name, opp.name)
        if r < len(p.p12) and p.p12[r] == 2:
            names, (s1, s2) = names[::-1], (s2, s1)
        out.append(RoundPairing(table, names[0], names[1], s1, s2, finalized))
    return sorted(out, key=lambda g: g.table)


# --- the reader on tsh's format -------------------------------------------------------
def test_the_reader_reads_a_feed_shaped_like_tshs_as_tsh_parser_go_does() -> None:
    data = FIXTURE.read_bytes()
    assert list_divisions(data) == ["A", "B"]
    a = parse_division(data, "A")
    assert (a.division, a.total_rounds, len(a.players)) == ("A", 3, 5)
    assert a.players[2].rating == 0  # tsh's undefined
    # round 2 is not fully scored (Ben Baker v Dee Dunn): the current round
    assert a.current_round == 2
    # round 1: the bye and the forfeit (opponent 0) are not games to show
    assert round_pairings(a, 1) == [RoundPairing(1, "Able, Ann", "Baker, Ben", 420, 380, True)]
    assert round_pairings(a, 2) == [
        RoundPairing(1, "Cole, Cid", "Able, Ann", 350, 390, True),  # Cid Cole went first
        RoundPairing(2, "Baker, Ben", "Dunn, Dee", 0, 0, False),
    ]
    assert round_pairings(a, 3) == []
    b = parse_division(data, "B")
    assert (b.current_round, round_pairings(b, 1)) == (
        0,
        [RoundPairing(3, "Fox, Fay", "Gray, Gus", 0, 0, False)],
    )


# --- our feed --------------------------------------------------------------------------
EVENT = (REPO / "tests" / "data" / "newt" / "two-divisions.toml").read_text(encoding="utf-8")
"""Two divisions (A: five players, two rounds; B: two players, one round), the venue
page's test event too (tests/system/test_venue_page.py)."""
CLASSES = EVENT.replace(
    'name = "A"\n', 'name = "A"\nclasses = [{ name = "A", min = 1700 }, { name = "B" }]\n', 1
)
"""The same, division A with rating classes."""


def the_event() -> EventState:
    """Division A: round 1 Ann Able beats Ben Baker, Cid Cole has the bye, Eve East
    forfeits to Dee Dunn (typed 300-350: the record decides); Eve East withdraws from
    round 2, where Ann Able beats Cid Cole and Ben Baker v Dee Dunn is not in.
    Division B: round 1 paired, not played."""
    return replay(
        [
            Created(CLASSES),
            Paired("A", 1, ((1, 2), (4, 5), (3, 0)), "koth"),
            Paired("B", 1, ((1, 2),), "koth"),
            Result("A", 1, 1, 2, (420, 380)),
            Result("A", 1, 4, 5, (300, 350), "forfeit", winner=4, spread=50, cause="director"),
            Withdrew("A", 5, 2),
            Paired("A", 2, ((3, 1), (2, 4)), "koth"),
            Result("A", 2, 3, 1, (350, 390)),
        ]
    )


def test_our_feed_reads_as_tsh_parser_go_reads_tshs() -> None:
    data = tourney_js(the_event())
    assert data.startswith(b"newt={")
    assert data.endswith(b"};\n")
    assert list_divisions(data) == ["A", "B"]
    a = parse_division(data, "A")
    assert (a.division, a.total_rounds, a.current_round) == ("A", 2, 2)
    assert [(p.id, p.name, p.rating) for p in a.players] == [
        (1, "Able, Ann", 1800),
        (2, "Baker, Ben", 1700),
        (3, "Cole, Cid", 1600),
        (4, "Dunn, Dee", 1500),
        (5, "East, Eve", 1400),
    ]
    # tables as the round's assignments number them, through both divisions
    assert round_pairings(a, 1) == [RoundPairing(1, "Able, Ann", "Baker, Ben", 420, 380, True)]
    assert round_pairings(a, 2) == [
        RoundPairing(1, "Cole, Cid", "Able, Ann", 350, 390, True),
        RoundPairing(2, "Baker, Ben", "Dunn, Dee", 0, 0, False),
    ]
    by_id = {p.id: p for p in a.players}
    cid, dee, eve = by_id[3], by_id[4], by_id[5]
    # the bye: opponent 0, +50, no table, no first
    assert (cid.pairings[0], cid.scores[0], cid.boards[0], cid.p12[0]) == (0, 50, 0, 0)
    # the forfeit, as tsh writes one: opponent 0 on both, +50 / -50, the table kept
    assert (dee.pairings[0], dee.scores[0], dee.boards[0]) == (0, 50, 2)
    assert (eve.pairings[0], eve.scores[0], eve.boards[0]) == (0, -50, 2)
    # withdrawn: opponent 0 and 0 in the round not played (tsh's inactive player)
    assert (eve.pairings, eve.scores) == ([0, 0], [-50, 0])
    # the round in play: pairings run ahead of the scores
    assert (len(dee.pairings), len(dee.scores)) == (2, 1)
    b = parse_division(data, "B")
    assert (b.total_rounds, b.current_round) == (1, 0)
    assert round_pairings(b, 1) == [RoundPairing(3, "Fox, Fay", "Gray, Gus", 0, 0, False)]


def test_our_feed_has_the_shape_of_tshs() -> None:
    """Every field a reader takes from tsh's feed is there, typed as tsh's are, and
    players[0] is null; tsh's own extra fields (our ``off``, ``class``) sit in etc."""
    ours = json.loads(extract_newt_json(tourney_js(the_event())))
    theirs = json.loads(extract_newt_json(FIXTURE.read_bytes()))
    need = {"id", "name", "rating", "scores", "pairings", "etc"}
    for feed in (theirs, ours):
        for div in feed["divisions"]:
            assert div["players"][0] is None
            assert isinstance(div["maxr"], int)
            assert isinstance(div["name"], str)
            for p in div["players"][1:]:
                assert need <= set(p), p
                assert {"board", "p12"} <= set(p["etc"]), p
                assert len(p["etc"]["board"]) == len(p["pairings"]) == len(p["etc"]["p12"])
    for feed in (theirs, ours):
        # tsh's maxrp: the last round with a game played, both scores in
        assert [d["maxrp"] for d in feed["divisions"]] == [1, -1]
        assert [d["maxrp"] for d in feed["divisions"]] == [
            last_played(d) for d in feed["divisions"]
        ]
    a = ours["divisions"][0]
    assert a["maxr"] == 1
    assert a["players"][5]["etc"]["off"] == [0]
    assert [p["etc"]["class"] for p in a["players"][1:]] == [["A"], ["A"], ["B"], ["B"], ["B"]]
    assert ours["config"] == {"event_name": "Spring Open", "max_rounds": 2}


def last_played(div: dict[str, Any]) -> int:
    """The last round (from 0) with a game played in it, both players' scores in."""
    players = div["players"]
    return max(
        (
            r
            for p in players[1:]
            for r, opp in enumerate(p["pairings"][: len(p["scores"])])
            if opp and r < len(players[opp]["scores"])
        ),
        default=-1,
    )


def test_maxrp_is_the_last_round_played_as_tsh_counts_it() -> None:
    """tsh's ``maxrp`` (TSH::Division::Synch): the last round with a game played, both
    scores in; a round paired is not played (tsh's own feed of an event paired three
    rounds ahead, no scores, has -1), nor is a bye or a forfeit."""

    def maxrp(*records: Record) -> int:
        feed = json.loads(extract_newt_json(tourney_js(replay([Created(EVENT), *records]))))
        return int(feed["divisions"][0]["maxrp"])

    paired = Paired("A", 1, ((1, 2), (4, 5), (3, 0)), "koth")
    assert maxrp() == -1
    assert maxrp(paired) == -1
    bye = Result("A", 1, 3, 0, (50, 0), "bye")
    forfeit = Result("A", 1, 4, 5, (0, 0), "forfeit", winner=4, spread=50, cause="director")
    assert maxrp(paired, bye, forfeit) == -1
    game = Result("A", 1, 1, 2, (420, 380))
    assert maxrp(paired, bye, forfeit, game) == 0
    assert maxrp(paired, game, Paired("A", 2, ((3, 1), (2, 4), (5, 0)), "koth")) == 0


# --- served by the page ----------------------------------------------------------------
async def get(model: VenueModel, path: str) -> tuple[int, dict[bytes, bytes], bytes]:
    """One GET through the page's ASGI app."""
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        await asyncio.sleep(0)
        return {"type": "http.request"}

    async def send(msg: MutableMapping[str, Any]) -> None:
        sent.append(msg)

    scope = {"type": "http", "method": "GET", "path": path}
    await app(model)(scope, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]


async def test_the_page_serves_the_feed_current_after_every_record() -> None:
    model = VenueModel("club")
    status, _, body = await get(model, "/tourney.js")
    assert (status, body) == (404, b"no event: the page runs without --event")
    state = the_event()
    model.event = state
    status, headers, body = await get(model, "/tourney.js")
    assert status == 200
    assert headers[b"content-type"] == b"text/javascript; charset=utf-8"
    assert headers[b"content-security-policy"] == CONTENT_SECURITY_POLICY
    assert body == tourney_js(state)
    # a result arrives (the ledger's reread applies it to the same state)
    state.apply(Result("A", 2, 2, 4, (401, 399)))
    _, _, after = await get(model, "/tourney.js")
    a = parse_division(after, "A")
    assert round_pairings(a, 2)[1] == RoundPairing(2, "Baker, Ben", "Dunn, Dee", 401, 399, True)
    assert a.current_round == 2  # round 3 not paired yet


@pytest.mark.parametrize(
    ("name", "filed"),
    [
        ("Łukasz Nowak", "Nowak, Łukasz"),
        ("Dee 'Ace' Dunn", "Dunn, Dee 'Ace'"),
        ("Gus O'Gray", "O'Gray, Gus"),
        ('Gus "</script>" Gray', 'Gray, Gus "</script>"'),
    ],
)
def test_a_name_is_read_back_as_filed(name: str, filed: str) -> None:
    """A name is JSON in the feed, whatever it holds: an apostrophe, a quote, and
    ``</script>`` (the feed is a script of its own, never inside a page's)."""
    data = tourney_js(replay([Created(EVENT.replace('"Gus Gray"', json.dumps(name)))]))
    assert parse_division(data, "B").players[1].name == filed
