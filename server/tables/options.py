"""A table's options between and after hands (docs/rules.md O1-O8, docs/home-games.md):
players opting in to straddle, votes for a bomb pot (and the host's call for one), and
the pause after each hand in which players show their cards and anyone may ask for the
rabbit. The engine plays every option; this layer takes the players' requests for them.

The hand is stored when the pause is over, so what was shown and the rabbit are in its
history, its exports and ``pokerroom verify``."""

from __future__ import annotations

import asyncio
from typing import Any

from engine import BombPotStarted, EngineError, Event, parse_cards
from server import protocol
from server.errors import Code
from server.tables.base import Player, Subscriber, TableError
from server.tables.hosted import Hosted


class TableOptions(Hosted):
    """Straddles, bomb pot votes, showing cards and the rabbit."""

    # -- between hands ---------------------------------------------------------------------

    def _cmd_straddle(self, session: Subscriber, on: bool) -> dict[str, Any]:
        """Opt in to (or out of) straddling, from the next hand."""
        seat = self._require_seat(session)
        self.table.set_straddle(seat, on)  # the engine refuses a game without straddles
        self._tell_everyone({"type": "straddle", "seat": seat, "on": on})
        return {"type": "straddle_set", "table": self.settings.table_id, "on": on}

    def _cmd_bomb_pot(self, session: Subscriber, player: Player, on: bool) -> dict[str, Any]:
        """A seated player's vote for a bomb pot next hand: more than half of the seated
        players calls one."""
        self._require_seat(session)
        if not self.table.config.bomb_pot:
            raise TableError(Code.ILLEGAL, "this table has no bomb pots (its bomb_pot is 0)")
        if on:
            self.bomb_votes.add(player.id)
        else:
            self.bomb_votes.discard(player.id)
        voters = {o.player.id for o in self.seats.values()}
        self.bomb_votes &= voters
        needed = len(voters) // 2 + 1
        names = sorted(o.player.name for o in self.seats.values() if o.player.id in self.bomb_votes)
        called = len(names) >= needed
        if called:  # the votes are spent
            self._call_bomb_pot(None)
        self._tell_everyone(
            {"type": "bomb_pot_votes", "votes": names, "needed": needed, "called": called}
        )
        return {"type": "bomb_pot_voted", "table": self.settings.table_id, "on": on}

    def _host_bomb_pot(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        boards = self._call_bomb_pot(m.boards)
        return {"boards": boards}, None

    def _call_bomb_pot(self, boards: int | None) -> int:
        """The next hand is a bomb pot (the engine says no during a hand: then the next
        after it is); the votes are spent."""
        if not self.table.config.bomb_pot:
            raise TableError(Code.ILLEGAL, "this table has no bomb pots (its bomb_pot is 0)")
        if self.table.hand_in_progress:
            self.bomb_pot_next = boards or self.table.config.bomb_pot_boards
        else:
            self.table.call_bomb_pot(boards)
        self.bomb_votes.clear()
        return boards or self.table.config.bomb_pot_boards

    def _between_hands(self) -> None:
        super()._between_hands()
        if self.bomb_pot_next and self.table.config.bomb_pot:
            self.table.call_bomb_pot(self.bomb_pot_next)
        self.bomb_pot_next = 0

    def _publish(self, events: list[Event]) -> None:
        if any(isinstance(event, BombPotStarted) for event in events):
            self.bomb_votes.clear()
        super()._publish(events)

    # -- after a hand ----------------------------------------------------------------------

    def _cmd_show(self, session: Subscriber, cards: list[str]) -> dict[str, Any]:
        """Show some or all of your cards, after the hand and before the next."""
        seat = self._require_seat(session)
        try:
            shown = parse_cards(" ".join(cards))
        except EngineError as exc:
            raise TableError(Code.BAD_CARDS, f"show: {exc}") from None
        self._require_pause("cards are shown")
        self._publish(self.table.show_cards(seat, shown))
        return {"type": "shown", "table": self.settings.table_id}

    def _cmd_rabbit(self, session: Subscriber) -> dict[str, Any]:
        """The board that would have come: anyone watching may ask, once a hand."""
        if session not in self.subscribers:
            raise TableError(Code.NOT_WATCHING, "watch the table first (spectate or sit)")
        self._require_pause("the rabbit is hunted")
        events = self.table.rabbit_hunt()
        self._publish(events)
        return {"type": "rabbit", "table": self.settings.table_id, "dealt": bool(events)}

    def _require_pause(self, what: str) -> None:
        if not self.in_show_pause:
            raise TableError(
                Code.ILLEGAL, f"{what} in the pause after a hand ({self.settings.show_seconds:g} "
                "s at this table), not during a hand or after the next is dealt",
            )  # fmt: skip

    async def _after_hand(self) -> None:
        """The pause after a hand (``show_seconds``): commands are carried out as they
        come, before the hand is stored and the next dealt."""
        left = self.settings.show_seconds
        if left <= 0:
            return
        loop = asyncio.get_running_loop()
        deadline = self.pause_ends = loop.time() + left
        try:
            while not self._closing and not self.close_when_over:
                left = deadline - loop.time()
                if left <= 0:
                    break
                try:
                    async with asyncio.timeout(left):
                        command = await self.queue.get()
                except TimeoutError:
                    break
                await self._handle(command)
        finally:
            self.pause_ends = None

    @property
    def in_show_pause(self) -> bool:
        return self.pause_ends is not None
