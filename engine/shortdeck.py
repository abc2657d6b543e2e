"""Short-deck (6+) hold'em: high hands from the 36-card deck of sixes to aces.

The ranking, as played by the rooms that spread the game (e.g. Ladbrokes' "Short Deck Hand
Rankings") and as pokerkit's ``ShortDeckHoldemHand`` ranks it: the best five of five or
more cards; a flush beats a full house (with four cards of each rank gone, flushes are the
rarer); the ace plays high, or low in A-6-7-8-9, the lowest straight (and straight flush);
otherwise as high poker, so a straight beats three of a kind. (Some rooms' rules also put
three of a kind above a straight; this module does not.)

:func:`rank_short_deck` numbers the 1,404 classes 1 (J-9-8-7-6 of mixed suits) to 1,404 (a
royal flush), higher is stronger; it checks nothing, :func:`evaluate_short_deck` is the
checked entry point.

>>> str(evaluate_short_deck("As Ks 9s 7s 6s Kh Kd"))
'Flush, Ace-King-Nine-Seven-Six'
>>> evaluate_short_deck("Ah 6c 7d 8s 9h") > evaluate_short_deck("Ah Ad Ac Kd Qs")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from itertools import combinations, combinations_with_replacement
from typing import Final

from engine.cards import Card, to_cards
from engine.errors import InvalidHandError
from engine.evaluator import describe_rank
from engine.hand_classes import CARD_KEYS, CLASS_RANK, RANK_KEYS, SUIT_KEYS, HandCategory, HandClass

__all__ = [
    "ShortDeckValue",
    "best_short_deck",
    "describe_short_deck",
    "evaluate_short_deck",
    "rank_short_deck",
]

SIX: Final = 4  # rank index of the lowest card, a six (0 is a deuce)
_ORDER: Final = {  # the categories, weakest first: a flush above a full house
    HandCategory.HIGH_CARD: 0,
    HandCategory.ONE_PAIR: 1,
    HandCategory.TWO_PAIR: 2,
    HandCategory.THREE_OF_A_KIND: 3,
    HandCategory.STRAIGHT: 4,
    HandCategory.FULL_HOUSE: 5,
    HandCategory.FLUSH: 6,
    HandCategory.FOUR_OF_A_KIND: 7,
    HandCategory.STRAIGHT_FLUSH: 8,
}
_SHAPES: Final = {
    (1, 1, 1, 1, 1): HandCategory.HIGH_CARD,
    (2, 1, 1, 1): HandCategory.ONE_PAIR,
    (2, 2, 1): HandCategory.TWO_PAIR,
    (3, 1, 1): HandCategory.THREE_OF_A_KIND,
    (3, 2): HandCategory.FULL_HOUSE,
    (4, 1): HandCategory.FOUR_OF_A_KIND,
}
# The straights by their ranks, lowest card first: A-6-7-8-9 (top 7, the nine) up to T-A.
_STRAIGHTS: Final = {
    (SIX, 5, 6, 7, 12): 7,
    **{tuple(range(top - 4, top + 1)): top for top in range(SIX + 4, 13)},
}


def _class(ranks: Sequence[int], suited: bool) -> HandClass:
    """The class of five cards (rank indices, six and up) that share a suit or do not."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    category = _SHAPES[tuple(n for _, n in groups)]
    decisive = tuple(r for r, _ in groups)
    top = _STRAIGHTS.get(tuple(sorted(ranks)))
    if top is not None:
        return (HandCategory.STRAIGHT_FLUSH if suited else HandCategory.STRAIGHT), (top,)
    if suited:
        return HandCategory.FLUSH, decisive
    return category, decisive


def _sort_key(c: HandClass) -> tuple[int, tuple[int, ...]]:
    return _ORDER[c[0]], c[1]


_FLUSH_FLAG: Final = 1 << 23  # above any sum of five rank keys


def _build() -> tuple[list[HandClass], dict[int, int]]:
    """The classes, weakest first, and the value of five cards by the sum of their rank keys
    (plus _FLUSH_FLAG if they share a suit)."""
    by_key: dict[int, HandClass] = {}
    for ranks in combinations_with_replacement(range(SIX, 13), 5):
        if ranks[0] != ranks[4]:
            by_key[sum(RANK_KEYS[r] for r in ranks)] = _class(ranks, suited=False)
    for ranks in combinations(range(SIX, 13), 5):
        by_key[sum(RANK_KEYS[r] for r in ranks) | _FLUSH_FLAG] = _class(ranks, suited=True)
    ordered = sorted(set(by_key.values()), key=_sort_key)
    value_of = {c: v for v, c in enumerate(ordered, start=1)}
    return ordered, {key: value_of[c] for key, c in by_key.items()}


_CLASSES, _BY_KEY = _build()


def _flush_suits(n: int) -> list[int]:
    """For n cards: the suit (0..3) that five or more of them share, or -1, by the low byte
    of the sum of their card keys (which the suit keys 0, 1, 24, 33 make unambiguous)."""
    table = [-2] * 256
    for suits in combinations_with_replacement(range(4), n):
        byte = sum(SUIT_KEYS[s] for s in suits)
        flush = next((s for s in range(4) if suits.count(s) >= 5), -1)
        assert table[byte] in (-2, flush), "the suit keys must tell flushes apart"
        table[byte] = flush
    return table


