"""Rule variants as data.

Each federation's procedure is a TOML file in ``engine/data/variants/`` whose
``[params]`` table gives every parameter a value, the rule it comes from, and
``assumed = true`` when no official text confirmed it. A variant may
``extends`` another and override some parameters; a director writes such a
file to adapt a shipped variant, and loads it by path.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

from engine._data import DATA_DIR, locate
from engine.equipment.layout import load_layout
from engine.equipment.tiles import load_tile_set
from engine.errors import DataFileError

__all__ = [
    "ChallengeRule",
    "ChallengeWindow",
    "Cutoff",
    "Param",
    "Variant",
    "list_variants",
    "load_variant",
]

Mode = Literal["board", "scoresheet"]
Cutoff = Literal["none", "game_ends", "no_more_plays"]
ChallengeRule = Literal["double", "single", "void", "points_per_word", "points_per_challenge"]
ChallengeWindow = Literal["until_draw", "until_challenger_turn_ends", "until_scoresheet"]
Overdraw = Literal["n_plus_1", "n_plus_2"]
Tie = Literal["half", "tiebreak"]


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter's value and where it comes from."""

    value: Any
    """The value in force."""
    source: str
    """The rule it comes from, e.g. ``NZASP 6.17``."""
    assumed: bool
    """True when no official text confirmed it."""
    defined_in: str
    """The variant file that set it (after ``extends``)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A federation's procedure. Field docs give the unit; :attr:`params` gives sources."""

    name: str
    """Name the variant is loaded by."""
    title: str
    """Human title."""
    tile_set: str
    """Tile set name."""
    layout: str
    """Board layout name."""
    mode: Mode
    """``board`` tracks positions; ``scoresheet`` records first letter and score only."""
    initial_ms: int
    """Time per player."""
    penalty_points: int
    """Points lost per overtime unit."""
    penalty_unit_ms: int
    """Overtime unit: 60000 for per minute, 1000 for per second."""
    penalty_part_counts: bool
    """A part of a unit costs a whole unit ("or part thereof")."""
    penalty_resolution_ms: int
    """Overtime is counted in steps of this (1000: whole seconds, as a clock shows)."""
    cutoff: Cutoff
    """What overtime limit applies: none, the game ends, or no more plays."""
    cutoff_overtime_ms: int
    """Overtime at which the cutoff applies (e.g. 61000 for -1:01)."""
    cutoff_rack_deductions: bool
    """Whether racks are deducted when the game ends at the cutoff."""
    challenge_rule: ChallengeRule
    """What an unsuccessful challenge costs."""
    challenge_points: int
    """Points for the challenged player per word or per challenge."""
    challenge_window: ChallengeWindow
    """When the right to challenge lapses."""
    challenge_procedure: str
    """How a challenge is made (cited when one is declared)."""
    withdrawal_rule: str
    """What happens to an unacceptable play (cited when one is withdrawn)."""
    flash_draw_rule: str
    """Drawing before the press (cited for a flash draw)."""
    hold_allowed: bool
    """Whether the opponent may call hold."""
    hold_provisional_draw: bool
    """Whether the player may draw provisional tiles during a hold."""
    overdraw: Overdraw
    """Overdraw procedure once the tiles are mixed."""
    exchange_min_bag: int
    """Fewest tiles in the bag that allow an exchange."""
    exchange_max_same_letter: int
    """Most copies of one letter a rack may hold to exchange (0 = no ban)."""
    scoreless_turns: int
    """Consecutive scoreless turns that end the game."""
    outplay_neutralize: bool
    """The player going out neutralizes the clock instead of starting the opponent's."""
    outplay_restart_ms: int
    """After this long unanswered, the player may restart the opponent's clock (0 = never)."""
    rack_deduction_rule: str
    """Own tiles deducted when nobody goes out (cited at the end)."""
    end_rule: str
    """When the game ends (cited when a command comes after the end)."""
    going_out_factor: int
    """Multiple of the opponent's rack earned by going out."""
    blank_before_press: bool
    """Blanks must be named before the press; the opponent may demand it."""
    dispute_neutralizes: bool
    """The clock is neutralized while a score dispute is settled."""
    neutralize_allowed: bool
    """Players or the director may neutralize the clock with a reason."""
    placement_rule: str
    """Placement legality (cited when a play does not fit the board)."""
    turn_rule: str
    """How a turn ends (cited for out-of-turn presses)."""
    signature_rule: str
    """Confirming the result (cited when players sign)."""
    bye_spread: int
    """Spread credited for a bye."""
    forfeit_spread: int
    """Spread for a forfeit (+ winner, - forfeiter)."""
    lateness_spread: int
    """Spread for a win by the opponent's lateness."""
    tie: Tie
    """How a tied score is settled."""
    spread_recorded: bool
    """Whether the result records the spread."""
    params: Mapping[str, Param] = dataclasses.field(default_factory=dict, compare=False)
    """Every parameter with value, source and whether it is assumed."""

    def source(self, name: str) -> str:
        """The rule citation for a parameter, e.g. ``NZASP 6.17``."""
        return self.params[name].source


