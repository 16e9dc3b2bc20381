"""The divisions an ``event`` command acts on: the one ``--division NAME`` names,
else every division (or, for a command about one division, the only one)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.tournament.state import DivisionState, EventState

__all__ = ["divisions", "one_division", "several_divisions"]


def divisions(state: EventState, name: str | None) -> list[DivisionState]:
    """The division ``name`` names (refused when the event has none of that name),
    else every division."""
    if name is not None:
        return [state.division(name)]
    return list(state.divisions.values())


def one_division(state: EventState, name: str | None) -> DivisionState:
    """The division ``name`` names, else the event's only one (several are refused:
    give ``--division``)."""
    if name is None and len(state.divisions) > 1:
        several_divisions(state.divisions)
    return divisions(state, name)[0]


def several_divisions(names: Iterable[str]) -> NoReturn:
    """Refuse a command that needs one division of several (``names``: theirs).

    Raises:
        TournamentError: Always, naming the divisions and asking for ``--division``.
    """
    from engine.tournament.errors import TournamentError

    raise TournamentError(f"the event has several divisions ({', '.join(names)}): give --division")