_FLUSH_SUIT: Final = {n: _flush_suits(n) for n in (5, 6, 7)}
_FLUSH5: Final = [_FLUSH_FLAG if suit >= 0 else 0 for suit in _FLUSH_SUIT[5]]
# Flushes of six or seven cards (at most seven cards: then no four of a kind can beat the
# flush): the best five of the suit's ranks, by the mask of those ranks.
_FLUSH_BY_MASK: Final = {
    sum(1 << r for r in ranks): max(
        _BY_KEY[sum(RANK_KEYS[r] for r in five) | _FLUSH_FLAG] for five in combinations(ranks, 5)
    )
    for n in (5, 6, 7)
    for ranks in combinations(range(SIX, 13), n)
}
# Hands of six or seven cards without a flush: the value by the sum of the rank keys (one
# sum per multiset of ranks), filled in as hands are met (at most about 9,000 entries).
_PLAIN: Final[dict[int, int]] = {}


def rank_short_deck(
    codes: Sequence[int],
    *,
    _k: Sequence[int] = CARD_KEYS,
    _flush5: Sequence[int] = _FLUSH5,
    _by_key: dict[int, int] = _BY_KEY,
    _plain: dict[int, int] = _PLAIN,
    _suits: dict[int, list[int]] = _FLUSH_SUIT,
) -> int:
    """The short-deck rank (1..1404, higher is stronger) of the best five of five or more
    distinct codes of cards six or higher.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("Ah 6h 7h 8h 9h Kc Kd")
    >>> describe_short_deck(rank_short_deck([c.code for c in hand]))
    'Straight Flush, Nine high'
    """
    n = len(codes)
    if n == 7:
        a, b, c, d, e, f, g = codes
        key = _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _k[g]
    elif n == 5:
        a, b, c, d, e = codes
        key = _k[a] + _k[b] + _k[c] + _k[d] + _k[e]
        return _by_key[key >> 8 | _flush5[key & 255]]
    elif n == 6:
        a, b, c, d, e, f = codes
        key = _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f]
    else:
        return _best_of_fives(codes)
    suit = _suits[n][key & 255]
    if suit >= 0:
        return _FLUSH_BY_MASK[sum(1 << (c >> 2) for c in codes if c & 3 == suit)]
    value = _plain.get(key >> 8)
    if value is None:
        value = _plain[key >> 8] = _best_of_fives(codes)
    return value


def _best_of_fives(codes: Sequence[int]) -> int:
    return max(rank_short_deck(five) for five in combinations(codes, 5))


def best_short_deck(codes: Sequence[int]) -> tuple[int, ...]:
    """The five codes of the best hand, most significant first: grouped cards first, then
    kickers; a straight from its top card down, so A-6-7-8-9 ends with the ace.

    >>> from engine.cards import parse_cards
    >>> best = best_short_deck([c.code for c in parse_cards("Ah 6c 7d 8s 9h Kc")])
    >>> [str(Card.from_code(c)) for c in best]
    ['9h', '8s', '7d', '6c', 'Ah']
    """
    five = max(combinations(sorted(codes, reverse=True), 5), key=rank_short_deck)
    category, ranks = _CLASSES[rank_short_deck(five) - 1]
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        ranks = (7, 6, 5, 4, 12) if ranks[0] == 7 else tuple(range(ranks[0], ranks[0] - 5, -1))
    return tuple(c for r in ranks for c in five if c >> 2 == r)


def describe_short_deck(value: int) -> str:
    """The hand with this rank (1..1404) in words, named as :func:`engine.evaluator.evaluate`
    names hands (A-6-7-8-9 is a straight, nine high).

    >>> describe_short_deck(1404), describe_short_deck(1)
    ('Royal Flush', 'High Card, Jack-Nine-Eight-Seven-Six')
    """
    # Every short-deck class is a class of high poker with the same name, A-6-7-8-9 (a
    # straight to the nine) included.
    return describe_rank(CLASS_RANK[_CLASSES[value - 1]])


@total_ordering
@dataclass(frozen=True, eq=False)
class ShortDeckValue:
    """A short-deck hand's rank with the five cards that play; ordered by the rank.

    >>> v = evaluate_short_deck("Kh Kd Kc 9h 9d As Qs")
    >>> v.value, str(v), [str(c) for c in v.best]
    (1194, 'Full House, Kings over Nines', ['Kh', 'Kd', 'Kc', '9h', '9d'])
    """

    value: int
    """1..1404, higher is stronger."""
    best: tuple[Card, ...]
    """The five cards that play, most significant first."""

    def describe(self) -> str:
        """The hand in words, e.g. ``'Flush, Ace-King-Nine-Seven-Six'``."""
        return describe_short_deck(self.value)

    def __str__(self) -> str:
        return self.describe()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShortDeckValue):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: ShortDeckValue) -> bool:
        return self.value < other.value


def evaluate_short_deck(cards: str | Iterable[Card | str | int]) -> ShortDeckValue:
    """Evaluate five or more distinct cards of the short deck (sixes to aces), as text,
    :class:`Card` objects, card strings or codes.

    >>> evaluate_short_deck("As Ks 5s 7s 6s")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHandError: card '5s' is not in the short deck (sixes to aces)
    """
    hand = to_cards(cards)
    if len(hand) < 5:
        raise InvalidHandError(f"a short-deck hand needs at least 5 cards, got {len(hand)}")
    for card in hand:
        if not SIX * 4 <= card.code < 52:  # not a deuce to five, joker or die
            raise InvalidHandError(f"card {str(card)!r} is not in the short deck (sixes to aces)")
    codes = [card.code for card in hand]
    return ShortDeckValue(
        rank_short_deck(codes), tuple(Card.from_code(c) for c in best_short_deck(codes))
    )
