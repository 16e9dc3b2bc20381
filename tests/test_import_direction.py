"""The packages import in one direction: engine at the bottom, then clock, then
firmware_bridge, then terminal_ui. Inside firmware_bridge: the wire protocol and
the broker connection (``mqtt``) at the bottom, the clock transports above them
(``host``, and ``device``, which may use host's serial link but host never
device), the venue above the MQTT plumbing and beside, never on, the transports
(it never imports a clock class), and :mod:`firmware_bridge.table_setup`, which brings a
table up with both, on top. Every module is parsed with :mod:`ast`, imports inside
functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO

ALLOWED: dict[str, frozenset[str]] = {
    "engine": frozenset({"engine"}),
    "clock": frozenset({"engine", "clock"}),
    "firmware_bridge": frozenset({"engine", "clock", "firmware_bridge"}),
    "terminal_ui": frozenset({"engine", "clock", "firmware_bridge", "terminal_ui"}),
}
"""What each package may import of ours."""

FORBIDDEN_PREFIXES: dict[str, tuple[str, ...]] = {
    "firmware_bridge.wire": (
        "firmware_bridge.mqtt",
        "firmware_bridge.host",
        "firmware_bridge.device",
        "firmware_bridge.venue",
    ),
    "firmware_bridge.mqtt": (
        "firmware_bridge.host",
        "firmware_bridge.device",
        "firmware_bridge.venue",
    ),
    "firmware_bridge.host": ("firmware_bridge.device", "firmware_bridge.venue"),
    "firmware_bridge.device": ("firmware_bridge.venue",),
    "firmware_bridge.venue": ("firmware_bridge.host", "firmware_bridge.device"),
}
"""Within a package: a subpackage that must not import another."""

OURS = frozenset(ALLOWED)


def imported_modules(source: str, filename: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """``(line, module, what)`` for every absolute import in ``source``: ``what`` is also
    each ``module.name`` of a ``from module import name`` (it may name a subpackage)."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, (alias.name,)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = tuple(f"{node.module}.{alias.name}" for alias in node.names)
            found.append((node.lineno, node.module, (node.module, *names)))
    return sorted(found)


def violations(module: str, source: str, filename: str) -> list[str]:
    """What ``module`` (dotted) imports against the rules above."""
    package = module.split(".")[0]
    out = []
    for line, name, what in imported_modules(source, filename):
        top = name.split(".")[0]
        if top in OURS and top not in ALLOWED[package]:
            out.append(f"{filename}:{line}: {package} imports {name}")
        for sub, banned in FORBIDDEN_PREFIXES.items():
            inside = module == sub or module.startswith(sub + ".")
            if inside and any(w.startswith(banned) for w in what):
                out.append(f"{filename}:{line}: {sub} imports {name}")
    return out


def modules() -> list[tuple[str, Path]]:
    found = []
    for package in sorted(ALLOWED):
        for path in sorted((REPO / package).rglob("*.py")):
            rel = path.relative_to(REPO).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            found.append((".".join(parts), path))
    return found


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_imports_go_one_way(module: str, path: Path) -> None:
    problems = violations(module, path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert not problems, "\n".join(problems)


def test_the_detector_catches_each_kind() -> None:
    source = (
        "from clock.table.service import TableService\n"
        "def f():\n"
        "    import terminal_ui.cli\n"
        "from firmware_bridge import device\n"
    )
    assert violations("engine.rules.machine", source, "e.py") == [
        "e.py:1: engine imports clock.table.service",
        "e.py:3: engine imports terminal_ui.cli",
        "e.py:4: engine imports firmware_bridge",
    ]
    assert violations("firmware_bridge.host.serial_clock", source, "h.py") == [
        "h.py:3: firmware_bridge imports terminal_ui.cli",
        "h.py:4: firmware_bridge.host imports firmware_bridge",
    ]
    assert violations("terminal_ui.cli", source, "t.py") == []


def test_the_detector_catches_each_floor_inside_firmware_bridge() -> None:
    source = (
        "from firmware_bridge.host.mqtt_clock import MqttClock\n"
        "def f():\n"
        "    import firmware_bridge.device.gateway\n"
        "from firmware_bridge import venue\n"
        "from firmware_bridge.mqtt.connection import MqttSession\n"
        "from firmware_bridge.wire import protocol\n"
    )
    assert violations("firmware_bridge.venue.publisher", source, "v.py") == [
        "v.py:1: firmware_bridge.venue imports firmware_bridge.host.mqtt_clock",
        "v.py:3: firmware_bridge.venue imports firmware_bridge.device.gateway",
    ]
    assert violations("firmware_bridge.mqtt.connection", source, "m.py") == [
        "m.py:1: firmware_bridge.mqtt imports firmware_bridge.host.mqtt_clock",
        "m.py:3: firmware_bridge.mqtt imports firmware_bridge.device.gateway",
        "m.py:4: firmware_bridge.mqtt imports firmware_bridge",
    ]
    assert violations("firmware_bridge.wire.protocol", source, "w.py") == [
        "w.py:1: firmware_bridge.wire imports firmware_bridge.host.mqtt_clock",
        "w.py:3: firmware_bridge.wire imports firmware_bridge.device.gateway",
        "w.py:4: firmware_bridge.wire imports firmware_bridge",
        "w.py:5: firmware_bridge.wire imports firmware_bridge.mqtt.connection",
    ]
    assert violations("firmware_bridge.host.serial_clock", source, "h.py") == [
        "h.py:3: firmware_bridge.host imports firmware_bridge.device.gateway",
        "h.py:4: firmware_bridge.host imports firmware_bridge",
    ]
    assert violations("firmware_bridge.device.gateway", source, "d.py") == [
        "d.py:4: firmware_bridge.device imports firmware_bridge",
    ]
    assert violations("firmware_bridge.table_setup", source, "t.py") == []
