"""Rule variants as data.

Each federation's procedure is a TOML file in ``engine/data/variants/`` whose
``[params]`` table gives every parameter a value, the rule it comes from, and
``assumed = true`` when no official text confirmed it; its ``[event]`` table
does the same for how the federation's events count results in the standings
(:class:`EventRules`). A variant may
``extends`` another and override some parameters; a director writes such a
file to adapt a shipped variant. The engine reads only its bundled files: a
director's file (and any file it extends) is read by the caller, built with
:func:`parse_variant` and registered (:func:`register_variant`) under the name
a game's start gives it, e.g. ``./club-night.toml``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import msgspec

from engine._data import Registry, bundled, bundled_names
from engine.equipment.layout import load_layout
from engine.equipment.tiles import load_tile_set
from engine.errors import DataFileError

__all__ = [
    "ChallengeRule",
    "ChallengeWindow",
    "Cutoff",
    "EventRules",
    "Mode",
    "NonNegative",
    "Param",
    "Variant",
    "VariantFile",
    "extends_of",
    "list_variants",
    "load_variant",
    "parse_variant",
    "register_variant",
]

Mode = Literal["board", "scoresheet"]
Cutoff = Literal["none", "game_ends", "no_more_plays"]
ChallengeRule = Literal["double", "single", "void", "points_per_word", "points_per_challenge"]
ChallengeWindow = Literal["until_draw", "until_challenger_turn_ends", "until_scoresheet"]
Overdraw = Literal["n_plus_1", "n_plus_2"]
Tie = Literal["half", "tiebreak"]
OverdrawOnRack = Literal["opponent_chooses"]
DirectorRule = Literal["director_final"]
DoubleAbsence = Literal["both_lose", "both_zero"]
Points = Literal["wins", "match_points", "vp"]
Tiebreak = Literal["spread", "shared"]
ByeCounts = Literal["always", "when_unequal"]
Credit = Literal["none", "average"]
NonNegative = Annotated[int, msgspec.Meta(ge=0)]
"""A whole number >= 0 (milliseconds, points, counts)."""


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
class EventRules:
    """How a federation's events count results in the standings (the ``[event]`` table).

    The spreads themselves are the variant's ``bye_spread``, ``forfeit_spread`` and
    ``lateness_spread``; whether the spread is kept at all is ``spread_recorded``.
    """

    points: Points
    """What a win is called: ``wins``, ``match_points`` (TOR-11), ``vp`` (victory points)."""
    tiebreak: Tiebreak
    """Level on points: ranked by ``spread`` (NZASP 11.1), or the place is ``shared`` (TOR-11)."""
    bye_counts: ByeCounts
    """A bye counts ``always``, or only ``when_unequal``: when the players have had
    unequal numbers of byes (NZASP 9.2)."""
    bye_score: Credit
    """What a bye adds to the player's aggregate: ``none``, or the player's ``average``
    game score (NZASP 9.2)."""
    forfeit_score: Credit
    """What a forfeit win adds to the winner's aggregate: ``none``, or the winner's
    ``average`` game score (NZASP 10.2). The forfeiter adds nothing (NZASP 10.3)."""


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
    initial_ms: NonNegative
    """Time per player."""
    penalty_points: NonNegative
    """Points lost per overtime unit."""
    penalty_unit_ms: NonNegative
    """Overtime unit: 60000 for per minute, 1000 for per second."""
    penalty_part_counts: bool
    """A part of a unit costs a whole unit ("or part thereof")."""
    penalty_resolution_ms: NonNegative
    """Overtime is counted in steps of this (1000: whole seconds, as a clock shows)."""
    cutoff: Cutoff
    """What overtime limit applies: none, the game ends, or no more plays."""
    cutoff_overtime_ms: NonNegative
    """Overtime at which the cutoff applies (e.g. 61000 for -1:01)."""
    cutoff_rack_deductions: bool
    """Whether racks are deducted when the game ends at the cutoff."""
    challenge_rule: ChallengeRule
    """What an unsuccessful challenge costs."""
    challenge_points: NonNegative
    """Points for the challenged player per word or per challenge."""
    challenge_window: ChallengeWindow
    """When the right to challenge lapses."""
    challenge_procedure: str
    """How a challenge is made (cited when one is declared)."""
    withdrawal_rule: str
    """What happens to an unacceptable play (cited when one is withdrawn)."""
    flash_draw_rule: str
    record_before_draw: bool
    """Drawing accepts the play only once its score is recorded (else a flash draw)."""
    appeal_allowed: bool
    """A challenge verdict may be appealed once to a referee."""
    """Drawing before the press (cited for a flash draw)."""
    hold_allowed: bool
    """Whether the opponent may call hold."""
    hold_provisional_draw: bool
    """Whether the player may draw provisional tiles during a hold."""
    overdraw: Overdraw
    """Overdraw procedure once the tiles are mixed."""
    overdraw_on_rack_rule: OverdrawOnRack
    """Too many tiles found on a rack: how they are returned (cited when settled)."""
    exchange_min_bag: NonNegative
    """Fewest tiles in the bag that allow an exchange."""
    exchange_max_same_letter: NonNegative
    """Most copies of one letter a rack may hold to exchange (0 = no ban)."""
    scoreless_turns: NonNegative
    zero_play_scoreless: bool
    """A play that stands but scores 0 counts as a scoreless turn."""
    """Consecutive scoreless turns that end the game."""
    outplay_neutralize: bool
    """The player going out neutralizes the clock instead of starting the opponent's."""
    outplay_restart_ms: NonNegative
    """After this long unanswered, the player may restart the opponent's clock (0 = never)."""
    rack_deduction_rule: str
    """Own tiles deducted when nobody goes out (cited at the end)."""
    end_rule: str
    """When the game ends (cited when a command comes after the end)."""
    going_out_factor: NonNegative
    """Multiple of the opponent's rack earned by going out."""
    blank_before_press: bool
    """Blanks must be named before the press; the opponent may demand it."""
    dispute_neutralizes: bool
    """The clock is neutralized while a score dispute is settled."""
    neutralize_allowed: bool
    director_rule: DirectorRule
    """A clock the director stopped is restarted only by the director (cited when refused)."""
    double_absence: DoubleAbsence
    """Neither player came: both lose, or both score zero (cited for the double forfeit)."""
    """Players or the director may neutralize the clock with a reason."""
    placement_rule: str
    """Placement legality (cited when a play does not fit the board)."""
    turn_rule: str
    """How a turn ends (cited for out-of-turn presses)."""
    draw_rule: str
    """Replenishing the rack from the bag (cited when a draw cannot be made)."""
    signature_rule: str
    """Confirming the result (cited when players sign)."""
    bye_spread: NonNegative
    """Spread credited for a bye."""
    forfeit_spread: NonNegative
    """Spread for a forfeit (+ winner, - forfeiter)."""
    lateness_spread: NonNegative
    """Spread for a win by the opponent's lateness."""
    tie: Tie
    """How a tied score is settled."""
    spread_recorded: bool
    """Whether the result records the spread."""
    event: EventRules
    """How the federation's events count results in the standings."""
    params: Mapping[str, Param] = dataclasses.field(default_factory=dict, compare=False)
    """Every parameter with value, source and whether it is assumed."""

    def source(self, name: str) -> str:
        """The rule citation for a parameter, e.g. ``NZASP 6.17``; one that no official
        text confirmed says so, as ``rackclock variants`` does: ``... (assumed)``."""
        p = self.params[name]
        return f"{p.source} (assumed)" if p.assumed else p.source


