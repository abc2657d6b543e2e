"""Hand evaluation: name, rank and compare poker hands of five to seven or more cards.

Every hand falls in one of 7,462 equivalence classes; :attr:`HandValue.rank` numbers them
1 (seven-five high, the worst) to 7,462 (a royal flush), so a higher rank is a stronger hand.
:func:`evaluate` gives the full :class:`HandValue`; :func:`rank7` (seven card codes) and
:func:`rank_batch` (a numpy array of hands) give the rank alone, fast.

>>> evaluate("Kh Kd Ks 5c 5d 2h 3c").describe()
'Full House, Kings over Fives'
>>> compare("2H 2D AH KC 3D", "4H 4C JC TC 3H")
'LOSE'

How the fast paths work: each card code maps to a key ``rank_key * 256 + suit_key``. The
rank keys make the sum over any seven cards unique per multiset of ranks, and the suit
keys (0, 1, 24, 33) make the low byte of the sum tell whether five or more cards share a
suit, and which. So one sum of seven table entries and two lookups rank a hand; flushes
(3 % of seven-card hands) take a second path through a 13-bit mask of the flush suit's
ranks. The first card's key is biased so every partial sum stays a one-digit CPython int
(|x| < 2**30), which keeps the additions on CPython's fast path. The tables are built by
:mod:`engine.tablegen` and shipped in ``engine/data/``.
"""

from __future__ import annotations

import functools
import sys
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Final, Literal

from engine.cards import Card, Rank, to_cards
from engine.errors import InvalidHandError
from engine.hand_classes import (
    CARD_KEYS,
    CLASS_RANK,
    RANK_KEYS,
    HandCategory,
    HandClass,
    flush_class,
    rank_class,
)

if TYPE_CHECKING:  # numpy loads with the batch path (rank_batch), not with evaluate()
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HandCategory",
    "HandValue",
    "Outcome",
    "compare",
    "describe_rank",
    "evaluate",
    "rank7",
    "rank_batch",
]

Outcome = Literal["WIN", "LOSE", "DRAW"]


# Half the largest seven-card rank sum (4 aces + 3 kings), rounded up; see _RANK7.
_HALF: Final = (4 * RANK_KEYS[12] + 3 * RANK_KEYS[11] + 2) // 2
_BIASED_KEYS: Final = tuple(k - _HALF * 256 for k in CARD_KEYS)


def _load_tables() -> dict[str, list[int]]:

    raw = resources.files("engine").joinpath("data/eval_tables.bin").read_bytes()
    tables: dict[str, list[int]] = {}
    pos = 0
    while pos < len(raw):
        name_len = raw[pos]
        name = raw[pos + 1 : pos + 1 + name_len].decode()
        pos += 1 + name_len
        typecode = chr(raw[pos])
        count = int.from_bytes(raw[pos + 1 : pos + 5], "little")
        pos += 5
        values = array(typecode)
        size = values.itemsize * count
        values.frombytes(raw[pos : pos + size])
        if sys.byteorder == "big":
            values.byteswap()
        tables[name] = values.tolist()
        pos += size
    return tables


_TABLES: Final = _load_tables()
_FLUSH_RANK: Final = _TABLES["flush_rank"]
_FLUSH_SUIT7: Final = _TABLES["flush_suit7"]
# Ranks of seven-card hands without a flush, by rank-key sum. The array is rotated by
# _HALF so that ``sum_of_biased_keys >> 8`` (which runs from -_HALF to _HALF - 1) indexes it
# directly, negative indices counting from the end. An array of uint16 rather than a list:
# a quarter of the memory, kinder to the cache, and numpy reads the same buffer.
_RANK7: Final = array("H", [0]) * (2 * _HALF)
for _key, _rank in zip(_TABLES["keys7"], _TABLES["ranks7"], strict=True):
    _RANK7[_key - _HALF] = _rank
# _SUIT_BITS[suit + 1][code]: the card's rank bit if the card is of that suit, else 0.
_SUIT_BITS: Final = [[0] * 52] + [
    [1 << (code >> 2) if code & 3 == suit else 0 for code in range(52)] for suit in range(4)
]


def rank7(  # noqa: PLR0917 - seven cards, positionally, is the fast call
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    c5: int,
    c6: int,
    c7: int,
    *,
    _k1: Sequence[int] = _BIASED_KEYS,
    _k: Sequence[int] = CARD_KEYS,
    _fs: Sequence[int] = _FLUSH_SUIT7,
    _sb: Sequence[Sequence[int]] = _SUIT_BITS,
    _fr: Sequence[int] = _FLUSH_RANK,
    _r7: Sequence[int] = _RANK7,
) -> int:
    """The rank (1..7462, higher is stronger) of seven distinct cards given by their codes.

    Allocates nothing but ints; the tables are bound as defaults so lookups stay local.
    Codes are not checked: use :func:`evaluate` for untrusted input.

    >>> from engine.cards import parse_cards
    >>> rank7(*(c.code for c in parse_cards("As Ks Qs Js Ts 2c 3d")))
    7462
    """
    k = _k1[c1] + _k[c2] + _k[c3] + _k[c4] + _k[c5] + _k[c6] + _k[c7]
    suit = _fs[k & 255]
    if suit:
        bits = _sb[suit]
        return _fr[bits[c1] | bits[c2] | bits[c3] | bits[c4] | bits[c5] | bits[c6] | bits[c7]]
    return _r7[k >> 8]


