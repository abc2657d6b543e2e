"""A deliberately plain brute-force reference for the engine's other poker games.

Independent of the engine: nothing here imports ``engine``. Each function tries every
subset (and, for jokers, every card a joker could stand for) and scores it with a direct
reading of the rules. Scores are tuples, and in every game a *greater* tuple is a *better*
hand, low games included (their tuples are negated), so tests compare them like the
engine's values. Cards are codes, ``rank * 4 + suit`` (rank 0 = deuce .. 12 = ace); 52 and
53 are jokers; dice are faces 1..6.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import chain, combinations, product

import numpy as np

Score = tuple[int, ...]

ACE = 12
JOKERS = (52, 53)

# Categories of the high scores, weakest first.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS = range(8)
STRAIGHT_FLUSH, FIVE_OF_A_KIND = 8, 9


def groups(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """The group sizes, largest first, and the ranks in that order (ties: higher first)."""
    counted = sorted(((list(ranks).count(r), r) for r in set(ranks)), reverse=True)
    return [n for n, _ in counted], [r for _, r in counted]


def windows_from(lowest: int, ace_low_top: int | None) -> dict[tuple[int, ...], int]:
    """The straights: runs of five consecutive ranks from ``lowest`` up to the ace, plus, if
    ``ace_low_top`` is given, the run that ends there with the ace below its bottom. Keyed
    by the sorted ranks; the value is the top rank."""
    runs = [tuple(range(top, top - 5, -1)) for top in range(lowest + 4, ACE + 1)]
    if ace_low_top is not None:
        runs.append((*range(ace_low_top, ace_low_top - 4, -1), ACE))
    return {tuple(sorted(run)): run[0] for run in runs}


STANDARD_WINDOWS = windows_from(0, 3)  # A-2-3-4-5 up to T-J-Q-K-A
NO_WHEEL_WINDOWS = windows_from(0, None)  # deuce-to-seven: the ace plays high only
SHORT_DECK_WINDOWS = windows_from(4, 7)  # sixes and up: A-6-7-8-9 up to T-J-Q-K-A


def high_score(
    cards: Sequence[tuple[int, int]], windows: dict[tuple[int, ...], int] = STANDARD_WINDOWS
) -> tuple[int, ...]:
    """The high-poker score of five (rank, suit) pairs; the same card may appear twice (a
    joker standing for it), and five of one rank is five of a kind."""
    ranks = [r for r, _ in cards]
    flush = len({s for _, s in cards}) == 1
    shape, ordered = groups(ranks)
    top = windows.get(tuple(sorted(ranks)))
    if shape == [5]:
        return (FIVE_OF_A_KIND, ordered[0])
    if top is not None and flush:
        return (STRAIGHT_FLUSH, top)
    if shape == [4, 1]:
        return (QUADS, *ordered)
    if shape == [3, 2]:
        return (FULL_HOUSE, *ordered)
    if flush:
        return (FLUSH, *sorted(ranks, reverse=True))
    if top is not None:
        return (STRAIGHT, top)
    if shape == [3, 1, 1]:
        return (TRIPS, *ordered)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *ordered)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *ordered)
    return (HIGH_CARD, *sorted(ranks, reverse=True))


def pairs_of(codes: Sequence[int]) -> list[tuple[int, int]]:
    return [(c // 4, c % 4) for c in codes]


def best_high(codes: Sequence[int]) -> tuple[int, ...]:
    """The best five-card high score among five or more cards."""
    return max(high_score(pairs_of(five)) for five in combinations(codes, 5))


# -------------------------------------------------------------------------------- lowball


def ace_low(rank: int) -> int:
    """The rank with the ace as the lowest card: ace 0, deuce 1 .. king 12."""
    return 0 if rank == ACE else rank + 1


def ace_to_five_score(codes: Sequence[int]) -> tuple[int, ...]:
    """Five cards as an ace-to-five low: pairs and worse count, nothing else does. The worse
    the shape, then the higher the ranks from the top group down, the worse the low."""
    shape, ordered = groups([ace_low(c // 4) for c in codes])
    badness = [[1, 1, 1, 1, 1], [2, 1, 1, 1], [2, 2, 1], [3, 1, 1], [3, 2], [4, 1]].index(shape)
    return tuple(-x for x in (badness, *ordered))


def best_ace_to_five(codes: Sequence[int]) -> tuple[int, ...]:
    return max(ace_to_five_score(five) for five in combinations(codes, 5))


def best_low8(codes: Sequence[int]) -> tuple[int, ...] | None:
    """The best five different ranks of eight or lower (ace low), or None."""
    lows = []
    for five in combinations(codes, 5):
        ranks = [ace_low(c // 4) for c in five]
        if len(set(ranks)) == 5 and max(ranks) <= 7:
            lows.append(tuple(-r for r in sorted(ranks, reverse=True)))
    return max(lows) if lows else None


def deuce_to_seven_score(codes: Sequence[int]) -> tuple[int, ...]:
    """Five cards as a deuce-to-seven low: high poker with no wheel, turned upside down."""
    return tuple(-x for x in high_score(pairs_of(codes), NO_WHEEL_WINDOWS))


def best_deuce_to_seven(codes: Sequence[int]) -> tuple[int, ...]:
    return max(deuce_to_seven_score(five) for five in combinations(codes, 5))


def badugi_score(codes: Sequence[int]) -> tuple[int, ...]:
    """The best subset with all ranks and all suits different: more cards first, then the
    lower top card, and so on (ace low)."""
    best: tuple[int, ...] = ()
    for size in range(1, min(4, len(codes)) + 1):
        for subset in combinations(codes, size):
            ranks = [ace_low(c // 4) for c in subset]
            suits = [c % 4 for c in subset]
            if len(set(ranks)) == size and len(set(suits)) == size:
                score = (size, *(-r for r in sorted(ranks, reverse=True)))
                best = max(best, score)
    return best


# ---------------------------------------------------------------------------------- omaha


def omaha_high(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...]:
    """Exactly two hole cards and exactly three board cards."""
    return max(
        high_score(pairs_of(h + b)) for h in combinations(hole, 2) for b in combinations(board, 3)
    )


def omaha_low8(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...] | None:
    lows = [best_low8(h + b) for h in combinations(hole, 2) for b in combinations(board, 3)]
    found = [low for low in lows if low is not None]
    return max(found) if found else None


# ----------------------------------------------------------------------------- short deck


def short_deck_score(codes: Sequence[int]) -> tuple[int, ...]:
    """Five cards of the 36-card deck: A-6-7-8-9 is the lowest straight and a flush beats a
    full house (a straight still beats three of a kind)."""
    score = high_score(pairs_of(codes), SHORT_DECK_WINDOWS)
    swapped = {FLUSH: FULL_HOUSE, FULL_HOUSE: FLUSH}.get(score[0], score[0])
    return (swapped, *score[1:])


def best_short_deck(codes: Sequence[int]) -> tuple[int, ...]:
    return max(short_deck_score(five) for five in combinations(codes, 5))


# --------------------------------------------------------------------------------- jokers

ALL_CARDS = [(rank, suit) for rank in range(13) for suit in range(4)]


def joker_score(five: Sequence[int], *, bug: bool) -> tuple[int, ...]:
    """The best score of five cards when each joker among them stands for any card.

    A joker may not be a card already in the five (no "double-ace flush") unless the five
    are then five of a kind. As a bug (``bug=True``) a joker must be an ace unless the five
    make a straight, a flush or a straight flush.
    """
    naturals = pairs_of([c for c in five if c not in JOKERS])
    best: tuple[int, ...] = ()
    for stand_ins in product(ALL_CARDS, repeat=5 - len(naturals)):
        cards = naturals + list(stand_ins)
        score = high_score(cards)
        if len(set(cards)) < 5 and score[0] != FIVE_OF_A_KIND:
            continue
        all_aces = all(rank == ACE for rank, _ in stand_ins)
        if bug and not all_aces and score[0] not in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            continue
        best = max(best, score)
    return best


def best_joker(codes: Sequence[int], *, bug: bool) -> tuple[int, ...]:
    return max(joker_score(five, bug=bug) for five in combinations(codes, 5))


# ----------------------------------------------------------------------------------- dice


def dice_score(faces: Sequence[int]) -> tuple[int, ...]:
    """Five dice: five of a kind, four, full house, straight (1-5 or 2-6), three, two pair,
    one pair, nothing; within a kind the grouped faces, then the rest, highest first."""
    shape, ordered = groups(faces)
    if shape == [5]:
        return (7, *ordered)
    if shape == [4, 1]:
        return (6, *ordered)
    if shape == [3, 2]:
        return (5, *ordered)
    if sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        return (4, max(faces))
    if shape == [3, 1, 1]:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape == [2, 1, 1, 1]:
        return (1, *ordered)
    return (0, *sorted(faces, reverse=True))


# ------------------------------------------------------------- checking against the scores


def all_combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as the rows of an int64 array, in the (lexicographic)
    order of itertools.combinations."""
    flat = chain.from_iterable(combinations(range(n), k))
    return (
        np.fromiter(flat, dtype=np.int8, count=math.comb(n, k) * k).reshape(-1, k).astype(np.int64)
    )


