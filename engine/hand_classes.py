"""Hand classes: the 7,462 kinds of five-card hand, their order, and how to find the best.

This module is the evaluator's rulebook, with no tables: :mod:`engine.evaluator` and the
table builder :mod:`engine.tablegen` both derive from it.

>>> rank_class([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 2])  # KKK AA 55
(<HandCategory.FULL_HOUSE: 7>, (11, 12))
>>> len(CLASS_RANK)
7462
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from itertools import combinations
from typing import Final

from engine.cards import Rank

__all__ = [
    "CARD_KEYS",
    "CLASS_RANK",
    "RANK_KEYS",
    "SUIT_KEYS",
    "HandCategory",
    "HandClass",
    "all_classes",
    "five_card_keys",
    "flush_class",
    "name_class",
    "rank_class",
]


class HandCategory(IntEnum):
    """The kind of hand, weakest first. A royal flush is the top straight flush."""

    HIGH_CARD = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    def __str__(self) -> str:
        return self.name.replace("_", " ").title().replace(" A ", " a ").replace(" Of ", " of ")


# A hand class: the category (without ROYAL_FLUSH, which is a straight flush) and the
# rank indices (0 = deuce .. 12 = ace) that decide it, most significant first. A straight's
# single index is its top card (3 for the wheel, whose top card is the five).
HandClass = tuple[HandCategory, tuple[int, ...]]

RANK_KEYS: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
SUIT_KEYS: Final = (0, 1, 24, 33)
CARD_KEYS: Final = tuple(RANK_KEYS[code >> 2] * 256 + SUIT_KEYS[code & 3] for code in range(52))
_STRAIGHTS: Final = tuple([0b1_0000_0000_1111] + [0b11111 << low for low in range(9)])  # top 3..12


def _straight_top(mask: int) -> int:
    """The top rank index of the best straight in a 13-bit rank mask, or -1."""
    for top in range(12, 2, -1):
        if mask & _STRAIGHTS[top - 3] == _STRAIGHTS[top - 3]:
            return top
    return -1


def _top_ranks(mask: int, n: int) -> tuple[int, ...]:
    return tuple(r for r in range(12, -1, -1) if mask >> r & 1)[:n]


def flush_class(mask: int) -> HandClass:
    """The best flush or straight flush made of the ranks in ``mask`` (five bits or more)."""
    top = _straight_top(mask)
    if top >= 0:
        return HandCategory.STRAIGHT_FLUSH, (top,)
    return HandCategory.FLUSH, _top_ranks(mask, 5)


def rank_class(counts: Sequence[int]) -> HandClass:
    """The best hand without a flush from per-rank card counts (index 0 = deuces)."""
    by_count: list[list[int]] = [[], [], [], [], []]
    for r in range(12, -1, -1):
        by_count[min(counts[r], 4)].append(r)
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]
    present = [r for r in range(12, -1, -1) if counts[r]]

    def kickers(exclude: Iterable[int], n: int) -> tuple[int, ...]:
        skip = set(exclude)
        return tuple(r for r in present if r not in skip)[:n]

    if quads:
        return HandCategory.FOUR_OF_A_KIND, (quads[0], *kickers(quads[:1], 1))
    if trips and len(trips) + len(pairs) >= 2:
        pair = max(trips[1:] + pairs)
        return HandCategory.FULL_HOUSE, (trips[0], pair)
    mask = sum(1 << r for r in present)
    top = _straight_top(mask)
    if top >= 0:
        return HandCategory.STRAIGHT, (top,)
    if trips:
        return HandCategory.THREE_OF_A_KIND, (trips[0], *kickers(trips[:1], 2))
    if len(pairs) >= 2:
        return HandCategory.TWO_PAIR, (pairs[0], pairs[1], *kickers(pairs[:2], 1))
    if pairs:
        return HandCategory.ONE_PAIR, (pairs[0], *kickers(pairs[:1], 3))
    return HandCategory.HIGH_CARD, tuple(present[:5])


def all_classes() -> list[HandClass]:
    """Every five-card hand class, weakest first: 7,462 of them."""
    fives = [c[::-1] for c in combinations(range(13), 5)]  # descending rank tuples
    plain = sorted(c for c in fives if _straight_top(sum(1 << r for r in c)) < 0)
    classes: list[HandClass] = [(HandCategory.HIGH_CARD, c) for c in plain]
    for p in range(13):
        others = sorted(c[::-1] for c in combinations([r for r in range(13) if r != p], 3))
        classes += [(HandCategory.ONE_PAIR, (p, *k)) for k in others]
    for hi in range(13):
        for lo in range(hi):
            classes += [
                (HandCategory.TWO_PAIR, (hi, lo, k)) for k in range(13) if k not in (hi, lo)
            ]
    for t in range(13):
        kicker_pairs = sorted(c[::-1] for c in combinations([r for r in range(13) if r != t], 2))
        classes += [(HandCategory.THREE_OF_A_KIND, (t, *k)) for k in kicker_pairs]
    classes += [(HandCategory.STRAIGHT, (top,)) for top in range(3, 13)]
    classes += [(HandCategory.FLUSH, c) for c in plain]
    classes += [(HandCategory.FULL_HOUSE, (t, p)) for t in range(13) for p in range(13) if p != t]
    classes += [
        (HandCategory.FOUR_OF_A_KIND, (q, k)) for q in range(13) for k in range(13) if k != q
    ]
    classes += [(HandCategory.STRAIGHT_FLUSH, (top,)) for top in range(3, 13)]
    classes.sort(key=lambda c: (c[0], c[1]))
    return classes


CLASS_RANK: Final[dict[HandClass, int]] = {c: i for i, c in enumerate(all_classes(), start=1)}


_GROUPS: Final = {
    HandCategory.ONE_PAIR: (2, 1, 1, 1),
    HandCategory.TWO_PAIR: (2, 2, 1),
    HandCategory.THREE_OF_A_KIND: (3, 1, 1),
    HandCategory.FULL_HOUSE: (3, 2),
    HandCategory.FOUR_OF_A_KIND: (4, 1),
}


def five_card_keys() -> Iterator[tuple[int, bool, int, HandCategory]]:
    """Each five-card class as (the sum of its five cards' rank keys, whether its cards
    share a suit, its rank on rank7's scale, its category): what a table of five-card
    hands by key sum is built from (Omaha's and the joker evaluators')."""
    for (category, decisive), rank in CLASS_RANK.items():
        ranks = decisive
        if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
            top = decisive[0]
            ranks = (3, 2, 1, 0, 12) if top == 3 else tuple(range(top, top - 5, -1))
        groups = _GROUPS.get(category, (1, 1, 1, 1, 1))
        key = sum(RANK_KEYS[r] * n for r, n in zip(ranks, groups, strict=True))
        yield key, category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH), rank, category


def name_class(category: HandCategory, ranks: Sequence[Rank], *, high: str = "High Card, ") -> str:
    """A hand class in words, e.g. ``'Full House, Kings over Fives'``; ``ranks`` are the
    deciding ranks, most significant first. Five unpaired cards are ``high`` and their
    ranks (lowball names them without it).

    >>> name_class(HandCategory.TWO_PAIR, [Rank.ACE, Rank.NINE, Rank.QUEEN])
    'Two Pair, Aces and Nines, Queen kicker'
    """
    r = ranks
    names = "-".join(x.noun for x in r)
    match category:
        case HandCategory.ROYAL_FLUSH:
            return "Royal Flush"
        case HandCategory.STRAIGHT_FLUSH if r[0] is Rank.ACE:
            return "Royal Flush"
        case HandCategory.STRAIGHT_FLUSH | HandCategory.STRAIGHT:
            return f"{category}, {r[0].noun} high"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a Kind, {r[0].plural}, {r[1].noun} kicker"
        case HandCategory.FULL_HOUSE:
            return f"Full House, {r[0].plural} over {r[1].plural}"
        case HandCategory.FLUSH:
            return f"Flush, {names}"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a Kind, {r[0].plural}, {_kickers(r[1:])}"
        case HandCategory.TWO_PAIR:
            return f"Two Pair, {r[0].plural} and {r[1].plural}, {_kickers(r[2:])}"
        case HandCategory.ONE_PAIR:
            return f"One Pair, {r[0].plural}, {_kickers(r[1:])}"
        case _:
            return f"{high}{names}"


def _kickers(ranks: Sequence[Rank]) -> str:
    return "-".join(r.noun for r in ranks) + (" kicker" if len(ranks) == 1 else " kickers")
