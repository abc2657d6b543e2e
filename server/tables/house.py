"""House bots: the table's own players (the demo table's), seated by the server, who buy
in again when they bust. A house bot picks its action when its decision starts and plays
it :attr:`TableCore.house_think_seconds` later, so that people can follow it: the core's
deadline (:meth:`TableCore.deadline`) brings the runner back then."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from engine import Action, EngineError, RunItTwice
from server import protocol
from server.errors import Code
from server.tables.actions import default_action
from server.tables.base import Done, Player, Seat, TableError
from server.tables.messages import AddHouseBot, HouseSit

if TYPE_CHECKING:
    from server.tables.core import TableCore

log = logging.getLogger("pokerroom")


class HouseBots:
    """The house bots by seat, and the action one of them has picked."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.bots: dict[int, tuple[Player, Any, int]] = {}  # seat -> (player, strategy, buy-in)
        self.leaving: set[int] = set()  # house bots the host removed mid-hand
        self.due: tuple[tuple[int, int, int], Action, float] | None = None
        """The action a bot picked: (the decision it answers, the action, when to play it)."""

    def sit(self, m: HouseSit) -> dict[str, Any]:
        for seat, (player, bot) in m.bots.items():
            self.bots[seat] = (player, bot, m.stack)
            self.seat(seat)
        return {}

    def add(self, m: AddHouseBot) -> Done:
        """The host's ``house_bot``: the bot sits in the seat asked for, now."""
        core, seat = self.core, m.host.seat
        if seat is None:
            raise TableError(Code.BAD_MESSAGE, "host: house_bot needs a seat and a strategy")
        if seat >= core.table.config.seats or seat in core.seats.occupants:
            raise TableError(Code.SEAT_TAKEN, f"seat {seat} is not free")
        if core.seats.of_player(m.player) is not None:
            raise TableError(Code.ALREADY_SEATED, f"{m.player.name} already has a seat here")
        self.bots[seat] = (m.player, m.strategy, core.table.config.max_buy_in)
        self.seat(seat)
        return {"seat": seat, "player": m.player.name, "strategy": m.host.strategy}, m.player.id

    def remove(self, m: protocol.Host) -> Done:
        """The host's ``remove_bot``: the bot stands up now, or after the hand it plays."""
        core, seat = self.core, m.seat
        if seat is None or seat not in self.bots or seat not in core.seats.occupants:
            raise TableError(Code.ILLEGAL, f"no house bot sits in seat {seat}")
        player = core.seats.occupants[seat].player
        hand = core.table.hand
        if core.table.hand_in_progress and hand is not None and seat in hand.position:
            core.seats.leaving.add(seat)
            self.leaving.add(seat)
        else:
            core.seats.stand_up(seat)
            del self.bots[seat]
        return {"seat": seat, "player": player.name}, player.id

    def seat(self, seat: int) -> None:
        core = self.core
        player, _, stack = self.bots[seat]
        core.publish(core.table.sit_down(seat, stack, wait_for_big_blind=False))
        core.seats.occupants[seat] = Seat(
            player, None, core.settings.time_bank_seconds, core.fanout.seq
        )
        core.views.joined(seat)
        core.seats.ledger(player.id, stack, "buy_in")

    def decide(self, seat: int, key: tuple[int, int, int]) -> None:
        """A house bot picks its action now, to play it after a moment."""
        core = self.core
        menu = core.table.legal_actions(seat)
        assert menu is not None
        try:
            # Asked to run it twice, the house always agrees: the strategies know nothing
            # of it, and half the pot each run changes no expectation.
            action = (
                RunItTwice(seat, True)
                if menu.run_it_twice
                else self.bots[seat][1].act(core.table.view(seat), menu)
            )
            if not menu.allows(action):
                raise ValueError(f"{action!r} is not on its menu")
        except Exception:  # a bot's bug costs its decision, never the table's time
            log.exception("table %s: house bot at seat %d failed", core.table_id, seat)
            action = default_action(menu)
        self.due = (key, action, core.now + core.house_think_seconds)

    def play_due(self) -> bool:
        """Play the action picked, once its moment has come, if the decision it answers is
        still the table's (the clock may have settled it meanwhile). True if played."""
        core = self.core
        if self.due is None or self.due[2] > core.now:
            return False
        key, action, _ = self.due
        self.due = None
        if core.decisions.current != key or core.decisions.key() != key:
            return False
        try:
            events = core.table.apply(action)
        except EngineError:  # a draw of cards it does not hold, say
            log.exception("table %s: house bot's action refused", core.table_id)
            menu = core.table.legal_actions(action.seat)
            assert menu is not None
            events = core.table.apply(default_action(menu))
        core.publish(events)
        return True

    def pick_game(self, seat: int, games: list[str], current: str) -> str:
        """A house bot's pick of dealer's choice: its strategy's ``choose_game`` if it has
        one, else the game after the current one on the list, so a table of bots plays
        them all."""
        choose = getattr(self.bots[seat][1], "choose_game", None)
        if choose is not None:
            try:
                picked = choose(games)
                if picked in games:
                    return str(picked)
            except Exception:  # a bot's bug costs its pick, never the table
                log.exception(
                    "table %s: house bot at seat %d failed to pick", self.core.table_id, seat
                )
        return games[(games.index(current) + 1) % len(games)]

    def settle(self) -> None:
        """Between hands: the bots the host removed during the hand stand up."""
        for seat in self.leaving:
            if seat in self.core.seats.occupants:
                self.core.seats.stand_up(seat)
            self.bots.pop(seat, None)
        self.leaving.clear()
