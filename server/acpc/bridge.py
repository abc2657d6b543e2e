"""The ACPC bot's side of the gateway: its TCP connection (:class:`BotLink`) and the
:class:`Bridge` that sends it the seat's ``MATCHSTATE`` lines and turns its replies into
our actions (:mod:`server.acpc.seat` translates).

The bot is sent a line after every event that makes one; it answers the lines that are
its to answer, whenever it likes: a reply is kept until our table asks the seat to act
(``action_request``), then played. A reply to any other line is ignored with a warning,
as the dealer ignores one; so is a reply that comes after our table's clock acted for
the seat (the table has moved on). ``strict``: a reply that needs fixing, or answers
another line, ends the connection instead, the bot told why on a ``#`` comment line.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import Callable
from typing import IO, Any, Final

from engine import Action as EngineAction
from engine import ActionMenu, CheckOrCall, Fold
from server.acpc.gamedefs import GatewayError
from server.acpc.seat import SeatTranslator, StrictRefusal

__all__ = ["BotLink", "Bridge", "accept_bot"]

VERSION: Final = (2, 0, 0)
_VERSION_LINE = re.compile(r"VERSION:(\d+)\.(\d+)\.(\d+)")


class BotLink:
    """One ACPC bot's connection: lines out ending ``\\r\\n``, lines in (LF or CRLF)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.closed = False

    async def send(self, line: str) -> None:
        if self.closed:
            return
        try:
            self.writer.write(line.encode() + b"\r\n")
            await self.writer.drain()
        except ConnectionError:
            self.closed = True

    async def readline(self) -> str | None:
        """A line without its ending, or None when the bot has gone."""
        try:
            data = await self.reader.readline()
        except (ConnectionError, asyncio.LimitOverrunError, ValueError):
            data = b""
        if not data.endswith(b"\n"):
            self.closed = True
            return None
        return data.decode("utf-8", "replace").rstrip("\r\n")

    async def close(self, reason: str | None = None) -> None:
        """Hang up, first telling the bot ``reason`` on a comment line (which bots skip)."""
        if reason is not None:
            await self.send(f"# disconnected: {reason}")
        self.closed = True
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


async def accept_bot(
    host: str,
    port: int,
    out: IO[str],
    err: IO[str],
    on_port: Callable[[int], None] | None = None,
) -> BotLink:
    """Listen on ``host:port`` (0: any free port), print the port as the first line of
    ``out``, take one connection and read its version line: a wrong version is warned
    about, a line that does not parse ends the connection (:class:`GatewayError`)."""
    taken: asyncio.Future[BotLink] = asyncio.get_running_loop().create_future()

    def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if taken.done():  # one bot a seat, as the dealer accepts one connection a port
            writer.close()
        else:
            taken.set_result(BotLink(reader, writer))

    try:
        server = await asyncio.start_server(accept, host, port)
    except OSError as exc:
        raise GatewayError(f"cannot listen on {host}:{port}: {exc}") from exc
    bound = server.sockets[0].getsockname()[1]
    print(bound, file=out, flush=True)
    if on_port is not None:
        on_port(bound)
    try:
        link = await taken
    finally:
        server.close()
    line = await link.readline()
    match = None if line is None else _VERSION_LINE.match(line)
    if match is None:
        await link.close()
        raise GatewayError(f"invalid version string {line!r} from the bot")
    major, minor, _ = map(int, match.groups())
    if major != VERSION[0] or minor > VERSION[1]:
        print("WARNING: this gateway is using version 2.0.0", file=err, flush=True)
    return link


def safe_action(menu: ActionMenu) -> EngineAction:
    """What the gateway plays when the bot cannot: a check, else a fold."""
    return CheckOrCall(menu.seat) if menu.can_check or not menu.can_fold else Fold(menu.seat)


class Bridge:
    """Lines to the bot, its replies to our actions, for one seat at a time."""

    def __init__(
        self, link: BotLink, seat: SeatTranslator, *, strict: bool, err: IO[str] = sys.stderr
    ) -> None:
        self.link, self.seat, self.strict, self.err = link, seat, strict, err
        self.refusal: str | None = None  # strict: why the bot was disconnected
        self.warnings = 0
        self.fixed = 0  # replies fixed (a call for a bad action, a raise clamped)
        self._reply: tuple[str, str] | None = None  # (the line answered, the action)
        self._changed = asyncio.Event()

    def warn(self, text: str) -> None:
        self.warnings += 1
        print(f"WARNING: {text}", file=self.err, flush=True)

    async def on_event(self, event: dict[str, Any], seat: int) -> None:
        line = self.seat.apply(event, seat, self.err)
        if line is not None:
            await self.link.send(line)
        self._changed.set()

    async def read_replies(self) -> None:
        """Read the bot's lines until it hangs up (or is hung up on)."""
        while (line := await self.link.readline()) is not None:
            if not line or line.startswith(("#", ";")):
                continue
            state, _, text = line.rpartition(":")
            if state != self.seat.line or not self.seat.bot_to_act():
                if self.strict:
                    await self.refuse(f"reply to a state other than {self.seat.line!r}")
                    return
                self.warn(f"ignoring un-requested response {line!r}")
                continue
            self._reply = (state, text)
            self._changed.set()
        self._changed.set()

    async def refuse(self, reason: str) -> None:
        self.refusal = reason
        print(f"ERROR: {reason}: disconnecting the bot", file=self.err, flush=True)
        await self.link.close(reason)
        self._changed.set()

    async def decide(self, menu: ActionMenu) -> EngineAction | None:
        """Our action for the decision our table just asked the seat for: the bot's reply
        to the current line, when it comes. None when the table has moved on first (its
        clock acted); the safe action when the bot cannot answer (it has gone, or the hand
        is not one it is sent)."""
        line = self.seat.line
        if not self.seat.bot_to_act():
            return safe_action(menu)
        while self._reply is None or self._reply[0] != line:
            if self.link.closed:
                return safe_action(menu)
            self._changed.clear()
            await self._changed.wait()
            if self.seat.line != line:
                return None
        text = self._reply[1]
        self._reply = None
        try:
            answer = self.seat.answer(text, menu, strict=self.strict)
        except StrictRefusal as exc:
            await self.refuse(str(exc))
            return safe_action(menu)
        if answer.warning is not None:
            self.fixed += 1
            self.warn(answer.warning)
        return answer.action
