"""docs/pi-clock.md holds to the code: its wiring tables are the defaults' own
(``wiring_table``), every header pin in them is the one gpiozero's map of the Pi's
header gives (a mock pin factory only for that map: no Pi here), its pictures exist,
its parts add up to about 60 dollars, and the commands and clock specs it shows are
ones rackclock takes."""

from __future__ import annotations

import re
import shlex

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.host.transports import TRANSPORTS, GpioSpec
from firmware_bridge.pi.wiring import HEADER_PIN, load_wiring, wiring_table
from tests.helpers import REPO

DOC = REPO / "docs" / "pi-clock.md"
TEXT = DOC.read_text(encoding="utf-8")
WIRING = load_wiring()


def section(title: str) -> str:
    """The text of the doc's ``## title`` section."""
    start = TEXT.index(f"\n## {title}\n")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end != -1 else None]


def table_rows(markdown: str) -> list[list[str]]:
    """The cells of every table row in ``markdown`` (header and rule rows left out)."""
    rows = []
    for line in markdown.splitlines():
        if line.startswith("|") and not line.startswith("| ---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return [row for row in rows if row[0] not in ("part", "")]


@pytest.mark.parametrize("display", ["oled", "max7219"])
def test_the_wiring_tables_are_the_defaults(display: str) -> None:
    expected = wiring_table(WIRING.with_display(display))
    assert expected in section("Wiring"), (
        f"docs/pi-clock.md's {display} wiring table is not the defaults': paste\n{expected}"
    )


def header_pins(name: str) -> set[int]:
    """The 40-pin header's pins named ``name`` (``GPIO17``, ``GND``, ``3V3``, ``5V``) on
    gpiozero's map of it (the same on every Pi since the B+)."""
    board = MockFactory().board_info
    return {pin.number for header, pin in board.find_pin(name) if header.name == "J8"}


def test_every_header_pin_is_the_pis_own() -> None:
    for gpio, header_pin in HEADER_PIN.items():
        assert header_pins(f"GPIO{gpio}") == {header_pin}, gpio
    kinds = {"3.3 V": "3V3", "5 V": "5V", "ground": "GND"}
    rows = table_rows(section("Wiring"))
    assert len(rows) > 10
    for part, where, pin, other_end in rows:
        assert int(pin) in header_pins(kinds.get(where, where)), part
        for ground in re.findall(r"e\.g\. (\d+)", other_end):
            assert int(ground) in header_pins("GND"), part
    named = re.search(r"The ground pins\s+are ([\d, and]+):", section("Wiring"))
    assert named is not None
    assert {int(n) for n in re.findall(r"\d+", named.group(1))} == header_pins("GND")


def test_the_pictures_are_there() -> None:
    pictures = re.findall(r"!\[[^]]*\]\(([^)]+)\)", TEXT)
    assert len(pictures) == 8  # four states, two kinds of display
    for picture in pictures:
        assert (DOC.parent / picture).is_file(), f"{picture}: make it with scripts/pi-pictures"


def test_the_parts_come_to_about_60_dollars() -> None:
    rows = table_rows(section("Parts"))
    prices = {part: int(price.lstrip("$")) for part, _, price in rows if price.startswith("$")}
    assert any("SSD1306" in part for part in prices)
    one_build = sum(price for part, price in prices.items() if not part.startswith("*or*"))
    assert 55 <= one_build <= 65, prices
    assert "**about $60**" in section("Parts")
    assert "2026" in section("Parts")  # prices are dated


def test_the_commands_it_shows_are_rackclocks() -> None:
    import argparse

    from terminal_ui.cli import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    shown = re.findall(r"rackclock ((?:pi-clock|table|serve)(?: --?[\w-]+(?: [^\s`]+)?)+)", TEXT)
    assert any(line.startswith("pi-clock") for line in shown)
    for line in shown:
        words = shlex.split(line)
        parser = commands.choices[words[0]]
        flags = {flag for action in parser._actions for flag in action.option_strings}
        for word in words[1:]:
            if word.startswith("--"):
                assert word in flags, f"rackclock {line}: {word}"
    specs = re.findall(r"--clock (gpio[^\s`]*)", TEXT)
    assert "gpio" in specs
    assert all(isinstance(TRANSPORTS.parse(spec), GpioSpec) for spec in specs)


def test_it_is_linked_and_its_unit_is_the_one_in_deploy() -> None:
    assert "docs/pi-clock.md" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "pi-clock.md" in (REPO / "docs" / "clock-protocol.md").read_text(encoding="utf-8")
    unit = (REPO / "deploy" / "rackclock-pi-clock.service").read_text(encoding="utf-8")
    assert "deploy/rackclock-pi-clock.service" in TEXT
    (exec_start,) = re.findall(r"^ExecStart=(\S+)", unit, re.MULTILINE)
    venv = exec_start.removesuffix("/bin/rackclock")
    assert f"python3 -m venv --system-site-packages {venv}" in TEXT  # where the unit looks
    assert f"{venv}/bin/pip install" in TEXT