@functools.cache
def _numpy_tables() -> dict[str, npt.NDArray[Any]]:
    # Built on first use: the scalar paths never need them.
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    t: dict[str, npt.NDArray[Any]] = {
        "card_keys": np.array(CARD_KEYS, dtype=np.int64),
        "flush_rank": np.array(_FLUSH_RANK, dtype=np.int64),
    }
    t["rank7"] = np.frombuffer(_RANK7, dtype=np.uint16)  # shares rank7's table
    for n in (5, 6, 7):
        t[f"keys{n}"] = np.array(_TABLES[f"keys{n}"], dtype=np.int64)
        t[f"ranks{n}"] = np.array(_TABLES[f"ranks{n}"], dtype=np.int64)
        t[f"flush_suit{n}"] = np.array(_TABLES[f"flush_suit{n}"], dtype=np.int64)
    return t


_BATCH_CHUNK: Final = 1 << 20


def rank_batch(codes: npt.ArrayLike, *, validate: bool = True) -> npt.NDArray[np.uint16]:
    """Ranks of many hands at once: an (N, 7) array of card codes gives N ranks.

    (N, 5) and (N, 6) arrays work too. The scale is :func:`rank7`'s. With ``validate``
    (the default) codes outside 0..51 and repeated cards in a row raise
    :class:`InvalidHandError`.

    >>> import numpy as np
    >>> rank_batch(np.array([[51, 47, 43, 39, 35, 0, 5]])).tolist()
    [7462]
    """
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    hands = np.asarray(codes)
    if hands.ndim != 2 or hands.shape[1] not in (5, 6, 7):
        raise InvalidHandError(f"expected an array of shape (N, 7), got shape {hands.shape!r}")
    if not np.issubdtype(hands.dtype, np.integer):
        raise InvalidHandError(f"expected integer card codes, got dtype {str(hands.dtype)!r}")
    if validate and hands.size:
        if hands.min() < 0 or hands.max() > 51:
            raise InvalidHandError("card codes must be in 0..51")
        ordered = np.sort(hands, axis=1)
        repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if repeated.size:
            raise InvalidHandError(f"row {int(repeated[0])} repeats a card")
    out = np.empty(len(hands), dtype=np.uint16)
    for start in range(0, len(hands), _BATCH_CHUNK):
        chunk = hands[start : start + _BATCH_CHUNK]
        out[start : start + len(chunk)] = _rank_rows(chunk)
    return out


def _rank_rows(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.uint16]:
    import numpy as np  # noqa: PLC0415  (on first use: the hand tools never need it)

    t = _numpy_tables()
    n = hands.shape[1]
    sums = t["card_keys"][hands].sum(axis=1)
    rank_sums = sums >> 8
    if n == 7:
        # The shared table is rotated by _HALF; numpy wraps negative indices like Python.
        ranks: npt.NDArray[np.uint16] = t["rank7"][rank_sums - _HALF]
    else:
        ranks = t[f"ranks{n}"][np.searchsorted(t[f"keys{n}"], rank_sums)].astype(np.uint16)
    suits = t[f"flush_suit{n}"][sums & 255]
    flushed = np.flatnonzero(suits)
    if flushed.size:
        rows = hands[flushed].astype(np.int64)
        in_suit = (rows & 3) == (suits[flushed] - 1)[:, None]
        bits = np.where(in_suit, np.left_shift(1, rows >> 2), 0).sum(axis=1)
        ranks[flushed] = t["flush_rank"][bits]
    return ranks


