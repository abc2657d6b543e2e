"""Clients for the server's tests: websocket clients end to end (send, wait for a reply,
sit), and :class:`Inbox`, a session talking to a table runner directly."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as websockets_connect

from server import protocol
from server.tables import Caller, Player, TableRunner


def connect(uri: str, **options: Any) -> websockets_connect:
    """websockets' ``connect``, its client reading every frame as it comes
    (``max_queue=None``). A test's client often stops reading while a table plays on; with
    the default flow control (16 frames) it would stop reading the socket too, and its
    ``close()`` would then wait ``close_timeout`` (10 s) for the server's close frame,
    queued behind frames it never reads. Not for a test of a client that reads slowly."""
    return websockets_connect(uri, **{"max_queue": None, **options})


async def send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps(message))


async def until(ws: ClientConnection, *kinds: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of one of ``kinds`` (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] in kinds:
                return message  # type: ignore[no-any-return]


SESSIONS: dict[str, str] = {}  # guest name -> the session token its welcome gave


async def seated(address: str, name: str, seat: int) -> ClientConnection:
    ws = await connect(f"ws://{address}/ws")
    await send(ws, type="hello", name=name)
    SESSIONS[name] = (await until(ws, "welcome"))["session"]
    await send(ws, type="sit", table="demo", seat=seat, buy_in=10_000, wait_for_big_blind=False)
    await until(ws, "seated")
    return ws


class Inbox:
    """A session as a table sees it (a :class:`server.hosting.tables.Subscriber`), talking to a
    :class:`TableRunner` directly, with no server: it keeps every message sent to it."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send_table(self, table_id: str, hand_number: int, texts: Sequence[str]) -> None:
        self.messages += [json.loads(text) for text in texts]

    def send(self, text: str, *, urgent: bool = False) -> None:
        self.messages.append(json.loads(text))

    def hand_ended(self, table_id: str, hand_number: int) -> None:
        pass

    def stop_delay(self, table_id: str) -> None:
        pass

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The bodies of the events of type ``kind`` received so far."""
        events = [m["event"] for m in self.messages if m["type"] == "event"]
        return [event for event in events if event["type"] == kind]

    async def until(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The first message of type ``kind``, once there is one."""
        async with asyncio.timeout(timeout):
            while not any(m["type"] == kind for m in self.messages):
                await asyncio.sleep(0.01)
        return next(m for m in self.messages if m["type"] == kind)


@contextlib.asynccontextmanager
async def running(runner: TableRunner) -> AsyncIterator[TableRunner]:
    """``runner``'s task, running for the block, then closed and awaited."""
    task = asyncio.create_task(runner.run())
    try:
        yield runner
    finally:
        runner.close()
        await task


async def sit(
    runner: TableRunner, session: Inbox, player: Player, seat: int | None, buy_in: int = 100
) -> dict[str, Any]:
    """Sit ``player`` at ``runner``'s table, not waiting for the big blind."""
    m = protocol.Sit(type="sit", table=runner.settings.table_id, seat=seat, buy_in=buy_in,
                     wait_for_big_blind=False)  # fmt: skip
    return await runner.submit(m, Caller(session, player))


async def spectate(runner: TableRunner, session: Inbox) -> dict[str, Any]:
    m = protocol.Spectate(type="spectate", table=runner.settings.table_id)
    return await runner.submit(m, Caller(session))
