"""A poker table across hands: seats, the button and blinds, sitting out, and one hand at a
time through :class:`engine.hand.Hand`, of whatever game its config names.

Actions in, events out: every method that changes the table returns the events it made,
and raises (changing nothing) when the rules say no. The rules and their sources are in
docs/rules.md.

>>> import random
>>> from engine.deck import Deck
>>> table = Table(TableConfig(small_blind=50, big_blind=100, seats=6))
>>> for seat in (0, 2, 4):
...     _ = table.sit_down(seat, 10_000)
>>> events = table.start_hand(Deck.shuffled(random.Random(1)))
>>> table.to_act, table.legal_actions(0).call
(0, 100)
>>> _ = table.apply(Fold(seat=0)); _ = table.apply(Fold(seat=2))
>>> table.hand_in_progress, table.stack(4)
(False, 10050)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum

from engine.actions import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, Fold
from engine.cards import Card
from engine.deck import Deck
from engine.errors import IllegalActionError, SeatingError
from engine.events import (
    BountyPaid,
    Event,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    PlayerStood,
    RabbitHunted,
)
from engine.hand import Hand, HandSetup, PublicState
from engine.rules import AnteKind, ButtonRule, RuleProfile, TableConfig

__all__ = ["BetOrRaiseTo", "CheckOrCall", "Fold", "SeatView", "Table", "TableView"]


@dataclass(slots=True)
class _Seat:
    stack: int
    sitting_out: bool = False
    waiting_for_big_blind: bool = False
    owes_blinds: bool = False  # missed a big blind while sitting out
    will_post: bool = False  # pays its way in next hand instead of waiting
    new: bool = True  # not dealt in since sitting down: must post or wait (P1)
    straddle: bool = False  # straddles when under the gun (or on the button, if allowed)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as a viewer may see it. ``cards`` are the hole cards if the viewer may see
    them (their own, or shown at showdown), else ``None``; ``has_cards`` says whether the
    player holds cards at all, and ``up_cards`` are those dealt face up, which everyone
    sees (stud)."""

    seat: int
    stack: int
    in_hand: bool
    folded: bool
    all_in: bool
    street_total: int
    hand_total: int
    sitting_out: bool
    waiting_for_big_blind: bool
    has_cards: bool
    cards: tuple[Card, ...] | None
    up_cards: tuple[Card, ...] = ()
    straddle: bool = False
    """The player straddles when under the gun (or on the button, where the table allows
    it): their standing choice, :meth:`Table.set_straddle`."""
    shown_cards: tuple[Card, ...] = ()
    """Hole cards the player chose to show after the hand (:meth:`Table.show_cards`),
    which everyone sees."""


@dataclass(frozen=True, slots=True)
class TableView:
    """What one viewer (a seat, or ``None`` for a spectator) may know about the table.

    ``pots`` are the main pot then side pots from streets already played; chips bet this
    street are each seat's ``street_total``.
    ``legal`` is the viewer's menu when it is their turn.
    """

    viewer: int | None
    config: TableConfig
    hand_number: int
    hand_in_progress: bool
    street: IntEnum | None
    board: tuple[Card, ...]
    pots: tuple[int, ...]
    button: int | None
    to_act: int | None
    seats: tuple[SeatView, ...]
    legal: ActionMenu | None
    boards: tuple[tuple[Card, ...], ...] = ()
    """Every board, where the hand has more than one (``board`` is the first: O4)."""


