"""A table's options between and after hands (docs/rules.md O1-O8, docs/home-games.md):
players opting in to straddle, votes for a bomb pot (and the host's call for one), and
the pause after each hand in which players show their cards and anyone may ask for the
rabbit. The engine plays every option; this part takes the players' requests for them.

The pause is a state with a deadline (:attr:`Options.pause_ends`, on the core's clock):
the hand is stored when it is over, so what was shown and the rabbit are in its history,
its exports and ``pokerroom verify``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import BombPotStarted, EngineError, Event, parse_cards
from server import protocol
from server.errors import Code
from server.tables.base import TableError
from server.tables.messages import Caller

if TYPE_CHECKING:
    from server.tables.core import TableCore


class Options:
    """Straddles, bomb pot votes, showing cards and the rabbit."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.bomb_votes: set[int] = set()  # player ids voting for a bomb pot next hand
        self.bomb_pot_next = 0  # boards of a bomb pot called during a hand, for the next
        self.pause_ends: float | None = None  # the pause after a hand: shows, rabbit

    # -- between hands ---------------------------------------------------------------------

    def straddle(self, m: protocol.Straddle, caller: Caller) -> dict[str, Any]:
        """Opt in to (or out of) straddling, from the next hand."""
        core = self.core
        seat = core.seats.require(caller.session)
        core.table.set_straddle(seat, m.on)  # the engine refuses a game without straddles
        core.fanout.tell_everyone({"type": "straddle", "seat": seat, "on": m.on})
        return {"type": "straddle_set", "table": core.table_id, "on": m.on}

    def bomb_pot(self, m: protocol.BombPot, caller: Caller) -> dict[str, Any]:
        """A seated player's vote for a bomb pot next hand: more than half of the seated
        players calls one."""
        core, player = self.core, caller.player
        core.seats.require(caller.session)
        if not core.table.config.bomb_pot:
            raise TableError(Code.ILLEGAL, "this table has no bomb pots (its bomb_pot is 0)")
        if m.on:
            self.bomb_votes.add(player.id)
        else:
            self.bomb_votes.discard(player.id)
        occupants = core.seats.occupants.values()
        voters = {o.player.id for o in occupants}
        self.bomb_votes &= voters
        needed = len(voters) // 2 + 1
        names = sorted(o.player.name for o in occupants if o.player.id in self.bomb_votes)
        called = len(names) >= needed
        if called:  # the votes are spent
            self.call_bomb_pot(None)
        core.fanout.tell_everyone(
            {"type": "bomb_pot_votes", "votes": names, "needed": needed, "called": called}
        )
        return {"type": "bomb_pot_voted", "table": core.table_id, "on": m.on}

    def call_bomb_pot(self, boards: int | None) -> int:
        """The next hand is a bomb pot (the engine says no during a hand: then the next
        after it is); the votes are spent."""
        table = self.core.table
        if not table.config.bomb_pot:
            raise TableError(Code.ILLEGAL, "this table has no bomb pots (its bomb_pot is 0)")
        if table.hand_in_progress:
            self.bomb_pot_next = boards or table.config.bomb_pot_boards
        else:
            table.call_bomb_pot(boards)
        self.bomb_votes.clear()
        return boards or table.config.bomb_pot_boards

    def between_hands(self) -> None:
        """A bomb pot called during the last hand is the next one's."""
        table = self.core.table
        if self.bomb_pot_next and table.config.bomb_pot:
            table.call_bomb_pot(self.bomb_pot_next)
        self.bomb_pot_next = 0

    def saw(self, events: list[Event]) -> None:
        """A bomb pot dealt spends the votes for one."""
        if any(isinstance(event, BombPotStarted) for event in events):
            self.bomb_votes.clear()

    # -- after a hand ----------------------------------------------------------------------

    def show(self, m: protocol.Show, caller: Caller) -> dict[str, Any]:
        """Show some or all of your cards, after the hand and before the next."""
        core = self.core
        seat = core.seats.require(caller.session)
        try:
            shown = parse_cards(" ".join(m.cards))
        except EngineError as exc:
            raise TableError(Code.BAD_CARDS, f"show: {exc}") from None
        self._require_pause("cards are shown")
        core.publish(core.table.show_cards(seat, shown))
        return {"type": "shown", "table": core.table_id}

    def rabbit(self, m: protocol.Rabbit, caller: Caller) -> dict[str, Any]:
        """The board that would have come: anyone watching may ask, once a hand."""
        core = self.core
        if caller.session not in core.fanout.subscribers:
            raise TableError(Code.NOT_WATCHING, "watch the table first (spectate or sit)")
        self._require_pause("the rabbit is hunted")
        events = core.table.rabbit_hunt()
        core.publish(events)
        return {"type": "rabbit", "table": core.table_id, "dealt": bool(events)}

    def _require_pause(self, what: str) -> None:
        if self.pause_ends is None:
            raise TableError(
                Code.ILLEGAL, f"{what} in the pause after a hand "
                f"({self.core.settings.show_seconds:g} s at this table), not during a hand "
                "or after the next is dealt",
            )  # fmt: skip

    def start_pause(self) -> bool:
        """A hand is over: the pause after it begins (False: this table has none)."""
        if self.core.settings.show_seconds <= 0:
            return False
        self.pause_ends = self.core.now + self.core.settings.show_seconds
        return True

    def pause_over(self) -> bool:
        """Whether the pause has ended (its time is up, or the table is closing): the
        pause is then over."""
        core = self.core
        if self.pause_ends is None:
            return True
        if self.pause_ends <= core.now or core.closing or core.host.close_when_over:
            self.pause_ends = None
            return True
        return False

    def pause_left(self) -> float | None:
        """Seconds left of the pause after a hand (None: not in one): a page reloaded
        during it still offers to show cards and hunt the rabbit."""
        if self.pause_ends is None:
            return None
        return round(max(0.0, self.pause_ends - self.core.now), 3)
