"""The ``--clock`` spec, parsed once: clock's own registry (``emulated``, ``none``), the
transports' (serial, the broker), and a new kind of clock as one registry entry."""

from __future__ import annotations

import doctest
from dataclasses import dataclass
from pathlib import Path

import pytest

from clock.device.clock_spec import (
    CLOCKS,
    ClockContext,
    ClockSpec,
    ClockSpecError,
    EmulatedSpec,
    NoClockSpec,
    Transport,
)
from clock.device.emulated import EmulatedClock
from clock.device.interface import ClockDevice
from clock.table.session import SessionError, TableSession, TableSpec
from clock.timeline import FakeTimeline
from firmware_bridge.host import transports
from firmware_bridge.host.transports import TRANSPORTS, MqttSpec, SerialSpec


def test_clock_knows_its_own_two_and_nothing_else() -> None:
    assert CLOCKS.parse("emulated") == EmulatedSpec("emulated")
    assert CLOCKS.parse("none") == NoClockSpec("none")
    with pytest.raises(
        ClockSpecError, match=r"clock 'serial:/dev/x': names no clock \(emulated or none\)"
    ):
        CLOCKS.parse("serial:/dev/x")
    device = CLOCKS.open(EmulatedSpec("emulated"), ClockContext(FakeTimeline(0), 180_000, True))
    assert isinstance(device, EmulatedClock)
    assert device.report_times
    assert CLOCKS.open(NoClockSpec("none"), ClockContext(FakeTimeline(0), 180_000)) is None


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("emulated", EmulatedSpec("emulated")),
        (
            "serial:/dev/ttyACM0,baudrate=9600",
            SerialSpec("serial:/dev/ttyACM0,baudrate=9600", "/dev/ttyACM0", baudrate=9600),
        ),
    ],
)
def test_the_transports_extend_clocks_own(text: str, spec: ClockSpec) -> None:
    assert TRANSPORTS.parse(text) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("usb:7", "clock 'usb:7': names no clock (emulated, none, serial:PATH"),
        ("serial:", "clock 'serial:': serial: needs a port"),
        ("serial:/dev/x,baudrate=x", "clock 'serial:/dev/x,baudrate=x': baudrate must be a number"),
        ("mqtt://hub", "clock 'mqtt://hub': name the table"),
        ("mqtt:ftp://hub/a/b", "clock 'mqtt:ftp://hub/a/b': broker URL 'ftp://hub/a/b' must start"),
    ],
)  # fmt: skip
def test_a_bad_spec_is_refused_quoting_it(text: str, message: str) -> None:
    with pytest.raises(ClockSpecError) as caught:
        TRANSPORTS.parse(text)
    assert str(caught.value).startswith(message)


def test_the_broker_url_is_read_once_into_the_spec() -> None:
    spec = TRANSPORTS.parse("mqtt:mqtts://hub/club/t7")
    assert isinstance(spec, MqttSpec)
    assert spec.url == "mqtts://hub/club/t7"
    assert spec.broker.table is not None
    assert (spec.broker.port, spec.broker.table.table) == (8883, "t7")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("emulated", "emulated (the clock keys)"),
        ("none", "none"),
        ("serial:/dev/ttyACM0", "serial:/dev/ttyACM0"),
        ("mqtt://hub/club/t7", "mqtt://hub/club/t7"),
    ],
)
def test_a_spec_says_what_the_start_screen_shows(text: str, shown: str) -> None:
    assert TRANSPORTS.parse(text).describe() == shown


def test_the_help_names_every_transport_with_its_line() -> None:
    shown = TRANSPORTS.help()
    for transport in TRANSPORTS.transports:
        assert f"{transport.grammar}: {transport.help}" in shown
    import argparse

    from terminal_ui.cli import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("serve", "table", "scorekeeper"):
        options = commands.choices[command]._actions
        clock = next(a for a in options if "--clock" in a.option_strings)
        assert clock.help == shown, command


@dataclass(frozen=True, slots=True)
class BluetoothSpec(ClockSpec):
    """A stand-in for a kind of clock not written yet: ``bt:ADDRESS``."""

    address: str


class BluetoothClock(EmulatedClock):
    """Its device (the emulated clock's behaviour is enough here)."""


def parse_bt(text: str) -> BluetoothSpec | None:
    return BluetoothSpec(text, text.removeprefix("bt:")) if text.startswith("bt:") else None


def open_bt(spec: BluetoothSpec, context: ClockContext) -> ClockDevice:
    return BluetoothClock(context.timeline, initial_ms=context.initial_ms)


BLUETOOTH = Transport("bt", "bt:ADDRESS", "a Bluetooth clock", BluetoothSpec, parse_bt, open_bt)


async def test_a_new_kind_of_clock_is_one_registry_entry(tmp_path: Path) -> None:
    clocks = TRANSPORTS.with_(BLUETOOTH)
    assert clocks.grammar().endswith(
        "mqtt://BROKER/VENUE/TABLE, gpio[:wiring=FILE,display=KIND,mock] or bt:ADDRESS"
    )
    spec = TableSpec(
        log=tmp_path / "t.sqlite", variant="toronto-speed", clock="bt:0", heartbeat_ms=0
    )
    async with TableSession(spec, timeline=FakeTimeline(1_000), clocks=clocks) as session:
        assert session.clock == BluetoothSpec("bt:0", "0")
        assert isinstance(session.service.device, BluetoothClock)
        assert session.emulated is session.service.device  # its buttons are keys here
    with pytest.raises(SessionError, match="cannot open clock 'bt:0': names no clock"):
        TableSession(spec, clocks=TRANSPORTS)


def test_the_registry_modules_examples_hold() -> None:
    assert doctest.testmod(transports).failed == 0
