"""Low hands: ace-to-five (razz), eight-or-better, deuce-to-seven and badugi.

Each game has a ``rank_*`` function from card codes (see :mod:`engine.cards`) to an int
that is *higher for the better hand in that game*, so the best low gets the highest number;
values compare only within one game. ``describe_*`` names a value, ``best_*`` gives the
codes that play, most significant first, and :func:`evaluate_low` is the checked entry
point for card text or :class:`~engine.cards.Card` objects. The fast paths check nothing.

The rules, after Robert's Rules of Poker (Bob Ciaffone), sections "Lowball" (its
"Ace-to-five Lowball" and "Deuce-to-seven Lowball"), "Seven-Card Stud Low (Razz)",
"Omaha High-Low" and "Seven-Card Stud High-Low":

- **Ace-to-five** (razz, California lowball): the best five of five or more cards; the ace
  is low; straights and flushes do not count; a pair is worse than any unpaired hand, two
  pair worse than one, and so on up to four of a kind, the worst. The best hand is
  5-4-3-2-A, the wheel. Hands compare highest card first. 6,175 classes.
- **Eight-or-better** (the low half of a high-low split pot): an ace-to-five low of five
  different ranks, all eight or lower. Cards that hold no such five have no low: value 0.
  56 classes, 1 (8-7-6-5-4) to 56 (the wheel).
- **Deuce-to-seven** (Kansas City lowball): the ace is high only, straights and flushes
  count against you, and A-2-3-4-5 is not a straight but an ace-high hand (the ace cannot
  play low). The best hand is 7-5-4-3-2 of mixed suits. The order is the exact reverse of
  high poker except for the two A-2-3-4-5 hands, which leave the straights for ace-high
  (and ace-high flush). 7,462 classes.
- **Badugi** (Robert's Rules has no section for it; the rules are those of Wikipedia's
  "Badugi" and pokerkit's ``BadugiHand``): of four cards, the largest subset with no two
  cards of a rank and no two of a suit plays; any four-card badugi beats any three-card
  hand, and so on; hands of one size compare highest card first, lower is better; the ace
  is low. The best hand is 4-3-2-A of four suits. 715 + 286 + 78 + 13 = 1,092 classes.

>>> from engine.cards import parse_cards
>>> codes = [c.code for c in parse_cards("Ah 2c 3d 4s 5h Kc Kd")]
>>> describe_a5_low(rank_a5_low(codes)), rank_a5_low(codes)
('Five-Four-Three-Two-Ace', 6175)
>>> rank_eight_low(codes), rank_eight_low([c.code for c in parse_cards("Ah 2c 3d 9s Th Kc Kd")])
(56, 0)
>>> str(evaluate_low("7c 5d 4h 3s 2c", game="deuce-to-seven"))
'Seven-Five-Four-Three-Two'
>>> str(evaluate_low("Ks 7h 4d 3c", game="badugi"))
'Four-card badugi, King-Seven-Four-Three'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Final, Literal, get_args

from engine.cards import Card, Rank, to_cards
from engine.errors import InvalidHandError
from engine.hand_classes import (
    CARD_KEYS,
    CLASS_RANK,
    RANK_KEYS,
    HandCategory,
    HandClass,
    name_class,
)

__all__ = [
    "LowGame",
    "LowValue",
    "best_27_low",
    "best_a5_low",
    "best_badugi",
    "best_eight_low",
    "describe_27_low",
    "describe_a5_low",
    "describe_badugi",
    "describe_eight_low",
    "evaluate_low",
    "rank_27_low",
    "rank_a5_low",
    "rank_badugi",
    "rank_eight_low",
]

LowGame = Literal["ace-to-five", "eight-or-better", "deuce-to-seven", "badugi"]

# A card's rank with the ace low: 0 for an ace, 1 for a deuce .. 12 for a king.
_LOW: Final = tuple(((code >> 2) + 1) % 13 for code in range(52))


def _rank_of_low(low: int) -> Rank:
    return Rank((low - 1) % 13 + 2)


# Ranks per group, most significant group first, for each shape of five cards.
_SHAPES: Final = {
    HandCategory.HIGH_CARD: (1, 1, 1, 1, 1),
    HandCategory.FLUSH: (1, 1, 1, 1, 1),
    HandCategory.ONE_PAIR: (2, 1, 1, 1),
    HandCategory.TWO_PAIR: (2, 2, 1),
    HandCategory.THREE_OF_A_KIND: (3, 1, 1),
    HandCategory.FULL_HOUSE: (3, 2),
    HandCategory.FOUR_OF_A_KIND: (4, 1),
}
_CATEGORY_OF_SHAPE: Final = {
    shape: category for category, shape in _SHAPES.items() if category is not HandCategory.FLUSH
}


def _arrange(
    five: Iterable[int], order: Iterable[int], rank_of: Callable[[int], int]
) -> tuple[int, ...]:
    """The cards grouped by rank in the given order of ranks, each group highest code first."""
    pool = sorted(five, reverse=True)
    return tuple(c for r in order for c in pool if rank_of(c) == r)


def _name(category: HandCategory, ranks: Sequence[Rank]) -> str:
    """A hand class in words, as :meth:`engine.evaluator.HandValue.describe` names it,
    except that an unpaired low hand is just its ranks, e.g. ``'Seven-Five-Four-Three-Two'``."""
    return name_class(category, ranks, high="")


def _a5_class(lows: Sequence[int]) -> HandClass:
    """The ace-to-five class of five low ranks: the shape's category and the ranks by group
    size, then from the highest down (the order in which lows compare)."""
    counts: dict[int, int] = {}
    for low in lows:
        counts[low] = counts.get(low, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    return _CATEGORY_OF_SHAPE[shape], tuple(low for low, _ in groups)


def _build_ace_to_five() -> tuple[list[HandClass], dict[int, int]]:
    classes: dict[int, HandClass] = {}
    for lows in combinations_with_replacement(range(13), 5):
        if lows[0] != lows[4]:  # five of a kind does not exist
            classes[sum(RANK_KEYS[low] for low in lows)] = _a5_class(lows)
    # Worst first: a worse category, then higher ranks, is a worse low.
    ordered = sorted(classes.values(), reverse=True)
    value_of = {c: value for value, c in enumerate(ordered, start=1)}
    return ordered, {key: value_of[c] for key, c in classes.items()}


_A5_CLASSES, _A5_BY_KEY = _build_ace_to_five()
_A5_KEY: Final = tuple(RANK_KEYS[low] for low in _LOW)
_A5_BIT: Final = tuple(1 << low for low in _LOW)


def _five_lowest_value(mask: int, by_key: dict[int, int]) -> int:
    key = 0
    for _ in range(5):
        lowest = mask & -mask
        key += RANK_KEYS[lowest.bit_length() - 1]
        mask ^= lowest
    return by_key[key]


# _A5_UNPAIRED[mask of the low ranks held]: the value of the five lowest, or 0 with fewer
# than five ranks (then pairs must play).
_A5_UNPAIRED: Final = [
    _five_lowest_value(mask, _A5_BY_KEY) if mask.bit_count() >= 5 else 0 for mask in range(8192)
]


def rank_a5_low(
    codes: Sequence[int],
    *,
    _bit: Sequence[int] = _A5_BIT,
    _unpaired: Sequence[int] = _A5_UNPAIRED,
) -> int:
    """The ace-to-five low value (1..6175, higher is the better low) of the best five of
    five or more distinct card codes.

    >>> from engine.cards import parse_cards
    >>> value = rank_a5_low([c.code for c in parse_cards("Kc Kd Ks 2h 2c 3d 3h")])
    >>> value, describe_a5_low(value)
    (1996, 'Two Pair, Threes and Twos, King kicker')
    """
    mask = 0
    for code in codes:
        mask |= _bit[code]
    return _unpaired[mask] or _ace_to_five_paired(codes)


def _ace_to_five_paired(codes: Sequence[int]) -> int:
    # Fewer than five ranks: rare (three duplicates among seven cards), so try every five.
    k, by_key = _A5_KEY, _A5_BY_KEY
    return max(by_key[k[a] + k[b] + k[c] + k[d] + k[e]] for a, b, c, d, e in combinations(codes, 5))


def best_a5_low(codes: Iterable[int]) -> tuple[int, ...]:
    """The five codes that make the best ace-to-five low, most significant first: grouped
    cards first, then the rest from the highest down (the ace is lowest).

    >>> from engine.cards import parse_cards
    >>> best = best_a5_low([c.code for c in parse_cards("9d Ah 2c 7s 4h 4d Kc")])
    >>> [str(Card.from_code(c)) for c in best]
    ['9d', '7s', '4h', '2c', 'Ah']
    """
    # Highest codes first, so that of equal cards the highest suit plays, as in evaluate().
    five = max(combinations(sorted(codes, reverse=True), 5), key=rank_a5_low)
    _, order = _A5_CLASSES[rank_a5_low(five) - 1]
    return _arrange(five, order, _LOW.__getitem__)


def describe_a5_low(value: int) -> str:
    """The ace-to-five low with this value (1..6175) in words.

    >>> describe_a5_low(6175), describe_a5_low(1)
    ('Five-Four-Three-Two-Ace', 'Four of a Kind, Kings, Queen kicker')
    """
    category, lows = _A5_CLASSES[value - 1]
    return _name(category, [_rank_of_low(low) for low in lows])


# ------------------------------------------------------------------------ eight-or-better

# All 56 sets of five ranks from ace to eight (ace = 0), worst (8-7-6-5-4) first.
_LOW8_SETS: Final = sorted(
    (tuple(reversed(lows)) for lows in combinations(range(8), 5)), reverse=True
)
_LOW8_VALUE: Final = {sum(1 << low for low in s): v for v, s in enumerate(_LOW8_SETS, start=1)}
_LOW8_BIT: Final = tuple(1 << low if low < 8 else 0 for low in _LOW)


def _low8_of_mask(mask: int) -> int:
    if mask.bit_count() < 5:
        return 0
    five = 0
    for _ in range(5):
        lowest = mask & -mask
        five |= lowest
        mask ^= lowest
    return _LOW8_VALUE[five]


# _LOW8[mask of the ranks ace..eight held]: the value of the five lowest, or 0.
_LOW8: Final = [_low8_of_mask(mask) for mask in range(256)]


def rank_eight_low(
    codes: Iterable[int], *, _bit: Sequence[int] = _LOW8_BIT, _low8: Sequence[int] = _LOW8
) -> int:
    """The eight-or-better low value (1..56, higher is the better low) of five or more
    distinct card codes, or 0 when they hold no five different ranks of eight or lower.

    >>> from engine.cards import parse_cards
    >>> rank_eight_low([c.code for c in parse_cards("8c 7d 6h 5s 4c")])
    1
    >>> rank_eight_low([c.code for c in parse_cards("Ah 2c 3d 3s 8h 9c Kd")])
    0
    """
    mask = 0
    for code in codes:
        mask |= _bit[code]
    return _low8[mask]


def best_eight_low(codes: Iterable[int]) -> tuple[int, ...]:
    """The five codes of the best eight-or-better low, highest first; ``()`` if there is none.

    >>> from engine.cards import parse_cards
    >>> best = best_eight_low([c.code for c in parse_cards("Ah 2c 3d 8s 7h Kc 2d")])
    >>> [str(Card.from_code(c)) for c in best]
    ['8s', '7h', '3d', '2d', 'Ah']
    """
    codes = tuple(codes)
    value = rank_eight_low(codes)
    if not value:
        return ()
    order = _LOW8_SETS[value - 1]
    return tuple(max(c for c in codes if _LOW[c] == low) for low in order)


def describe_eight_low(value: int) -> str:
    """The eight-or-better low with this value in words; 0 is no low.

    >>> describe_eight_low(56), describe_eight_low(1), describe_eight_low(0)
    ('Five-Four-Three-Two-Ace', 'Eight-Seven-Six-Five-Four', 'No qualifying low')
    """
    if not value:
        return "No qualifying low"
    return "-".join(_rank_of_low(low).noun for low in _LOW8_SETS[value - 1])


# ------------------------------------------------------------------------- deuce-to-seven

_WHEEL: Final = (12, 3, 2, 1, 0)
# The same five cards in high poker and in deuce-to-seven: only A-2-3-4-5 differs.
_DEUCE_TO_SEVEN_CLASS: Final[dict[HandClass, HandClass]] = {
    (HandCategory.STRAIGHT, (3,)): (HandCategory.HIGH_CARD, _WHEEL),
    (HandCategory.STRAIGHT_FLUSH, (3,)): (HandCategory.FLUSH, _WHEEL),
}
_FLUSH_FLAG: Final = 1 << 23  # above any sum of five rank keys
# _FLUSH5[low byte of the sum of five card keys]: _FLUSH_FLAG if the five share a suit.
_FLUSH5: Final = [_FLUSH_FLAG if byte in {0, 5, 120, 165} else 0 for byte in range(256)]


def _straight_ranks(top: int) -> tuple[int, ...]:
    """The five ranks of the straight with this top card (3 is the wheel, A-2-3-4-5)."""
    return (3, 2, 1, 0, 12) if top == 3 else tuple(range(top, top - 5, -1))


def _class_key(category: HandCategory, ranks: tuple[int, ...]) -> int:
    """The sum of the rank keys of a five-card high class, plus _FLUSH_FLAG if suited."""
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        key = sum(RANK_KEYS[r] for r in _straight_ranks(ranks[0]))
    else:
        key = sum(RANK_KEYS[r] * n for r, n in zip(ranks, _SHAPES[category], strict=True))
    suited = category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH)
    return key | (_FLUSH_FLAG if suited else 0)


def _build_deuce_to_seven() -> tuple[list[HandClass], dict[int, int]]:
    by_key = {_class_key(*c): _DEUCE_TO_SEVEN_CLASS.get(c, c) for c in CLASS_RANK}
    ordered = sorted(by_key.values(), reverse=True)  # worst (a royal flush) first
    value_of = {c: value for value, c in enumerate(ordered, start=1)}
    return ordered, {key: value_of[c] for key, c in by_key.items()}


_D27_CLASSES, _D27_BY_KEY = _build_deuce_to_seven()


def rank_27_low(
    codes: Sequence[int],
    *,
    _k: Sequence[int] = CARD_KEYS,
    _flush: Sequence[int] = _FLUSH5,
    _by_key: dict[int, int] = _D27_BY_KEY,
) -> int:
    """The deuce-to-seven low value (1..7462, higher is the better low) of five distinct card
    codes, or of the best five of more.

    >>> from engine.cards import parse_cards
    >>> hands = [parse_cards("7c 5d 4h 3s 2c"), parse_cards("As Ks Qs Js Ts")]
    >>> [rank_27_low([c.code for c in hand]) for hand in hands]
    [7462, 1]
    """
    if len(codes) == 5:
        a, b, c, d, e = codes
        k = _k[a] + _k[b] + _k[c] + _k[d] + _k[e]
        return _by_key[k >> 8 | _flush[k & 255]]
    return max(rank_27_low(five) for five in combinations(codes, 5))


def best_27_low(codes: Sequence[int]) -> tuple[int, ...]:
    """The five codes of the best deuce-to-seven low, most significant first (grouped cards
    first, then from the highest down; a straight from its top card).

    >>> from engine.cards import parse_cards
    >>> best = best_27_low([c.code for c in parse_cards("5h 4h 3h 2h Ah")])
    >>> [str(Card.from_code(c)) for c in best], describe_27_low(rank_27_low(best))
    (['Ah', '5h', '4h', '3h', '2h'], 'Flush, Ace-Five-Four-Three-Two')
    """
    five = max(combinations(sorted(codes, reverse=True), 5), key=rank_27_low)
    category, ranks = _D27_CLASSES[rank_27_low(five) - 1]
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        ranks = _straight_ranks(ranks[0])  # never the wheel: it is ace-high here
    return _arrange(five, ranks, lambda code: code >> 2)


def describe_27_low(value: int) -> str:
    """The deuce-to-seven low with this value (1..7462) in words.

    >>> describe_27_low(7462), describe_27_low(7461), describe_27_low(1)
    ('Seven-Five-Four-Three-Two', 'Seven-Six-Four-Three-Two', 'Royal Flush')
    """
    category, ranks = _D27_CLASSES[value - 1]
    return _name(category, [Rank(r + 2) for r in ranks])


# --------------------------------------------------------------------------------- badugi


def _build_badugi() -> tuple[list[tuple[int, ...]], list[int]]:
    hands = [tuple(reversed(lows)) for n in range(1, 5) for lows in combinations(range(13), n)]
    # Worst first: fewer cards, then (among as many cards) a higher top card, and so on.
    ordered = sorted(hands, key=lambda h: (len(h), [-low for low in h]))
    by_mask = [0] * 8192
    for value, h in enumerate(ordered, start=1):
        by_mask[sum(1 << low for low in h)] = value
    return ordered, by_mask


_BADUGI_HANDS, _BADUGI_BY_MASK = _build_badugi()
_SUIT_BIT: Final = tuple(1 << (code & 3) for code in range(52))


def rank_badugi(
    codes: Sequence[int],
    *,
    _rank_bit: Sequence[int] = _A5_BIT,
    _suit_bit: Sequence[int] = _SUIT_BIT,
    _by_mask: Sequence[int] = _BADUGI_BY_MASK,
) -> int:
    """The badugi value (1..1092, higher is better) of four or more distinct card codes: the
    best subset of distinct ranks and distinct suits, more cards first.

    >>> from engine.cards import parse_cards
    >>> rank_badugi([c.code for c in parse_cards("As 2h 3d 4c")])
    1092
    >>> value = rank_badugi([c.code for c in parse_cards("Ks Qs Js Ts")])
    >>> value, describe_badugi(value)
    (4, 'One-card hand, Ten')
    """
    for size in range(min(4, len(codes)), 0, -1):
        best = 0
        for subset in combinations(codes, size):
            ranks = suits = 0
            for code in subset:
                ranks |= _rank_bit[code]
                suits |= _suit_bit[code]
            if ranks.bit_count() == size == suits.bit_count() and _by_mask[ranks] > best:
                best = _by_mask[ranks]
        if best:
            return best
    return 0


def best_badugi(codes: Sequence[int]) -> tuple[int, ...]:
    """The codes of the best badugi subset, highest first (the ace is lowest).

    >>> from engine.cards import parse_cards
    >>> [str(Card.from_code(c)) for c in best_badugi([c.code for c in parse_cards("8h 5d 3s Ah")])]
    ['5d', '3s', 'Ah']
    """
    value = rank_badugi(codes)
    size = len(_BADUGI_HANDS[value - 1])
    ordered = sorted(codes, reverse=True)
    subset = next(s for s in combinations(ordered, size) if rank_badugi(s) == value)
    return tuple(sorted(subset, key=lambda code: _LOW[code], reverse=True))


def describe_badugi(value: int) -> str:
    """The badugi hand with this value (1..1092) in words.

    >>> describe_badugi(1092), describe_badugi(1)
    ('Four-card badugi, Four-Three-Two-Ace', 'One-card hand, King')
    """
    lows = _BADUGI_HANDS[value - 1]
    kind = "Four-card badugi" if len(lows) == 4 else f"{_SIZES[len(lows)]}-card hand"
    return f"{kind}, " + "-".join(_rank_of_low(low).noun for low in lows)


_SIZES: Final = {1: "One", 2: "Two", 3: "Three"}

# --------------------------------------------------------------------------- checked entry


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class LowValue:
    """A low hand's value in one game, with the cards that play; a higher value is a better
    low. Values of different games do not compare.

    >>> a = evaluate_low("8s 6h 4d 3c 2c Kd", game="eight-or-better")
    >>> b = evaluate_low("7s 6h 4d 3c 2c 9d", game="eight-or-better")
    >>> b > a, str(b), [str(c) for c in b.best]
    (True, 'Seven-Six-Four-Three-Two', ['7s', '6h', '4d', '3c', '2c'])
    """

    game: LowGame
    value: int
    """On the game's ``rank_*`` scale; 0 only for no eight-or-better low."""
    best: tuple[Card, ...]
    """The cards that play, most significant first."""

    def describe(self) -> str:
        """The hand in words, e.g. ``'Seven-Five-Four-Three-Two'``."""
        return _GAMES[self.game][2](self.value)

    def __str__(self) -> str:
        return self.describe()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return (self.game, self.value) == (other.game, other.value)

    def __hash__(self) -> int:
        return hash((self.game, self.value))

    def __lt__(self, other: LowValue) -> bool:
        if self.game != other.game:
            raise InvalidHandError(f"cannot compare a {self.game!r} low with a {other.game!r} low")
        return self.value < other.value


