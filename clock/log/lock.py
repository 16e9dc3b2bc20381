"""Who writes a log: the writer's lock, ``<log>.lock`` beside it.

A table's log has one writer. The table service takes this lock when it opens the
log and keeps it for its life; an offline writer (the director's console ruling on
a log file) takes it for the moment it writes. Whoever finds it taken is refused,
told who holds it: the holder writes its program, pid and host into the file.

Why a file of its own, and ``flock``: a POSIX (``fcntl``) lock belongs to the
process and is dropped when *any* descriptor of the file is closed, and SQLite
opens and closes descriptors of the log (docs/events.md, "Who opens a log"); a
lock on the log itself would vanish under the table. A ``flock`` lock belongs to
the open file description made here, survives other descriptors closing, and the
kernel drops it when the holder dies, even at ``kill -9``: a heartbeat's age is
never needed to decide. The file is left in place when released (removing it would
let two writers lock two different files of the same name).
"""

from __future__ import annotations

import fcntl
import os
import socket
import time
from pathlib import Path

from clock.log.eventlog import LogError

__all__ = ["LogHeld", "WriterLock", "holder", "lock_path"]

_LOOKS = 20
"""Tries, 5 ms apart, before a writer is refused: :func:`holder` takes the lock shared
for a moment to look, and must not turn a starting table away. All are tried whatever
the file says: after ``kill -9`` it still names the dead holder, so a name alone does
not mean the lock is held for good."""


class LogHeld(LogError):
    """Another writer holds the log."""

    def __init__(self, log_name: str, who: str, advice: str) -> None:
        super().__init__(f"{log_name} is held by {who}: {advice}")
        self.log_name = log_name
        """The log's file name."""
        self.who = who
        """The holder in words: ``rackclock serve (pid 1234 on host)``."""


def lock_path(log_path: str | os.PathLike[str]) -> Path:
    """The lock file of a log."""
    return Path(f"{os.fspath(log_path)}.lock")


def _who(text: str) -> str:
    """The holder as written in the file, in words."""
    parts = text.split("\t")
    if len(parts) == 3 and parts[1].isdigit():
        name, pid, host = parts
        return f"{name} (pid {pid} on {host})"
    return "another program"


def holder(log_path: str | os.PathLike[str]) -> str | None:
    """Who holds the log at ``log_path`` now, in words (``rackclock serve (pid 1234 on
    host)``); None when nobody does. Only a look: the answer may change at once, so a
    writer takes the lock (:class:`WriterLock`) rather than asking."""
    try:
        fd = os.open(lock_path(log_path), os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _who(os.pread(fd, 512, 0).decode("utf-8", "replace").strip())
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


class WriterLock:
    """The lock on one log, held until :meth:`release` (or the process ends).

    ``advice`` ends the refusal's one line: what the refused writer can do instead.

    Raises:
        LogHeld: Another writer (another process, or another lock of this one) holds it.
        LogError: The lock file cannot be made (a read-only folder...).
    """

    def __init__(
        self,
        log_path: str | os.PathLike[str],
        name: str,
        advice: str = "one writer per log: stop it first",
    ) -> None:
        path = lock_path(log_path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except FileNotFoundError:
            folder = str(path.parent)
            raise LogError(
                f"cannot create {str(log_path)!r}: the folder {folder!r} does not exist"
            ) from None
        except OSError as exc:
            raise LogError(f"cannot make the lock file {str(path)!r}: {exc.strerror}") from None
        for _ in range(_LOOKS):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                # most likely someone looking (holder()), for a moment
                time.sleep(0.005)
        else:
            # Named only now: the name may be a dead holder's (kill -9 leaves it).
            text = os.pread(fd, 512, 0).decode("utf-8", "replace").strip()
            os.close(fd)
            who = _who(text) if text else "another program"
            raise LogHeld(Path(log_path).name, who, advice)
        # Only the holder writes the file, so a reader sees the holder's name or nothing.
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{name}\t{os.getpid()}\t{socket.gethostname()}\n".encode(), 0)
        self._fd: int | None = fd

    def release(self) -> None:
        """Let the next writer in (idempotent). The file stays, emptied."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.ftruncate(fd, 0)
            os.close(fd)  # closing the one descriptor of this description drops the lock

    def __enter__(self) -> WriterLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
