"""House bots: the table's own players (the demo table's), seated by the server, who buy
in again when they bust and play through the table's queue like everyone else."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from engine import Action, EngineError, RunItTwice
from server.tables.actions import default_action
from server.tables.base import Command, Player, Seat, Subscriber
from server.tables.seating import Seating

log = logging.getLogger("pokerroom")


class HouseBots(Seating):
    """Seats house bots and plays their decisions."""

    def _cmd_house_sit(
        self, session: Subscriber | None, bots: dict[int, tuple[Player, Any]], stack: int
    ) -> dict[str, Any]:
        """Seat house bots, all at once so that no hand starts with only some of them."""
        for seat, (player, bot) in bots.items():
            self.house[seat] = (player, bot, stack)
            self._seat_house_bot(seat)
        return {}

    def _seat_house_bot(self, seat: int) -> None:
        player, _, stack = self.house[seat]
        self._publish(self.table.sit_down(seat, stack, wait_for_big_blind=False))
        self.seats[seat] = Seat(player, None, self.settings.time_bank_seconds, self.seq)
        self._joined(seat)
        self.pending_ledger.append((player.id, stack, "buy_in"))

    def _house_decides(self, seat: int, key: tuple[int, int, int]) -> None:
        """A house bot picks its action now (in this task, which owns the table) and plays
        it after a moment."""
        menu = self.table.legal_actions(seat)
        assert menu is not None
        try:
            # Asked to run it twice, the house always agrees: the strategies know nothing
            # of it, and half the pot each run changes no expectation.
            action = (
                RunItTwice(seat, True)
                if menu.run_it_twice
                else self.house[seat][1].act(self.table.view(seat), menu)
            )
            if not menu.allows(action):
                raise ValueError(f"{action!r} is not on its menu")
        except Exception:  # a bot's bug costs its decision, never the table's time
            log.exception("table %s: house bot at seat %d failed", self.settings.table_id, seat)
            action = default_action(menu)
        loop = asyncio.get_running_loop()
        command = Command("house_act", None, {"key": key, "action": action}, loop.create_future())
        loop.call_later(self.house_think_seconds, self.queue.put_nowait, command)

    def _cmd_house_act(
        self, session: Subscriber | None, key: tuple[int, int, int], action: Action
    ) -> dict[str, Any]:
        # Only if the decision it answers is still the table's: the clock may have
        # settled it meanwhile.
        if self._decision == key and self.table.to_act == action.seat:
            try:
                events = self.table.apply(action)
            except EngineError:  # a draw of cards it does not hold, say
                log.exception("table %s: house bot's action refused", self.settings.table_id)
                menu = self.table.legal_actions(action.seat)
                assert menu is not None
                events = self.table.apply(default_action(menu))
            self._publish(events)
        return {}
