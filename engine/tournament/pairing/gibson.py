"""The Gibson rule, as each NASPA Director's Manual writes it.

The two editions differ, and the event file's ``manual`` (2011 or 2013) chooses:

- The clinch. 2011 ("The Gibson Rule", "How to Determine Whether a Player has
  Clinched First"): a player who "can lose ALL of their remaining games and
  still retain 1st place by at least one win no matter which other players win
  all of their remaining games". 2013 (A.2.B): "by at least one-half of a win".
- The opponent. 2011 ("How to Determine who a Gibsonized Player Should Play"):
  "the highest placed player who CANNOT finish as high as" the last prize place,
  "Disregard spread in your calculation". 2013 (A.2.C): "the highest placed
  player who (a) is not in contention for a place prize and (b) would not be
  paired against a player in contention for a place prize" (its example: E, out
  of contention but KOTH's partner of D, who is in it, is passed over for F).

Both: where the event says so, spread counts too. With ``spread_limits`` (the
NSC's 500, 800, 900 for 1, 2, 3 rounds left, both editions) a rival who can at
best draw level on wins cannot catch a spread lead larger than the limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.tournament.standings import Standing

__all__ = ["MARGIN", "clinched", "gibson_opponents", "out_of_the_prizes"]

MARGIN = {2011: 1.0, 2013: 0.5}
"""The lead in wins a leader who loses every game left must keep over anyone's
best finish to have clinched first, by manual edition."""


def clinched(
    table: Sequence[Standing],
    rounds_left: int,
    spread_limits: Sequence[int] = (),
    manual: int = 2013,
) -> int | None:
    """The seed of the player who has clinched first under ``manual``'s rule, or None."""
    if len(table) < 2 or rounds_left < 1:
        return None
    leader, rest = table[0], table[1:]
    limit = spread_limits[rounds_left - 1] if rounds_left <= len(spread_limits) else None
    for rival in rest:
        lead = leader.wins - (rival.wins + rounds_left)
        if lead >= MARGIN[manual]:
            continue
        # spread decides only where the rival can at best draw level ("when the number
        # of wins may be equal after the last round"); ahead on wins is ahead whatever
        # the spread, so a half-win lead stands under the 2011 rule with spread limits
        # (a reading: the manual does not say; a tie with the spread lead clinches, so
        # half a win more does too)
        uncatchable = lead > 0 or leader.spread - rival.spread > (limit or 0)
        if limit is not None and lead >= 0 and uncatchable:
            continue
        return None
    return leader.seed


def out_of_the_prizes(table: Sequence[Standing], rounds_left: int, prizes: int) -> list[int]:
    """The players who cannot finish in the prizes, highest placed first: their
    wins plus the rounds left stay below the wins of the last prize place."""
    if prizes >= len(table):
        return []
    bar = table[max(prizes, 1) - 1].wins
    return [row.seed for row in table[1:] if row.wins + rounds_left < bar]


def gibson_opponents(
    table: Sequence[Standing],
    rounds_left: int,
    prizes: int,
    manual: int = 2013,
    partner: Mapping[int, int] | None = None,
) -> list[int]:
    """Whom the clinched leader (``table[0]``) may play, best first.

    2011: everyone out of the prizes. 2013: of those, only the ones whose
    ``partner`` (their opponent in the system's pairing of the field without the
    leader) is out of the prizes too, or who have none.
    """
    outs = out_of_the_prizes(table, rounds_left, prizes)
    if manual == 2011 or partner is None:
        return outs
    contenders = {row.seed for row in table[1:]} - set(outs)
    return [s for s in outs if partner.get(s) not in contenders]
