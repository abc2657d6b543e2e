"""Dealing one hand's cards from its deck, in order, and reshuffling discards for a draw.

A :class:`Dealer` hands out the deck's cards from the top. In a draw game the deck can
run out: the cards thrown away so far (discards and folded hands), except those the
player being served just threw away, are then shuffled into a new stub (docs/rules.md X3).
The engine draws no randomness: the new order is fixed by the deck itself, as a keyed
hash of the whole dealing order, which no player knows while the hand is played, so
(configuration, deck, actions) still reproduce the hand. A deck written out in dealing
order may instead carry the cards dealt after the reshuffle (a replayed history): each
must then be one of the cards thrown away (or, replaying a history written by a tool that
deals a draw's cards only after everyone has discarded, as pokerkit does, one thrown away
later in the same draw: :attr:`Dealer.later`).

>>> from engine.deck import STANDARD, Deck
>>> dealer = Dealer(Deck.from_cards("As Kd Qh"), 52, STANDARD)
>>> [str(c) for c in dealer.take(2)], dealer.left
(['As', 'Kd'], 50)
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence

from engine.cards import Card
from engine.deck import Deck, DeckSpec
from engine.errors import IllegalActionError, InvalidCardError

__all__ = ["Dealer"]


class Dealer:
    """The deck of one hand: ``first_pass`` cards to deal in order (the whole deck), then
    the deck's own record of what came after a reshuffle, if any, else reshuffles."""

    __slots__ = (
        "_key",
        "borrowed",
        "cards",
        "first_pass",
        "later",
        "lenient",
        "next",
        "reserve",
        "reshuffles",
        "spec",
        "stub",
    )

    def __init__(self, deck: Deck, first_pass: int, spec: DeckSpec) -> None:
        self.cards = deck.cards
        self.spec = spec
        self.first_pass = first_pass
        self.next = 0  # the next card of self.cards to deal
        self.stub: list[Card] = []  # reshuffled cards still to deal, top first
        self.reserve: list[Card] = []  # thrown away and not yet reshuffled
        self.reshuffles = 0
        self._key = b""
        self.later: set[Card] = set()
        """Replays only: cards the history throws away later in this draw round."""
        self.borrowed: set[Card] = set()  # dealt from ``later`` before being thrown away
        self.lenient = False
        """Replays only: the deck holds stand-ins for unknown cards, which may repeat."""

    @property
    def left(self) -> int:
        """Cards still in the stub before anything must be reshuffled."""
        return max(self.first_pass - self.next, 0) + len(self.stub)

    def take(self, count: int, keep_out: Collection[Card] = ()) -> list[Card]:
        """The next ``count`` cards, reshuffling the reserve (without ``keep_out``, the
        cards the player being served just threw away) when the stub runs out."""
        start = self.next
        if start + count < self.first_pass:  # the usual case: the top of the deck
            self.next = start + count
            return list(self.cards[start : start + count])
        out: list[Card] = []
        cards = self.cards
        while len(out) < count:
            if self.next < self.first_pass:
                out.append(cards[self.next])
                self.next += 1
                if self.next == self.first_pass:
                    self._end_of_first_pass()
            elif self.stub:
                out.append(self.stub.pop())
            elif self.next < len(cards):  # the deck records what the reshuffle dealt
                card = cards[self.next]
                if card in self.reserve:
                    self.reserve.remove(card)
                elif card in self.later:
                    self.later.discard(card)
                    self.borrowed.add(card)
                elif not self.lenient:
                    raise InvalidCardError(
                        f"card {str(card)!r} is dealt after the reshuffle but was not thrown away"
                    )
                out.append(card)
                self.next += 1
            else:
                self._reshuffle(keep_out)
        return out

    def _end_of_first_pass(self) -> None:
        # Cards of the deck the first pass never dealt (a replayed history's burned cards)
        # were in the stub all along: a reshuffle gathers them too.
        if self.first_pass < len(self.spec.cards) and not self.spec.dice:
            dealt = set(self.cards[: self.first_pass])
            self.reserve += [c for c in self.spec.cards if c not in dealt]

    def throw_away(self, cards: Sequence[Card]) -> None:
        """Discarded or folded cards: out of play, into the reserve a reshuffle uses."""
        for card in cards:
            if card in self.borrowed:  # already dealt again (see later)
                self.borrowed.discard(card)
            else:
                self.reserve.append(card)

    def _reshuffle(self, keep_out: Collection[Card]) -> None:
        pool = [c for c in self.reserve if c not in keep_out]
        if not pool:
            raise IllegalActionError("the deck and the discards are used up: no card to deal")
        if not self._key:
            self._key = hashlib.blake2b(bytes(c.code for c in self.cards), digest_size=32).digest()
        self.reshuffles += 1
        salt = self._key + self.reshuffles.to_bytes(2, "big")

        def order(card: Card) -> bytes:
            return hashlib.blake2b(bytes([card.code]), key=salt, digest_size=16).digest()

        pool.sort(key=order, reverse=True)  # popped from the end: the first in order first
        self.reserve = [c for c in self.reserve if c in keep_out]
        self.stub = pool
