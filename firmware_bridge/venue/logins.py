"""The venue's logins: who may connect to the broker ``rackclock venue`` runs, and
what each may do there.

On its first start a venue makes a password for each role and keeps them in its
data folder (``logins.json``, readable by its owner only); each later start reads
them back and adds the tables asked for that it has not seen. From them it writes
what Mosquitto reads: the password file (``passwd``, hashed the way
``mosquitto_passwd`` hashes: PBKDF2-SHA512, so no other program is needed) and the
ACL (``acl``, :func:`acl_text`).

The roles (docs/mqtt.md, "Security"):

- ``director``: sends director commands and assignments, reads everything;
- ``hub``: the venue's own archive: reads everything, sends only director commands
  (it fetches a finished game's log with ``get_log``);
- ``viewer``: the venue page and any spectator screen: reads the public topics;
- ``t1``, ``t2``, ...: one login per table, for its table terminal and its clock,
  confined to its own table's topics (in any venue: one managed broker serves one
  room).

A client id belongs to its login: a client logged in as ``t1`` must use an id that
begins with ``t1-`` (every rackclock program does: its
:class:`~firmware_bridge.mqtt.connection.MqttSession` puts the login in front), and
the broker refuses any other (``rackclock venue`` has it load the plugin that checks
it, :attr:`~firmware_bridge.venue.broker.BrokerConfig.id_plugin`, when it is built).
No login name here is another's followed by ``-``.

>>> print(acl_text(["t1"]).split("user t1")[1].strip().splitlines()[0])
topic write rackclock/v1/+/t1/clock/commands
>>> verify_hash("s3cret", password_hash("s3cret"))
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from firmware_bridge.mqtt.topics import PREFIX, table_order

__all__ = [
    "HASH_ITERATIONS",
    "ROLES",
    "LoginsError",
    "VenueLogins",
    "acl_text",
    "password_hash",
    "table_names",
    "verify_hash",
]

ROLES = ("director", "hub", "viewer")
"""The logins that are not a table's."""
HASH_ITERATIONS = 101
"""PBKDF2 rounds, as ``mosquitto_passwd`` 2.x writes them (``$7$101$...``)."""
_TABLE = re.compile(r"t[1-9][0-9]{0,3}")
_PUBLIC = ("events", "live", "state", "status", "assignment")
"""What every login may read (docs/mqtt.md: the round's pairings and every table's
game are public)."""


class LoginsError(ValueError):
    """The venue's logins file cannot be read or written (the path and why)."""


class _Stored(msgspec.Struct, frozen=True, kw_only=True):
    """``logins.json``: login name -> password."""

    passwords: dict[str, str]


def table_names(count: int) -> list[str]:
    """The table logins of a venue of ``count`` tables: ``t1`` ... ``t<count>``."""
    return [f"t{n}" for n in range(1, count + 1)]


def password_hash(password: str, *, salt: bytes | None = None) -> str:
    """``password`` hashed for Mosquitto's ``password_file`` (``$7$`` format)."""
    salt = secrets.token_bytes(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, HASH_ITERATIONS)
    b64 = base64.b64encode
    return f"$7${HASH_ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def verify_hash(password: str, hashed: str) -> bool:
    """Whether ``hashed`` (``$7$...``) is ``password``'s hash."""
    _, kind, rounds, salt, digest = hashed.split("$")
    if kind != "7":
        return False
    mine = hashlib.pbkdf2_hmac("sha512", password.encode(), base64.b64decode(salt), int(rounds))
    return hmac.compare_digest(mine, base64.b64decode(digest))


def acl_text(tables: Iterable[str]) -> str:
    """The ACL of a venue with these table logins (anything not granted is denied)."""
    lines = [
        "# rackclock venue: access control (written by rackclock venue; see docs/mqtt.md).",
        "# Anything not granted here is denied.",
        "",
        "# Every login may read every table's public topics.",
        *(f"pattern read {PREFIX}/+/+/{topic}" for topic in _PUBLIC),
        "",
        "# The director: director commands and assignments; reads everything.",
        "user director",
        f"topic write {PREFIX}/+/+/director/commands",
        f"topic write {PREFIX}/+/+/assignment",
        f"topic read {PREFIX}/#",
        "",
        "# The venue's archive: fetches finished games' logs (get_log); reads everything.",
        "user hub",
        f"topic write {PREFIX}/+/+/director/commands",
        f"topic read {PREFIX}/#",
        "",
        "# The venue page and spectator screens: the public topics above, nothing else.",
        "user viewer",
    ]
    for table in tables:
        base = f"{PREFIX}/+/{table}"
        lines += [
            "",
            f"# Table {table}: its table terminal and its clock, on its own topics only.",
            f"user {table}",
            *(
                f"topic write {base}/{topic}"
                for topic in (
                    "clock/commands",
                    "clock/events",
                    "clock/status",
                    "events",
                    "live",
                    "state",
                    "status",
                    "director/replies/#",
                )
            ),
            f"topic read {base}/clock/#",
            f"topic read {base}/director/commands",
        ]
    return "\n".join(lines) + "\n"


@dataclass
class VenueLogins:
    """The venue's logins, kept in ``folder``."""

    folder: Path
    """Where ``logins.json``, ``passwd`` and ``acl`` are."""
    passwords: dict[str, str] = field(default_factory=dict)
    """Login name -> password."""
    created: list[str] = field(default_factory=list)
    """The logins this start made (printed once, with their passwords)."""

    @property
    def path(self) -> Path:
        """The logins and their passwords (mode 600)."""
        return self.folder / "logins.json"

    @property
    def password_file(self) -> Path:
        """Mosquitto's ``password_file``: the logins, hashed."""
        return self.folder / "passwd"

    @property
    def acl_file(self) -> Path:
        """Mosquitto's ``acl_file``."""
        return self.folder / "acl"

    @property
    def tables(self) -> list[str]:
        """The tables' logins, in table order."""
        return sorted((n for n in self.passwords if _TABLE.fullmatch(n)), key=table_order)

    @classmethod
    def ensure(cls, folder: Path, tables: int) -> VenueLogins:
        """Read the logins kept in ``folder``, make those missing (every role, and tables
        ``t1`` ... ``t<tables>``), and write the files Mosquitto reads.

        Raises:
            LoginsError: ``logins.json`` does not read, or a file cannot be written.
        """
        logins = cls(folder)
        try:
            if logins.path.exists():
                stored = msgspec.json.decode(logins.path.read_bytes(), type=_Stored)
                logins.passwords = dict(stored.passwords)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise LoginsError(f"cannot read the venue's logins {logins.path}: {exc}") from exc
        for name in (*ROLES, *table_names(tables)):
            if name not in logins.passwords:
                logins.passwords[name] = secrets.token_urlsafe(12)
                logins.created.append(name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
            if logins.created or not logins.password_file.exists():
                _private(logins.path, msgspec.json.format(msgspec.json.encode(
                    _Stored(passwords=logins.passwords)
                )))  # fmt: skip
            hashed = "".join(f"{n}:{password_hash(p)}\n" for n, p in logins.passwords.items())
            _private(logins.password_file, hashed.encode())
            _private(logins.acl_file, acl_text(logins.tables).encode())
        except OSError as exc:
            raise LoginsError(f"cannot write the venue's logins in {folder}: {exc}") from exc
        return logins


def _private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, readable by its owner only (and by no one meanwhile)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
