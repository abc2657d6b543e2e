"""Decisions and their clock: asking the player to act, their answer (``act``), the
decision time and the time bank, and what a timeout does (check if free, else fold; sit
out after too many). The clock is arithmetic on the ``now`` the core is given: the
decision's deadline is a time, which the runner waits for."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from engine import Action
from server import protocol
from server.errors import Code
from server.tables.actions import action_from_wire, default_action
from server.tables.base import Seat, TableError
from server.tables.messages import Caller

if TYPE_CHECKING:
    from server.tables.core import TableCore

ACTION_IDS_KEPT = 10_000  # answers remembered for retries of an action


class Decisions:
    """The decision the table waits for, its clock, and the answers given."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.current: tuple[int, int, int] | None = None  # (hand, seat, actions so far)
        self.seq = 0  # the table's seq when the decision began: its requests' seq
        self.started = 0.0
        self.resend: int | None = None  # a seat whose player reconnected mid-decision
        self.absent: set[int] = set()  # disconnected seats whose clock ran out this hand
        self.answers: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()

    def ask(self) -> None:
        """Send the player to act an action request when a new decision starts (its clock
        starts now), or again to a player back mid-decision; a house bot picks."""
        core = self.core
        key = self.key()
        assert key is not None
        seat = key[1]
        occupant = core.seats.occupants[seat]
        if self.current == key and self.resend != seat:
            return
        again = self.current == key  # the same request, after a resume
        if not again:
            self.current = key
            self.started = core.now
            self.seq = core.fanout.seq
            if seat in core.house.bots:
                core.house.decide(seat, key)
        self.resend = None
        if occupant.session is not None:
            self._send_request(seat, occupant, again=again)

    def key(self) -> tuple[int, int, int] | None:
        """The decision the table waits for now: (hand, seat, actions so far)."""
        table = self.core.table
        if table.to_act is None or table.hand is None:
            return None
        return (table.hand_number, table.to_act, len(table.hand.log))

    def _send_request(self, seat: int, occupant: Seat, *, again: bool = False) -> None:
        """The request for ``seat``'s decision; sent ``again`` after a resume, it also says
        how long the decision has run (a page reloaded mid-decision shows the time really
        left, not a fresh clock)."""
        core = self.core
        session = occupant.session
        assert session is not None
        menu = core.table.legal_actions(seat)
        assert menu is not None
        request: dict[str, Any] = {
            "type": "action_request",
            "table": core.table_id,
            "seq": self.seq,
            "hand_number": core.table.hand_number,
            "seat": seat,
            "menu": protocol.menu_body(menu),
            "decision_seconds": core.settings.decision_seconds,
            "time_bank_seconds": occupant.time_bank,
        }
        if again:
            request["elapsed_seconds"] = round(core.now - self.started, 3)
        core.fanout.send(session, request, urgent=True)

    def deadline(self) -> float | None:
        """When the decision's clock runs out: decision time plus time bank, and for a
        player who is disconnected no later than the end of their grace period."""
        if self.current is None or self.current != self.key():
            return None  # the decision now is not asked yet (its clock has not started)
        seat = self.current[1]
        settings = self.core.settings
        occupant = self.core.seats.occupants[seat]
        limit = self.started + settings.decision_seconds + occupant.time_bank
        if occupant.disconnected_at is not None:
            grace_ends = occupant.disconnected_at + settings.reconnect_grace_seconds
            limit = min(limit, max(self.started, grace_ends))
        return limit

    def timed_out(self) -> bool:
        """Whether the decision being waited for has run out of time."""
        deadline = self.deadline()
        return deadline is not None and deadline <= self.core.now

    def _spend_clock(self, seat: int) -> None:
        """The decision is over: what it took beyond the decision time comes off the bank."""
        elapsed = self.core.now - self.started
        occupant = self.core.seats.occupants[seat]
        over = max(0.0, elapsed - self.core.settings.decision_seconds)
        occupant.time_bank = max(0.0, occupant.time_bank - over)

    def time_out(self) -> None:
        """The clock ran out: check if that is free, otherwise fold."""
        core = self.core
        seat = core.table.to_act
        assert seat is not None
        occupant = core.seats.occupants[seat]
        self._spend_clock(seat)
        occupant.timeouts += 1
        core.publish(core.table.apply(self.default_action(seat)))
        if occupant.disconnected_at is not None:
            self.absent.add(seat)
        if occupant.timeouts >= core.settings.timeouts_to_sit_out or seat in self.absent:
            core.seats.sit_out_seat(seat)

    def default_action(self, seat: int) -> Action:
        """What a seat nobody answers for does: check if that is free, else fold."""
        menu = self.core.table.legal_actions(seat)
        assert menu is not None
        return default_action(menu)

    def act(self, m: protocol.Act, caller: Caller) -> dict[str, Any]:
        core = self.core
        key = (caller.player.id, m.action_id)
        if key in self.answers:  # a retry: answer again, act once
            return {**self.answers[key], "duplicate": True}
        seat = core.seats.require(caller.session)
        if core.table.to_act != seat:
            raise TableError(Code.NOT_YOUR_TURN, f"it is not seat {seat}'s turn")
        if m.seq is not None and m.seq != self.seq:
            raise TableError(
                Code.STALE, f"the decision of seq {m.seq} is over: answer the request of seq "
                f"{self.seq}",
            )  # fmt: skip
        menu = core.table.legal_actions(seat)
        assert menu is not None
        move = action_from_wire(menu, m.action, m.amount, m.discard, m.agree)
        self._spend_clock(seat)
        core.publish(core.table.apply(move))
        core.seats.occupants[seat].timeouts = 0
        reply = {"type": "ack", "table": core.table_id, "action_id": m.action_id}
        self.answers[key] = reply
        if len(self.answers) > ACTION_IDS_KEPT:
            self.answers.popitem(last=False)
        return reply
