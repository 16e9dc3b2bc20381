"""The prize sheet: a division's prizewinners (places, then each rating class's)
and its special prizes with the games they come from, as
:mod:`engine.tournament.prizes` lists them. ``event prizes``, the console's prizes
screen and the sheets folder all show this sheet."""

from __future__ import annotations

from engine.tournament.prizes import PrizeList, SpecialPrize
from engine.tournament.sheets.sheet import Section, Sheet, signed

__all__ = ["prizes_sheet"]


def _amount(prize: SpecialPrize) -> str:
    return f"{prize.value} bingo(s)" if prize.kind == "most bingos" else str(prize.value)


def _record(wins: float, losses: float, spread: int) -> tuple[str, str, str]:
    return f"{wins:g}", f"{losses:g}", signed(spread)


def prizes_sheet(event: str, plist: PrizeList) -> Sheet:
    """The division's prize list as a sheet."""
    places = tuple(
        (p.label, str(p.seed), p.name, str(p.rating), *_record(p.wins, p.losses, p.spread))
        for p in plist.places
    )
    specials = tuple(
        (s.kind, s.name, _amount(s), s.play, "; ".join(g.text for g in s.games))
        for s in plist.specials
    )
    when = f"after round {plist.through}" if plist.through else "before round 1"
    provisional = (
        () if plist.final else (f"Provisional: the division plays {plist.rounds} rounds.",)
    )
    title = f"{event or 'the event'}, division {plist.division}: prizes {when}"
    return Sheet(
        title,
        (
            Section(
                "Places",
                ("prize", "#", "player", "rating", "won", "lost", "spread"),
                places,
                (False, True, False, True, True, True, True),
                provisional,
            ),
            Section(
                "Special prizes",
                ("prize", "player", "score", "play", "game"),
                specials,
                (False, False, True, False, False),
                tuple(f"Note: {n}." for n in plist.notes),
            ),
        ),
    )
