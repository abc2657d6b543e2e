"""``pokerroom serve``: run the websocket server (and, with ``--demo``, a table of house
bots with one free seat)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import importlib.util
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from server.app import PokerServer, ServerSettings
from server.bus import DEFAULT_PREFIX, check_bus, open_bus
from server.cli.common import Parser, UsageError, add_command
from server.config import (
    ADVERTISE_ENV,
    BUS_ENV,
    CONFIG_ENV,
    DB_ENV,
    DEFAULT_BUS,
    MQTT_PREFIX_ENV,
    ConfigError,
    database_url,
    read_config,
)
from server.store import Store


async def serve(args: argparse.Namespace, settings: ServerSettings) -> None:
    # Set by SIGINT or SIGTERM, however many arrive, from the start: one that comes while
    # the server is starting stops it as soon as it has started, never half-way.
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    async with Store.open(database_url(args.db)) as store:
        deployment = await store.deployment()
        async with open_bus(args.bus, deployment=deployment, prefix=args.mqtt_prefix) as bus:
            app = PokerServer(store, settings, bus=bus)
            async with app.running() as server:
                port = next(iter(server.sockets)).getsockname()[1]
                host = settings.host
                print(f"pokerroom is serving: open http://{host}:{port}/ in a browser", flush=True)
                print(f"bots and other clients: {app.hosting.address}", flush=True)
                print(f"health check: http://{host}:{port}/healthz", flush=True)
                if app.api_address is not None:
                    print(f"Slumbot-style API: {app.api_address} (POST /api/new_hand, /api/act, "
                          f"/api/login; house bot {settings.api_bot})", flush=True)  # fmt: skip
                for table_id in app.hosting.demo_ids() if settings.demo else ():
                    runner = app.hosting.tables.get(table_id)
                    if runner is not None:
                        game = runner.settings.config.game.name
                        print(f"demo table {table_id!r}: {game}, house bots and one free seat",
                              flush=True)  # fmt: skip
                        continue
                    where = app.hosting.hosts.get(table_id, "another server")
                    print(
                        f"demo table {table_id!r}: hosted by {where}; this server takes it over "
                        "if that one stops", flush=True,
                    )  # fmt: skip
                await stop.wait()
                print("pokerroom is shutting down", file=sys.stderr, flush=True)


# What the command line, the environment and a config file's [serve] table may set (the
# server's own settings besides), and the variable that sets each from the environment.
_OPTIONS: dict[str, tuple[type, ...]] = {
    "db": (str,), "bus": (str,), "mqtt_prefix": (str,), "loop": (str,),
}  # fmt: skip
_ENVIRONMENT = {
    "db": DB_ENV, "bus": BUS_ENV, "mqtt_prefix": MQTT_PREFIX_ENV, "advertise": ADVERTISE_ENV,
}  # fmt: skip
_DEFAULTS: dict[str, Any] = {
    "db": None, "bus": DEFAULT_BUS, "mqtt_prefix": DEFAULT_PREFIX, "loop": "auto",
}  # fmt: skip


def _settings_keys() -> dict[str, tuple[type, ...]]:
    """Each field of :class:`ServerSettings` and the types its value may have."""
    kinds = {
        "str": (str,), "int": (int,), "float": (int, float), "bool": (bool,), "str | None": (str,),
        "int | None": (int,),
    }  # fmt: skip
    return {f.name: kinds[str(f.type)] for f in dataclasses.fields(ServerSettings)}


def resolve(args: argparse.Namespace) -> ServerSettings:
    """Fill every option the command line left unset from the environment, then from the
    config file, then the defaults; the server's settings."""
    keys = {**_OPTIONS, **_settings_keys()}
    try:
        file = read_config(args.config or os.environ.get(CONFIG_ENV), "serve", keys)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    defaults = {**{f.name: f.default for f in dataclasses.fields(ServerSettings)}, **_DEFAULTS}
    values: dict[str, Any] = {}
    for key in keys:
        value = getattr(args, key, None)
        if value is None and key in _ENVIRONMENT:
            value = os.environ.get(_ENVIRONMENT[key]) or None
        if value is None:
            value = file.get(key, defaults[key])
        values[key] = value
    for key in _OPTIONS:
        setattr(args, key, values.pop(key))
    try:
        return ServerSettings(**values)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_serve(args: argparse.Namespace) -> int:
    settings = resolve(args)
    try:
        check_bus(args.bus, args.mqtt_prefix)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.loop not in LOOPS:
        raise UsageError(f"loop {args.loop!r}: give one of {', '.join(LOOPS)}")
    run: Callable[[Coroutine[Any, Any, None]], None] = asyncio.run
    if args.loop != "asyncio" and importlib.util.find_spec("uvloop"):
        run = importlib.import_module("uvloop").run  # ~10 % less CPU a hand (bench/server.py)
    elif args.loop == "uvloop":
        raise UsageError("uvloop is not installed (it does not exist on Windows)")
    run(serve(args, settings))
    return 0


