"""The ACPC bot's side of the gateway: its TCP connection (:class:`BotLink`) and the
:class:`Bridge` that sends it the seat's ``MATCHSTATE`` lines and turns its replies into
our actions (:mod:`server.acpc.seat` translates).

The bot is sent a line after every event that makes one; it answers the lines that are
its to answer, whenever it likes: a reply is kept until our table asks the seat to act
(``action_request``), then played. A reply to any other line is ignored with a warning,
as the dealer ignores one; so is a reply that comes after our table's clock acted for
the seat (the table has moved on). ``strict``: a reply that needs fixing, or answers
another line, ends the connection instead, the bot told why on a ``#`` comment line.

Whatever the bot sends, nothing here raises or waits on it for ever: its lines are read
with a bound (:mod:`server.acpc.lines`: a reply longer than 4,096 bytes is a call), and
lines to a bot that does not read them pile up only to :attr:`BotLink.MAX_UNSENT` bytes,
then the bot is hung up on, as one that has gone.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable
from typing import IO, Any, Final

from engine import Action as EngineAction
from engine import ActionMenu, CheckOrCall, Fold
from server.acpc.gamedefs import GatewayError
from server.acpc.lines import Line, read_line, shown
from server.acpc.seat import SeatTranslator, StrictRefusal

__all__ = ["BotLink", "Bridge", "accept_bot"]

VERSION: Final = (2, 0, 0)
_VERSION_LINE = re.compile(r"VERSION:(\d+)\.(\d+)\.(\d+)")


class BotLink:
    """One ACPC bot's connection: lines out ending ``\\r\\n``, lines in (LF or CRLF)."""

    # Lines the bot has not read, beyond what its socket holds: more, and it is hung up
    # on (a bot that stopped reading must not stop the gateway, which never waits on it).
    MAX_UNSENT: int = 1 << 20

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.closed = False

    async def send(self, line: str) -> None:
        if self.closed or self.writer.is_closing():
            self.closed = True
            return
        try:
            self.writer.write(line.encode() + b"\r\n")
        except (ConnectionError, RuntimeError):
            self.closed = True
            return
        if self.writer.transport.get_write_buffer_size() > self.MAX_UNSENT:
            self.closed = True
            self.writer.transport.abort()

    async def readline(self) -> Line | None:
        """A line without its ending (at most 4,096 bytes of it), or None when the bot
        has gone."""
        line = await read_line(self.reader)
        if line is None:
            self.closed = True
        return line

    async def close(self, reason: str | None = None) -> None:
        """Hang up, first telling the bot ``reason`` on a comment line (which bots skip);
        what it has not read within a second is dropped."""
        if reason is not None:
            await self.send(f"# disconnected: {reason}")
        self.closed = True
        self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)
        except TimeoutError:
            self.writer.transport.abort()
        except ConnectionError:
            pass


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
    try:
        line = await link.readline()
    except asyncio.CancelledError:  # stopped before the bot said its version
        await link.close()
        raise
    match = None if line is None or line.cut else _VERSION_LINE.match(line.text)
    if match is None:
        await link.close()
        said = "None" if line is None else shown(line.text)
        raise GatewayError(f"invalid version string {said} from the bot")
    major, minor, _ = map(int, match.groups())
    if major != VERSION[0] or minor > VERSION[1]:
        print("WARNING: this gateway is using version 2.0.0", file=err, flush=True)
    return link


def safe_action(menu: ActionMenu) -> EngineAction:
    """What the gateway plays when the bot cannot: a check, else a fold."""
    return CheckOrCall(menu.seat) if menu.can_check or not menu.can_fold else Fold(menu.seat)


class Bridge:
    """Lines to the bot, its replies to our actions, for one seat at a time."""

    # Lines answering nothing warned about in a row: a bot that floods them is not
    # allowed to flood the gateway's log too (they are still counted, and ignored).
    MAX_IGNORED_WARNINGS: int = 10

    def __init__(
        self, link: BotLink, seat: SeatTranslator, *, strict: bool, err: IO[str] = sys.stderr
    ) -> None:
        self.link, self.seat, self.strict, self.err = link, seat, strict, err
        self.refusal: str | None = None  # strict: why the bot was disconnected
        self.farewell: str | None = None  # why the gateway hangs up, told to the bot
        self.warnings = 0
        self.fixed = 0  # replies fixed (a call for a bad action, a raise clamped)
        self.ignored = 0  # lines that answered nothing, in a row
        # Decisions in a row our table's clock took because the bot's reply was not in.
        self.missed = 0
        # (the line answered, the action, whether the line was cut at 4,096 bytes)
        self._reply: tuple[str, str, bool] | None = None
        self._waiting: str | None = None  # the line a decision waits for the bot to answer
        self._changed = asyncio.Event()

    def warn(self, text: str) -> None:
        self.warnings += 1
        print(f"WARNING: {text}", file=self.err, flush=True)

    async def on_event(self, event: dict[str, Any], seat: int) -> None:
        line = self.seat.apply(event, seat, self.err)
        if self._waiting is not None and self.seat.line != self._waiting:
            self.missed += 1  # the table moved on (its clock acted) before the bot replied
            self._waiting = None
        if line is not None:
            await self.link.send(line)
        self._changed.set()

    async def read_replies(self) -> None:
        """Read the bot's lines until it hangs up (or is hung up on)."""
        while (line := await self.link.readline()) is not None:
            text = line.text
            if not text or text.startswith(("#", ";")):
                continue
            current = self.seat.line
            # The state answered is the line sent, whole: what follows its ':' is the
            # action, whatever it holds (a ':' of its own included).
            answers = current is not None and (text == current or text.startswith(current + ":"))
            if not answers or not self.seat.bot_to_act():
                if self.strict:
                    await self.refuse(f"reply to a state other than {current!r}")
                    return
                self.ignored += 1
                if self.ignored <= self.MAX_IGNORED_WARNINGS:
                    self.warn(f"ignoring un-requested response {shown(text)}")
                elif self.ignored == self.MAX_IGNORED_WARNINGS + 1:
                    self.warn("ignoring more un-requested responses, without a word each")
                continue
            assert current is not None
            self.ignored = 0
            self._reply = (current, text[len(current) + 1 :], line.cut)
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
        if not self.seat.bot_to_act() or line is None:
            return safe_action(menu)
        self._waiting = line
        try:
            while self._reply is None or self._reply[0] != line:
                if self.link.closed:
                    return safe_action(menu)
                self._changed.clear()
                await self._changed.wait()
                if self.seat.line != line:
                    return None
        finally:
            if self._waiting == line:
                self._waiting = None
        _, text, cut = self._reply
        self._reply = None
        self.missed = 0
        try:
            answer = self.seat.answer(text, menu, strict=self.strict, cut=cut)
        except StrictRefusal as exc:
            await self.refuse(str(exc))
            return safe_action(menu)
        if answer.warning is not None:
            self.fixed += 1
            self.warn(answer.warning)
        return answer.action
