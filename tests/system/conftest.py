"""System tests start real programs (mosquitto, socat, tmux, ``rackclock`` itself) and kill
them: every test here is marked ``slow`` (``pytest -m "not slow"`` for a quick run)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test collected under this folder ``slow``."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.slow)