_Game = tuple[
    Callable[[Sequence[int]], int], Callable[[Sequence[int]], tuple[int, ...]], Callable[[int], str]
]
_GAMES: Final[dict[str, _Game]] = {
    "ace-to-five": (rank_a5_low, best_a5_low, describe_a5_low),
    "eight-or-better": (rank_eight_low, best_eight_low, describe_eight_low),
    "deuce-to-seven": (rank_27_low, best_27_low, describe_27_low),
    "badugi": (rank_badugi, best_badugi, describe_badugi),
}


def evaluate_low(cards: str | Iterable[Card | str | int], *, game: LowGame) -> LowValue:
    """Evaluate distinct cards (text, :class:`Card` objects, card strings or codes) as a low
    hand of ``game``: five or more cards, or four or more for badugi.

    >>> evaluate_low("Ah 2c 3d 4s 5h", game="ace-to-five").value
    6175
    >>> evaluate_low("Ah 2c 3d", game="ace-to-five")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHandError: an ace-to-five hand needs at least 5 cards, got 3
    """
    if game not in _GAMES:
        raise InvalidHandError(f"unknown low game {game!r}: expected one of {get_args(LowGame)!r}")
    hand = to_cards(cards)
    needed = 4 if game == "badugi" else 5
    if len(hand) < needed:
        article = "an" if game[0] in "ae" else "a"
        raise InvalidHandError(
            f"{article} {game} hand needs at least {needed} cards, got {len(hand)}"
        )
    for card in hand:
        if card.code > 51:
            raise InvalidHandError(f"{game} is played with the 52 cards, got {str(card)!r}")
    rank, best, _ = _GAMES[game]
    codes = tuple(card.code for card in hand)
    return LowValue(game, rank(codes), tuple(Card.from_code(c) for c in best(codes)))
