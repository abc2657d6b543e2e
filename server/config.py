"""Where things live: the database URL and other settings read from the environment.

The database is, in order: the ``--db`` option, the ``POKERROOM_DB`` environment
variable, then an SQLite file ``pokerroom.db`` in the working directory. Plain
``postgresql://`` and ``sqlite:///`` URLs get their async drivers (asyncpg, aiosqlite).

The event bus is the ``--bus`` option, else ``POKERROOM_BUS``, else ``local`` (in the
process); ``mqtt://host:port`` publishes to an MQTT broker, under the topic root
``--mqtt-prefix``, else ``POKERROOM_MQTT_PREFIX``, else ``pokerroom/v1``.

``pokerroom serve`` also reads a TOML file (``--config``, else ``POKERROOM_CONFIG``):
its ``[serve]`` table sets any of the server's options by name. A command-line option
wins over the environment, which wins over the file (docs/operations.md).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

DEFAULT_DB = "sqlite+aiosqlite:///pokerroom.db"
DB_ENV = "POKERROOM_DB"
DEFAULT_BUS = "local"
BUS_ENV = "POKERROOM_BUS"
ADVERTISE_ENV = "POKERROOM_ADVERTISE"
"""The websocket URL clients reach a server at (``pokerroom serve --advertise``)."""
MQTT_PREFIX_ENV = "POKERROOM_MQTT_PREFIX"
"""The root of the server's MQTT topics (``pokerroom serve --mqtt-prefix``)."""
CONFIG_ENV = "POKERROOM_CONFIG"
"""A TOML file of ``pokerroom serve``'s options (``--config``)."""


def database_url(option: str | None = None) -> str:
    """The database URL to use, with an async driver; :class:`ConfigError` for an SQLite
    file in a folder that does not exist (said plainly, before any driver tries it)."""
    url = option or os.environ.get(DB_ENV) or DEFAULT_DB
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            url = driver + url[len(plain) :]
    path = url.removeprefix("sqlite+aiosqlite:///").split("?", 1)[0]
    if url.startswith("sqlite+aiosqlite:///") and path and path != ":memory:":
        folder = Path(path).parent
        if not folder.is_dir():
            raise ConfigError(f"database: no folder {folder} for the SQLite file {path}")
    return url


def bus_url(option: str | None = None) -> str:
    """The event bus to use: ``local`` or ``mqtt://host:port``."""
    return option or os.environ.get(BUS_ENV) or DEFAULT_BUS


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


def read_config(path: str | None, table: str, keys: dict[str, tuple[type, ...]]) -> dict[str, Any]:
    """The ``[table]`` of the TOML file at ``path`` (nothing for no path), each key one of
    ``keys`` with a value of one of its types; :class:`ConfigError` otherwise."""
    if path is None:
        return {}
    try:
        with Path(path).open("rb") as file:
            document = tomllib.load(file)
    except OSError as exc:
        raise ConfigError(f"config file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path}: not TOML: {exc}") from None
    unknown_tables = set(document) - {table}
    if unknown_tables:
        raise ConfigError(f"config file {path}: unknown table [{min(unknown_tables)}]")
    found = document.get(table, {})
    if not isinstance(found, dict):
        raise ConfigError(f"config file {path}: {table} must be a table ([{table}])")
    for key, value in found.items():
        if key not in keys:
            raise ConfigError(f"config file {path}: [{table}] has no option {key!r}")
        wanted = keys[key]
        # TOML's booleans are no numbers here, though Python's bool is an int.
        if not isinstance(value, wanted) or (isinstance(value, bool) and bool not in wanted):
            names = " or ".join(t.__name__ for t in wanted)
            raise ConfigError(f"config file {path}: [{table}] {key} must be {names}, got {value!r}")
    return dict(found)
