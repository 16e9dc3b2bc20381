"""scripts/pi-pictures, run as docs/pi-clock.md says, draws each display kind in each
state from luma's dummy device (a mock: the Pi's displays cannot run here); the
pictures committed under docs/images/pi-clock/ are what it draws now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops

from tests.helpers import REPO

SCRIPT = REPO / "scripts" / "pi-pictures"
DOCS = REPO / "docs" / "images" / "pi-clock"
STATES = ("running", "overtime", "hold", "no-table")
KINDS = ("oled", "max7219")


def same(a: Path, b: Path) -> bool:
    with Image.open(a) as one, Image.open(b) as other:
        if one.size != other.size:
            return False
        return ImageChops.difference(one.convert("RGB"), other.convert("RGB")).getbbox() is None


def test_the_script_draws_every_state_and_the_docs_have_them(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path / "pics")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    made = {Path(line).name for line in done.stdout.splitlines()}
    wanted = {f"{kind}-{state}.png" for kind in KINDS for state in STATES}
    assert made == wanted
    assert {p.name for p in (tmp_path / "pics").iterdir()} == wanted
    for kind in KINDS:
        paths = [tmp_path / "pics" / f"{kind}-{state}.png" for state in STATES]
        for index, path in enumerate(paths):
            for other in paths[index + 1 :]:
                assert not same(path, other), f"{path.name} and {other.name} are the same picture"
    stale = [name for name in sorted(wanted) if not same(DOCS / name, tmp_path / "pics" / name)]
    assert not stale, f"docs/images/pi-clock/ is out of date, run scripts/pi-pictures: {stale}"
