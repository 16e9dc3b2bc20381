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


def test_the_unit_runs_in_a_folder_lgpio_may_write() -> None:
    """lgpio makes its pipes in the current folder: the unit's must be its user's own
    (its StateDirectory), not / (gpiozero#1106)."""
    unit = (REPO / "deploy" / "rackclock-pi-clock.service").read_text(encoding="utf-8")
    (state,) = re.findall(r"^StateDirectory=(\S+)$", unit, re.MULTILINE)
    (workdir,) = re.findall(r"^WorkingDirectory=(\S+)$", unit, re.MULTILINE)
    assert workdir == f"/var/lib/{state}"
    assert f"`{workdir}`" in TEXT


def test_the_set_up_gives_the_i2c_speed_the_doc_counts_on() -> None:
    assert "400 kHz" in section("What only a real Pi can show")
    set_up = section("Setting up the Pi")
    block = set_up[set_up.index("```sh") : set_up.index("```\n", set_up.index("```sh") + 5)]
    assert "echo dtparam=i2c_arm_baudrate=400000 | sudo tee -a /boot/firmware/config.txt" in block
    assert block.rstrip().endswith("sudo reboot")  # config.txt is read at boot
    (uart,) = [line for line in set_up.splitlines() if "do_serial_hw 0" in line]
    assert "sudo reboot" in uart


def test_it_says_a_press_in_board_mode_waits_for_the_play() -> None:
    """The table's default variant keeps the board, where a press before the play is
    typed is refused: the doc says so, and gives --mode scoresheet where it is tried."""
    import argparse

    from engine.rules.variant import load_variant
    from terminal_ui.cli import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    table = commands.choices["table"]
    variant = next(a.default for a in table._actions if "--variant" in a.option_strings)
    assert load_variant(variant).mode == "board"
    assert "In board mode, the table's default" in TEXT
    assert "--mode scoresheet" in section("Setting up the Pi")  # Try it
    assert "--clock serial:/tmp/table --mode scoresheet" in section("Trying it on a laptop")


def test_the_parts_list_has_what_the_wiring_needs() -> None:
    parts = " ".join(row[0] for row in table_rows(section("Parts")))
    assert "spade" in parts  # the microswitches have tabs, the jumper wires sockets
    assert "micro-USB data cable" in parts  # a charge-only cable carries no serial
    assert "under 16 mA" in parts  # the buzzer hangs straight on a GPIO pin
    assert "NPN transistor" in section("Wiring")  # for a louder one


def test_the_overtime_text_it_quotes_is_the_tables() -> None:
    """The pictures' game is NZASP's (scripts/pi-pictures): the TEXT the doc quotes
    ends with the rate the table's overtime line (clock/table/display.py) gives."""
    from engine.clocktext import penalty_rate
    from engine.rules.variant import load_variant

    rate = penalty_rate(load_variant("nzasp"), short=True)
    assert f"`OVERTIME Ben -20 ({rate})`" in section("What it looks like")
