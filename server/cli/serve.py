"""``pokerroom serve``: run the websocket server (and, with ``--demo``, a table of house
bots with one free seat)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import os
import re
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from engine import TableConfig
from server.app import PokerServer, ServerSettings
from server.bus import check_bus, open_bus
from server.cli.common import Parser, UsageError, add_command
from server.config import ADVERTISE_ENV, bus_url, database_url
from server.store import Store

DEMO_BOTS = {
    0: "tight-aggressive",
    1: "calling-station",
    2: "tight-aggressive",
    3: "random",
    4: "tight-aggressive",
}


async def serve(args: argparse.Namespace) -> None:
    settings = ServerSettings(
        host=args.host, port=args.port,
        messages_per_second=args.messages_per_second, burst=args.burst,
        advertise=args.advertise, lease_seconds=args.lease_seconds,
    )  # fmt: skip
    async with open_bus(args.bus) as bus, Store.open(database_url(args.db)) as store:
        app = PokerServer(store, settings, bus=bus)
        async with app.running() as server:
            if args.demo:
                runner = await app.create_table(
                    "Demo", TableConfig(small_blind=50, big_blind=100, seats=6)
                )
                bots = {seat: (f"house-{seat + 1}", kind) for seat, kind in DEMO_BOTS.items()}
                await app.add_house_bots(runner, bots, stack=10_000)
            port = next(iter(server.sockets)).getsockname()[1]
            print(f"pokerroom is serving: open http://{args.host}:{port}/ in a browser", flush=True)
            print(f"bots and other clients: {app.address}", flush=True)
            print(f"health check: http://{args.host}:{port}/healthz", flush=True)
            if args.demo:
                table = runner.settings.table_id
                print(f"demo table {table!r}: five house bots and one free seat", flush=True)
            stop = asyncio.Event()  # set by SIGINT or SIGTERM, however many arrive
            for sig in (signal.SIGINT, signal.SIGTERM):
                asyncio.get_running_loop().add_signal_handler(sig, stop.set)
            await stop.wait()
            print("pokerroom is shutting down", file=sys.stderr, flush=True)


def cmd_serve(args: argparse.Namespace) -> int:
    args.bus = bus_url(args.bus)
    args.advertise = args.advertise or os.environ.get(ADVERTISE_ENV) or None
    try:
        check_bus(args.bus)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.advertise is not None and not re.fullmatch(r"wss?://[^\s/]+(/\S*)?", args.advertise):
        raise UsageError(f"--advertise {args.advertise!r}: give a ws:// or wss:// URL")
    if not args.lease_seconds > 0:
        raise UsageError(f"--lease-seconds {args.lease_seconds:g}: give a positive number")
    run: Callable[[Coroutine[Any, Any, None]], None] = asyncio.run
    if args.loop != "asyncio" and importlib.util.find_spec("uvloop"):
        run = importlib.import_module("uvloop").run  # ~10 % less CPU a hand (bench/server.py)
    elif args.loop == "uvloop":
        raise UsageError("uvloop is not installed (it does not exist on Windows)")
    run(serve(args))
    return 0


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = add_command(sub, "serve", cmd_serve, "run the poker server", json_output=False)
    defaults = ServerSettings()
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks one)")
    p.add_argument("--db", help="database URL (default: $POKERROOM_DB, then sqlite pokerroom.db)")
    p.add_argument("--demo", action="store_true", help="add a demo table of house bots")
    p.add_argument(
        "--bus", help="where table events go: local (the default, or $POKERROOM_BUS) or "
        "mqtt://host:port (docs/protocol.md, Events on MQTT)",
    )  # fmt: skip
    p.add_argument(
        "--advertise", metavar="URL",
        help="the websocket URL clients reach this server at, given to players of its tables "
        "when several servers share a database (default: $POKERROOM_ADVERTISE, then "
        "ws://HOST:PORT/ws)",
    )  # fmt: skip
    p.add_argument(
        "--lease-seconds", type=float, default=defaults.lease_seconds,
        help=f"how long a table's lease lasts unless renewed: another server takes over the "
        f"tables of one that stops renewing after this long (default {defaults.lease_seconds:g})",
    )  # fmt: skip
    p.add_argument(
        "--loop", choices=["auto", "uvloop", "asyncio"], default="auto",
        help="event loop: uvloop where installed (the default, auto), or asyncio's own",
    )  # fmt: skip
    p.add_argument(
        "--messages-per-second", type=float, default=defaults.messages_per_second,
        help=f"messages a connection may send a second on average (default "
        f"{defaults.messages_per_second:g}; raise it for bots playing many fast tables)",
    )  # fmt: skip
    p.add_argument(
        "--burst", type=int, default=defaults.burst,
        help=f"messages a connection may send at once (default {defaults.burst})",
    )  # fmt: skip
