"""The director's overview: one row per table, and the flags that call for attention.

A :class:`Row` is made from a table's report (the typed ``LiveReport`` or
``GameReport``: a table's live document on the broker, ``live_report`` of a log
file's state), its running clock moved on to now; rows sort most urgent first
(:mod:`terminal_ui.director.overview` words them as the overview's cells).
Pure: no Textual.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from engine.clocktext import clock_text
from engine.rules.game_report import GameReport, LiveReport, ReportedResult, as_report
from engine.rules.procedures.turn import DRIFT_RULE
from engine.rules.state import Phase
from engine.tournament.live import phase_words

if TYPE_CHECKING:  # offline, the console needs no MQTT
    from firmware_bridge.venue.director_link import TableSnapshot
    from firmware_bridge.venue.table_document import DeviceStatus

__all__ = [
    "DRIFT_RULE",
    "Flag",
    "Row",
    "device_note",
    "empty_row",
    "snapshot_row",
    "sort_rows",
    "summarize",
]

"""Rulings whose rule says this: the clock device and the service disagreed."""


class Flag(enum.Enum):
    """Why a table needs the director, most urgent first."""

    STALE = "stale"
    """Broker: no fresh state (the table terminal stopped publishing)."""
    OFFLINE = "offline"
    """Broker: the table terminal or its clock device is offline."""
    NEUTRAL = "neutral"
    """The clock has been neutralized longer than the alert threshold."""
    CHALLENGE = "challenge"
    """A challenge (or a hold) is pending."""
    OVERTIME = "overtime"
    """A player is in overtime."""
    DRIFT = "drift"
    """A device-authoritative clock differed from the service: to review."""


_PRIORITY = {
    Flag.STALE: 6,
    Flag.OFFLINE: 5,
    Flag.NEUTRAL: 4,
    Flag.CHALLENGE: 3,
    Flag.OVERTIME: 2,
    Flag.DRIFT: 1,
}
_LIVE_PHASES = {p.value for p in Phase} - {"not_started", "end_racks", "over"}


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the overview."""

    key: str
    """The table's key (``venue/table`` or the log's path)."""
    label: str
    """The table's name on screen."""
    players: tuple[str, str]
    """Both names."""
    scores: tuple[int, int]
    """Both scores."""
    remaining_ms: tuple[int, int]
    """Both clocks, as of now (the running one extrapolated)."""
    running: int | None
    """The seat whose clock runs."""
    phase: str
    """``Phase`` value, or ``no_state``."""
    phase_text: str
    """The phase in words."""
    neutral_ms: int | None
    """How long the clock has been neutralized, if it is and that is known."""
    flags: tuple[Flag, ...]
    """What needs attention."""
    age_ms: int | None = None
    """Broker: how old the state is."""
    source: str = ""
    """``live`` (a service heartbeat), ``log``, or the state's age."""
    result: ReportedResult | None = field(default=None, compare=False)
    """The report's ``result`` once the table has ruled one (winner, spread, reason)."""
    signed: tuple[bool, bool] = (False, False)
    """Who has signed the result."""

    @property
    def priority(self) -> int:
        """The most urgent flag's weight (0: nothing to do)."""
        return max((_PRIORITY[f] for f in self.flags), default=0)

    @property
    def group(self) -> int:
        """0 playing, 1 not started or unknown, 2 over."""
        if self.phase in _LIVE_PHASES:
            return 0
        return 2 if self.phase in ("end_racks", "over") else 1


