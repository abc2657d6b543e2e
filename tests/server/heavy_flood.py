"""Heavy requests from many addresses, from a process of its own (so that the server's
process bears only the server's side of them), for tests/server/test_heavy_requests.py;
prints the replies it got by type (an error by its code), as JSON.

    python -m tests.server.heavy_flood URL KIND CLIENTS SECONDS TABLE

KIND is ``stats`` (each client from an address of its own, 127.0.0.2 on, asks for the
newest 5,000 hands of six players, a new ``since`` each time so that no answer is kept:
the hands are listed and counted each time),
``export`` (each from an address of its own, watching TABLE, exports its day's hands) or
``chat`` (guests all from 127.0.0.2 watching TABLE, each saying a line whenever its own
rate lets it, and reading everything the table sends).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import json
import os
import socket
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PLAYERS = [f"r{i}" for i in range(6)]


async def opened(url: str, address: str) -> ClientConnection:
    where = urlsplit(url)
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect((where.hostname or "127.0.0.1", where.port or 80))
    sock.setblocking(False)
    return await connect(url, sock=sock, max_size=None, max_queue=None)


@dataclass(frozen=True)
class Flood:
    url: str
    kind: str
    table: str
    stop: float  # time.monotonic() when to stop


async def client(flood: Flood, n: int, replies: Counter[str]) -> None:
    url, kind, stop = flood.url, flood.kind, flood.stop
    address = "127.0.0.2" if kind == "chat" else f"127.0.0.{2 + n}"
    ws = await opened(url, address)
    asked = itertools.count()
    pending: dict[str, asyncio.Future[dict[str, object]]] = {}

    async def read() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                message = json.loads(raw)
                future = pending.pop(str(message.get("re")), None)
                if future is not None:
                    future.set_result(message)

    async def ask(**message: object) -> dict[str, object]:
        """The reply, or a timeout at the flood's end: then the client leaves (and the
        server drops what it was working on for it)."""
        ident = f"q{next(asked)}"
        pending[ident] = asyncio.get_running_loop().create_future()
        await ws.send(json.dumps({**message, "id": ident}))
        return await asyncio.wait_for(pending[ident], max(0.0, stop - time.monotonic()))

    reader = asyncio.create_task(read())
    try:  # a reply still due at the flood's end is its last
        await flooding(ask, flood, n, asked, replies)
    except TimeoutError:
        replies["unanswered"] += 1
    finally:
        await ws.close()
        reader.cancel()


async def flooding(
    ask: Callable[..., Awaitable[dict[str, object]]], flood: Flood, n: int,
    asked: Iterator[int], replies: Counter[str],
) -> None:  # fmt: skip
    """One client's requests until the flood's end, each counted by its reply."""
    kind, table, stop = flood.kind, flood.table, flood.stop
    if kind != "stats":
        await ask(type="hello", name=f"heavy{n}")
        await ask(type="spectate", table=table)
    while time.monotonic() < stop:
        if kind == "stats":
            since = dt.datetime(2000, 1, 1, tzinfo=dt.UTC) + dt.timedelta(
                microseconds=next(asked) * 100 + n
            )
            reply = await ask(type="stats", players=PLAYERS, last=5000,
                              since=since.isoformat())  # fmt: skip
        elif kind == "export":
            reply = await ask(type="export", table=table, format="pokerstars")
        else:
            reply = await ask(type="chat", table=table, text=f"line {next(asked)} from {n}")
        replies[str(reply.get("code", reply["type"]))] += 1
        if reply["type"] == "error" or kind == "chat":  # refused: wait as told
            await asyncio.sleep(2.0 if kind == "chat" else 0.5)


async def nothing(store: object) -> None:
    """A job for the records worker that does nothing: awaited, the worker has finished
    the job it was on (those queued behind it went with their clients)."""


async def main(url: str, kind: str, clients: int, seconds: float, table: str) -> None:
    replies: Counter[str] = Counter()
    flood = Flood(url, kind, table, time.monotonic() + seconds)
    await asyncio.gather(*(client(flood, n, replies) for n in range(clients)))
    print(json.dumps({"replies": replies}))


if __name__ == "__main__":
    # The flood's clients stand for people on other machines: their own reading of the
    # replies is not the server's load, so it waits for the server on this one.
    os.nice(10)
    url, kind, clients, seconds, table = sys.argv[1:6]
    asyncio.run(main(url, kind, int(clients), float(seconds), table))
