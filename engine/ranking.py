"""How a game ranks hands at showdown: one :class:`Ranking` per way of ranking them.

A game names its rankings (:attr:`engine.games.Game.hands`): hold'em ranks high, razz
ace-to-five low, Omaha hi-lo high and low with two cards from the hand and three from
the board. A ranking turns a player's hole cards and the board (card codes) into an int,
higher is better, 0 when the hand does not qualify (an 8-or-better low with none), and
names it in words. The evaluators themselves live in :mod:`engine.evaluator` (high),
:mod:`engine.lowball`, :mod:`engine.omaha`, :mod:`engine.shortdeck`, :mod:`engine.wild`
and :mod:`engine.dice`; this module only binds each to the hole-and-board shape.

>>> from engine.cards import parse_cards
>>> def codes(text): return [c.code for c in parse_cards(text)]
>>> HIGH.describe(HIGH.rank(codes("Ah Kh"), codes("Qh Jh Th 2c 3d")))
'Royal Flush'
>>> HIGH.describe(HIGH.rank(codes("Kh"), codes("Ks")))  # Leduc: a pair with the board
'Pair of Kings'
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from engine.cards import Rank
from engine.evaluator import describe_rank, rank7
from engine.hand_classes import CLASS_RANK, flush_class, rank_class

__all__ = [
    "A5_LOW",
    "BADUGI",
    "DEUCE_SEVEN",
    "DICE",
    "EIGHT_LOW",
    "HIGH",
    "JOKER_BUG",
    "JOKER_WILD",
    "OMAHA_HIGH",
    "OMAHA_LOW8",
    "SHORT_DECK",
    "Ranking",
    "showing_high",
    "showing_low",
]

Codes = Sequence[int]


@dataclass(frozen=True, eq=False)
class Ranking:
    """One way of ranking hands. ``rank(hole, board)`` and ``best(hole, board)`` take card
    codes; ``low`` marks a low ranking (the low half of a split pot)."""

    name: str
    low: bool
    rank: Callable[[Codes, Codes], int]
    describe: Callable[[int], str]
    best: Callable[[Codes, Codes], tuple[int, ...]]
    dice: bool = False

    def __repr__(self) -> str:
        return f"<Ranking {self.name}>"


# -- high hands of any size ---------------------------------------------------------------

_SMALL: Final = 10_000
"""High values of hands under five cards start here, above the 7,462 five-card classes:
they only ever meet hands of their own size (Kuhn, Leduc, stud's up cards)."""
_SHAPES: Final = ((4,), (3, 1), (3,), (2, 2), (2, 1, 1), (2, 1), (2,))
_SMALL_NAMES: Final = {4: "Four", 3: "Three", 2: "Pair"}


def _small_high(codes: Codes) -> int:
    """Hands of one to four cards: no straights or flushes; quads, trips, two pair, a pair,
    then high cards, each broken by its ranks (ACPC's and pokerkit's Leduc ranking)."""
    counts = [0] * 13
    for c in codes:
        counts[c >> 2] += 1
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    shape = tuple(n for n, _ in groups)
    category = {(4,): 5, (3, 1): 4, (3,): 4, (2, 2): 3}.get(shape, 2 if shape[0] == 2 else 1)
    value = category
    for _, r in groups:
        value = value * 13 + r
    for _ in range(4 - len(groups)):
        value *= 13
    return _SMALL + value


def _describe_small(value: int) -> str:
    digits = []
    rest = value - _SMALL
    for _ in range(4):
        rest, digit = divmod(rest, 13)
        digits.append(digit)
    category = rest
    ranks = [Rank(d + 2) for d in reversed(digits)]
    if category == 5:
        return f"Four {ranks[0].plural}"
    if category == 4:
        return f"Three {ranks[0].plural}"
    if category == 3:
        return f"Two Pair, {ranks[0].plural} and {ranks[1].plural}"
    if category == 2:
        return f"Pair of {ranks[0].plural}"
    return f"{ranks[0].noun} high"


def _class_rank(codes: Codes) -> int:
    """The rank of the best five of five or more cards, without the seven-card tables."""
    counts = [0] * 13
    masks = [0, 0, 0, 0]
    for c in codes:
        counts[c >> 2] += 1
        masks[c & 3] |= 1 << (c >> 2)
    best = CLASS_RANK[rank_class(counts)]
    for mask in masks:
        if mask.bit_count() >= 5:
            best = max(best, CLASS_RANK[flush_class(mask)])
    return best


def high_rank(codes: Codes) -> int:
    """The high value of any number of cards (1..7,462 for five or more, as rank7)."""
    if len(codes) == 7:
        return rank7(*codes)
    if len(codes) >= 5:
        return _class_rank(codes)
    return _small_high(codes)


def _high(hole: Codes, board: Codes) -> int:
    if len(hole) == 2 and len(board) == 5:  # hold'em: the hot path
        return rank7(hole[0], hole[1], board[0], board[1], board[2], board[3], board[4])
    return high_rank([*hole, *board])


def _describe_high(value: int) -> str:
    return _describe_small(value) if value >= _SMALL else describe_rank(value)


def _best_high(hole: Codes, board: Codes) -> tuple[int, ...]:
    cards = [*hole, *board]
    if len(cards) <= 5:
        return tuple(sorted(cards, reverse=True))
    top = max(combinations(cards, 5), key=high_rank)
    return tuple(sorted(top, reverse=True))


HIGH: Final = Ranking("high", False, _high, _describe_high, _best_high)
"""The best five cards of hole and board together, ace high or low in a straight
(:func:`engine.evaluator.rank7`'s scale); hands under five cards rank without straights
or flushes."""


# -- the showing hands that open stud's betting -------------------------------------------


def showing_high(codes: Codes) -> int:
    """Stud's high hand showing (docs/rules.md T4): pairs, trips and quads and high cards;
    up cards make no straight or flush. Higher is better."""
    return _small_high(codes) if len(codes) < 5 else high_rank(codes)


def showing_low(codes: Codes) -> int:
    """Razz's low hand showing: ace low; no pair beats a pair, a pair two pair, two pair
    three of a kind; then the highest card lowest, and so on. Higher is better (the better
    low)."""
    counts: dict[int, int] = {}
    for c in codes:
        r = ((c >> 2) + 1) % 13  # ace 0 .. king 12
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = [n for n, _ in groups]
    # 0 no pair, 1 a pair, 2 two pair, 3 three of a kind, 4 four
    category = (0, 0, 1, 3, 4)[shape[0]] + (shape[:2] == [2, 2])
    value = category
    for _, r in groups:
        value = value * 13 + r
    for _ in range(4 - len(groups)):
        value *= 13
    return -value


# -- the other evaluators, each loaded on first use ---------------------------------------


@functools.cache
def _function(module: str, name: str) -> Callable[..., Any]:
    # On first use: naming a hand (pokerroom eval) loads no evaluator it does not need.
    function: Callable[..., Any] = getattr(importlib.import_module(f"engine.{module}"), name)
    return function


def _lazy(
    module: str, suffix: str, *, split: bool = False, dice: bool = False
) -> tuple[
    Callable[[Codes, Codes], int], Callable[[int], str], Callable[[Codes, Codes], tuple[int, ...]]
]:
    """The rank, describe and best functions ``rank_<suffix>`` ... of ``engine.<module>``:
    of the hole cards and board apart (Omaha), or of all the cards together; dice as faces."""

    def cards(hole: Codes, board: Codes) -> tuple[Any, ...]:
        if split:
            return (hole, board)
        codes = [*hole, *board]
        return ([c - 53 for c in codes],) if dice else (codes,)

    def rank(hole: Codes, board: Codes) -> int:
        return int(_function(module, f"rank_{suffix}")(*cards(hole, board)))

    def describe(value: int) -> str:
        return str(_function(module, f"describe_{suffix}")(value))

    def best(hole: Codes, board: Codes) -> tuple[int, ...]:
        chosen = _function(module, f"best_{suffix}")(*cards(hole, board))
        return tuple(53 + f for f in chosen) if dice else tuple(chosen)

    return rank, describe, best


SHORT_DECK: Final = Ranking("short-deck high", False, *_lazy("shortdeck", "short_deck"))
"""Short-deck (6+): a flush beats a full house; A-6-7-8-9 is the lowest straight."""
OMAHA_HIGH: Final = Ranking("Omaha high", False, *_lazy("omaha", "omaha_high", split=True))
"""Exactly two hole cards and three board cards, high."""
OMAHA_LOW8: Final = Ranking(
    "Omaha 8-or-better low", True, *_lazy("omaha", "omaha_low8", split=True)
)
"""Exactly two hole cards and three board cards, ace-to-five low, 8 or better."""
A5_LOW: Final = Ranking("ace-to-five low", True, *_lazy("lowball", "a5_low"))
"""Razz: aces low, straights and flushes do not count."""
EIGHT_LOW: Final = Ranking("8-or-better low", True, *_lazy("lowball", "eight_low"))
"""Stud hi-lo's low half: five distinct ranks, eight or lower."""
DEUCE_SEVEN: Final = Ranking("deuce-to-seven low", True, *_lazy("lowball", "27_low"))
"""Kansas City lowball: aces high, straights and flushes count against."""
BADUGI: Final = Ranking("badugi", True, *_lazy("lowball", "badugi"))
"""Badugi: the most cards of different ranks and suits, then the lowest."""
JOKER_WILD: Final = Ranking("high, joker wild", False, *_lazy("wild", "joker_wild"))
"""High with the joker fully wild: five of a kind is the top hand."""
JOKER_BUG: Final = Ranking("high, joker the bug", False, *_lazy("wild", "joker_bug"))
"""High with the joker as the bug: an ace, or a card that completes a straight or flush."""
DICE: Final = Ranking("poker dice", False, *_lazy("dice", "dice", dice=True), dice=True)
"""Five dice: five of a kind down to nothing; no suits."""