def summarize(
    key: str,
    label: str,
    rep: LiveReport | GameReport | Mapping[str, Any],
    *,
    elapsed_ms: int = 0,
    neutral_since_ms: int | None = None,
    device_online: bool | None = None,
    table_online: bool | None = None,
    stale: bool = False,
    age_ms: int | None = None,
    neutral_alert_ms: int = 60_000,
    source: str = "",
    device_note: str = "",
) -> Row:
    """A row from a report read ``elapsed_ms`` ago (typed; one as JSON gives it is
    read once, :func:`engine.rules.game_report.as_report`).

    The running clock is moved on by ``elapsed_ms``; ``neutral_since_ms`` is on
    the report's timeline (``at_ms``). ``device_note`` (the clock device gone, and
    for how long) is added to the phase text. A key the report lacks reads as its
    default (a table that has not started), never as an error.
    """
    rep = as_report(rep)
    clocks = rep.clocks
    running = next((seat for seat, c in enumerate(clocks[:2]) if c.running), None)
    remaining = tuple(
        c.remaining_ms - (elapsed_ms if seat == running else 0) for seat, c in enumerate(clocks)
    )
    # a document that lists fewer than two clocks shows the missing ones at zero
    remaining += (0,) * (2 - len(remaining))
    phase = rep.phase
    live = phase in _LIVE_PHASES
    now = rep.at_ms + elapsed_ms
    neutral_ms = (
        max(0, now - neutral_since_ms) if rep.neutralized and neutral_since_ms is not None else None
    )
    flags: list[Flag] = []
    if live and stale:
        flags.append(Flag.STALE)
    if live and (table_online is False or device_online is False):
        flags.append(Flag.OFFLINE)
    if live and neutral_ms is not None and neutral_ms > neutral_alert_ms:
        flags.append(Flag.NEUTRAL)
    if phase in ("challenge", "hold"):
        flags.append(Flag.CHALLENGE)
    if live and any(r < 0 for r in remaining):
        flags.append(Flag.OVERTIME)
    if any(DRIFT_RULE in r.rule for r in rep.rulings):
        flags.append(Flag.DRIFT)
    return Row(
        key,
        label,
        rep.players,
        rep.scores,
        (remaining[0], remaining[1]),
        running,
        phase,
        # a game over says who won and why, not the raw scores (one wording)
        phase_words(rep) + (f" | {device_note}" if device_note else ""),
        neutral_ms,
        tuple(flags),
        age_ms,
        source,
        rep.result,
        rep.signed,
    )


def sort_rows(rows: Iterable[Row]) -> list[Row]:
    """Most urgent first; then tables in play, not started, over; then by name."""
    return sorted(rows, key=lambda r: (-r.priority, r.group, r.label))


def empty_row(key: str, label: str, *, online: bool | None) -> Row:
    """A table on the broker with no state yet: stale (and offline if it says so)."""
    flags = (Flag.STALE,) + ((Flag.OFFLINE,) if online is False else ())
    return Row(key, label, ("", ""), (0, 0), (0, 0), None, "no_state", "no state", None, flags)


def snapshot_row(key: str, snap: TableSnapshot, wall_ms: int, neutral_alert_ms: int) -> Row:
    """The overview row of a table on the broker, from its retained state, as of now.

    The running clock is moved on by the state's age, unless the state is stale.
    """
    live = snap.live
    # a payload since that did not read: the table is stale, and the row says why
    bad = snap.unreadable.said if snap.unreadable is not None else ""
    if live is None:
        row = empty_row(key, key, online=snap.online)
        return replace(row, phase_text=f"{row.phase_text} | {bad}") if bad else row
    stale = snap.stale(wall_ms)
    age = snap.age_ms(wall_ms)
    since, now_ms = live.neutralized_since_ms, live.now_ms
    if since is not None and now_ms is not None:
        since += live.state.at_ms - now_ms  # on the report's timeline
    device = live.device
    return summarize(
        key,
        key,
        live.state,
        elapsed_ms=0 if stale else (age or 0),
        neutral_since_ms=since,
        device_online=device.online if device is not None else None,
        table_online=snap.online,
        stale=stale,
        age_ms=age,
        neutral_alert_ms=neutral_alert_ms,
        device_note=" | ".join(
            n
            for n in (
                device_note(device, now_ms, 0 if stale else (age or 0)) if device else "",
                bad,
            )
            if n
        ),
    )


def device_note(device: DeviceStatus | Mapping[str, Any], now_ms: object, age_ms: int) -> str:
    """``clock offline 2:13 (cable unplugged)`` from the table state's ``device``
    object (typed, or as JSON gives it), counted to now; ``""`` while it is online."""
    if isinstance(device, Mapping):
        online, since, reason = (device.get(k) for k in ("online", "offline_since_ms", "reason"))
    else:
        online, since, reason = device.online, device.offline_since_ms, device.reason
    if online is not False or not isinstance(since, int):
        return ""
    if not isinstance(now_ms, int):
        return "clock offline"
    gone = clock_text(max(0, now_ms - since + age_ms))
    return f"clock offline {gone}" + (f" ({reason})" if reason else "")