Classes = tuple[np.ndarray, np.ndarray]
"""Hands grouped by a key: the row of each key's first hand, and each hand's group."""


def classes_of(keys: np.ndarray) -> Classes:
    """Group hands by ``keys``, which must hold all that a score reads (e.g. the ranks, and
    whether all the cards share a suit), so that one hand of each group can stand for all."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def reference_by_class(
    hands: np.ndarray, classes: Classes, score: Callable[[tuple[int, ...]], Score]
) -> np.ndarray:
    """The brute-force score of every hand (a row of ``hands``) as a dense rank, 1 for the
    worst, scoring one hand of each class."""
    first, inverse = classes
    scores = [score(tuple(int(c) for c in hands[i])) for i in first]
    rank_of = {s: r for r, s in enumerate(sorted(set(scores)), start=1)}
    return np.array([rank_of[s] for s in scores], dtype=np.int64)[inverse]


def assert_same_order(reference: Sequence[Score], ours: Sequence[int]) -> None:
    """``ours`` must be a strictly increasing function of the reference scores: hands with
    equal scores get equal values, and a better score a higher value."""
    pairs = sorted(set(zip(reference, ours, strict=True)))
    assert len({r for r, _ in pairs}) == len(pairs), "one reference score got two values"
    values = [v for _, v in pairs]
    assert values == sorted(values), "values out of the reference's order"
    assert len(set(values)) == len(values), "two reference scores share a value"
