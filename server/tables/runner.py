"""The table's task: the asyncio pump around a :class:`~server.tables.core.TableCore`.

It keeps only what needs an event loop: the queue of messages (one task a table, its
messages in order), waiting until the core's next deadline, and the awaits: recording
the ledger and the host's controls, storing each finished hand before the next is dealt,
and carrying out messages meanwhile when the database is slow (:meth:`_serve_until`).
Everything the table decides, the core decides."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from server import protocol
from server.bus import EventBus, LocalBus
from server.errors import Code
from server.fairness import Shuffle
from server.tables.base import (
    Clock,
    HandStore,
    HostRecord,
    LedgerEntry,
    Subscriber,
    TableError,
    TableSettings,
)
from server.tables.core import TableCore
from server.tables.messages import (
    Caller,
    HandOver,
    Outbox,
    Send,
    SendTable,
    StopDelay,
    TableMessage,
)

log = logging.getLogger("pokerroom")

T = TypeVar("T")

QUICK_SECONDS = 0.25
"""A write that takes longer than this has the table carry out messages meanwhile."""
NOTICE_SECONDS = 2.0
"""A write that takes longer than this has everyone at the table told it waits for the
database (``table_waiting``), and told again when it goes on."""
STATE_SECONDS = 0.25
"""The retained state on the bus lags the table by at most this: a snapshot per action
would double what a busy table sends, and a broker coming back would never catch up."""


@dataclass
class _Request:
    message: TableMessage | None  # None: only wakes the loop (a close)
    caller: Caller
    reply: asyncio.Future[dict[str, Any]] | None


class TableRunner:
    """Owns one table. Start :meth:`run` as a task; talk to it with :meth:`submit`."""

    def __init__(
        self,
        settings: TableSettings,
        *,
        store_hand: HandStore | None = None,
        record_ledger: Callable[[int, int, str], Awaitable[None]] | None = None,
        record_host: Callable[[HostRecord], Awaitable[None]] | None = None,
        clock: Clock = time.monotonic,
        new_shuffle: Callable[[str, int], Shuffle] = Shuffle.new,
        house_think_seconds: float = 0.2,
        bus: EventBus | None = None,
        address: str | None = None,
    ) -> None:
        self.settings = settings
        self.store_hand = store_hand
        self.record_ledger = record_ledger
        """Records a balance change outside a hand: (player id, amount, reason)."""
        self.record_host = record_host
        """Records a private table's host's control."""
        self.clock = clock
        self.bus: EventBus = bus if bus is not None else LocalBus()
        self.core = TableCore(
            settings, clock(), new_shuffle=new_shuffle,
            house_think_seconds=house_think_seconds, bus=self.bus, address=address,
        )  # fmt: skip
        self.queue: asyncio.Queue[_Request] = asyncio.Queue()
        self._ledger: deque[LedgerEntry] = deque()  # recorded in order, then dropped
        self._host_records: list[HostRecord] = []  # likewise
        self._deferred: list[_Request] = []  # until the hand is stored (_serve_until)
        self._abandoned = False  # another process has taken the table over
        self._stopped = False  # run() has returned: nothing will answer a request
        self._state_timer: asyncio.TimerHandle | None = None

    # -- the outside ------------------------------------------------------------------

    async def submit(self, message: TableMessage, caller: Caller) -> dict[str, Any]:
        """Hand the table a message and wait for the reply; the refusal if refused."""
        if self._stopped:
            raise self._stopped_error()
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        await self.queue.put(_Request(message, caller, reply))
        return await reply

    def abandon(self) -> None:
        """Stop without cashing anyone out or clearing the lobby: another process has
        taken the table over (its lease), and settles what this one leaves."""
        self._abandoned = True
        self.close()

    def close(self) -> None:
        self.core.close()
        self.queue.put_nowait(_Request(None, Caller(None), None))  # wakes the loop

    @property
    def abandoned(self) -> bool:
        """The table stopped because another process took it over (:meth:`abandon`)."""
        return self._abandoned

    @property
    def stopped(self) -> bool:
        """The table's task has ended: it answers every request with ``table_closed``."""
        return self._stopped

    @property
    def finished_through(self) -> int:
        """The number of the last hand that is over and stored."""
        return self.core.stored_through

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table, now."""
        self.core.now = self.clock()
        return self.core.views.summary()

    def publish_summary(self) -> None:
        """The lobby's line on the bus (a table starting)."""
        self._take(self.core.publish_summary(self.clock()))

    # -- the loop -------------------------------------------------------------------------

    async def run(self) -> None:
        """Deal and run hands until closed. An error the table cannot get past stops this
        table alone: it is logged, and whoever is waiting on the table is told."""
        try:
            await self._play()
        except Exception:
            log.exception("table %s stopped by an error", self.settings.table_id)
        finally:
            self.halt()
            if self._state_timer is not None:
                self._state_timer.cancel()
            if not self._abandoned:
                topics = self.bus.topics
                for topic in (topics.lobby, topics.table_state):  # gone from the bus
                    self.bus.publish(topic(self.settings.table_id), b"", retain=True)
                await self._cash_out_everyone()

    def halt(self) -> None:
        """Mark the table stopped and refuse every request still waiting for it."""
        self._stopped = True
        deferred, self._deferred = self._deferred, []
        while deferred or not self.queue.empty():
            request = deferred.pop(0) if deferred else self.queue.get_nowait()
            if request.reply is not None and not request.reply.done():
                request.reply.set_exception(self._stopped_error())

    def _stopped_error(self) -> TableError:
        return TableError(Code.TABLE_CLOSED, f"table {self.settings.table_id!r} has stopped")

    async def _play(self) -> None:
        await self._advance()
        while not self.core.closing:
            request = await self._next()
            if request is not None:
                await self._carry_out(request)
            await self._advance()

    async def _next(self) -> _Request | None:
        """The next message, or None once the core's next deadline has come."""
        deadline = self.core.deadline()
        if deadline is None:
            return await self.queue.get()
        left = deadline - self.clock()
        if left <= 0 and self.queue.empty():
            await asyncio.sleep(0)  # every other task runs between a bot's actions
            return None
        try:
            async with asyncio.timeout(max(0.0, left)):  # no task per wait, unlike wait_for
                return await self.queue.get()
        except TimeoutError:
            return None

    async def _carry_out(self, request: _Request) -> None:
        """Carry out one message and answer it."""
        if request.message is None:
            return
        out = self.core.handle(request.message, request.caller, self.clock())
        self._take(out)
        await self._record_host()  # a host's control is on record before its reply
        reply = request.reply
        if reply is not None and not reply.done():
            if out.refusal is not None:
                reply.set_exception(out.refusal)
            else:
                reply.set_result(out.reply or {})
        # Let the session send this reply before the table goes on, when the next action
        # request may be this player's (after a resume or a sit, on the next street, in the
        # next hand). When another player is to act, an ack need not wait: every turn of
        # the event loop is latency.
        to_act = self.core.table.to_act
        if (
            not isinstance(request.message, protocol.Act)
            or to_act is None
            or to_act == self.core.seats.of(request.caller.session)
        ):
            await asyncio.sleep(0)

    async def _advance(self) -> None:
        """Let the core move the table on; store what hand it hands over, and record the
        ledger between hands (buy-ins before the hand they play)."""
        while True:
            if self._ledger and not self.core.unsettled:  # the hand before is stored
                await self._serve_until(self._flush_ledger())
            out = self.core.advance(self.clock())
            self._take(out)
            if out.hand_over is not None:
                await self._store(out.hand_over)
            elif not self._ledger or self.core.unsettled or self.core.closing:
                return

    async def _store(self, over: HandOver) -> None:
        """Store the finished hand (before the next is dealt), then settle who leaves and
        carry out what waited for that."""
        if self.store_hand is not None:
            await self._serve_until(
                self.store_hand(self.core.table, over.players, over.started, over.shuffle)
            )
        self._take(self.core.hand_stored(self.clock()))
        deferred, self._deferred = self._deferred, []
        for request in deferred:  # a busted player sitting again: their seat is free now
            await self._carry_out(request)

    async def _serve_until(self, work: Awaitable[T]) -> T:
        """``work``'s result (a write to the database), carrying out the table's messages
        while it takes more than a moment: a database that is away keeps no watcher's,
        chatter's or leaver's reply waiting. Past :data:`NOTICE_SECONDS`, everyone at the
        table is told it waits for the database; told again when it goes on."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait((task,), timeout=QUICK_SECONDS)  # the usual case
        if done:
            return task.result()
        told = False
        try:
            while not task.done():
                getter = asyncio.ensure_future(self.queue.get())
                either: tuple[asyncio.Task[Any], ...] = (task, getter)
                timeout = None if told else NOTICE_SECONDS - QUICK_SECONDS
                done, _ = await asyncio.wait(
                    either, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    request = getter.result()
                    message = request.message
                    if message is not None and self.core.waits_for_settling(
                        message, request.caller
                    ):
                        self._deferred.append(request)
                    else:
                        await self._carry_out(request)
                else:
                    getter.cancel()  # a Queue.get cancelled before it returns takes nothing
                if not done and not told:
                    told = True
                    self._take(self.core.wait_for("database", self.clock()))
            return task.result()
        finally:
            task.cancel()  # the table is being stopped: so is the write it waited for
            if told:
                self._take(self.core.wait_for(None, self.clock()))

    # -- what the core leaves to do ---------------------------------------------------------

    def _take(self, out: Outbox) -> None:
        """Deliver and publish what ``out`` lists, and queue its records."""
        table_id = self.settings.table_id
        failed: set[Subscriber] = set()
        for d in out.deliveries:
            if d.to in failed:
                continue
            try:  # a failure drops that subscriber, never the table
                if isinstance(d, Send):
                    d.to.send(d.text, urgent=d.urgent)
                elif isinstance(d, SendTable):
                    d.to.send_table(table_id, d.hand_number, d.texts)
                    if d.ended:
                        d.to.hand_ended(table_id, d.hand_number)
                elif isinstance(d, StopDelay):
                    d.to.stop_delay(table_id)
            except Exception:
                log.exception("table %s: error sending to a client", table_id)
                failed.add(d.to)
                self.core.drop(d.to)
        for topic, payload, retain in out.publish:
            self.bus.publish(topic, payload, retain=retain)
        if out.state_changed and self._state_timer is None and not self._stopped:
            loop = asyncio.get_running_loop()
            self._state_timer = loop.call_later(STATE_SECONDS, self._publish_state)
        self._ledger.extend(out.ledger)
        self._host_records.extend(out.host_records)

    def _publish_state(self) -> None:
        self._state_timer = None
        if not self._stopped:
            topic = self.bus.topics.table_state(self.settings.table_id)
            self.bus.publish(topic, self.core.state(self.clock()), retain=True)

    async def _record_host(self) -> None:
        """Record the host's controls, in order (each leaves the list once recorded)."""
        try:
            while self._host_records:
                if self.record_host is not None:
                    await self.record_host(self._host_records[0])
                self._host_records.pop(0)
        except Exception as exc:  # the database is away: kept, and recorded next time
            log.warning("table %s: a host's control not recorded yet (%s)",
                        self.settings.table_id, exc)  # fmt: skip

    async def _flush_ledger(self) -> None:
        while self._ledger:  # an entry leaves the list once it is recorded
            if self.record_ledger is not None:
                await self.record_ledger(*self._ledger[0])
            self._ledger.popleft()
            self.core.ledger_recorded(1)

    async def _cash_out_everyone(self) -> None:
        """The table has stopped: whoever is seated leaves with their chips, as of the
        last hand stored (:meth:`Seats.cash_out_everyone`)."""
        entries = self.core.cash_out_everyone()
        self.core.ledger_unrecorded += len(entries)
        self._ledger.extend(entries)
        try:
            await self._flush_ledger()
        except Exception:  # the database is gone: say what it owes, for the operator
            for player_id, amount, reason in self._ledger:
                log.error(
                    "table %s: ledger entry not recorded: player %d, %s %d",
                    self.settings.table_id, player_id, reason, amount,
                )  # fmt: skip
