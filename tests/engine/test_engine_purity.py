"""The engine is pure: no event loop, no UI, no serial port, no MQTT, no clock, no I/O.

Every ``.py`` file under ``engine/`` is parsed with :mod:`ast`: its imports are
checked against a list of forbidden top-level modules, and it may not call
``open``. The engine reads only its bundled data, through
:mod:`importlib.resources`; the files a user names are read by ``clock.user_files``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine

ENGINE_DIR = Path(engine.__file__).resolve().parent

FORBIDDEN = frozenset(
    {
        # an event loop, a UI, devices, a clock
        "asyncio",
        "textual",
        "serial",
        "serial_asyncio_fast",
        "aiomqtt",
        "paho",
        "time",
        "datetime",
        # I/O: files, databases, sockets, processes
        "sqlite3",
        "os",
        "io",
        "pathlib",
        "shutil",
        "tempfile",
        "socket",
        "subprocess",
        "builtins",
    }
)

OPENERS = frozenset({"builtins", "codecs"})
"""Modules whose ``open`` opens a file (``io`` and ``os`` are forbidden outright)."""


def _opens(node: ast.Call) -> bool:
    """Whether a call is ``open(...)``, ``builtins.open(...)`` or ``codecs.open(...)``."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id == "open"
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "open"
        and isinstance(func.value, ast.Name)
        and func.value.id in OPENERS
    )


def forbidden_imports(source: str, filename: str) -> list[str]:
    """``file:line: statement`` for every import of a forbidden module in ``source``,
    and every call that opens a file, in line order."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                continue  # relative import: inside the engine package
            modules = [node.module]
            if node.module in OPENERS and any(a.name == "open" for a in node.names):
                modules.append("builtins")  # from codecs import open
        elif isinstance(node, ast.Call) and _opens(node):
            modules = ["builtins"]
        else:
            continue
        if any(module.split(".")[0] in FORBIDDEN for module in modules):
            found.append((node.lineno, ast.unparse(node)))
    return [f"{filename}:{line}: {text}" for line, text in sorted(found)]


def engine_files() -> list[Path]:
    return sorted(ENGINE_DIR.rglob("*.py"))


def test_engine_has_python_files() -> None:
    names = {p.name for p in engine_files()}
    assert {"board.py", "placement.py", "notation.py"} <= names


@pytest.mark.parametrize(
    "path", engine_files(), ids=lambda p: str(p.relative_to(ENGINE_DIR.parent))
)
def test_engine_module_is_pure(path: Path) -> None:
    shown = str(path.relative_to(ENGINE_DIR.parent))
    problems = forbidden_imports(path.read_text(encoding="utf-8"), shown)
    assert not problems, "engine must not import these:\n" + "\n".join(problems)


# --- the detector itself ----------------------------------------------------------------

BAD_SOURCE = """\
from __future__ import annotations

import asyncio
import json
from textual.app import App


def f() -> None:
    import time
    from serial_asyncio_fast import open_serial_connection
    import paho.mqtt.client as mqtt
    import aiomqtt, serial
    import sqlite3
    from os import path
    import io, tempfile
    from pathlib import Path
    import shutil, socket
    from subprocess import run
    text = open("words.txt").read()
    with builtins.open(name, "rb") as f:
        pass
    data = codecs.open(name).read()
    from codecs import open as codecs_open
"""


def test_detector_catches_forbidden_imports() -> None:
    found = forbidden_imports(BAD_SOURCE, "bad.py")
    assert found == [
        "bad.py:3: import asyncio",
        "bad.py:5: from textual.app import App",
        "bad.py:9: import time",
        "bad.py:10: from serial_asyncio_fast import open_serial_connection",
        "bad.py:11: import paho.mqtt.client as mqtt",
        "bad.py:12: import aiomqtt, serial",
        "bad.py:13: import sqlite3",
        "bad.py:14: from os import path",
        "bad.py:15: import io, tempfile",
        "bad.py:16: from pathlib import Path",
        "bad.py:17: import shutil, socket",
        "bad.py:18: from subprocess import run",
        "bad.py:19: open('words.txt')",
        "bad.py:20: builtins.open(name, 'rb')",
        "bad.py:22: codecs.open(name)",
        "bad.py:23: from codecs import open as codecs_open",
    ]


@pytest.mark.parametrize(
    "source",
    [
        "import json\nimport decimal\n",
        "from collections import Counter\n",
        "from . import time\n",
        "from .serial import x\n",
        "import timeit\nimport serialize\nimport textualize\n",
        "x = 'import asyncio'\n",
        "import ossaudiodev\nimport iodine\nimport pathlibx\n",
        "from importlib.resources import files\ntext = files('engine').joinpath('x').read_text()\n",
        "import codecs\nbom = codecs.BOM_UTF8\n",
        "f = self.open\nwords.open()\nreopen(x)\n",
    ],
)
def test_detector_allows_other_imports(source: str) -> None:
    assert forbidden_imports(source, "ok.py") == []