LOOPS = ("auto", "uvloop", "asyncio")


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = add_command(sub, "serve", cmd_serve, json_output=False)
    defaults = ServerSettings()
    p.add_argument(
        "--config", metavar="FILE",
        help="a TOML file whose [serve] table sets any of these options by name (default: "
        "$POKERROOM_CONFIG); the command line wins over the environment, which wins over it",
    )  # fmt: skip
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default 8765; 0 picks one)")
    p.add_argument("--db", help="database URL (default: $POKERROOM_DB, then sqlite pokerroom.db)")
    p.add_argument(
        "--demo", action="store_true", default=None,
        help="host the demo table of house bots (or take it back, after a restart)",
    )  # fmt: skip
    p.add_argument(
        "--demo-games", metavar="GAMES",
        help=f"with --demo: the demo tables' games, comma-separated (default "
        f"{defaults.demo_games}): 'demo' plays the first, 'demo-GAME' each other; a game is a "
        "preset key (nlhe, plo, plo8, stud, razz, 27td, badugi, kuhn, leduc, dice, ...)",
    )  # fmt: skip
    p.add_argument(
        "--bus", help="where table events go: local (the default, or $POKERROOM_BUS) or "
        "mqtt://host:port (docs/protocol.md, Events on MQTT)",
    )  # fmt: skip
    p.add_argument(
        "--mqtt-prefix", metavar="ROOT",
        help=f"the root of every MQTT topic (default: $POKERROOM_MQTT_PREFIX, then "
        f"{DEFAULT_PREFIX}): deployments sharing a broker each take their own",
    )  # fmt: skip
    p.add_argument(
        "--advertise", metavar="URL",
        help="the websocket URL clients reach this server at, given to players of its tables "
        "when several servers share a database (default: $POKERROOM_ADVERTISE, then "
        "ws://HOST:PORT/ws)",
    )  # fmt: skip
    p.add_argument(
        "--lease-seconds", type=float,
        help=f"how long a table's lease lasts unless renewed: another server takes over the "
        f"tables of one that stops renewing after this long (default {defaults.lease_seconds:g})",
    )  # fmt: skip
    p.add_argument(
        "--loop", choices=LOOPS,
        help="event loop: uvloop where installed (the default, auto), or asyncio's own",
    )  # fmt: skip
    p.add_argument(
        "--messages-per-second", type=float,
        help=f"messages a connection may send a second on average (default "
        f"{defaults.messages_per_second:g}; raise it for bots playing many fast tables)",
    )  # fmt: skip
    p.add_argument(
        "--burst", type=int,
        help=f"messages a connection may send at once (default {defaults.burst})",
    )  # fmt: skip
    _add_api_options(p, defaults)


def _add_api_options(p: argparse.ArgumentParser, defaults: ServerSettings) -> None:
    """The Slumbot-style HTTP API's options (docs/bots.md)."""
    p.add_argument(
        "--api-port", type=int,
        help="the Slumbot-style HTTP API's port (default: the websocket's port + 1; 0 picks "
        "one, as does --port 0)",
    )  # fmt: skip
    p.add_argument(
        "--no-api", dest="api", action="store_false", default=None,
        help="do not serve the Slumbot-style HTTP API",
    )  # fmt: skip
    p.add_argument(
        "--api-bot", metavar="NAME",
        help=f"the house bot API clients play unless new_hand names one (default "
        f"{defaults.api_bot}; also random, calling-station)",
    )  # fmt: skip
    p.add_argument(
        "--api-sessions", type=int,
        help=f"API sessions alive at once (default {defaults.api_sessions})",
    )  # fmt: skip
    p.add_argument(
        "--api-idle-seconds", type=float,
        help=f"an API session unused this long ends (default {defaults.api_idle_seconds:g})",
    )  # fmt: skip
