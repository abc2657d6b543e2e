"""The table's task: its command loop (one task a table, commands in order), dealing each
hand, and its lifecycle (close, abandon, halt, and cashing everyone out at the end)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Any

from engine import EngineError
from server.errors import Code, engine_code
from server.tables.base import Command, Subscriber, TableError
from server.tables.chat import Chat

log = logging.getLogger("pokerroom")

_UNANSWERED = frozenset({"noop", "house_act"})  # the table's own commands: nobody awaits


class TableRunner(Chat):
    """Owns one table. Start :meth:`run` as a task; talk to it with :meth:`request`."""

    # -- the outside ------------------------------------------------------------------

    async def request(self, name: str, session: Subscriber | None, **args: Any) -> dict[str, Any]:
        """Send a command and wait for the reply; :class:`TableError` if refused."""
        if self._stopped:
            raise self._stopped_error()
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        await self.queue.put(Command(name, session, args, reply))
        return await reply

    def abandon(self) -> None:
        """Stop without cashing anyone out or clearing the lobby: another process has
        taken the table over (its lease), and settles what this one leaves."""
        self._abandoned = True
        self.close()

    def close(self) -> None:
        self._closing = True
        wake: asyncio.Future[dict[str, Any]] = asyncio.get_event_loop().create_future()
        wake.set_result({})  # nobody waits for this reply: it only wakes the loop
        self.queue.put_nowait(Command("noop", None, {}, wake))

    @property
    def abandoned(self) -> bool:
        """The table stopped because another process took it over (:meth:`abandon`)."""
        return self._abandoned

    @property
    def stopped(self) -> bool:
        """The table's task has ended: it answers every request with ``table_closed``."""
        return self._stopped

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
            command = deferred.pop(0) if deferred else self.queue.get_nowait()
            if command.reply.done():
                continue
            if command.name in _UNANSWERED:  # nobody awaits these: nobody to tell
                command.reply.cancel()
            else:
                command.reply.set_exception(self._stopped_error())

    def _stopped_error(self) -> TableError:
        return TableError(Code.TABLE_CLOSED, f"table {self.settings.table_id!r} has stopped")

    async def _play(self) -> None:
        while not self._closing:
            if not self.table.hand_in_progress:
                self._between_hands()  # a private table's host's changes (hosted.py)
                if self._closing:
                    break
                await self._serve_until(self._flush_ledger())  # buy-ins on record first
                if self._start_hand():
                    await self._finish_if_over()  # all in from the blinds: over at once
                    continue
                # Waiting for players, for dealer's choice's pick (mixing.py), or for an
                # absent player's grace period to run out.
                waits = [t for t in (self._choice_left(), self._gone_in()) if t is not None]
                try:
                    async with asyncio.timeout(min(waits, default=None)):
                        command = await self.queue.get()
                except TimeoutError:
                    self._stand_up_gone()
                    if self._choice_left() == 0.0:
                        self._choice_timed_out()
                    continue
                await self._handle(command)
                continue
            if self.table.to_act in self.leaving or self.table.to_act in self._absent:
                # The player left mid-hand, or is gone and their clock has run out once
                # this hand: nobody waits for them again. They fold (or check, when that
                # is free: the rules do not let a player fold then).
                self._publish(self.table.apply(self._default_action(self.table.to_act)))
                await self._finish_if_over()
                continue
            timeout = self._ask_for_action()
            try:
                async with asyncio.timeout(timeout):  # no task per wait, unlike wait_for
                    command = await self.queue.get()
            except TimeoutError:
                self._time_out()
                await self._finish_if_over()
                continue
            await self._handle(command)

    def _start_hand(self) -> bool:
        """Seat who is waiting, and deal a hand if enough players can play."""
        self._seat_waiting_players()
        if not self._deals():  # paused by the host
            return False
        ready = [
            s
            for s in self.table.occupied()
            if self.table.stack(s) > 0 and not self.table.is_sitting_out(s)
        ]
        if len(ready) < 2 or not self._game_for_next_hand(ready):
            return False
        number = self.table.hand_number + 1
        shuffle = self.new_shuffle(self.settings.table_id, number)
        try:
            events = self.table.start_hand(shuffle.deck(self.table.config.game.deck))
        except EngineError:
            return False  # not enough players can play yet (waiting for the big blind)
        self.started_at[number] = dt.datetime.now(dt.UTC)
        self.shuffles[number] = shuffle
        self._announce_commitment(number, shuffle)
        self._publish(events)
        return True

    # -- commands ---------------------------------------------------------------------------

    async def _handle(self, command: Command) -> None:
        """Carry out one command (a ``_cmd_<name>`` method of a layer) and answer it."""
        handler = getattr(self, f"_cmd_{command.name}", None)
        try:
            if handler is None:
                raise TableError(Code.INTERNAL, f"no command {command.name!r}")
            result = handler(command.session, **command.args)
        except TableError as exc:
            if not command.reply.done():
                command.reply.set_exception(exc)
            return
        except EngineError as exc:
            if not command.reply.done():
                command.reply.set_exception(TableError(engine_code(exc), str(exc)))
            return
        except Exception:  # a bug costs this one command, not the table
            log.exception("table %s: error in command %r", self.settings.table_id, command.name)
            if not command.reply.done():
                command.reply.set_exception(
                    TableError(Code.INTERNAL, "the table failed to carry out this command")
                )
            return
        try:  # a host's control is on record before its reply
            await self._flush_host()
        except Exception as exc:  # the database is away: kept, and recorded next time
            log.warning("table %s: a host's control not recorded yet (%s)",
                        self.settings.table_id, exc)  # fmt: skip
        if not command.reply.done():
            command.reply.set_result(result)
        # Let the session send this reply before the table goes on, when the next action
        # request may be this player's (after a resume or a sit, on the next street, in the
        # next hand). When another player is to act, an ack need not wait: every turn of
        # the event loop is latency.
        to_act = self.table.to_act
        if command.name != "act" or to_act is None or to_act == self._seat_of(command.session):
            await asyncio.sleep(0)
        await self._finish_if_over()

    def _cmd_noop(self, session: Subscriber | None) -> dict[str, Any]:
        return {}
