"""A small bot to copy: one class, one method.

Run it against a server (``pokerroom serve --demo`` starts one with a free seat)::

    pokerroom bot run examples/my_bot.py:MyBot --url ws://127.0.0.1:8765/ws --hands 20

``act`` gets the table as this seat sees it (an ``engine.TableView``: stacks, bets on this
street, the board, the pots, its own hole cards) and the exact legal menu (an
``engine.ActionMenu``), and returns one action the menu allows:

* ``Fold(seat)``
* ``CheckOrCall(seat)``: checks when ``menu.call == 0``, else calls ``menu.call`` chips
* ``BetOrRaiseTo(seat, amount)``: ``amount`` is this street's total, between
  ``menu.min_raise_to`` and ``menu.max_raise_to`` (only when ``menu.can_raise``)

An action the menu does not allow, or an exception, is answered for you with a check (or a
fold when checking is not free). Bots in other languages speak the same protocol directly.

>>> from engine import TableConfig, Table, Deck
>>> import random
>>> table = Table(TableConfig(small_blind=50, big_blind=100, seats=2))
>>> _ = table.sit_down(0, 10_000); _ = table.sit_down(1, 10_000)
>>> _ = table.start_hand(Deck.shuffled(random.Random(7)))
>>> seat = table.to_act
>>> menu = table.legal_actions(seat)
>>> menu.allows(MyBot().act(table.view(seat), menu))
True
"""

from __future__ import annotations

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Draw,
    Fold,
    HandCategory,
    Rank,
    TableView,
    evaluate,
)

HOLDEM = ("nlhe", "flhe", "plhe")
"""The games this bot knows: hold'em in each betting structure."""


class MyBot:
    """Preflop: raises pairs and two high cards, calls small bets with an ace or suited
    connectors, folds the rest. After the flop: bets two thirds of the pot with two pair or
    better, calls with a pair, and otherwise checks or folds."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        me = next(s for s in view.seats if s.seat == menu.seat)
        if me.cards is None or len(me.cards) != 2 or view.config.game.key not in HOLDEM:
            # A hold'em bot: at any other game it only goes along (see draw_bot.py).
            if menu.can_draw:
                return Draw(menu.seat)  # stand pat
            return BringIn(menu.seat) if menu.can_bring_in else CheckOrCall(menu.seat)
        first, second = me.cards
        r1, r2 = int(first.rank or 0), int(second.rank or 0)
        big_blind = view.config.big_blind
        pot = sum(view.pots) + sum(s.street_total for s in view.seats)

        if not view.board:  # preflop
            high = r1 >= Rank.TEN and r2 >= Rank.TEN
            if r1 == r2 or high:
                return self.raise_to(menu, me.street_total + 3 * big_blind + menu.call)
            playable = Rank.ACE in (r1, r2) or (first.suit == second.suit and abs(r1 - r2) == 1)
            if playable and menu.call <= 3 * big_blind:
                return CheckOrCall(menu.seat)
            return self.check_or_fold(menu)

        strength = evaluate([*me.cards, *view.board]).category
        if strength >= HandCategory.TWO_PAIR:
            return self.raise_to(menu, me.street_total + menu.call + (2 * pot) // 3)
        if strength == HandCategory.ONE_PAIR and menu.call <= pot // 2:
            return CheckOrCall(menu.seat)
        return self.check_or_fold(menu)

    @staticmethod
    def raise_to(menu: ActionMenu, amount: int) -> Action:
        """Bet or raise to about ``amount``, kept within the menu; call if raising is not
        allowed."""
        if not menu.can_raise:
            return CheckOrCall(menu.seat)
        return BetOrRaiseTo(menu.seat, min(max(amount, menu.min_raise_to), menu.max_raise_to))

    @staticmethod
    def check_or_fold(menu: ActionMenu) -> Action:
        """Check when it is free, otherwise fold."""
        return CheckOrCall(menu.seat) if menu.call == 0 else Fold(menu.seat)
