"""High poker with jokers: fully wild, or as the bug.

The jokers are ``X1`` and ``X2``, codes 52 and 53 (two cards that play alike); a hand is
the best five of five or more cards, with up to two jokers among them. Five of a kind is the top
category, above a straight flush. Two ways to play a joker:

- **Fully wild** (:func:`rank_joker_wild`): a joker stands for any card. It may not stand for a
  card already among the five that play, except to make five of a kind, so there is no
  "double-ace flush" (A-A-K-9-4 of hearts). Wikipedia's "Wild card (card games)" lists the
  double-ace flush as a house exception to standard practice, and Robert's Rules of Poker
  give the same no-duplicate answer for the bug (below); we follow them.
- **The bug** (:func:`rank_joker_bug`; Robert's Rules of Poker, section "Draw High", subsection
  "The Joker", the California rule also used in pai gow poker): a joker counts as an ace, or
  as any card that completes a straight, a flush or a straight flush; in a flush it is the
  highest card of the suit not already in the hand; five aces (four aces and the joker) is
  the best hand. So K-K-joker-7-2 is a pair of kings with an ace kicker, not three kings.
  With two jokers, each plays by the same rule.

Values (higher is better) are those of :func:`engine.evaluator.rank7`, 1..7462, for hands
without five of a kind, so a hand without jokers has its usual rank; five of a kind is 7463
(five deuces) to 7475 (five aces), which the bug reaches only with aces. :func:`rank_joker_wild`
and :func:`rank_joker_bug` check nothing; :func:`evaluate_wild` is the checked entry point.

>>> str(evaluate_wild("Ah Ad Ac As X1"))
'Five of a Kind, Aces'
>>> hand = "Kh Kd X1 7c 2s"
>>> str(evaluate_wild(hand)), str(evaluate_wild(hand, bug=True))
('Three of a Kind, Kings, Seven-Two kickers', 'One Pair, Kings, Ace-Seven-Two kickers')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from itertools import combinations, combinations_with_replacement, product
from typing import Final

from engine.cards import Card, Rank, to_cards
from engine.errors import InvalidHandError
from engine.evaluator import describe_rank, evaluate, rank7
from engine.hand_classes import (
    CARD_KEYS,
    RANK_KEYS,
    SUIT_KEYS,
    HandCategory,
    five_card_keys,
)

__all__ = [
    "JOKERS",
    "WildValue",
    "best_joker_bug",
    "best_joker_wild",
    "describe_joker_bug",
    "describe_joker_wild",
    "evaluate_wild",
    "rank_joker_bug",
    "rank_joker_wild",
]

JOKERS: Final = (52, 53)
FIVE_OF_A_KIND: Final = 7463  # five deuces; + rank index up to 7475, five aces
_ACE: Final = 12

# A card's key: CARD_KEYS for the 52 cards, a count in bit 40 and up for a joker. In a sum
# of five keys, bits 40.. count the jokers, bits 8..39 sum the naturals' rank keys and the
# low byte their suit keys.
_JOKER_KEY: Final = 1 << 40
_KEYS: Final = (*CARD_KEYS, _JOKER_KEY, _JOKER_KEY)
_SUITED: Final = 1 << 31  # flag in a table key: the naturals share a suit
_FLUSH_CATEGORIES: Final = (
    HandCategory.STRAIGHT,
    HandCategory.FLUSH,
    HandCategory.STRAIGHT_FLUSH,
    HandCategory.ROYAL_FLUSH,
)


def _build_standard() -> tuple[dict[int, int], list[HandCategory]]:
    """The rank of five natural cards by the sum of their rank keys (plus _SUITED if they
    share a suit), read off the 7,462 classes; and the category of each rank."""
    table: dict[int, int] = {}
    category_of = [HandCategory.HIGH_CARD] * (FIVE_OF_A_KIND + 13)
    for key, suited, rank, category in five_card_keys():
        table[key | (_SUITED if suited else 0)] = rank
        category_of[rank] = category
    return table, category_of


_STANDARD, _CATEGORY = _build_standard()


def _suited_flags(naturals: int) -> list[int]:
    """_SUITED by the low byte of the suit keys of ``naturals`` cards if they share a suit
    (the keys 0, 1, 24, 33 tell five or fewer cards' suits apart), else 0."""
    table = [0] * 256
    for suits in combinations_with_replacement(range(4), naturals):
        if len(set(suits)) == 1:
            table[sum(SUIT_KEYS[s] for s in suits)] = _SUITED
    return table


# By the number of jokers among five cards (0, 1 or 2): _SUITED per low byte of the sum.
_SUITED_FLAGS: Final = tuple(_suited_flags(5 - jokers) for jokers in range(3))


def _with_jokers(five: Sequence[int], bug: bool) -> int:
    """The value of five cards with jokers among them: the best over the ranks the jokers
    stand for, in the naturals' suit (a flush, if they share one) or not."""
    naturals = [c >> 2 for c in five if c < 52]
    suited = len({c & 3 for c in five if c < 52}) == 1
    best = 0
    for stand_ins in product(range(13), repeat=5 - len(naturals)):
        aces = all(r == _ACE for r in stand_ins)
        ranks = naturals + list(stand_ins)
        if ranks.count(ranks[0]) == 5:  # five of a kind: a joker may repeat a card
            if aces or not bug:
                best = max(best, FIVE_OF_A_KIND + ranks[0])
            continue
        if max(map(ranks.count, ranks)) > 4:
            continue
        key = sum(RANK_KEYS[r] for r in ranks)
        # In the naturals' suit the jokers must be new ranks: no card twice in a flush.
        in_suit = suited and len(set(ranks)) == 5
        for value in (_STANDARD[key], _STANDARD[key | _SUITED] if in_suit else 0):
            if value > best and (aces or not bug or _CATEGORY[value] in _FLUSH_CATEGORIES):
                best = value
    return best


# Five-card values by table key (the sum of keys with the suit byte replaced by _SUITED or
# 0). Hands without jokers are filled in now; hands with jokers as they are met (at most
# 2,535 with one joker and 741 with two, per way of playing them).
_WILD: Final = dict(_STANDARD)
_BUG: Final = dict(_STANDARD)


def _rank5(
    five: Sequence[int],
    table: dict[int, int],
    bug: bool,
    _k: Sequence[int] = _KEYS,
    _flags: Sequence[Sequence[int]] = _SUITED_FLAGS,
) -> int:
    a, b, c, d, e = five
    k = _k[a] + _k[b] + _k[c] + _k[d] + _k[e]
    key = k >> 8 | _flags[k >> 40][k & 255]
    value = table.get(key)
    if value is None:
        value = table[key] = _with_jokers(five, bug)
    return value


def _rank(codes: Sequence[int], table: dict[int, int], bug: bool) -> int:
    if len(codes) == 5:
        return _rank5(codes, table, bug)
    if len(codes) == 7 and 52 not in codes and 53 not in codes:
        return rank7(*codes)
    return max(_rank5(five, table, bug) for five in combinations(codes, 5))


def rank_joker_wild(codes: Sequence[int]) -> int:
    """The value (1..7475, higher is better) of the best five of five or more distinct codes,
    jokers (52, 53) fully wild.

    >>> from engine.cards import parse_cards
    >>> hand = [c.code for c in parse_cards("Ah Kh 9h 4h")] + [52]
    >>> describe_joker_wild(rank_joker_wild(hand))  # no double-ace flush: the joker is the queen
    'Flush, Ace-King-Queen-Nine-Four'
    """
    return _rank(codes, _WILD, False)


def rank_joker_bug(codes: Sequence[int]) -> int:
    """The value (1..7475, higher is better) of the best five of five or more distinct codes,
    jokers (52, 53) playing as the bug.

    >>> from engine.cards import parse_cards
    >>> describe_joker_bug(rank_joker_bug([c.code for c in parse_cards("Kh Kd Ks Qc Qd")] + [52]))
    'Full House, Kings over Queens'
    >>> describe_joker_bug(rank_joker_bug([c.code for c in parse_cards("Kh Kd Qs Qc")] + [52]))
    'Two Pair, Kings and Queens, Ace kicker'
    """
    return _rank(codes, _BUG, True)


def _describe(value: int) -> str:
    if value >= FIVE_OF_A_KIND:
        return f"Five of a Kind, {Rank(value - FIVE_OF_A_KIND + 2).plural}"
    return describe_rank(value)


def describe_joker_wild(value: int) -> str:
    """The hand with this value (1..7475) in words.

    >>> describe_joker_wild(7475), describe_joker_wild(7467), describe_joker_wild(7462)
    ('Five of a Kind, Aces', 'Five of a Kind, Sixes', 'Royal Flush')
    """
    return _describe(value)


def describe_joker_bug(value: int) -> str:
    """The hand with this value in words; as :func:`describe_joker_wild` (the bug's five of a kind
    is five aces, 7475).

    >>> describe_joker_bug(7475)
    'Five of a Kind, Aces'
    """
    return _describe(value)


def _best(codes: Sequence[int], bug: bool) -> tuple[int, ...]:
    table = _BUG if bug else _WILD
    ordered = sorted(codes, reverse=True)  # of equal hands, the one with the highest cards
    value = _rank(ordered, table, bug)
    for five in combinations(ordered, 5):
        if _rank5(five, table, bug) == value:
            played = _stand_ins(five, value, bug)
            if played is not None:
                return played
    raise AssertionError("unreachable: some five cards make the best value")


def _stand_ins(five: Sequence[int], value: int, bug: bool) -> tuple[int, ...] | None:
    """``five`` in order of significance if they make ``value``: each joker placed where the
    card it stands for plays; None if they do not make it."""
    naturals = [c for c in five if c < 52]
    jokers = [c for c in five if c >= 52]
    if value >= FIVE_OF_A_KIND:
        rank = value - FIVE_OF_A_KIND
        ok = all(c >> 2 == rank for c in naturals) and (not bug or rank == _ACE)
        return (*naturals, *jokers) if ok else None
    # Every choice of distinct cards for the jokers, highest first; the first that makes
    # the value (within the bug's rule) says where each joker plays.
    free = [c for c in range(51, -1, -1) if c not in naturals]
    for cards in combinations(free, len(jokers)):
        if _natural_value([*naturals, *cards]) != value:
            continue
        aces = all(c >> 2 == _ACE for c in cards)
        if bug and not aces and _CATEGORY[value] not in _FLUSH_CATEGORIES:
            continue
        stands = dict(zip(cards, jokers, strict=True))
        played = evaluate([*naturals, *cards]).best_five
        return tuple(stands.get(card.code, card.code) for card in played)
    return None


def _natural_value(five: Sequence[int]) -> int:
    a, b, c, d, e = five
    k = CARD_KEYS[a] + CARD_KEYS[b] + CARD_KEYS[c] + CARD_KEYS[d] + CARD_KEYS[e]
    return _STANDARD[k >> 8 | _SUITED_FLAGS[0][k & 255]]


def best_joker_wild(codes: Sequence[int]) -> tuple[int, ...]:
    """The five codes that play, jokers fully wild, most significant first: each joker
    where the card it stands for would be.

    >>> from engine.cards import parse_cards
    >>> best_joker_wild([c.code for c in parse_cards("Ah Kh Qh Jh 2c")] + [53])
    (50, 46, 42, 38, 53)
    """
    return _best(codes, bug=False)


def best_joker_bug(codes: Sequence[int]) -> tuple[int, ...]:
    """The five codes that play, jokers as the bug, most significant first.

    >>> from engine.cards import parse_cards
    >>> best_joker_bug([c.code for c in parse_cards("Kh Kd 7c 2s")] + [52])
    (46, 45, 52, 20, 3)
    """
    return _best(codes, bug=True)


@total_ordering
@dataclass(frozen=True, eq=False)
class WildValue:
    """A hand's value with jokers, and the cards that play.

    >>> v = evaluate_wild(["X1", "Th", "Jh", "Qh", "Kh", "2c", "2d"])
    >>> v.value, str(v), [str(c) for c in v.best]
    (7462, 'Royal Flush', ['X1', 'Kh', 'Qh', 'Jh', 'Th'])
    """

    value: int
    """1..7475, higher is better (:func:`rank_joker_wild` or :func:`rank_joker_bug`)."""
    best: tuple[Card, ...]
    """The five cards that play, most significant first; a joker where the card it stands
    for plays."""
    bug: bool = False
    """Whether jokers played as the bug rather than fully wild."""

    def describe(self) -> str:
        """The hand in words, e.g. ``'Five of a Kind, Aces'``."""
        return _describe(self.value)

    def __str__(self) -> str:
        return self.describe()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WildValue):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: WildValue) -> bool:
        return self.value < other.value


def evaluate_wild(cards: str | Iterable[Card | str | int], *, bug: bool = False) -> WildValue:
    """Evaluate five or more distinct cards with up to two jokers, fully wild or (``bug``)
    as the bug. Cards are text, :class:`Card` objects, card strings or codes; the jokers
    are ``X1`` and ``X2`` (codes 52 and 53).

    >>> str(evaluate_wild("Ah Kh Qh Jh X1 2c 2d"))
    'Royal Flush'
    >>> evaluate_wild("Ah X1 2c X2")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHandError: a hand needs at least 5 cards, got 4
    """
    hand = to_cards(cards)
    for card in hand:
        if card.is_die:
            raise InvalidHandError(f"a die cannot play in a poker hand, got {str(card)!r}")
    if len(hand) < 5:
        raise InvalidHandError(f"a hand needs at least 5 cards, got {len(hand)}")
    codes = [card.code for card in hand]
    rank, best = (rank_joker_bug, best_joker_bug) if bug else (rank_joker_wild, best_joker_wild)
    return WildValue(rank(codes), tuple(Card.from_code(c) for c in best(codes)), bug)
