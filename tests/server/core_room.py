"""A table core driven by hand, with no event loop: the table-rule tests' harness.

:class:`Room` holds a :class:`server.tables.TableCore` and a fake clock. ``room.send``
carries out one client message as the wire would parse it, and then everything the
runner would do about the outbox at once: deliver to each :class:`Inbox`, publish to
``room.published``, record the ledger and the host's controls, store a finished hand,
and let the table move on. ``room.wait(seconds)`` moves the clock on and lets the table
do what has come due (timeouts, a house bot's action, the pause's end).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine import TableConfig
from server import protocol
from server.errors import Refusal
from server.fairness import HandIdentity, Shuffle
from server.tables import Caller, HostRecord, Outbox, Player, TableCore, TableSettings
from server.tables.base import LedgerEntry
from server.tables.messages import Send, SendTable, TableMessage
from tests.server.clients import Inbox

TABLE = "t"
STEPS = 10_000  # the most a wait may take: a table of house bots with no think time plays on


def fixed_shuffle(table_id: str, number: int) -> Shuffle:
    """Hand ``number``'s shuffle from a seed fixed by its number: the same deals each run."""
    return Shuffle(HandIdentity(table_id, number), hashlib.sha256(b"%d" % number).digest())


class Room:
    """One table core, its people (an :class:`Inbox` each) and what it left to do."""

    def __init__(self, config: TableConfig | None = None, **settings: Any) -> None:
        config = config or TableConfig(small_blind=1, big_blind=2, seats=6)
        self.now = 1000.0
        self.core = TableCore(
            TableSettings(TABLE, "T", config, **settings), self.now,
            new_shuffle=fixed_shuffle, house_think_seconds=0.0,
        )  # fmt: skip
        self.people: dict[str, tuple[Inbox, Player]] = {}
        self.ledger: list[LedgerEntry] = []
        self.host_records: list[HostRecord] = []
        self.stored: list[int] = []  # numbers of the hands stored, in order
        self.published: list[tuple[str, bytes, bool]] = []
        self.store_later = False  # hold finished hands (a slow database): see store()
        self.held: Outbox | None = None

    # -- people -------------------------------------------------------------------------

    def person(self, name: str, *, bot: bool = False) -> Inbox:
        """``name``'s connection (made the first time)."""
        if name not in self.people:
            self.people[name] = (Inbox(), Player(len(self.people) + 1, name, bot=bot))
        return self.people[name][0]

    def caller(self, name: str) -> Caller:
        inbox = self.person(name)
        return Caller(inbox, self.people[name][1], f"10.0.0.{self.people[name][1].id}")

    def player(self, name: str) -> Player:
        self.person(name)
        return self.people[name][1]

    # -- messages and time ----------------------------------------------------------------

    def send(self, name: str, **message: Any) -> dict[str, Any]:
        """``name``'s message (its ``type`` and fields, as on the wire; ``table`` is
        filled in), carried out; the reply, or the refusal raised."""
        m = protocol.parse(json.dumps({"table": TABLE, **message}))
        return self.submit(m, self.caller(name))  # type: ignore[arg-type]

    def submit(self, message: TableMessage, caller: Caller) -> dict[str, Any]:
        out = self.core.handle(message, caller, self.now)
        self._carry_out(out)
        self.advance()
        if out.refusal is not None:
            raise out.refusal
        assert out.reply is not None
        return out.reply

    def refused(self, name: str, **message: Any) -> Refusal:
        """The refusal of ``name``'s message (the test fails if it is carried out)."""
        try:
            reply = self.send(name, **message)
        except Refusal as exc:
            return exc
        raise AssertionError(f"carried out: {reply}")

    def wait(self, seconds: float) -> None:
        """The clock moves on; the table does what came due meanwhile, in order."""
        end = self.now + seconds
        for _ in range(STEPS):
            due = self.core.deadline()
            if due is None or due > end:
                break
            self.now = max(self.now, due)
            self.advance()
        else:  # house bots that never think keep a table of bots busy for ever
            raise AssertionError(f"the table never waited in {STEPS} steps")
        self.now = end
        self.advance()

    def advance(self) -> None:
        while True:
            out = self.core.advance(self.now)
            self._carry_out(out)
            if out.hand_over is None:
                return
            if self.store_later:
                self.held = out
                return
            self.store()

    def store(self) -> None:
        """The finished hand is stored: the table settles its seats and goes on."""
        hand = self.core.storing
        assert hand is not None
        self.stored.append(hand.number)
        self.held = None
        self._carry_out(self.core.hand_stored(self.now))

    def _carry_out(self, out: Outbox) -> None:
        for delivery in out.deliveries:
            inbox = delivery.to
            assert isinstance(inbox, Inbox)
            if isinstance(delivery, Send):
                inbox.send(delivery.text)
            elif isinstance(delivery, SendTable):
                inbox.send_table(TABLE, delivery.hand_number, delivery.texts)
        self.published += out.publish
        self.ledger += out.ledger
        self.core.ledger_recorded(len(out.ledger))
        self.host_records += out.host_records

    # -- reading ------------------------------------------------------------------------

    def sit(self, name: str, seat: int | None = None, buy_in: int = 100) -> dict[str, Any]:
        return self.send(name, type="sit", seat=seat, buy_in=buy_in, wait_for_big_blind=False)

    def to_act(self) -> str | None:
        """The name of whoever is to act, if anyone."""
        seat = self.core.table.to_act
        return None if seat is None else self.core.seats.occupants[seat].player.name

    def request(self, name: str) -> dict[str, Any]:
        """The last action request ``name`` was sent."""
        inbox = self.person(name)
        return [m for m in inbox.messages if m["type"] == "action_request"][-1]

    def act(self, name: str, action: str, **fields: Any) -> dict[str, Any]:
        """``name`` answers their last action request."""
        number = sum(1 for m in self.person(name).messages if m["type"] == "action_request")
        return self.send(name, type="act", action_id=f"{name}-{number}", action=action,
                         seq=self.request(name)["seq"], **fields)  # fmt: skip

    def check_or_call(self) -> None:
        """Whoever is to act checks, or calls."""
        name = self.to_act()
        assert name is not None
        self.act(name, "check" if self.request(name)["menu"]["can_check"] else "call")

    def play_hand(self) -> None:
        """Everyone checks or calls until the hand being played is over."""
        number = self.core.table.hand_number
        while self.core.table.hand_in_progress and self.core.table.hand_number == number:
            self.check_or_call()