@dataclass(frozen=True, slots=True)
class VariantFile:
    """A variant file the caller read (the engine opens no file a user names)."""

    text: str
    """The TOML text."""
    source: str
    """Where it was read from (the path), quoted in errors."""
    stem: str
    """The file's name without its suffix: the variant's name if the file gives none."""


_PARAMS: dict[str, Any] = {
    name: hint
    for name, hint in get_type_hints(Variant, include_extras=True).items()
    if name not in ("name", "title", "params", "event")
} | {f"event.{name}": hint for name, hint in get_type_hints(EventRules).items()}
"""Each parameter's type, as the Variant declares it: what a value is converted to.
The ``[event]`` table's are named ``event.<key>``."""


def _expected(hint: Any) -> str:
    """What a value of the parameter's type must be, for error messages."""
    base = get_args(hint)[0] if get_origin(hint) is Annotated else hint
    if get_origin(base) is Literal:
        return "; expected one of " + ", ".join(get_args(base))
    words: dict[Any, str] = {
        bool: " must be true or false",
        int: " must be a whole number >= 0",
        str: " must be a string",
    }
    return words[base]


_EXPECTED = {name: _expected(hint) for name, hint in _PARAMS.items()}


def _value(name: str, value: Any, source: str) -> Any:
    """``value`` converted to parameter ``name``'s type, strictly (no 1 for true)."""
    try:
        return msgspec.convert(value, _PARAMS[name], strict=True)
    except msgspec.ValidationError:
        raise DataFileError(f"variant {source!r}: {name} = {value!r}{_EXPECTED[name]}") from None


def _toml(file: VariantFile) -> dict[str, Any]:
    try:
        return tomllib.loads(file.text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"variant {file.source!r}: {exc}") from None


