"""The packages import in one direction: engine at the bottom, then clock, then
firmware_bridge, then terminal_ui. Inside firmware_bridge: the wire protocol and
the broker connection (``mqtt``) at the bottom, the clock transports above them
(``host``, and ``device``, which may use host's serial link but host never
device), the venue above the MQTT plumbing and beside, never on, the transports
(it never imports a clock class), and :mod:`firmware_bridge.table_setup`, which brings a
table up with both, on top: no subpackage imports it. Every module is parsed with
:mod:`ast`, imports inside functions included, and no way round a floor is left open:
imports are absolute (a relative one is refused, so none goes unread), the package
above the floors re-exports nothing (``from firmware_bridge import X`` can only name a
submodule, which is checked), a dotted name reached through ``import firmware_bridge``
is checked like an import, and nothing is imported by name at run time
(``importlib.import_module``, ``__import__``). The wire floor does no I/O: it imports
no I/O module and calls no ``open``, ``print`` or ``input``. Tests and benchmarks import
no private name: what they share is public, under ``tests/support/``."""

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

TOP = "firmware_bridge.table_setup"
"""Brings a table up with a transport and the venue's publisher: on every floor's list."""

FORBIDDEN_PREFIXES: dict[str, tuple[str, ...]] = {
    "firmware_bridge.wire": (
        "firmware_bridge.mqtt",
        "firmware_bridge.host",
        "firmware_bridge.device",
        "firmware_bridge.venue",
        TOP,
    ),
    "firmware_bridge.mqtt": (
        "firmware_bridge.host",
        "firmware_bridge.device",
        "firmware_bridge.venue",
        TOP,
    ),
    # the Pi's parts (wiring, buttons, lights, panel) serve both sides of a clock: the
    # host's gpio clock may use them, never the Pi's box, which stands on the device side
    "firmware_bridge.host": (
        "firmware_bridge.device",
        "firmware_bridge.venue",
        "firmware_bridge.pi.box",
        TOP,
    ),
    "firmware_bridge.device": ("firmware_bridge.venue", "firmware_bridge.pi", TOP),
    "firmware_bridge.pi": ("firmware_bridge.host", "firmware_bridge.venue", TOP),
    "firmware_bridge.venue": ("firmware_bridge.host", "firmware_bridge.device", TOP),
}
"""Within a package: a subpackage that must not import another."""

OURS = frozenset(ALLOWED)

ABOVE_FLOORS = frozenset(sub.rpartition(".")[0] for sub in FORBIDDEN_PREFIXES)
"""The packages whose subpackages have floors: their ``__init__`` imports nothing of
ours, or ``from firmware_bridge import open_table`` would reach host from venue."""

NO_IO = "firmware_bridge.wire"
"""The protocol without I/O: bytes in, bytes and messages out (the hexdump file is the
host's, :mod:`firmware_bridge.host.hexdump_file`)."""

IO_MODULES = frozenset(
    {
        "aiomqtt",
        "argparse",
        "asyncio",
        "datetime",
        "io",
        "os",
        "pathlib",
        "serial",
        "serial_asyncio_fast",
        "shutil",
        "socket",
        "sqlite3",
        "subprocess",
        "sys",
        "time",
    }
)
IO_CALLS = frozenset({"open", "print", "input"})

DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})
"""Calls that import a module named by a string, out of the detector's sight."""


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for an attribute chain on a plain name, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def imported_modules(source: str, filename: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """``(line, module, what)`` for every import in ``source``: ``what`` is also each
    ``module.name`` of a ``from module import name`` (it may name a subpackage). A
    relative import's module keeps its leading dots (``.level``); a call importing by
    name is ``importlib.import_module()`` or ``__import__()``."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, (alias.name,)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names = tuple(f"{module}.{alias.name}" for alias in node.names)
            found.append((node.lineno, module, (module, *names)))
        elif isinstance(node, ast.Call):
            called = _dotted(node.func) or ""
            if called.rpartition(".")[2] in DYNAMIC_IMPORTS:
                found.append((node.lineno, f"{called}()", ()))
    return sorted(found)


def dotted_names(source: str, filename: str) -> list[tuple[int, str]]:
    """``(line, a.b.c)`` for every outermost attribute chain on a plain name: what a
    module reaches through a package it imported whole (``import firmware_bridge``)."""
    found: list[tuple[int, str]] = []
    inner: set[int] = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Attribute):
            inner.add(id(node.value))
            name = None if id(node) in inner else _dotted(node)
            if name is not None:
                found.append((node.lineno, name))
    return sorted(found)


def violations(module: str, source: str, filename: str) -> list[str]:
    """What ``module`` (dotted) imports against the rules above."""
    package = module.split(".")[0]
    out = []
    for line, name, what in imported_modules(source, filename):
        top = name.split(".")[0]
        if name.startswith("."):
            out.append(f"{filename}:{line}: relative import {name} (write it absolute)")
            continue
        if name.endswith("()"):
            out.append(f"{filename}:{line}: imports by name at run time: {name}")
            continue
        if top in OURS and top not in ALLOWED[package]:
            out.append(f"{filename}:{line}: {package} imports {name}")
        if module in ABOVE_FLOORS and top in OURS:
            out.append(f"{filename}:{line}: {module} re-exports {name}")
        out.extend(_floor(module, line, name, what, filename))
    for line, name in dotted_names(source, filename):
        out.extend(_floor(module, line, name, (name,), filename))
    return sorted(dict.fromkeys(out), key=lambda text: int(text.split(":")[1]))


def _floor(module: str, line: int, name: str, what: tuple[str, ...], filename: str) -> list[str]:
    """The floors inside a package that ``name`` (and ``what``) would go through."""
    out = []
    for sub, banned in FORBIDDEN_PREFIXES.items():
        inside = module == sub or module.startswith(sub + ".")
        if inside and any(w == b or w.startswith(b + ".") for w in what for b in banned):
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


def test_the_pi_parts_serve_both_sides_but_the_host_never_stands_on_the_box() -> None:
    source = (
        "from firmware_bridge.pi.buttons import Buttons\n"
        "from firmware_bridge.pi.box import PiClock\n"
        "from firmware_bridge.host.serial_clock import SerialClock\n"
    )
    assert violations("firmware_bridge.host.gpio_clock", source, "h.py") == [
        "h.py:2: firmware_bridge.host imports firmware_bridge.pi.box",
    ]
    assert violations("firmware_bridge.device.firmware", source, "d.py") == [
        "d.py:1: firmware_bridge.device imports firmware_bridge.pi.buttons",
        "d.py:2: firmware_bridge.device imports firmware_bridge.pi.box",
    ]
    assert violations("firmware_bridge.pi.panel", source, "p.py") == [
        "p.py:3: firmware_bridge.pi imports firmware_bridge.host.serial_clock",
    ]


def test_no_subpackage_imports_the_table_setup() -> None:
    source = (
        "from firmware_bridge.table_setup import open_table\n"
        "from firmware_bridge import table_setup\n"
    )
    for sub in FORBIDDEN_PREFIXES:
        assert violations(f"{sub}.x", source, "s.py") == [
            f"s.py:1: {sub} imports firmware_bridge.table_setup",
            f"s.py:2: {sub} imports firmware_bridge",
        ]
    assert violations("terminal_ui.cli.table", source, "t.py") == []


def test_the_detector_refuses_each_way_round_a_floor() -> None:
    source = (
        "from .level import Thing\n"
        "from . import level\n"
        "from firmware_bridge import open_table\n"
        "import firmware_bridge\n"
        "def f():\n"
        "    return firmware_bridge.host.mqtt_clock.MqttClock\n"
        "importlib.import_module('firmware_bridge.host')\n"
        "__import__('firmware_bridge.device')\n"
    )
    assert violations("firmware_bridge.venue.publisher", source, "v.py") == [
        "v.py:1: relative import .level (write it absolute)",
        "v.py:2: relative import . (write it absolute)",
        "v.py:6: firmware_bridge.venue imports firmware_bridge.host.mqtt_clock.MqttClock",
        "v.py:7: imports by name at run time: importlib.import_module()",
        "v.py:8: imports by name at run time: __import__()",
    ]
    assert violations("firmware_bridge", source, "f.py") == [
        "f.py:1: relative import .level (write it absolute)",
        "f.py:2: relative import . (write it absolute)",
        "f.py:3: firmware_bridge re-exports firmware_bridge",
        "f.py:4: firmware_bridge re-exports firmware_bridge",
        "f.py:7: imports by name at run time: importlib.import_module()",
        "f.py:8: imports by name at run time: __import__()",
    ]
    assert violations("engine", "from engine.play import notation\n", "e.py") == []


def io_uses(source: str, filename: str) -> list[str]:
    """The I/O modules ``source`` imports and the I/O builtins it calls."""
    out = [
        f"{filename}:{line}: imports {name}"
        for line, name, _ in imported_modules(source, filename)
        if name.split(".")[0] in IO_MODULES
    ]
    for node in ast.walk(ast.parse(source, filename=filename)):
        call = node.func if isinstance(node, ast.Call) else None
        if isinstance(call, ast.Name) and call.id in IO_CALLS:
            out.append(f"{filename}:{call.lineno}: calls {call.id}()")
    return out


WIRE = [(m, p) for m, p in modules() if m == NO_IO or m.startswith(NO_IO + ".")]


@pytest.mark.parametrize(("module", "path"), WIRE, ids=[m for m, _ in WIRE])
def test_the_wire_does_no_io(module: str, path: Path) -> None:
    problems = io_uses(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert not problems, "\n".join(problems)


def test_the_io_detector_catches_each_kind() -> None:
    source = "import time\nfrom pathlib import Path\nopen('x')\nprint(1)\nimport struct\n"
    assert io_uses(source, "w.py") == [
        "w.py:1: imports time",
        "w.py:2: imports pathlib",
        "w.py:3: calls open()",
        "w.py:4: calls print()",
    ]


def private_imports(source: str, filename: str) -> list[str]:
    """Each private name (``_rows``) ``source`` imports from a module of ours or of the
    tests': what tests share lives under ``tests/support/`` with public names."""
    return [
        f"{filename}:{line}: imports private {name}"
        for line, module, what in imported_modules(source, filename)
        if module.split(".")[0] in {*OURS, "tests", "bench"}
        for name in what[1:]
        if name.rpartition(".")[2].startswith("_")
    ]


SHARED = sorted(p for folder in ("tests", "bench") for p in (REPO / folder).rglob("*.py"))


@pytest.mark.parametrize("path", SHARED, ids=[str(p.relative_to(REPO)) for p in SHARED])
def test_no_test_imports_a_private_name(path: Path) -> None:
    problems = private_imports(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert not problems, "\n".join(problems)


def test_the_private_import_detector() -> None:
    source = (
        "from tests.system.test_kill9 import RACKCLOCK, _rows\n"
        "from clock.table.service import _program\n"
        "from textual._context import active_app\n"
        "from os import _exit\n"
    )
    assert private_imports(source, "t.py") == [
        "t.py:1: imports private tests.system.test_kill9._rows",
        "t.py:2: imports private clock.table.service._program",
    ]