class Table:
    """A table of ``config.seats`` seats (numbered from 0) playing one hand at a time."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._seats: dict[int, _Seat] = {}
        self.hand: Hand | None = None
        self.hand_number = 0
        self.button: int | None = None
        self._last_big_blind: int | None = None
        self._last_small_blind: int | None = None
        self._dealt: dict[int, _Seat] = {}  # who was dealt into the current (or last) hand
        self._bomb_pot_called: int = 0  # boards of the bomb pot asked for next hand (0: none)

    # -- seating -----------------------------------------------------------------------

    @property
    def hand_in_progress(self) -> bool:
        """Whether a hand has started and not ended."""
        return self.hand is not None and not self.hand.is_over

    def occupied(self) -> list[int]:
        """Taken seats, in order."""
        return sorted(self._seats)

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` (outside any pot)."""
        if self.hand_in_progress and self.hand is not None and seat in self.hand.position:
            return self.hand.stacks[self.hand.position[seat]]
        return self._player(seat).stack

    def is_sitting_out(self, seat: int) -> bool:
        """Whether the player in ``seat`` is sitting out."""
        return self._player(seat).sitting_out

    def _player(self, seat: int) -> _Seat:
        if seat not in self._seats:
            raise SeatingError(f"seat {seat!r} is empty")
        return self._seats[seat]

    def _in_current_hand(self, seat: int) -> bool:
        return self.hand_in_progress and self.hand is not None and seat in self.hand.position

    def sit_down(self, seat: int, stack: int, *, wait_for_big_blind: bool = True) -> list[Event]:
        """Take an empty seat with a buy-in. A newcomer waits for the big blind to reach
        them, or with ``wait_for_big_blind=False`` posts a big blind to play next hand."""
        if not isinstance(seat, int) or not 0 <= seat < self.config.seats:
            raise SeatingError(
                f"seat {seat!r} does not exist; seats are 0..{self.config.seats - 1}"
            )
        if seat in self._seats:
            raise SeatingError(f"seat {seat} is taken")
        if not isinstance(stack, int) or isinstance(stack, bool):
            raise SeatingError(f"a buy-in must be an int, got {stack!r}")
        if not self.config.min_buy_in <= stack <= self.config.max_buy_in:
            raise SeatingError(
                f"a buy-in of {stack} is outside {self.config.min_buy_in}..{self.config.max_buy_in}"
            )
        # Before the first hand there is no big blind to wait for: everyone plays; in a
        # game without blinds nobody ever waits.
        waits = wait_for_big_blind and self._last_big_blind is not None and self.config.game.blinds
        self._seats[seat] = _Seat(stack, waiting_for_big_blind=waits, will_post=not waits)
        return [PlayerSat(seat=seat, stack=stack, waiting_for_big_blind=waits)]

    def set_stakes(
        self,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        *,
        bring_in: int | None = None,
        small_bet: int | None = None,
        big_bet: int | None = None,
    ) -> None:
        """Between hands: the blinds and ante from the next hand on (a tournament's blind
        levels), and a fixed-limit or stud game's bets (by default the big blind and twice
        it, as for a new table). An ante is paid as the table's ``ante_kind`` says (per
        player if none).

        >>> table = Table(TableConfig(small_blind=10, big_blind=20, seats=6))
        >>> table.set_stakes(25, 50, ante=5)
        >>> (table.config.big_blind, table.config.ante, table.config.ante_kind.value)
        (50, 5, 'per_player')
        """
        if self.hand_in_progress:
            raise IllegalActionError("the stakes change between hands, not during one")
        kind = self.config.ante_kind
        if not ante:
            kind = AnteKind.NONE
        elif kind is AnteKind.NONE:
            kind = AnteKind.PER_PLAYER
        # Built (and checked) before it replaces anything: a bad level changes nothing.
        self.config = replace(
            self.config,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            ante_kind=kind,
            bring_in=self.config.bring_in if bring_in is None else bring_in,
            small_bet=0 if small_bet is None else small_bet,
            big_bet=0 if big_bet is None else big_bet,
        )

    def set_config(self, config: TableConfig) -> None:
        """Between hands: play ``config`` (another game, other stakes) from the next hand
        on, as a mixed game's rotation does (:mod:`engine.mixed`). The seats stay, and
        the button goes on from where it was: a game without blinds puts the button on
        the next player, a game with blinds puts the big blind two past the last button.
        Another game forgets the last hand (:attr:`hand` is ``None``), whose streets and
        cards were not this game's, so views show none until the next hand.

        Raises :class:`IllegalActionError` during a hand, and :class:`SeatingError` for a
        config of another number of seats or a game that seats fewer than are seated;
        either way nothing changes.

        >>> from engine.games import game
        >>> table = Table(TableConfig(small_blind=10, big_blind=20, seats=6))
        >>> table.set_config(TableConfig(game=game("razz"), ante=2, ante_kind=AnteKind.PER_PLAYER,
        ...                              bring_in=5, small_bet=20, big_bet=40, seats=6))
        >>> table.config.game.key
        'razz'
        """
        if self.hand_in_progress:
            raise IllegalActionError("the game changes between hands, not during one")
        if not isinstance(config, TableConfig):
            raise SeatingError(f"a config is a TableConfig, got {config!r}")
        if config.seats != self.config.seats:
            raise SeatingError(
                f"the table has {self.config.seats} seats; a config of {config.seats} does not fit"
            )
        if len(self._seats) > config.game.max_players:
            raise SeatingError(
                f"{config.game.name} seats {config.game.max_players}, "
                f"and {len(self._seats)} players are seated"
            )
        before, after = self.config.game.blinds, config.game.blinds
        if self._last_big_blind is not None and self.button is not None and before != after:
            # Hands without blinds remember their button where blinds keep the big blind
            # (start_hand moves on from _last_big_blind): translate one into the other,
            # so that the button moves one seat, as it would within one game.
            if after:
                ring = sorted(self._seats) or [self.button]
                small = self._next_clockwise(self.button, ring)
                small = self.button if small is None else small
                big = self._next_clockwise(small, ring)
                # Heads-up the button posts the small blind: the big blind is the button.
                self._last_small_blind = small
                self._last_big_blind = small if big in (None, self.button) else big
            else:
                self._last_big_blind = self.button
                self._last_small_blind = None
        if config.game != self.config.game:
            # The last hand was of another game: its streets and cards are not this game's,
            # so views show no hand until the next is dealt.
            self.hand = None
        self.config = config

    def adjust_stack(self, seat: int, amount: int) -> int:
        """Add ``amount`` chips to a seat's stack, or take them away (a host's top-up or
        cut), but not below zero and not during the seat's hand; returns the change
        made. SeatingError if the seat is empty or in a hand being played."""
        player = self._player(seat)
        if self._in_current_hand(seat):
            raise SeatingError(f"seat {seat} is in a hand; change its stack when it ends")
        change = max(amount, -player.stack)
        player.stack += change
        return change

    def stand_up(self, seat: int) -> list[Event]:
        """Leave the table with your chips; not while in a hand that is being played."""
        player = self._player(seat)
        if self._in_current_hand(seat):
            raise SeatingError(f"seat {seat} is in a hand; stand up when it ends")
        del self._seats[seat]
        return [PlayerStood(seat=seat, stack=player.stack, reason="left")]

    def sit_out(self, seat: int) -> list[Event]:
        """Stay seated but stop being dealt in, from the next hand."""
        player = self._player(seat)
        if player.sitting_out:
            raise SeatingError(f"seat {seat} is already sitting out")
        player.sitting_out = True
        player.will_post = False
        return [PlayerSatOut(seat=seat)]

    def sit_in(self, seat: int, *, post: bool = False) -> list[Event]:
        """Come back after sitting out. A player who missed the big blind either posts the
        missed blinds now (``post=True``: big blind live, small blind dead) or waits for
        the big blind."""
        player = self._player(seat)
        if not player.sitting_out:
            raise SeatingError(f"seat {seat} is not sitting out")
        player.sitting_out = False
        # Owing blinds, or new and not yet dealt in: post now or wait (P1, P3).
        must_pay = self.config.game.blinds and (
            player.owes_blinds or (player.new and self._last_big_blind is not None)
        )
        waits = must_pay and not post
        player.waiting_for_big_blind = waits
        player.will_post = must_pay and post
        return [PlayerSatIn(seat=seat, waiting_for_big_blind=waits)]

    def set_straddle(self, seat: int, on: bool = True) -> None:
        """Opt in to (or out of) straddling: from the next hand, whenever this player is
        under the gun (or on the button, with ``TableConfig.button_straddle``) they post a
        live straddle of twice the big blind, act last before the flop, and a raise must
        be to at least twice the straddle (docs/rules.md O1, O2). The choice stands until
        changed; a hand already dealt is not affected. Raises :class:`SeatingError` for an
        empty seat and :class:`IllegalActionError` in a game without straddles.

        >>> table = Table(TableConfig(small_blind=50, big_blind=100, seats=6))
        >>> for seat in (0, 1, 2, 3):
        ...     _ = table.sit_down(seat, 10_000)
        >>> table.set_straddle(3)
        >>> import random
        >>> events = table.start_hand(Deck.shuffled(random.Random(1)))
        >>> [(e.seat, e.kind, e.increment) for e in events if type(e).__name__ == "ForcedBetPosted"]
        [(1, 'small_blind', 50), (2, 'big_blind', 100), (3, 'straddle', 200)]
        >>> table.to_act, table.legal_actions(0).call, table.legal_actions(0).min_raise_to
        (0, 200, 400)
        """
        player = self._player(seat)
        if on and not self.config.game.straddles:
            raise IllegalActionError(
                f"{self.config.game.name} has no straddle: straddles are played in no-limit "
                f"and pot-limit games with blinds"
            )
        player.straddle = bool(on)

    def call_bomb_pot(self, boards: int | None = None) -> None:
        """Make the next hand a bomb pot (docs/rules.md O3), e.g. after the players voted
        for one: everyone dealt in antes ``TableConfig.bomb_pot``, nobody posts a blind,
        and the flop comes at once. ``boards`` is 1 or 2 (a double-board bomb pot, O4);
        by default the table's ``bomb_pot_boards``. Between hands only; raises
        :class:`IllegalActionError` when the table has no bomb pot amount.

        >>> import random
        >>> table = Table(TableConfig(small_blind=50, big_blind=100, bomb_pot=200))
        >>> for seat in (0, 1, 2):
        ...     _ = table.sit_down(seat, 10_000)
        >>> table.call_bomb_pot(boards=2)
        >>> events = table.start_hand(Deck.shuffled(random.Random(1)))
        >>> started = events[0]
        >>> type(started).__name__, started.boards, str(table.hand.street)
        ('BombPotStarted', 2, 'flop')
        >>> len(table.view(0).boards)
        2
        """
        if self.hand_in_progress:
            raise IllegalActionError("a bomb pot is called between hands, not during one")
        if not self.config.bomb_pot:
            raise IllegalActionError("this table has no bomb pot: its config sets no bomb_pot")
        boards = self.config.bomb_pot_boards if boards is None else boards
        if boards not in (1, 2):
            raise IllegalActionError(f"a bomb pot has 1 or 2 boards, got {boards!r}")
        self._bomb_pot_called = boards

    def _bomb_pot_boards(self, players: int) -> int:
        """The boards of the next hand if it is a bomb pot, else 0. Two boards only where
        the deck holds them (else one: O4)."""
        cfg = self.config
        boards = self._bomb_pot_called
        every = cfg.bomb_pot_every
        if not boards and every and (self.hand_number + 1) % every == 0:
            boards = cfg.bomb_pot_boards
        if not boards or not cfg.bomb_pot or not cfg.game.bomb_pots:
            return 0
        g = cfg.game
        if boards == 2 and players * g.hole_cards + 2 * g.board_cards > len(g.deck.cards):
            return 1
        return boards

    # -- hands -------------------------------------------------------------------------

    def start_hand(self, deck: Deck) -> list[Event]:
        """Deal the next hand from ``deck``: move the button, post blinds, deal.

        Raises :class:`IllegalActionError` (changing nothing) if fewer than two players
        can play.
        """
        if self.hand_in_progress:
            raise IllegalActionError("a hand is already in progress")
        setup, big_blind_seat, small_blind_seat, missed = self._next_setup()
        hand = Hand(setup, deck)
        events = hand.start()
        # The hand is dealt: only now move the blinds and settle who owes what.
        self.hand = hand
        self.hand_number = setup.hand_number
        self.button = setup.button
        self._last_big_blind = big_blind_seat
        self._last_small_blind = small_blind_seat
        for seat in missed:
            self._seats[seat].owes_blinds = True
        for seat in setup.seats:
            player = self._seats[seat]
            player.waiting_for_big_blind = player.owes_blinds = player.will_post = player.new = (
                False
            )
        self._dealt = {seat: self._seats[seat] for seat in setup.seats}
        if setup.bomb_pot:
            self._bomb_pot_called = 0
        if hand.is_over:
            events += self._finish()
        return events

    def _next_setup(self) -> tuple[HandSetup, int, int | None, list[int]]:
        """The next hand's setup, its big blind and small blind seats (there may be no
        small blind), and the players sitting out whom the big blind passes. Changes
        nothing."""
        cfg = self.config
        seats = self._seats
        eligible = [s for s in sorted(seats) if seats[s].stack > 0 and not seats[s].sitting_out]
        if not cfg.game.blinds:
            return self._setup_without_blinds(eligible)
        dealt, button, small_blind_seat, big, missed = self._positions(eligible)
        # Dealing order starts left of the button: rotate the sorted seats past it.
        cut = bisect.bisect_right(dealt, button)
        order = dealt[cut:] + dealt[:cut]
        n = len(order)
        blinds = [0] * n
        dead = [0] * n
        antes = [cfg.ante] * n if cfg.ante_kind is AnteKind.PER_PLAYER else [0] * n
        posting = self._last_big_blind is not None
        for i, seat in enumerate(order):
            if seat == big:
                blinds[i] = cfg.big_blind
                if cfg.ante_kind is AnteKind.BIG_BLIND:
                    antes[i] = cfg.ante
            elif seat == small_blind_seat:
                blinds[i] = cfg.small_blind
            elif posting and (player := self._seats[seat]).will_post:
                blinds[i] = cfg.big_blind
                if player.owes_blinds:
                    dead[i] = cfg.small_blind
        opener: int | None = order.index(big)
        straddle = 0
        boards = self._bomb_pot_boards(n) if cfg.bomb_pot else 0
        if boards:  # a bomb pot: the bomb is everyone's ante, nobody posts a blind (O3)
            blinds, dead, antes, opener = [0] * n, [0] * n, [cfg.bomb_pot] * n, None
        elif n > 2 and (straddler := self._straddler(order, order.index(big), blinds, button)) >= 0:
            opener, straddle = straddler, 2 * cfg.big_blind
            blinds[straddler] = straddle
        setup = HandSetup(
            hand_number=self.hand_number + 1,
            seats=tuple(order),
            stacks=tuple(self._seats[s].stack for s in order),
            small_blind=cfg.small_blind,
            big_blind=cfg.big_blind,
            blinds=tuple(blinds),
            antes=tuple(antes),
            dead_blinds=tuple(dead),
            button=button,
            big_blind_ante=cfg.ante_kind is AnteKind.BIG_BLIND and not boards,
            fold_when_check_is_free=cfg.fold_when_check_is_free,
            min_bet=cfg.big_blind,
            big_blind_position=opener,
            game=cfg.game,
            small_bet=cfg.small_bet,
            big_bet=cfg.big_bet,
            uncapped_heads_up=cfg.uncapped_heads_up,
            acpc_rules=cfg.rule_profile is RuleProfile.ACPC,
            straddle=straddle,
            bomb_pot=boards > 0,
            boards=boards or 1,
            run_it_twice=cfg.run_it_twice,
            seven_deuce=cfg.seven_deuce,
        )
        return setup, big, small_blind_seat, missed

    def _straddler(self, order: list[int], big: int, blinds: list[int], button: int) -> int:
        """The position that straddles this hand, or -1: the player under the gun if they
        opted in, else the button where the table allows it (O1, O2). Three players at
        least (heads-up there is nobody after the big blind but the small blind), and not
        a player already posting to come in."""
        n = len(order)
        if n < 3 or not self.config.game.straddles:
            return -1
        candidates = [(big + 1) % n]
        if self.config.button_straddle and button in order:
            candidates.append(order.index(button))
        for p in candidates:
            if self._seats[order[p]].straddle and blinds[p] == 0:
                return p
        return -1

    def _setup_without_blinds(self, eligible: list[int]) -> tuple[HandSetup, int, None, list[int]]:
        """Stud and the research games: everyone ready is dealt in, paying the ante; the
        button moves one player a hand (from the lowest seat at first). The returned "big
        blind" is the button, which is what the next hand moves on from."""
        if len(eligible) < 2:
            raise IllegalActionError(f"a hand needs 2 players ready, got {len(eligible)}")
        cfg = self.config
        if self._last_big_blind is None:
            button = eligible[0]
        else:
            found = self._next_clockwise(self._last_big_blind, eligible)
            button = found if found is not None else eligible[0]
        cut = bisect.bisect_right(eligible, button)
        order = eligible[cut:] + eligible[:cut]
        setup = HandSetup(
            hand_number=self.hand_number + 1,
            seats=tuple(order),
            stacks=tuple(self._seats[s].stack for s in order),
            small_blind=0,
            big_blind=0,
            antes=(cfg.ante,) * len(order),
            button=button,
            fold_when_check_is_free=cfg.fold_when_check_is_free,
            min_bet=cfg.small_bet,
            game=cfg.game,
            bring_in=cfg.bring_in,
            small_bet=cfg.small_bet,
            big_bet=cfg.big_bet,
            uncapped_heads_up=cfg.uncapped_heads_up,
            acpc_rules=cfg.rule_profile is RuleProfile.ACPC,
            run_it_twice=cfg.run_it_twice,
            seven_deuce=cfg.seven_deuce,
        )
        return setup, button, None, []

    def _positions(self, eligible: list[int]) -> tuple[list[int], int, int | None, int, list[int]]:
        """Who is dealt in, the button, the small blind (if any) and the big blind, and who
        misses a blind sitting out (docs/rules.md B1-B5, P1-P3)."""
        seats = self._seats
        if self._last_big_blind is None:
            if len(eligible) < 2:
                raise IllegalActionError(f"a hand needs 2 players ready, got {len(eligible)}")
            button = eligible[0]
            small, big = (
                (eligible[0], eligible[1]) if len(eligible) == 2 else (eligible[1], eligible[2])
            )
            return eligible, button, small, big, []
        next_big = self._next_clockwise(self._last_big_blind, eligible)
        if next_big is None:
            raise IllegalActionError("a hand needs 2 players ready, got 0")
        big = next_big
        missed = self._passed_over(self._last_big_blind, big)
        playing = [s for s in eligible if not seats[s].waiting_for_big_blind]
        dealt = playing if big in playing else sorted([*playing, big])
        if len(dealt) < 2:
            # Too few are playing for anyone to wait: everyone starts afresh (B5).
            dealt = eligible
        if len(dealt) < 2:
            raise IllegalActionError(f"a hand needs 2 players ready, got {len(dealt)}")
        small_blind_seat: int | None
        if len(dealt) == 2:  # heads-up: the button posts the small blind (TDA Rule 34-B)
            small_blind_seat = button = next(s for s in dealt if s != big)
        elif self.config.button_rule is ButtonRule.DEAD:
            last_big, last_small = self._last_big_blind, self._last_small_blind
            small_blind_seat = last_big if last_big in dealt and last_big != big else None
            button = last_small if last_small is not None else self._previous(big, dealt, 2)
            if button in (big, small_blind_seat):
                # Out of heads-up, where the small blind was the button: the button goes
                # back to the seat before the blinds (TDA Rule 34-B).
                first_blind = small_blind_seat if small_blind_seat is not None else big
                button = self._previous(first_blind, dealt, 1)
        else:
            small_blind_seat = self._previous(big, dealt, 1)
            button = self._previous(big, dealt, 2)
        return dealt, button, small_blind_seat, big, missed

    def _next_clockwise(self, after: int, candidates: list[int]) -> int | None:
        for step in range(1, self.config.seats + 1):
            seat = (after + step) % self.config.seats
            if seat in candidates:
                return seat
        return None

    def _previous(self, seat: int, dealt: list[int], steps: int) -> int:
        i = dealt.index(seat)
        return dealt[(i - steps) % len(dealt)]

    def _passed_over(self, last_big: int, big: int) -> list[int]:
        """Players sitting out whom the big blind passes over: they owe the blinds."""
        passed = []
        step = 1
        while (seat := (last_big + step) % self.config.seats) != big:
            player = self._seats.get(seat)
            if player is not None and player.sitting_out:
                passed.append(seat)
            step += 1
        return passed

    def legal_actions(self, seat: int) -> ActionMenu | None:
        """Exactly what ``seat`` may do now, or ``None`` if it is not their turn."""
        hand = self.hand
        if hand is None or hand.is_over or seat not in hand.position:
            return None
        return hand.legal_actions(hand.position[seat])

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None``."""
        hand = self.hand
        return None if hand is None or hand.is_over else hand.seat_to_act

    def apply(self, action: Action) -> list[Event]:
        """Apply a player's action; raise :class:`IllegalActionError` (changing nothing)
        for anything :meth:`legal_actions` does not allow."""
        hand = self.hand
        if hand is None or hand.is_over:
            raise IllegalActionError("no hand is in progress")
        events = hand.apply(action)
        if hand.is_over:
            events += self._finish()
        return events

    def _finish(self) -> list[Event]:
        """Settle stacks after a hand; busted players leave their seats."""
        assert self.hand is not None
        events: list[Event] = []
        for seat, stack in zip(self.hand.seats, self.hand.stacks, strict=True):
            self._seats[seat].stack = stack
            if stack == 0:
                del self._seats[seat]
                events.append(PlayerStood(seat=seat, stack=0, reason="busted"))
        self.hand.log.extend(events)
        return events

    # -- after the hand ----------------------------------------------------------------

    def show_cards(self, seat: int, cards: Sequence[Card]) -> list[Event]:
        """After a hand and before the next, a player dealt in shows some or all of their
        hole cards (docs/rules.md O8): a public :class:`engine.events.CardsRevealed`,
        recorded in the hand. Showing the 7-2 that won the whole hand collects the 7-2
        bounty (O6) from every other player dealt in and still seated; a player that
        leaves with nothing busts. Raises :class:`IllegalActionError`, changing nothing,
        during a hand, or when the seat has nothing (more) to show.
        """
        hand = self.hand
        if hand is None or not hand.is_over:
            raise IllegalActionError("cards are shown after a hand, not during one")
        player = self._seats.get(seat)
        if player is None or self._dealt.get(seat) is not player:
            raise IllegalActionError(f"seat {seat} was not dealt into the last hand")
        away = [s for s, dealt in self._dealt.items() if self._seats.get(s) is not dealt]
        events = hand.show(seat, cards, away=away)
        if any(isinstance(e, BountyPaid) for e in events):
            for s, dealt in self._dealt.items():
                if self._seats.get(s) is dealt:
                    dealt.stack = hand.stacks[hand.position[s]]
            busted = [s for s in hand.seats if self._seats.get(s) is self._dealt[s]]
            for s in busted:
                if self._seats[s].stack == 0:
                    del self._seats[s]
                    events.append(PlayerStood(seat=s, stack=0, reason="busted"))
            hand.log.extend(e for e in events if isinstance(e, PlayerStood))
        return events

    def rabbit_hunt(self) -> list[Event]:
        """After a hand that ended before the river, the board that would have come, from
        the same deck (docs/rules.md O7): a public :class:`engine.events.RabbitHunted`,
        recorded in the hand; nothing if there is none, or it was shown already. The
        result stands."""
        hand = self.hand
        if hand is None or not hand.is_over:
            raise IllegalActionError("the rabbit is hunted after a hand, not during one")
        if any(isinstance(e, RabbitHunted) for e in hand.log):
            return []
        return hand.hunt_rabbit()

    # -- views -------------------------------------------------------------------------

    def view(self, seat: int | None) -> TableView:
        """What ``seat`` may see: its own hole cards, and others' only once shown."""
        hand = self.hand
        live = hand is not None and not hand.is_over
        views = []
        for s in sorted(self._seats):
            player = self._seats[s]
            # A seat's hand data belongs to whoever was dealt in, not a later occupant.
            dealt = self._dealt.get(s) is player
            p = hand.position.get(s, -1) if hand is not None and dealt else -1
            in_hand = p >= 0
            visible = in_hand and hand is not None and (s == seat or p in hand.shown)
            up = hand.visible(p) if in_hand and hand is not None and hand.up is not None else ()
            views.append(
                SeatView(
                    seat=s,
                    stack=hand.stacks[p] if in_hand and hand is not None and live else player.stack,
                    in_hand=in_hand,
                    folded=in_hand and hand is not None and hand.folded[p],
                    all_in=in_hand and hand is not None and hand.all_in[p],
                    street_total=hand.bets[p] if in_hand and hand is not None and live else 0,
                    hand_total=hand.totals[p] if in_hand and hand is not None else 0,
                    sitting_out=player.sitting_out,
                    waiting_for_big_blind=player.waiting_for_big_blind,
                    has_cards=in_hand and hand is not None and not hand.folded[p],
                    cards=hand.holes[p] if visible and hand is not None else None,
                    up_cards=up,
                    straddle=player.straddle,
                    shown_cards=hand.revealed.get(p, ()) if in_hand and hand is not None else (),
                )
            )
        pots: tuple[int, ...] = ()
        if hand is not None and live:
            pots = tuple(p.amount for p in hand.pots(this_street=False))
        return TableView(
            viewer=seat,
            config=self.config,
            hand_number=self.hand_number,
            hand_in_progress=live,
            street=hand.street if hand is not None else None,
            board=tuple(hand.board) if hand is not None else (),
            pots=pots,
            button=self.button,
            to_act=self.to_act,
            seats=tuple(views),
            legal=self.legal_actions(seat) if seat is not None else None,
            boards=tuple(map(tuple, hand.boards)) if hand is not None and hand.boards else (),
        )

    def public_state(self) -> PublicState:
        """Whose turn it is, the pots and the bet to match, as everyone may know them."""
        if self.hand is None:
            return PublicState(False, None, None, (), 0)
        return self.hand.public_state()

    def public_view(self) -> TableView:
        """What a spectator may see: no hole card that was not shown."""
        return self.view(None)
