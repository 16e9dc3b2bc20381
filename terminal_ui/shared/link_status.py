"""The clock device's link, as every screen shows it: a table must never look
healthy while its clock is gone (docs/clock-protocol.md)."""

from __future__ import annotations

from textual.markup import escape
from textual.widgets import Static

from clock.table.service import Status
from engine.clocktext import clock_text
from terminal_ui.shared.widgets import set_text

__all__ = ["link_text", "show_link"]


def link_text(status: Status, now_ms: int) -> tuple[str, bool]:
    """Rich markup for the link line, and whether it is an alarm (the clock is gone).

    >>> link_text(Status(True, "clock-7"), 0)
    ('clock: connected (clock-7)', False)
    >>> link_text(Status(False, "clock-7", "cable unplugged", 5_000), 65_000)[0]
    '[b]CLOCK OFFLINE for 1:00[/b] (cable unplugged): reconnecting; use the keys meanwhile'
    """
    if not status.attached:
        return "clock: none (the keys are the clock)", False
    if status.device_online:
        ident = f" ({escape(status.device_id)})" if status.device_id else ""
        return f"clock: connected{ident}", False
    if status.offline_since_ms is None:
        return "clock: connecting...", False
    gone = clock_text(max(0, now_ms - status.offline_since_ms))
    why = f" ({escape(status.device_reason)})" if status.device_reason else ""
    return f"[b]CLOCK OFFLINE for {gone}[/b]{why}: reconnecting; use the keys meanwhile", True


def show_link(line: Static, status: Status, now_ms: int) -> None:
    """Draw the link on ``line``; the ``alarm`` class marks an offline clock (the
    stylesheet gives it the error colour)."""
    text, alarm = link_text(status, now_ms)
    set_text(line, text)
    line.set_class(alarm, "alarm")
