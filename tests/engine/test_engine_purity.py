"""The engine is pure: no event loop, no UI, no serial port, no MQTT, no clock.

Every ``.py`` file under ``engine/`` is parsed with :mod:`ast` and its imports
are checked against a list of forbidden top-level modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine

ENGINE_DIR = Path(engine.__file__).resolve().parent

FORBIDDEN = frozenset(
    {"asyncio", "textual", "serial", "serial_asyncio_fast", "aiomqtt", "paho", "time", "datetime"}
)


def forbidden_imports(source: str, filename: str) -> list[str]:
    """``file:line: statement`` for every import of a forbidden module in ``source``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                continue  # relative import: inside the engine package
            modules = [node.module]
        else:
            continue
        if any(module.split(".")[0] in FORBIDDEN for module in modules):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


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
    ],
)
def test_detector_allows_other_imports(source: str) -> None:
    assert forbidden_imports(source, "ok.py") == []