@functools.total_ordering
@dataclass(frozen=True, eq=False, repr=False)
class HandValue:
    """The value of a poker hand: ordered by strength, named in words.

    >>> v = evaluate("Ah Ad 9c 9s Qh 3d 2c")
    >>> v.category, str(v)
    (<HandCategory.TWO_PAIR: 3>, 'Two Pair, Aces and Nines, Queen kicker')
    >>> [str(c) for c in v.best_five]
    ['Ah', 'Ad', '9s', '9c', 'Qh']
    """

    rank: int
    """1..7462 on :func:`rank7`'s scale; higher is stronger."""
    category: HandCategory
    best_five: tuple[Card, ...]
    """The five cards that play, most significant first."""
    ranks: tuple[Rank, ...]
    """The ranks that decide the hand within its category, most significant first."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank == other.rank

    def __lt__(self, other: HandValue) -> bool:
        return self.rank < other.rank

    def __hash__(self) -> int:
        return hash(self.rank)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.best_five))
        return f"<HandValue {self.rank} {self.describe()!r} [{cards}]>"

    def describe(self) -> str:
        """The hand in words, e.g. ``'Full House, Kings over Fives'``."""
        r = self.ranks
        names = "-".join(x.noun for x in r)
        match self.category:
            case HandCategory.ROYAL_FLUSH:
                return "Royal Flush"
            case HandCategory.STRAIGHT_FLUSH | HandCategory.STRAIGHT:
                return f"{self.category}, {r[0].noun} high"
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
                return f"High Card, {names}"


def _kickers(ranks: tuple[Rank, ...]) -> str:
    return "-".join(r.noun for r in ranks) + (" kicker" if len(ranks) == 1 else " kickers")


def evaluate(cards: str | Iterable[Card | str | int]) -> HandValue:
    """Evaluate the best five-card hand among five or more distinct cards.

    Cards may be text (``"As Ks Qs Js Ts"``), :class:`Card` objects, card strings or codes.

    >>> evaluate("9d 4c 3s 2h Ah Kd Kc").describe()
    'One Pair, Kings, Ace-Nine-Four kickers'
    >>> evaluate("5d 4c 3s 2h Ah 9d 9c").describe()
    'Straight, Five high'
    """
    hand = to_cards(cards)
    if len(hand) < 5:
        raise InvalidHandError(f"a hand needs at least 5 cards, got {len(hand)}")
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in hand:
        counts[card.code >> 2] += 1
        suit_masks[card.code & 3] |= 1 << (card.code >> 2)
    best = rank_class(counts)
    flush_suit = -1
    for suit, mask in enumerate(suit_masks):
        if mask.bit_count() >= 5:
            candidate = flush_class(mask)
            if CLASS_RANK[candidate] > CLASS_RANK[best]:
                best, flush_suit = candidate, suit
    category, ranks = best
    if category is HandCategory.STRAIGHT_FLUSH and ranks[0] == 12:
        category = HandCategory.ROYAL_FLUSH
    return HandValue(
        rank=CLASS_RANK[best],
        category=category,
        best_five=_best_five(hand, best, flush_suit),
        ranks=tuple(Rank(r + 2) for r in ranks),
    )


def _best_five(hand: tuple[Card, ...], best: HandClass, flush_suit: int) -> tuple[Card, ...]:
    """Pick the cards that play: grouped cards first, then kickers; the wheel's ace last."""
    category, ranks = best
    pool = sorted((c for c in hand if flush_suit < 0 or c.code & 3 == flush_suit), reverse=True)
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        top = ranks[0]
        wanted = [top - i for i in range(5)] if top > 3 else [3, 2, 1, 0, 12]
        group_sizes = [1] * 5
    else:
        wanted = list(ranks)
        group_sizes = {
            HandCategory.FOUR_OF_A_KIND: [4, 1],
            HandCategory.FULL_HOUSE: [3, 2],
            HandCategory.THREE_OF_A_KIND: [3, 1, 1],
            HandCategory.TWO_PAIR: [2, 2, 1],
            HandCategory.ONE_PAIR: [2, 1, 1, 1],
        }.get(category, [1] * 5)
    chosen: list[Card] = []
    for rank_index, size in zip(wanted, group_sizes, strict=False):
        chosen += [c for c in pool if c.code >> 2 == rank_index][:size]
    return tuple(chosen)


def _as_value(hand: HandValue | str | Iterable[Card | str | int]) -> HandValue:
    return hand if isinstance(hand, HandValue) else evaluate(hand)


def compare(
    hand_a: HandValue | str | Iterable[Card | str | int],
    hand_b: HandValue | str | Iterable[Card | str | int],
) -> Outcome:
    """``'WIN'``, ``'LOSE'`` or ``'DRAW'``, from ``hand_a``'s side.

    The hands are evaluated on their own; they may share cards (a common board).

    >>> compare("Ah Kh Qh Jh Th", "9s 9h 9d 9c 2s")
    'WIN'
    """
    a, b = _as_value(hand_a), _as_value(hand_b)
    return "WIN" if a > b else "LOSE" if a < b else "DRAW"


@functools.cache
def describe_rank(rank: int) -> str:
    """The name of the hand class with this rank (1..7462), as :meth:`HandValue.describe`.

    >>> describe_rank(7462), describe_rank(1)
    ('Royal Flush', 'High Card, Seven-Five-Four-Three-Two')
    """
    category, ranks = _CLASS_BY_RANK[rank]
    if category is HandCategory.STRAIGHT_FLUSH and ranks[0] == 12:
        category = HandCategory.ROYAL_FLUSH
    return HandValue(rank, category, (), tuple(Rank(r + 2) for r in ranks)).describe()


_CLASS_BY_RANK: Final = {rank: c for c, rank in CLASS_RANK.items()}
