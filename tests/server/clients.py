"""Websocket clients for the server's end-to-end tests: send, wait for a reply, sit."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect


async def send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps(message))


async def until(ws: ClientConnection, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of ``kind`` (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return message  # type: ignore[no-any-return]


SESSIONS: dict[str, str] = {}  # guest name -> the session token its welcome gave


async def seated(address: str, name: str, seat: int) -> ClientConnection:
    ws = await connect(f"ws://{address}/ws")
    await send(ws, type="hello", name=name)
    SESSIONS[name] = (await until(ws, "welcome"))["session"]
    await send(ws, type="sit", table="demo", seat=seat, buy_in=10_000, wait_for_big_blind=False)
    await until(ws, "seated")
    return ws