def extends_of(file: VariantFile) -> str | None:
    """The variant ``file`` extends, if any: the caller reads it too when it is a file.

    Raises:
        DataFileError: The text is not TOML.
    """
    base = _toml(file).get("extends")
    return str(base) if base else None


def _file(name: str, files: Mapping[str, VariantFile]) -> VariantFile:
    given = files.get(name)
    if given is not None:
        return given
    text, source = bundled("variants", name, ".toml")
    return VariantFile(text, source, name)


def _params(
    name: str, seen: tuple[str, ...], files: Mapping[str, VariantFile]
) -> tuple[dict[str, Param], str, str]:
    if name in seen:
        raise DataFileError(f"variant {name!r} extends itself: {' -> '.join((*seen, name))}")
    file = _file(name, files)
    source = file.source
    doc = _toml(file)
    unknown = sorted(set(doc) - {"name", "title", "extends", "params", "event"})
    if unknown:
        raise DataFileError(f"variant {source!r}: unknown key(s) {', '.join(unknown)}")
    label = str(doc.get("name", file.stem))
    base = doc.get("extends")
    params: dict[str, Param] = {}
    if base:
        params, _, _ = _params(str(base), (*seen, name), files)
    for section, prefix in (("params", ""), ("event", "event.")):
        table = doc.get(section, {})
        if not isinstance(table, dict):
            raise DataFileError(f"variant {source!r}: [{section}] must be a table")
        for key, spec in table.items():
            params[prefix + key] = _param(prefix + key, spec, source, label)
    return params, label, str(doc.get("title", label))


def _param(key: str, spec: Any, source: str, label: str) -> Param:
    """One entry of a variant file's ``[params]`` or ``[event]`` (``key`` named as
    :data:`_PARAMS` names it): ``{ value, source, assumed }``, or a bare value.

    Raises:
        DataFileError: An unknown parameter or field, a missing value or source, or
            a value of the wrong kind, quoted.
    """
    if key not in _PARAMS:
        raise DataFileError(f"variant {source!r}: unknown parameter {key!r}")
    if not isinstance(spec, dict):
        # A bare override, e.g. from a director's file, is an assumption by definition.
        return Param(_value(key, spec, source), f"{label} (director's override)", True, label)
    extra = sorted(set(spec) - {"value", "source", "assumed"})
    if extra:
        raise DataFileError(f"variant {source!r}: {key} has unknown field(s) {', '.join(extra)}")
    if "value" not in spec or "source" not in spec:
        raise DataFileError(f"variant {source!r}: {key} needs value and source, got {spec!r}")
    value = _value(key, spec["value"], source)
    return Param(value, str(spec["source"]), bool(spec.get("assumed")), label)


def parse_variant(name: str, files: Mapping[str, VariantFile]) -> Variant:
    """Build the variant ``name`` from files the caller read.

    ``files`` holds the file of ``name`` and of every variant it ``extends`` by a
    name written there (a path); any other name is a bundled variant. The tile
    set and layout it names are not loaded here: they may be files too.

    Raises:
        DataFileError: A file is malformed, a name is unknown, or a parameter is unset.
    """
    params, label, title = _params(name, (), files)
    missing = sorted(set(_PARAMS) - set(params))
    if missing:
        raise DataFileError(f"variant {name!r} leaves unset: {', '.join(missing)}")
    values = {k: p.value for k, p in params.items() if not k.startswith("event.")}
    event = EventRules(
        **{k.removeprefix("event."): p.value for k, p in params.items() if k.startswith("event.")}
    )
    for key in ("initial_ms", "penalty_unit_ms", "penalty_resolution_ms"):
        if values[key] < 1:
            raise DataFileError(f"variant {name!r}: {key} must be at least 1, got {values[key]}")
    return Variant(name=label, title=title, event=event, params=params, **values)


def _bundled(name: str) -> Variant:
    variant = parse_variant(name, {})
    # The equipment must exist now, not when a game starts.
    load_tile_set(variant.tile_set)
    load_layout(variant.layout)
    return variant


_VARIANTS: Registry[Variant] = Registry(_bundled)


def register_variant(name: str, variant: Variant | DataFileError) -> None:
    """Make ``name`` load as ``variant``: one the caller built from a user's file, or
    the error reading it gave, raised again on each load (so a game that names a
    broken file is refused with the reason)."""
    _VARIANTS.register(name, variant)


def load_variant(name: str) -> Variant:
    """Load a variant by name: one registered under it, else a bundled one (``nzasp``).

    Raises:
        DataFileError: No variant has that name, or the one registered could not be read.
    """
    return _VARIANTS.load(name)


def list_variants() -> list[str]:
    """Names of the bundled variants (``base`` is a building block, not listed)."""
    return [name for name in bundled_names("variants", ".toml") if name != "base"]
