"""A real terminal for end-to-end tests: one tmux server on a private socket with one
window, keys sent with ``tmux send-keys`` and the screen read back with ``tmux
capture-pane -p``, as a player would see it."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import REPO, missing_part

__all__ = ["WAIT_S", "Terminal", "require_tmux", "squeeze", "tmux_terminal"]

WAIT_S = 15.0
"""Longest wait for one thing to show on the screen."""


def require_tmux() -> str:
    """The tmux executable. Without tmux the test skips, or fails where system parts
    are required (:func:`tests.helpers.missing_part`); without make it fails."""
    exe = shutil.which("tmux")
    if exe is None:
        missing_part("tmux is not installed: apt-get install -y tmux (or ./scripts/system-deps)")
    if shutil.which("make") is None:
        pytest.fail("make is not installed: the README's main command is 'make run'")
    return exe


class Terminal:
    """One tmux server (private socket) with one window (80x24 unless ``size`` says)."""

    def __init__(self, exe: str, env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        self.exe = exe
        self.size = size
        self.socket = f"rackclock-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.env = env
        self.target = "table"
        self.socket_path: Path | None = None

    def tmux(self, *args: str) -> str:
        """Run a tmux command on this server; its output."""
        done = subprocess.run(
            [self.exe, "-L", self.socket, "-f", "/dev/null", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return done.stdout

    def start(self, command: str) -> None:
        """Open the window running ``command`` in the repository; keep the pane when it ends."""
        self.tmux(
            "new-session",
            "-d",
            "-s",
            self.target,
            "-x",
            str(self.size[0]),
            "-y",
            str(self.size[1]),
            "-c",
            str(REPO),
            "-e",
            f"XDG_DATA_HOME={self.env['XDG_DATA_HOME']}",
            command,
            ";",
            "set-option",
            "-t",
            self.target,
            "remain-on-exit",
            "on",
        )
        self.socket_path = Path(self.tmux("display-message", "-p", "#{socket_path}").strip())

    def screen(self) -> str:
        """The window's text now."""
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def keys(self, *keys: str, literal: bool = False) -> None:
        """Send keys (tmux key names, or literal text)."""
        self.tmux("send-keys", "-t", self.target, *(["-l"] if literal else []), *keys)

    def type(self, text: str) -> None:
        """Type ``text`` as a player would."""
        self.keys(text, literal=True)

    def dead(self) -> bool:
        """Whether the program in the window has ended."""
        return self.tmux("display-message", "-p", "-t", self.target, "#{pane_dead}").strip() == "1"

    def wait(self, what: str, cond: Callable[[str], bool], timeout: float = WAIT_S) -> str:
        """Poll the screen until ``cond(screen)``; the screen. Fails with the last screen."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if cond(screen):
                return screen
            if self.dead():
                break
            time.sleep(0.05)
        raise AssertionError(f"waiting for {what}; the screen shows:\n{screen}")

    def wait_for(self, *texts: str) -> str:
        """Poll the screen until it shows every one of ``texts``."""
        return self.wait(repr(texts), lambda s: all(t in s for t in texts))

    def start_game(self, key: str) -> None:
        """Press the clock ``key`` on the start screen until the game starts. The
        screen is drawn a moment before it takes keys, so a key it did not take is
        pressed again, only while the screen still shows after two seconds. While it
        shows, the apps ignore a clock key after the first that started the game, so a
        repeat cannot end the first turn (a key landing after it closed still would)."""
        self.wait_for("A new game", "Press a clock key")
        for _ in range(20):
            self.type(key)
            with contextlib.suppress(AssertionError):
                self.wait("the game to start", lambda s: "A new game" not in s, timeout=2.0)
                return
        raise AssertionError(f"the start screen never took {key!r}:\n{self.screen()}")

    def kill(self) -> None:
        """Stop the server and everything in it."""
        subprocess.run(
            [self.exe, "-L", self.socket, "kill-server"],
            env=self.env,
            capture_output=True,
            timeout=10,
            check=False,
        )
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)


@contextlib.contextmanager
def tmux_terminal(data: Path, size: tuple[int, int] = (80, 24)) -> Iterator[Terminal]:
    """A fresh tmux server (not the one a test may run in) whose data directory
    (``XDG_DATA_HOME``) is ``data``; stopped, with everything in it, at the end."""
    exe = require_tmux()
    # COLUMNS/LINES (pytest-xdist's workers set 80x24) would size a Textual app
    # before the window does: every app here takes the tmux window's real size.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("TMUX") and k not in ("COLUMNS", "LINES")
    }
    env["XDG_DATA_HOME"] = str(data)
    term = Terminal(exe, env, size=size)
    try:
        yield term
    finally:
        term.kill()


def squeeze(screen: str) -> str:
    """The screen's words with single spaces (columns are padded to their widest)."""
    return " ".join(screen.split())
