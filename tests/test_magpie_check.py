"""scripts/magpie-check run by a python without the project's packages says how to run
it in one line, never a traceback (issue 24 §1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "magpie-check"


def test_without_the_projects_packages_it_says_to_use_the_venv() -> None:
    # -S: no site-packages, as /usr/bin/env python3 outside the venv (no msgspec)
    proc = subprocess.run(
        [sys.executable, "-S", str(SCRIPT), "MAGPIE"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "run it with the project's .venv/bin/python" in proc.stderr
