"""The bot SDK's network client: play a bot at a pokerroom server over the websocket
protocol, as any outside player does.

A bot is anything with ``act(view, menu) -> Action`` (:class:`server.bots.Bot`). The client
says hello, finds a table (the one asked for, else the first with a free seat) and sits
with a buy-in. From the table's snapshot and the events after it, a :class:`TableMirror`
keeps the seat's picture of the table, so each ``action_request`` becomes the same
:class:`engine.TableView` and :class:`engine.ActionMenu` a house bot gets, and the bot's
answer goes back as an ``act`` message. When the connection drops the client reconnects
with backoff, says hello again and resumes from the last event it saw; it re-buys when
busted (``rebuy``), leaves after ``hands`` hands, and :meth:`BotClient.stop` leaves at the
end of the current hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import secrets
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from engine import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, Fold, TableView
from server.bots.errors import BotClientError
from server.bots.loader import load_bot_spec
from server.bots.mirror import TableMirror
from server.bots.strategies import Bot
from server.bots.wire import act_message, menu_from_json

__all__ = [
    "BotClient",
    "BotClientError",
    "ClientSummary",
    "load_bot_spec",
    "run_bot",
]

log = logging.getLogger("pokerroom.bot")

_NAME: Final = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


# -- the client ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClientSummary:
    """How a run ended. ``reason`` is ``"hands"`` (played as many as asked), ``"stopped"``
    (:meth:`BotClient.stop`), ``"busted"`` (out of chips, no re-buy) or ``"closed"`` (the
    connection was closed by a second stop)."""

    player: str
    table: str | None
    reason: str
    hands_played: int
    stack: int | None
    reconnects: int
    rebuys: int
    actions: int
    errors: tuple[dict[str, Any], ...] = field(default=())


class BotClient:
    """Plays ``bot`` at the server at ``url`` (``ws://host:port/ws``) until it has played
    ``hands`` hands (``None``: until stopped or busted).

    Identity: a guest ``name`` or an account ``token`` (default: a guest name made from the
    bot's class). ``table``: a table id, else the first with a free seat (or the first
    table's waiting list). ``buy_in``: default the table's maximum. ``rebuy``: sit again
    when busted. ``wait_for_big_blind``: a newcomer waits for the big blind instead of
    posting one at once. ``think_in_thread`` (the default): call ``bot.act`` in a worker
    thread while the client goes on reading; an answer that comes after the table has moved
    on (the server's clock answered) is dropped, and a bot still thinking when its time,
    decision plus time bank, is nearly up is answered for (check or fold). Without it the
    bot is called on the event loop, which suits quick bots and tests. ``max_retries``: failed
    connections in a row before giving up (``None``: never); ``backoff``: the first and the
    longest wait between them, in seconds.

    Messages go out at most :attr:`SEND_RATE` a second (bursts of :attr:`SEND_BURST`),
    under the server's limit; if the server still finds that too fast (``rate_limited``),
    the rate halves and what may have gone unread is sent again.

    :attr:`errors` holds every error message the server sent; :attr:`actions` counts the
    decisions answered (one asked again after a reconnection is answered with the same
    action id, and counts once) and :attr:`acks` those the server acknowledged.
    """

    SEND_RATE: float = 15.0
    SEND_BURST: int = 40

    def __init__(
        self,
        bot: Bot,
        url: str,
        *,
        name: str | None = None,
        token: str | None = None,
        table: str | None = None,
        buy_in: int | None = None,
        hands: int | None = None,
        rebuy: bool = False,
        wait_for_big_blind: bool = False,
        think_in_thread: bool = True,
        max_retries: int | None = 10,
        backoff: tuple[float, float] = (0.5, 10.0),
    ) -> None:
        if name is not None and token is not None:
            raise ValueError("give a guest name or an account token, not both")
        if name is None and token is None:
            base = re.sub(r"[^A-Za-z0-9_.-]", "", type(bot).__name__)[:23] or "bot"
            name = f"{base}-{secrets.token_hex(4)}"
        if name is not None and not _NAME.match(name):
            raise ValueError(f"a guest name is 1-32 letters, digits, '_', '.' or '-': {name!r}")
        if hands is not None and hands < 1:
            raise ValueError(f"hands must be at least 1, got {hands}")
        if buy_in is not None and buy_in <= 0:
            raise ValueError(f"a buy-in must be positive, got {buy_in}")
        self.bot = bot
        self.url = url
        self.name = name
        self.token = token
        self.buy_in = buy_in
        self.hands = hands
        self.rebuy = rebuy
        self.wait_for_big_blind = wait_for_big_blind
        self.think_in_thread = think_in_thread
        self.max_retries = max_retries
        self.backoff = backoff
        # What the run has done, for callers and tests.
        self.player: str | None = name
        self.table: str | None = table
        self.mirror: TableMirror | None = None
        self.hands_played = 0
        self.reconnects = 0
        self._connected = False  # ever: until then, a few failures are enough to give up
        self.rebuys = 0
        self.actions = 0
        self.acks = 0
        self.errors: list[dict[str, Any]] = []
        self.seats_taken: list[int] = []
        """Every seat the client was given (a seat kept across a reconnection counts once)."""
        self._fixed_table = table is not None
        self._init_run()

    def _init_run(self) -> None:
        self._summary: dict[str, Any] | None = None  # the table's lobby line
        self._run_id = secrets.token_hex(3)
        self._counter = 0
        self._ws: ClientConnection | None = None
        self._last_seq = 0
        self._counted_through = 0  # events up to this seq are counted in hands_played
        self._finish: str | None = None
        self._done = False
        self._stops = 0
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._pending: dict[str, tuple[dict[str, Any], ActionMenu]] = {}  # acts not yet acked
        self._thinking: _Decision | None = None
        # The action id of our decision still open at the table: an act names no decision,
        # so one sent after its decision closed could be applied to the next (see _recover).
        self._open: str | None = None
        self._bot_lock = asyncio.Lock()
        self._pace = asyncio.Lock()
        self._sent: set[str] = set()  # action ids (a decision asked again keeps its id)
        self._acked: set[str] = set()
        self._busted = False
        self._joined = False  # seated or on the waiting list at some point: resume, not sit
        self._failures = 0
        self._lobby_failures = 0
        self._session: str | None = None  # from the welcome: says hello again as us
        self._last_seat: int | None = None  # the seat we held last, to count missed events
        self._last_stack: int | None = None
        self._moved = False  # sent to the server process hosting our table: go there now
        self._reset_connection()

    def _reset_connection(self) -> None:
        self._tokens, self._stamp, self._rate = float(self.SEND_BURST), 0.0, self.SEND_RATE
        self._recovering = False
        self._welcomed = False
        self._resuming = False
        self._sit_pending = False
        self._waiting_list = False
        self._leave_sent = False
        self._sit_in_pending = False

    @property
    def seat(self) -> int | None:
        """The seat held now, if any."""
        return None if self.mirror is None else self.mirror.viewer

    # -- running ----------------------------------------------------------------------------

    async def run(self) -> ClientSummary:
        """Play until done; :class:`BotClientError` if the server refuses us or stays
        unreachable for ``max_retries`` attempts in a row."""
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
                self._failures += 1
                if self.max_retries is not None and self._failures > self.max_retries:
                    raise BotClientError(
                        f"gave up after {self._failures} failed connections: {problem}"
                    )
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
                self.reconnects += 1
        finally:
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
        return ClientSummary(
            player=self.player or "",
            table=self.table,
            reason=self._finish or "closed",
            hands_played=self.hands_played,
            stack=self._last_stack,
            reconnects=self.reconnects,
            rebuys=self.rebuys,
            actions=self.actions,
            errors=tuple(self.errors),
        )

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

    async def _hello(self) -> None:
        """Who we are: the session an earlier welcome gave us (a guest's name is theirs alone
        once used), else the account token or the guest name."""
        hello: dict[str, Any] = {"type": "hello", "id": "hello"}
        if self._session is not None:
            hello["session"] = self._session
        elif self.token is not None:
            hello["token"] = self.token
        else:
            hello["name"] = self.name
        await self._send(hello)

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
        if self._done and self._pending:
            # Every act gets an ack or an error; wait a moment for the last ones.
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                async with asyncio.timeout(5):
                    while self._pending:
                        await self._on_message(json.loads(await ws.recv()))

    def stop(self) -> None:
        """Leave at the end of the current hand, then return from :meth:`run`. A second call
        closes the connection at once. Safe to call from a signal handler on the loop."""
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

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        async def guarded() -> None:
            with contextlib.suppress(ConnectionClosed):
                await coro

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _end(self, reason: str) -> None:
        self._finish_when_done(reason)
        self._done = True

    def _finish_when_done(self, reason: str) -> None:
        """Finish (leave the table, then return) for ``reason``; the first reason stands."""
        if self._finish is None:
            self._finish = reason

    async def _send(self, message: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None:
            return
        async with self._pace:
            # Stay under the server's rate limit (docs/protocol.md, Limits): a message over
            # it is not read. A fast table can ask for more actions than that.
            loop = asyncio.get_running_loop()
            now = loop.time()
            self._tokens = min(self.SEND_BURST, self._tokens + (now - self._stamp) * self._rate)
            self._stamp = now
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self._rate)
                self._tokens, self._stamp = 1.0, loop.time()
            self._tokens -= 1
        if self._ws is ws:
            await ws.send(json.dumps(message))

    async def _recover(self) -> None:
        """After ``rate_limited``: send again whatever may have been the message not read.
        An act goes again only while its decision is open, with its id (it acts at most
        once); a repeated sit, sit_in or leave gets an error that changes nothing."""
        await asyncio.sleep(1.0)
        self._recovering = False
        if self._open in self._pending:  # only while its decision is open
            await self._send(self._pending[self._open][0])
        self._sit_pending = self._sit_in_pending = self._leave_sent = False
        if self._resuming:
            await self._send_resume()
        if self._welcomed and self._summary is None:  # the lobby was asked for, unread
            await self._list_tables()
        await self._reconcile()

    async def _send_resume(self) -> None:
        """Ask for the table again: a snapshot and every event after the last we saw."""
        await self._send(
            {"type": "resume", "table": self.table, "last_seq": self._last_seq,
             "id": self._next_id("resume")}
        )  # fmt: skip

    def _next_id(self, kind: str) -> str:
        self._counter += 1
        return f"{kind}-{self._counter}"

    # -- keeping the seat we want ----------------------------------------------------------

    async def _reconcile(self) -> None:
        """Send whatever moves us towards where we want to be: seated and playing, or (when
        finishing) gone from the table."""
        if self._ws is None or not self._welcomed or self._resuming or self.table is None:
            return
        if self._summary is None:
            return
        seated = self.mirror is not None
        if self._finish is not None:
            if (seated or self._waiting_list) and not self._leave_sent:
                self._leave_sent = True
                await self._send(
                    {"type": "leave", "table": self.table, "id": self._next_id("leave")}
                )
            elif not seated and not self._waiting_list and not self._sit_pending:
                self._done = True
            return
        if seated:
            assert self.mirror is not None and self.seat is not None
            me = self.mirror.seats.get(self.seat)
            if me is not None and me.sitting_out and not self._sit_in_pending:
                self._sit_in_pending = True
                log.info("%s: sitting in again at seat %d", self.player, self.seat)
                await self._send(
                    {"type": "sit_in", "table": self.table, "id": self._next_id("sit_in"),
                     "post": not self.wait_for_big_blind}
                )  # fmt: skip
            return
        if self._sit_pending or self._waiting_list:
            return
        if self._busted and not self.rebuy:
            self._end("busted")
            return
        if self._busted:
            self.rebuys += 1
            log.info("%s: busted; buying in again", self.player)
        self._busted = False
        buy_in = self.buy_in or int(self._summary["max_buy_in"])
        self._sit_pending = True
        await self._send(
            {"type": "sit", "table": self.table, "id": self._next_id("sit"), "buy_in": buy_in,
             "wait_for_big_blind": self.wait_for_big_blind}
        )  # fmt: skip

    # -- messages ---------------------------------------------------------------------------

    async def _on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        if m.get("table") not in (None, self.table):
            return  # another table's news (we never watch one)
        match kind:
            case "welcome":
                self._on_welcome(m)
                if self._joined and self.table is not None:
                    self._resuming = True
                    await self._send_resume()
                else:
                    await self._list_tables()
            case "tables":
                self._lobby_failures = 0
                await self._choose_table(m["tables"])
            case "snapshot":
                self._on_snapshot(m)
            case "resumed":
                self._on_resumed(m)
            case "seated":
                self._sit_pending = False
                log.info(
                    "%s: seated at %s seat %s with %s", self.player, self.table, m["seat"],
                    m["stack"],
                )  # fmt: skip
            case "waiting":
                self._sit_pending = False
                self._waiting_list = self._joined = True
                log.info("%s: the table is full; waiting list position %s", self.player,
                         m["position"])  # fmt: skip
            case "event":
                await self._on_event(m)
            case "action_request":
                await self._on_action_request(m)
            case "ack":
                self._acked.add(str(m.get("action_id")))
                self.acks = len(self._acked)
                self._pending.pop(str(m.get("action_id")), None)
            case "error":
                await self._on_error(m)
            case "left":
                self.mirror = None
                self._waiting_list = False
                self._finish_when_done("stopped")
            case "sat_in":
                self._sit_in_pending = False
            case _:
                pass  # leaving, sat_out, deck_commitment, pong: nothing to do

    async def _list_tables(self, delay: float = 0.0) -> None:
        if delay:
            await asyncio.sleep(delay)
        await self._send({"type": "list_tables", "id": self._next_id("tables")})

    def _on_welcome(self, m: dict[str, Any]) -> None:
        self._welcomed = True
        if isinstance(m.get("session"), str):
            self._session = m["session"]
        self._failures = 0
        self.player = str(m["player"]["name"])
        log.info("%s: connected to %s", self.player, self.url)

    async def _choose_table(self, tables: list[dict[str, Any]]) -> None:
        by_id = {t["id"]: t for t in tables}
        if self._fixed_table:
            if self.table not in by_id:
                raise BotClientError(f"no table {self.table!r} on the server")
            chosen = by_id[self.table]
        else:
            free = [t for t in tables if len(t["players"]) < t["seats"]]
            if not free and not tables:
                raise BotClientError("the server has no tables")
            chosen = (free or tables)[0]
        self.table = str(chosen["id"])
        self._summary = chosen

    def _on_snapshot(self, m: dict[str, Any]) -> None:
        self._summary = m["summary"]
        if m["view"]["viewer"] is None:
            return  # not seated (a spectator's snapshot): nothing of ours
        self._take(TableMirror.from_snapshot(m), int(m["seq"]))
        self._sit_pending = self._waiting_list = False
        assert self.seat is not None
        self.seats_taken.append(self.seat)

    def _take(self, mirror: TableMirror, seq: int) -> None:
        self.mirror = mirror
        self._joined = True
        self._last_seq = seq
        self._counted_through = max(self._counted_through, seq)
        self._last_seat = mirror.viewer
        if mirror.viewer is not None:
            self._last_stack = mirror.stack(mirror.viewer)

    def _on_resumed(self, m: dict[str, Any]) -> None:
        self._resuming = False
        self._supersede()  # a decision still open is asked again, with the same id
        self._open = None
        self._summary = m["summary"]
        for missed in m.get("missed", []):
            self._count(int(missed["seq"]), missed["event"], self._last_seat)
        self.mirror = None
        if m["view"]["viewer"] is not None:
            self._take(TableMirror.from_snapshot(m), int(m["seq"]))
            if not self.seats_taken or self.seats_taken[-1] != self.seat:
                assert self.seat is not None
                self.seats_taken.append(self.seat)
            log.info("%s: resumed at %s seat %s", self.player, self.table, self.seat)
        else:
            self._last_seq = int(m["seq"])
            self._counted_through = max(self._counted_through, self._last_seq)
            log.info("%s: resumed at %s without a seat", self.player, self.table)

    def _count(self, seq: int, event: Mapping[str, Any], seat: int | None) -> None:
        """Bookkeeping for one event seen by ``seat`` (hands played, busting, the limit);
        each seq is counted once, whether it came live or in a resume's missed list."""
        if seq <= self._counted_through or seat is None:
            return
        self._counted_through = seq
        kind = event.get("type")
        if kind == "hand_started" and seat in event["seats"]:
            if self.hands is not None and self.hands_played + 1 >= self.hands:
                self._finish_when_done("hands")  # leave when this hand ends
        elif kind == "hand_ended":
            stacks = dict(event["stacks"])
            if seat in stacks:
                self.hands_played += 1
                self._last_stack = int(stacks[seat])
                log.info(
                    "%s: hand %s over, stack %s (%d played)", self.player,
                    event["hand_number"], stacks[seat], self.hands_played,
                )  # fmt: skip
                if self.hands is not None and self.hands_played >= self.hands:
                    self._finish_when_done("hands")
        elif kind == "player_stood" and event["seat"] == seat:
            self._busted = event["reason"] == "busted"
            if self._busted:
                self._last_stack = 0

    async def _on_event(self, m: dict[str, Any]) -> None:
        seq, body = int(m["seq"]), m["event"]
        if self.mirror is None or seq <= self._last_seq:
            return  # before our snapshot (it includes this), or not seated
        if seq != self._last_seq + 1:
            # A gap: our picture may be wrong. Ask for a fresh one.
            log.warning("%s: missed events %d..%d; resyncing", self.player, self._last_seq + 1,
                        seq - 1)  # fmt: skip
            self._resuming = True
            self.mirror = None
            await self._send_resume()
            return
        seat = self.seat
        self._last_seq = seq
        self.mirror.apply(body)
        kind = body.get("type")
        if kind in ("hand_started", "hand_ended") or (
            kind in ("action_taken", "player_stood", "player_sat_out") and body.get("seat") == seat
        ):
            self._supersede()
            self._open = None
        self._count(seq, body, seat)
        if body.get("type") == "player_stood" and body.get("seat") == seat:
            self.mirror = None  # the server no longer sends us this table's events
            self._last_seat = None
            self._waiting_list = False
            if not self._busted:
                self._finish_when_done("stopped")

    # -- decisions --------------------------------------------------------------------------

    async def _on_action_request(self, m: dict[str, Any]) -> None:
        seat = int(m["seat"])
        if self._leave_sent:  # leaving mid-hand: the server folds (or checks) for us
            return
        if self.mirror is None:
            log.warning("%s: an action request before any snapshot; ignored", self.player)
            return
        if seat != self.seat:
            log.warning("%s: asked to act for seat %d, but we sit in %s", self.player, seat,
                        self.seat)  # fmt: skip
        menu = menu_from_json(seat, m["menu"])
        view = self.mirror.view(to_act=seat, legal=menu)
        limit = float(m.get("decision_seconds", 30.0)) + float(m.get("time_bank_seconds", 0.0))
        # The same decision asked again (after a resume) gets the same id: it acts once.
        action_id = f"{self._run_id}-{m['hand_number']}-{m['seq']}"
        decision = _Decision(str(m["table"]), action_id, menu, int(m["seq"]))
        self._open = action_id
        if not self.think_in_thread:
            action = self._decide_now(view, menu)
            message = act_message(decision.table, action_id, action, menu, decision.seq)
            await self._act(message, menu)
            return
        # Think in a worker thread while this loop goes on reading: if the table moves on
        # (the clock answered, the hand ended), the answer is dropped instead of refused.
        self._supersede()
        self._thinking = decision
        self._spawn(self._think(decision, view, limit))

    def _supersede(self) -> None:
        """The decision being thought about has been settled without us."""
        if self._thinking is not None:
            self._thinking.stale = True
            self._thinking = None

    async def _think(self, decision: _Decision, view: TableView, limit: float) -> None:
        async with self._bot_lock:  # one call of bot.act at a time
            action = await self._decide(view, decision.menu, limit)
        if decision.stale:
            log.warning("%s: the bot answered too late; the table has moved on", self.player)
            return
        if self._thinking is decision:
            self._thinking = None
        message = act_message(
            decision.table, decision.action_id, action, decision.menu, decision.seq
        )
        await self._act(message, decision.menu)

    async def _act(self, message: dict[str, Any], menu: ActionMenu) -> None:
        self._pending[message["action_id"]] = (message, menu)
        self._sent.add(message["action_id"])
        self.actions = len(self._sent)
        await self._send(message)

    async def _decide(self, view: TableView, menu: ActionMenu, limit: float) -> Action:
        """The bot's answer from a worker thread; check or fold if it is not back before
        its time (decision plus time bank) is nearly up."""
        try:
            action = await asyncio.wait_for(
                asyncio.to_thread(self.bot.act, view, menu), max(0.5, limit - 1.0)
            )
        except TimeoutError:
            log.warning("%s: the bot took too long; checking or folding", self.player)
            return _safe(menu)
        except Exception:
            log.exception("%s: the bot failed; checking or folding", self.player)
            return _safe(menu)
        return self._checked(action, menu)

    def _decide_now(self, view: TableView, menu: ActionMenu) -> Action:
        try:
            action = self.bot.act(view, menu)
        except Exception:
            log.exception("%s: the bot failed; checking or folding", self.player)
            return _safe(menu)
        return self._checked(action, menu)

    def _checked(self, action: object, menu: ActionMenu) -> Action:
        if not isinstance(action, Fold | CheckOrCall | BetOrRaiseTo) or not menu.allows(action):
            log.warning("%s: the bot chose %r, which the menu does not allow; checking or "
                        "folding", self.player, action)  # fmt: skip
            return _safe(menu)
        return action

    async def _on_sit_error(self, m: dict[str, Any]) -> None:
        code, text = m.get("code"), m.get("message")
        self._sit_pending = False
        if code == "elsewhere" and isinstance(m.get("address"), str):
            # Another server process hosts the table (docs/operations.md): sit there,
            # saying hello afresh (a session belongs to one process).
            log.info("%s: table %s is hosted at %s", self.player, self.table, m["address"])
            self.url, self._session = m["address"], None
            self._fixed_table, self._moved = True, True
            if self._ws is not None:
                await self._ws.close()
        elif code == "already_waiting":  # a sit sent twice: we are on the list
            self._waiting_list = self._joined = True
        elif code == "already_seated":  # our seat is still ours: pick it up
            self._resuming = True
            await self._send_resume()
        else:
            raise BotClientError(f"cannot sit at {self.table}: {code}: {text}")

    async def _on_error(self, m: dict[str, Any]) -> None:
        self.errors.append(m)
        code, text, re_ = m.get("code"), m.get("message"), str(m.get("re") or "")
        log.warning("%s: the server says %s: %s", self.player, code, text)
        if code == "rate_limited":  # one of ours was not read, and we cannot tell which
            self._rate = max(0.5, self._rate / 2)  # this server is stricter: slow down
            self._tokens = 0.0
            if not self._recovering:
                self._recovering = True
                self._spawn(self._recover())
            return
        if re_ in self._pending:
            sent, menu = self._pending.pop(re_)
            if (
                re_ != self._open
                or re_.endswith("-safe")
                or code in ("not_your_turn", "not_seated", "stale")
            ):
                return  # stale (the hand has moved on), or the safe answer failed too
            self._open = re_ + "-safe"
            safe = act_message(str(self.table), self._open, _safe(menu), menu, sent.get("seq"))
            await self._act(safe, menu)
        elif re_ == "hello":
            if code == "bad_session" and self._session is not None:
                self._session = None  # a server that forgot us (restarted): start afresh
                await self._hello()
                return
            if code == "name_taken":
                text = f"{text} (pick another --name, or play as an account with --token)"
            raise BotClientError(f"hello refused: {code}: {text}")
        elif re_.startswith("sit-"):
            await self._on_sit_error(m)
        elif re_.startswith("resume-"):
            self._resuming = False
            self.mirror = None
            if code == "no_table" and not self._fixed_table:
                self._joined = False  # the table is gone: find another
                self._summary = None
                await self._list_tables()
            elif code == "no_table":
                raise BotClientError(f"table {self.table!r} is gone: {text}")
        elif re_.startswith("sit_in-"):
            self._sit_in_pending = False
        elif re_.startswith("tables-"):
            # The lobby can fail for a moment (while a busted player's hand is being stored
            # the runner's summary names a seat the table has emptied): ask again.
            self._lobby_failures += 1
            if self._lobby_failures > 10:
                raise BotClientError(f"cannot list the tables: {code}: {text}")
            self._spawn(self._list_tables(delay=0.1 * self._lobby_failures))


@dataclass
class _Decision:
    """One action request being answered."""

    table: str
    action_id: str
    menu: ActionMenu
    seq: int
    stale: bool = False


def _safe(menu: ActionMenu) -> Action:
    """Check when that is free, otherwise fold (what the server's clock would do)."""
    if menu.can_check or not menu.can_fold:
        return CheckOrCall(menu.seat)
    return Fold(menu.seat)


async def run_bot(spec: str | Bot, url: str, **options: Any) -> ClientSummary:
    """Load ``spec`` (see :func:`load_bot_spec`) and play it: ``BotClient(bot, url,
    **options).run()``."""
    bot = load_bot_spec(spec) if isinstance(spec, str) else spec
    return await BotClient(bot, url, **options).run()
