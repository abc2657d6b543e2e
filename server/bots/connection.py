"""The bot SDK client's bottom layer: one websocket to the server at a time, opened again
with backoff when it fails, its JSON messages read in order, what is sent paced under the
server's rate limit, and the tasks started meanwhile owned and cancelled at the end.

:class:`ReconnectingClient` knows nothing of poker: the layer above
(:class:`server.bots.conversation.TableConversation`) says hello on each connection,
handles each message and says what to send next (:meth:`ReconnectingClient._reconcile`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from abc import ABC, abstractmethod
from collections.abc import Coroutine
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from server.bots.errors import BotClientError
from server.bots.pacing import SendPacer

__all__ = ["ReconnectingClient"]

log = logging.getLogger("pokerroom.bot")


class ReconnectingClient(ABC):
    """Talks to the server at ``url`` until done, reconnecting after a failure: up to
    ``max_retries`` failed connections in a row (``None``: never give up), waiting from
    ``backoff[0]`` seconds, doubling, up to ``backoff[1]``. ``player`` names us in the log.

    A run finishes for a reason (:meth:`_finish_when_done`; the first given stands): the
    layer above then sends what ends its business and sets ``_done`` (:meth:`_end`).
    """

    SEND_RATE: float = 15.0
    SEND_BURST: int = 40

    def __init__(
        self, url: str, *, player: str | None, max_retries: int | None,
        backoff: tuple[float, float],
    ) -> None:  # fmt: skip
        self.url = url
        self.player = player
        self.max_retries = max_retries
        self.backoff = backoff
        self.reconnects = 0
        self._connected = False  # ever: until then, a few failures are enough to give up
        self._failures = 0
        self._moved = False  # sent to the server process hosting our table: go there now
        self._ws: ClientConnection | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._pacer = SendPacer(self.SEND_RATE, self.SEND_BURST)
        self._finish: str | None = None
        self._done = False
        self._stops = 0
        self._reset_connection()  # every layer's per-connection state

    def _reset_connection(self) -> None:
        """A new connection starts: layers above extend this (calling it) to forget what
        belonged to the last one."""
        self._pacer.reset(self.SEND_RATE, self.SEND_BURST)

    # -- what the layer above does ----------------------------------------------------------

    @abstractmethod
    async def _hello(self) -> None:
        """The first message on each connection."""

    @abstractmethod
    async def _on_message(self, m: dict[str, Any]) -> None:
        """Handle one message from the server."""

    @abstractmethod
    async def _reconcile(self) -> None:
        """Send whatever moves us towards where we want to be; called after each message."""

    def _awaiting_replies(self) -> bool:
        """Whether, once done, replies are still due (they are waited for a moment)."""
        return False

    # -- running ----------------------------------------------------------------------------

    async def _keep_connected(self) -> None:
        """Connect and converse until done, connecting again after each failure;
        :class:`BotClientError` if the server refuses us or stays unreachable."""
        try:
            while not self._done:
                problem = await self._connect_once()
                if self._done:
                    break
                if self._stops:  # stopped while the connection was down: nothing to leave
                    self._end("stopped")
                    break
                if self._moved:  # not a failure: connect to the table's process at once
                    self._moved = False
                    continue
                await self._back_off(problem)
                self.reconnects += 1
        finally:
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _back_off(self, problem: str) -> None:
        """One more failed connection: give up after too many, else wait (a stop wakes us)."""
        self._failures += 1
        if self.max_retries is not None and self._failures > self.max_retries:
            raise BotClientError(f"gave up after {self._failures} failed connections: {problem}")
        if self.max_retries is not None and not self._connected and self._failures >= 3:
            # Never reached: most likely a wrong address, not a server restarting.
            raise BotClientError(problem)
        first, longest = self.backoff
        delay = min(longest, first * 2 ** (self._failures - 1))
        delay *= random.uniform(0.8, 1.2)
        log.warning("%s: %s; reconnecting in %.1fs", self.player, problem, delay)
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), delay)

    def _accepted(self) -> None:
        """The server has accepted us: failed connections are counted afresh."""
        self._failures = 0

    async def _move_to(self, url: str) -> None:
        """Close this connection and connect to ``url`` at once (not a failure)."""
        self.url, self._moved = url, True
        if self._ws is not None:
            await self._ws.close()

    async def _connect_once(self) -> str:
        """One connection, start to end; returns what ended it when that was not us."""
        self._reset_connection()
        try:
            async with connect(self.url, open_timeout=10, max_size=2**22) as ws:
                self._ws = ws
                self._connected = True
                try:
                    await self._converse(ws)
                finally:
                    self._ws = None
                if self._done:
                    return "done"
                return f"the server closed the connection ({ws.close_code} {ws.close_reason})"
        except InvalidURI as exc:
            raise BotClientError(f"bad server URL: {exc}") from exc
        except InvalidStatus as exc:
            if 400 <= exc.response.status_code < 500:
                raise BotClientError(f"{self.url}: {exc}") from exc
            return str(exc)
        except ConnectionClosed as exc:
            return f"the connection dropped ({exc})"
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            return f"cannot connect to {self.url}: {exc or type(exc).__name__}"

    async def _converse(self, ws: ClientConnection) -> None:
        await self._hello()
        async for raw in ws:
            try:
                message = json.loads(raw)
            except ValueError:
                log.warning("%s: the server sent something that is not JSON", self.player)
                continue
            if not isinstance(message, dict):
                continue
            if log.isEnabledFor(logging.DEBUG):  # the session token is a secret: not logged
                shown = {**message, "session": "…"} if "session" in message else message
                log.debug("%s <- %s", self.player, json.dumps(shown))
            await self._on_message(message)
            if not self._done:
                await self._reconcile()
            if self._done:
                break
        if self._done and self._awaiting_replies():
            # Every act gets an ack or an error; wait a moment for the last ones.
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                async with asyncio.timeout(5):
                    while self._awaiting_replies():
                        await self._on_message(json.loads(await ws.recv()))

    async def _send(self, message: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None:
            return
        await self._pacer.wait()
        if self._ws is ws:
            await ws.send(json.dumps(message))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` beside the reading loop, until it ends or the run does."""

        async def guarded() -> None:
            with contextlib.suppress(ConnectionClosed):
                await coro

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- finishing --------------------------------------------------------------------------

    def stop(self) -> None:
        """Finish (the layer above leaves the table at the end of the current hand), then
        return from the run. A second call closes the connection at once. Safe to call
        from a signal handler on the loop."""
        self._stops += 1
        self._wake.set()
        if self._finish is None:
            self._finish = "stopped"
        if self._stops > 1 or self._ws is None:
            self._done = True
            if self._finish == "stopped" and self._stops > 1:
                self._finish = "closed"
            if self._ws is not None:
                self._spawn(self._ws.close())
            return
        self._spawn(self._reconcile())

    def _end(self, reason: str) -> None:
        """Done now (``reason``, unless another came first)."""
        self._finish_when_done(reason)
        self._done = True

    def _finish_when_done(self, reason: str) -> None:
        """Finish (leave the table, then return) for ``reason``; the first reason stands."""
        if self._finish is None:
            self._finish = reason
