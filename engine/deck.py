"""The deck: shuffled by an injected random generator, or given card by card.

The table deals from the top in a fixed order: one hole card to each player starting
left of the button, then a second round, then the flop (3), turn (1) and river (1). There
are no burn cards: in a digital shuffle they change nothing. So a deck written out in
that order replays a hand exactly.

>>> import random
>>> deck = Deck.shuffled(random.Random(7))
>>> len(deck.cards), deck == Deck.shuffled(random.Random(7))
(52, True)
>>> Deck.from_cards("As Kd").cards[:3]
(Card('As'), Card('Kd'), Card('2c'))
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, to_cards
from engine.errors import InvalidCardError

__all__ = ["Deck"]

_FULL = tuple(Card.from_code(c) for c in range(52))


@dataclass(frozen=True, slots=True)
class Deck:
    """52 distinct cards in dealing order."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = self.cards
        if len(cards) != 52 or len(set(cards)) != 52 or not all(isinstance(c, Card) for c in cards):
            raise InvalidCardError(f"a deck is 52 distinct cards, got {len(cards)} items")

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        """A uniformly shuffled deck. Pass ``secrets.SystemRandom()`` in production and a
        seeded ``random.Random`` in tests; the engine never draws randomness itself."""
        # Fisher-Yates with rejection sampling: random.shuffle's own algorithm, so the same
        # generator state gives the same deck, written out to skip its per-card Python
        # calls (a third of a heads-up hand's time). Exactly uniform.
        cards = list(_FULL)
        bits = rng.getrandbits
        for i in range(51, 0, -1):
            width = (i + 1).bit_length()
            j = bits(width)
            while j > i:
                j = bits(width)
            cards[i], cards[j] = cards[j], cards[i]
        return cls._unchecked(tuple(cards))

    @classmethod
    def _unchecked(cls, cards: tuple[Card, ...]) -> Deck:
        # A permutation of the full deck is valid by construction: skip __post_init__.
        deck = object.__new__(cls)
        object.__setattr__(deck, "cards", cards)
        return deck

    @classmethod
    def from_cards(cls, top: str | Iterable[Card | str | int]) -> Deck:
        """A deck whose first cards are ``top``, in order; the rest follow in code order."""
        first = to_cards(top)
        chosen = set(first)
        return cls(first + tuple(c for c in _FULL if c not in chosen))