_FIELDS = {
    f.name: f for f in dataclasses.fields(Variant) if f.name not in ("name", "title", "params")
}
_LITERALS: dict[str, tuple[str, ...]] = {
    "mode": get_args(Mode),
    "cutoff": get_args(Cutoff),
    "challenge_rule": get_args(ChallengeRule),
    "challenge_window": get_args(ChallengeWindow),
    "overdraw": get_args(Overdraw),
    "tie": get_args(Tie),
}


def _check_value(name: str, value: Any, source: str) -> None:
    hint = _FIELDS[name].type
    if name in _LITERALS:
        if value not in _LITERALS[name]:
            allowed = ", ".join(_LITERALS[name])
            raise DataFileError(
                f"variant {source!r}: {name} = {value!r}; expected one of {allowed}"
            )
    elif hint == "bool":
        if not isinstance(value, bool):
            raise DataFileError(f"variant {source!r}: {name} = {value!r} must be true or false")
    elif hint == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise DataFileError(
                f"variant {source!r}: {name} = {value!r} must be a whole number >= 0"
            )
    elif not isinstance(value, str):
        raise DataFileError(f"variant {source!r}: {name} = {value!r} must be a string")


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"variant {str(path)!r}: {exc}") from None
    except OSError as exc:
        raise DataFileError(f"variant {str(path)!r}: {exc.strerror}") from None


def _params(name: str, seen: tuple[str, ...]) -> tuple[dict[str, Param], str, str]:
    if name in seen:
        raise DataFileError(f"variant {name!r} extends itself: {' -> '.join((*seen, name))}")
    path = locate("variants", name, ".toml")
    doc = _read(path)
    unknown = sorted(set(doc) - {"name", "title", "extends", "params"})
    if unknown:
        raise DataFileError(f"variant {str(path)!r}: unknown key(s) {', '.join(unknown)}")
    label = str(doc.get("name", path.stem))
    base = doc.get("extends")
    params: dict[str, Param] = {}
    if base:
        params, _, _ = _params(str(base), (*seen, name))
    table = doc.get("params", {})
    if not isinstance(table, dict):
        raise DataFileError(f"variant {str(path)!r}: [params] must be a table")
    for key, spec in table.items():
        if key not in _FIELDS:
            raise DataFileError(f"variant {str(path)!r}: unknown parameter {key!r}")
        if isinstance(spec, dict):
            extra = sorted(set(spec) - {"value", "source", "assumed"})
            if extra:
                raise DataFileError(
                    f"variant {str(path)!r}: {key} has unknown field(s) {', '.join(extra)}"
                )
            if "value" not in spec or "source" not in spec:
                raise DataFileError(
                    f"variant {str(path)!r}: {key} needs value and source, got {spec!r}"
                )
            value, source, assumed = spec["value"], str(spec["source"]), bool(spec.get("assumed"))
        else:
            # A bare override, e.g. from a director's file, is an assumption by definition.
            value, source, assumed = spec, f"{label} (director's override)", True
        _check_value(key, value, str(path))
        params[key] = Param(value, source, assumed, label)
    return params, label, str(doc.get("title", label))


@cache
def load_variant(name: str) -> Variant:
    """Load a variant by bundled name (``nzasp``) or by path to a TOML file.

    Raises:
        DataFileError: The file is missing, malformed, or leaves a parameter unset.
    """
    params, label, title = _params(name, ())
    missing = sorted(set(_FIELDS) - set(params))
    if missing:
        raise DataFileError(f"variant {name!r} leaves unset: {', '.join(missing)}")
    values = {k: p.value for k, p in params.items()}
    for key in ("initial_ms", "penalty_unit_ms", "penalty_resolution_ms"):
        if values[key] < 1:
            raise DataFileError(f"variant {name!r}: {key} must be at least 1, got {values[key]}")
    # The equipment must exist now, not when a game starts.
    load_tile_set(values["tile_set"])
    load_layout(values["layout"])
    return Variant(name=label, title=title, params=params, **values)


def list_variants() -> list[str]:
    """Names of the bundled variants (``base`` is a building block, not listed)."""
    return sorted(p.stem for p in (DATA_DIR / "variants").glob("*.toml") if p.stem != "base")
