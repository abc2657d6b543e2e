"""Decisions and their clock: asking the player to act, their answer (``act``), the
decision time and the time bank, and what a timeout does (check if free, else fold; sit
out after too many)."""

from __future__ import annotations

from functools import partial
from typing import Any

from engine import Action
from server import protocol
from server.errors import Code
from server.tables.actions import action_from_wire, default_action
from server.tables.base import Player, Seat, Subscriber, TableError
from server.tables.house import HouseBots

ACTION_IDS_KEPT = 10_000  # answers remembered for retries of an action


class Decisions(HouseBots):
    """Asks for each decision, takes the answer, and runs the clock."""

    def _ask_for_action(self) -> float:
        """Send the player to act an action request when a new decision starts; return the
        seconds left on their clock (decision time plus time bank)."""
        seat = self.table.to_act
        assert seat is not None and self.table.hand is not None
        key = (self.table.hand_number, seat, len(self.table.hand.log))
        occupant = self.seats[seat]
        if self._decision != key or self._resend == seat:
            again = self._decision == key  # the same request, after a resume
            if not again:  # a new decision: its clock starts now
                self._decision = key
                self._decision_started = self.clock()
                self._decision_seq = self.seq
            self._resend = None
            if occupant.session is not None:
                self._send_action_request(seat, occupant, again=again)
            if seat in self.house:
                self._house_decides(seat, key)
        return self._time_left(occupant)

    def _send_action_request(self, seat: int, occupant: Seat, *, again: bool = False) -> None:
        """The request for ``seat``'s decision; sent ``again`` after a resume, it also says
        how long the decision has run (a page reloaded mid-decision shows the time really
        left, not a fresh clock)."""
        session = occupant.session
        assert session is not None
        menu = self.table.legal_actions(seat)
        assert menu is not None
        request: dict[str, Any] = {
            "type": "action_request",
            "table": self.settings.table_id,
            "seq": self._decision_seq,
            "hand_number": self.table.hand_number,
            "seat": seat,
            "menu": protocol.menu_body(menu),
            "decision_seconds": self.settings.decision_seconds,
            "time_bank_seconds": occupant.time_bank,
        }
        if again:
            request["elapsed_seconds"] = round(self.clock() - self._decision_started, 3)
        self._deliver(session, partial(session.send, protocol.dumps(request), urgent=True))

    def _time_left(self, occupant: Seat) -> float:
        """Seconds left on the decision's clock: decision time plus time bank, and for a
        player who is disconnected no more than what is left of the grace period."""
        elapsed = self.clock() - self._decision_started
        limit = self.settings.decision_seconds + occupant.time_bank
        if occupant.disconnected_at is not None:
            gone = self.clock() - occupant.disconnected_at
            limit = min(limit, max(0.0, self.settings.reconnect_grace_seconds - gone + elapsed))
        return max(0.0, limit - elapsed)

    def _spend_clock(self, seat: int) -> None:
        """The decision is over: what it took beyond the decision time comes off the bank."""
        elapsed = self.clock() - self._decision_started
        occupant = self.seats[seat]
        occupant.time_bank = max(
            0.0, occupant.time_bank - max(0.0, elapsed - self.settings.decision_seconds)
        )

    def _time_out(self) -> None:
        """The clock ran out: check if that is free, otherwise fold."""
        seat = self.table.to_act
        assert seat is not None
        occupant = self.seats[seat]
        self._spend_clock(seat)
        occupant.timeouts += 1
        self._publish(self.table.apply(self._default_action(seat)))
        if occupant.disconnected_at is not None:
            self._absent.add(seat)
        if occupant.timeouts >= self.settings.timeouts_to_sit_out or seat in self._absent:
            self._sit_out(seat)

    def _default_action(self, seat: int) -> Action:
        """What a seat nobody answers for does: check if that is free, else fold."""
        menu = self.table.legal_actions(seat)
        assert menu is not None
        return default_action(menu)

    def _cmd_act(
        self, session: Subscriber, *, player: Player, action_id: str, action: str,
        amount: int | None, seq: int | None = None, discard: list[str] | None = None,
        agree: bool | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        key = (player.id, action_id)
        if key in self.action_ids:  # a retry: answer again, act once
            return {**self.action_ids[key], "duplicate": True}
        seat = self._require_seat(session)
        if self.table.to_act != seat:
            raise TableError(Code.NOT_YOUR_TURN, f"it is not seat {seat}'s turn")
        if seq is not None and seq != self._decision_seq:
            raise TableError(
                Code.STALE, f"the decision of seq {seq} is over: answer the request of seq "
                f"{self._decision_seq}",
            )  # fmt: skip
        menu = self.table.legal_actions(seat)
        assert menu is not None
        move = action_from_wire(menu, action, amount, discard, agree)
        self._spend_clock(seat)
        self._publish(self.table.apply(move))
        self.seats[seat].timeouts = 0
        reply = {"type": "ack", "table": self.settings.table_id, "action_id": action_id}
        self.action_ids[key] = reply
        if len(self.action_ids) > ACTION_IDS_KEPT:
            self.action_ids.popitem(last=False)
        return reply
