"""The prize sheet: a division's prizewinners (places, then each rating class's)
and its special prizes with the games they come from, as
:mod:`engine.tournament.prizes` lists them. ``event prizes``, the console's prizes
screen and the sheets folder all show this sheet."""

from __future__ import annotations

from engine.tournament.prizes import PrizeList, SpecialPrize
from engine.tournament.sheets.sheet import Section, Sheet, signed
from engine.tournament.sheets.text import sheet_text

__all__ = ["prizes_sheet", "prizes_text"]


def _amount(prize: SpecialPrize) -> str:
    return f"{prize.value} bingo(s)" if prize.kind == "most bingos" else str(prize.value)


def _places(plist: PrizeList) -> Section:
    """The places, with the columns the standings sheet has (spread where the variant
    records it; a withdrawal marked where a prizewinner withdrew)."""
    head = ["prize", "#", "player", "rating", "won", "lost"]
    right = [False, True, False, True, True, True]
    if plist.spread:
        head.append("spread")
        right.append(True)
    marked = any(p.withdrew for p in plist.places)
    if marked:
        head.append("note")
        right.append(False)
    rows = []
    for p in plist.places:
        cells = [p.label, str(p.seed), p.name, str(p.rating), f"{p.wins:g}", f"{p.losses:g}"]
        cells += [signed(p.spread)] if plist.spread else []
        cells += [f"withdrew from round {p.withdrew}" if p.withdrew else ""] if marked else []
        rows.append(tuple(cells))
    provisional = (
        () if plist.final else (f"Provisional: the division plays {plist.rounds} rounds.",)
    )
    return Section("Places", tuple(head), tuple(rows), tuple(right), provisional)


def prizes_sheet(event: str, plist: PrizeList) -> Sheet:
    """The division's prize list as a sheet."""
    specials = tuple(
        (s.kind, s.name, _amount(s), s.play, "; ".join(g.text for g in s.games))
        for s in plist.specials
    )
    when = f"after round {plist.through}" if plist.through else "before round 1"
    title = f"{event or 'the event'}, division {plist.division}: prizes {when}"
    return Sheet(
        title,
        (
            _places(plist),
            Section(
                "Special prizes",
                ("prize", "player", "score", "play", "game"),
                specials,
                (False, False, True, False, False),
                tuple(f"Note: {n}." for n in plist.notes),
            ),
        ),
    )


def prizes_text(event: str, plist: PrizeList) -> str:
    """The prize sheet as ``event prizes`` prints it and the console shows it; before
    the division has a complete round, one line saying so (everyone would be level:
    no prizewinner yet)."""
    if not plist.through:
        return f"division {plist.division}: no round complete yet\n"
    return sheet_text(prizes_sheet(event, plist))
