"""Decks: which cards a game plays with, shuffled by an injected random generator or
given card by card.

A :class:`DeckSpec` names a game's cards: the 52, a short deck, the few cards of Kuhn
poker and Leduc hold'em, the 52 with jokers, or dice. A :class:`Deck` is one hand's
cards in dealing order. The table deals from the top in a fixed order (each game's
streets say what, docs/engine.md): for hold'em, one hole card to each player starting
left of the button, then a second round, then the flop (3), turn (1) and river (1). There
are no burn cards: in a digital shuffle they change nothing. So a deck written out in
dealing order replays a hand exactly.

Dice are a deck too: a :class:`Deck` of dice is the sequence of rolls, faces repeating,
long enough for every roll a hand can need.

>>> import random
>>> deck = Deck.shuffled(random.Random(7))
>>> len(deck.cards), deck == Deck.shuffled(random.Random(7))
(52, True)
>>> Deck.from_cards("As Kd").cards[:3]
(Card('As'), Card('Kd'), Card('2c'))
>>> [str(c) for c in Deck.shuffled(random.Random(7), KUHN).cards]
['Ks', 'Js', 'Qs']
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from engine.cards import JOKERS, Card, Rank, Suit, parse_dice, to_cards
from engine.errors import InvalidCardError

__all__ = [
    "DICE",
    "KUHN",
    "KUHN4",
    "LEDUC",
    "SHORT",
    "STANDARD",
    "WITH_JOKER",
    "WITH_TWO_JOKERS",
    "Deck",
    "DeckSpec",
]

_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_DICE_ROLLS = 160
"""A dice deck's length: five dice and two re-rolls of all five for ten players, and
spare."""


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """The cards a game plays with, in code order: every rank of ``ranks`` in every suit of
    ``suits``, then ``jokers`` jokers; or, with ``dice``, the six faces of a die.

    >>> len(SHORT.cards), str(SHORT.cards[0]), len(WITH_JOKER.cards)
    (36, '6c', 53)
    """

    name: str
    ranks: tuple[Rank, ...] = tuple(Rank)
    suits: tuple[Suit, ...] = _SUITS
    jokers: int = 0
    dice: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.jokers <= 2:
            raise InvalidCardError(f"a deck has 0 to 2 jokers, got {self.jokers!r}")
        if not self.dice and not (self.ranks and self.suits):
            raise InvalidCardError(f"deck {self.name!r} has no cards")
        if self.dice:
            cards = tuple(Card.die(face) for face in range(1, 7))
        else:
            playing = sorted(
                Card.from_code((r - 2) * 4 + s.index) for r in self.ranks for s in self.suits
            )
            cards = (*playing, *JOKERS[: self.jokers])
        object.__setattr__(self, "cards", cards)  # worked out once: every shuffle uses it

    cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    """Every card of the deck once (each face once for dice), in code order."""

    def __contains__(self, card: object) -> bool:
        if not isinstance(card, Card):
            return False
        if self.dice:
            return card.face is not None
        if card.is_joker:
            return card.code - 52 < self.jokers
        return card.rank in self.ranks and card.suit in self.suits


STANDARD = DeckSpec("standard")
"""The 52 cards."""
SHORT = DeckSpec("short", ranks=tuple(r for r in Rank if r >= Rank.SIX))
"""36 cards, sixes to aces (short-deck or 6+ hold'em)."""
KUHN = DeckSpec("kuhn", ranks=(Rank.JACK, Rank.QUEEN, Rank.KING), suits=(Suit.SPADES,))
"""Kuhn poker's three cards: J, Q, K (as pokerkit deals them; ACPC's gamedef calls them
ranks 0, 1, 2 of one suit)."""
KUHN4 = DeckSpec("kuhn4", ranks=(Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING), suits=(Suit.SPADES,))
"""Three-player Kuhn poker's four cards (ACPC ``kuhn.limit.3p.game``)."""
LEDUC = DeckSpec(
    "leduc", ranks=(Rank.JACK, Rank.QUEEN, Rank.KING), suits=(Suit.HEARTS, Suit.SPADES)
)
"""Leduc hold'em's six cards: J, Q, K in two suits."""
WITH_JOKER = DeckSpec("joker", jokers=1)
"""The 52 and one joker."""
WITH_TWO_JOKERS = DeckSpec("jokers", jokers=2)
"""The 52 and two jokers."""
DICE = DeckSpec("dice", dice=True)
"""Six-sided dice."""


@cache
def _swaps(size: int) -> tuple[tuple[int, int], ...]:
    """Fisher-Yates' steps for ``size`` cards: each position from the last down, with the
    bit width of the random index that picks its card."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


@dataclass(frozen=True, slots=True)
class Deck:
    """One hand's cards in dealing order: distinct cards (a permutation of a deck, or its
    first cards), or for dice the sequence of rolls.

    Draw games may need more cards than the deck holds: the hand then reshuffles the
    discards (docs/rules.md, X3). A deck written out in dealing order may go on past the
    permutation with the cards dealt after that reshuffle, each one a discard at the
    time; a hand replays it exactly.
    """

    cards: tuple[Card, ...]
    spec: DeckSpec | None = field(default=None, compare=False, repr=False)
    """The deck this is a shuffle of, when :meth:`shuffled` made it (valid by
    construction); ``None`` for a deck given card by card, which a hand checks."""

    def __post_init__(self) -> None:
        cards = self.cards
        if not cards or not all(isinstance(c, Card) for c in cards):
            raise InvalidCardError(f"a deck is a sequence of cards, got {len(cards)} items")
        dice = cards[0].face is not None
        if any((c.face is not None) != dice for c in cards):
            raise InvalidCardError("a deck holds cards or dice, not both")

    @classmethod
    def shuffled(cls, rng: random.Random, spec: DeckSpec = STANDARD) -> Deck:
        """A uniformly shuffled deck of ``spec`` (the 52 by default), or for dice a
        sequence of fair rolls. Pass ``secrets.SystemRandom()`` in production and a seeded
        ``random.Random`` in tests; the engine never draws randomness itself."""
        bits = rng.getrandbits
        if spec.dice:
            rolls: list[Card] = []
            while len(rolls) < _DICE_ROLLS:
                face = bits(3)  # rejection sampling: exactly uniform over 1..6
                if 1 <= face <= 6:
                    rolls.append(Card.die(face))
            return cls._unchecked(tuple(rolls), spec)
        # Fisher-Yates with rejection sampling: random.shuffle's own algorithm, so the same
        # generator state gives the same deck, written out to skip its per-card Python
        # calls (a third of a heads-up hand's time). Exactly uniform.
        cards = list(spec.cards)
        for i, width in _swaps(len(cards)):
            j = bits(width)
            while j > i:
                j = bits(width)
            cards[i], cards[j] = cards[j], cards[i]
        return cls._unchecked(tuple(cards), spec)

    @classmethod
    def _unchecked(cls, cards: tuple[Card, ...], spec: DeckSpec) -> Deck:
        # A permutation of a deck is valid by construction: skip __post_init__.
        deck = object.__new__(cls)
        object.__setattr__(deck, "cards", cards)
        object.__setattr__(deck, "spec", spec)
        return deck

    @classmethod
    def from_cards(cls, top: str | Iterable[Card | str | int], spec: DeckSpec = STANDARD) -> Deck:
        """A deck whose first cards are ``top``, in order; the rest of ``spec``'s cards
        follow in code order. For dice, ``top`` is the whole sequence of rolls.

        >>> [c.face for c in Deck.from_cards("6612", DICE).cards]
        [6, 6, 1, 2]
        """
        if spec.dice:
            return cls(parse_dice(top) if isinstance(top, str) else to_cards(top, distinct=False))
        first = to_cards(top)
        chosen = set(first)
        return cls(first + tuple(c for c in spec.cards if c not in chosen))

    def check(self, spec: DeckSpec) -> int:
        """Raise :class:`InvalidCardError` unless this deck deals ``spec``'s cards: each
        card at most once until one repeats, and all of them when none does; for dice, at
        least one roll. Returns how many cards the first pass through the deck deals:
        after it, cards dealt again come from a reshuffle of the discards (a replayed draw
        game; burned cards may leave the first pass short of the whole deck).

        >>> Deck.from_cards("As").check(SHORT)
        Traceback (most recent call last):
        ...
        engine.errors.InvalidCardError: card '2c' is not in the short deck
        """
        cards = self.cards
        if spec.dice:
            if cards[0].face is None:
                raise InvalidCardError(f"a game of dice needs dice, got card {str(cards[0])!r}")
            return len(cards)
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                break
            if card not in spec:
                raise InvalidCardError(f"card {str(card)!r} is not in the {spec.name} deck")
            seen.add(card)
        size = len(spec.cards)
        if len(seen) == len(cards) and len(cards) != size:
            raise InvalidCardError(f"a {spec.name} deck has {size} cards, got {len(cards)}")
        return len(seen)
