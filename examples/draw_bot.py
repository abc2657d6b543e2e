"""A draw-game bot to copy: 2-7 triple draw (deuce-to-seven lowball), one class.

Run it against a server with a 2-7 table (``--demo-games`` gives the demo tables' games;
the second is ``demo-27td``)::

    pokerroom serve --demo --demo-games nlhe,27td
    pokerroom bot run examples/draw_bot.py:DrawBot --url ws://127.0.0.1:8765/ws \\
        --table demo-27td --hands 50

In 2-7 the lowest hand wins: aces are high, and straights and flushes count against you,
so 7-5-4-3-2 in two suits is the best hand. ``act`` gets the table as this seat sees it
(``view.config.game`` says the game; the seat's ``cards`` are its five cards, after each
draw) and the exact legal menu. A draw comes as a menu of its own: ``menu.can_draw`` is
true, ``menu.max_discard`` is the most cards you may throw away, and the only legal
answer is ``Draw(seat, discard=cards)`` (an empty ``discard`` stands pat). Betting
menus are as in any fixed-limit game: one bet or raise size, ``menu.min_raise_to``.

>>> import random
>>> from engine import Deck, Table, TableConfig, game
>>> table = Table(TableConfig(small_blind=50, big_blind=100, seats=2, game=game("27td")))
>>> _ = table.sit_down(0, 10_000); _ = table.sit_down(1, 10_000)
>>> _ = table.start_hand(Deck.shuffled(random.Random(7)))
>>> seat = table.to_act
>>> menu = table.legal_actions(seat)
>>> menu.allows(DrawBot().act(table.view(seat), menu))
True
>>> from engine import parse_cards
>>> [str(c) for c in DrawBot.discards(parse_cards("7c 7d 2h 4s Kc"))]
['Kc', '7d']
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Action, ActionMenu, BetOrRaiseTo, Card, CheckOrCall, Draw, Fold, TableView


class DrawBot:
    """Keeps its cards of 8 or less, one of each rank, and draws to them; stands pat on any
    five of those (breaking a straight or flush), or on a 9 or 10 low at the last draw.
    Bets and raises a made 8 or better and a one-card draw to a 7 with draws to come,
    calls with a made hand or while it needs no more cards than it has draws left, and
    otherwise checks or folds."""

    def act(self, view: TableView, menu: ActionMenu) -> Action:
        me = next(s for s in view.seats if s.seat == menu.seat)
        hand = me.cards or ()
        streets = view.config.game.streets
        street = int(view.street or 0)
        if menu.can_draw:
            # This draw and those after it.
            draws_left = sum(s.draw for s in streets[street:])
            throw = self.discards(hand, last=draws_left == 1)
            return Draw(menu.seat, throw[: menu.max_discard])
        draws_left = sum(s.draw for s in streets[street + 1 :])
        need = len(self.discards(hand, last=draws_left == 0))
        top = max(self.low_rank(c) for c in hand) if hand else 99
        made = need == 0
        strong = (made and top <= 8) or (need == 1 and draws_left > 0 and self._best_four(hand))
        if strong and menu.can_raise:
            return BetOrRaiseTo(menu.seat, menu.min_raise_to)
        # Worth a call: a made hand, or no more cards to find than draws to find them in.
        if menu.call == 0 or made or need <= draws_left or not menu.can_fold:
            return CheckOrCall(menu.seat)
        return Fold(menu.seat)

    @staticmethod
    def low_rank(card: Card) -> int:
        """2 to 14: aces are high in 2-7."""
        return int(card.rank) if card.rank is not None else 15

    @classmethod
    def discards(cls, hand: Sequence[Card], *, last: bool = False) -> tuple[Card, ...]:
        """The cards to throw away, highest first: pairs and anything above an 8."""
        keep: list[Card] = []
        for card in sorted(hand, key=cls.low_rank):
            if all(cls.low_rank(k) != cls.low_rank(card) for k in keep):
                keep.append(card)
        limit = 10 if last else 8
        kept = [c for c in keep if cls.low_rank(c) <= limit][:5]
        if len(kept) == 5 and cls._straight_or_flush(kept):
            kept = kept[:4]  # break it: throw away the top card
        elif len(kept) < 5:
            kept = [c for c in kept if cls.low_rank(c) <= 8]
        return tuple(sorted((c for c in hand if c not in kept), key=cls.low_rank, reverse=True))

    @classmethod
    def _straight_or_flush(cls, cards: Sequence[Card]) -> bool:
        ranks = sorted(cls.low_rank(c) for c in cards)
        return ranks == list(range(ranks[0], ranks[0] + 5)) or len({c.suit for c in cards}) == 1

    @classmethod
    def _best_four(cls, hand: Sequence[Card]) -> bool:
        """Four different cards of 7 or less: a one-card draw to a 7 low."""
        return len({cls.low_rank(c) for c in hand if cls.low_rank(c) <= 7}) >= 4
