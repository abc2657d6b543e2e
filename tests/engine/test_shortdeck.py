"""Short-deck hold'em (engine.shortdeck) against the plain brute force: every five-card and
every seven-card hand of the 36-card deck, category counts by combinatorics, pinned hands
and pokerkit's ShortDeckHoldemHand."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from pokerkit import ShortDeckHoldemHand

from engine.cards import Card, parse_cards
from engine.errors import InvalidHandError
from engine.shortdeck import (
    ShortDeckValue,
    best_short_deck,
    describe_short_deck,
    evaluate_short_deck,
    rank_short_deck,
)
from tests.engine import brute

DECK = list(range(16, 52))  # sixes (rank index 4) to aces


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


def text(hand: tuple[int, ...]) -> str:
    return "".join(str(Card.from_code(c)) for c in hand)


@pytest.fixture(scope="module")
def fives() -> np.ndarray:
    return brute.all_combinations(36, 5) + 16


@pytest.fixture(scope="module")
def reference5(fives: np.ndarray) -> np.ndarray:
    """The brute-force score of every five-card hand as a dense rank, 1 for the worst."""
    suited = (fives & 3 == fives[:, :1] & 3).all(axis=1)
    keys = ((fives >> 2) * 13 ** np.arange(5)).sum(axis=1) * 2 + suited
    return brute.reference_by_class(fives, brute.classes_of(keys), brute.short_deck_score)


# Category sizes in classes, weakest first, by combinatorics over the 9 ranks: 6 straights
# (A-6-7-8-9 to T-J-Q-K-A), so C(9,5) - 6 = 120 unpaired non-straight rank sets.
CLASSES = {
    "High Card": math.comb(9, 5) - 6,
    "One Pair": 9 * math.comb(8, 3),
    "Two Pair": math.comb(9, 2) * 7,
    "Three of a Kind": 9 * math.comb(8, 2),
    "Straight": 6,
    "Full House": 9 * 8,
    "Flush": math.comb(9, 5) - 6,
    "Four of a Kind": 9 * 8,
    "Straight Flush": 6,
}


def categories(values: np.ndarray) -> Counter[str]:
    """Hands per category, reading each value's category from the class sizes above."""
    bounds = np.cumsum(list(CLASSES.values()))
    names = list(CLASSES)
    return Counter(
        {
            names[i]: int(n)
            for i, n in enumerate(
                np.bincount(np.searchsorted(bounds, values), minlength=len(names))
            )
        }
    )


@pytest.fixture(scope="module")
def ours5() -> np.ndarray:
    return np.fromiter(map(rank_short_deck, combinations(DECK, 5)), dtype=np.int64)


def test_every_five_card_hand_matches_brute_force_in_1404_classes(
    ours5: np.ndarray, reference5: np.ndarray
) -> None:
    ours = ours5
    np.testing.assert_array_equal(ours, reference5)
    assert len(np.unique(ours)) == sum(CLASSES.values()) == 1404


def test_five_card_category_counts_match_combinatorics(ours5: np.ndarray) -> None:
    suit_patterns = 4**5 - 4  # five distinct ranks in suits that are not all one
    expected = {
        "Straight Flush": 6 * 4,
        "Four of a Kind": 9 * (36 - 4),
        "Full House": 9 * math.comb(4, 3) * 8 * math.comb(4, 2),
        "Flush": 4 * (math.comb(9, 5) - 6),
        "Straight": 6 * suit_patterns,
        "Three of a Kind": 9 * math.comb(4, 3) * math.comb(8, 2) * 4**2,
        "Two Pair": math.comb(9, 2) * math.comb(4, 2) ** 2 * (36 - 8),
        "One Pair": 9 * math.comb(4, 2) * math.comb(8, 3) * 4**3,
        "High Card": (math.comb(9, 5) - 6) * suit_patterns,
    }
    assert expected == {
        "Straight Flush": 24,
        "Four of a Kind": 288,
        "Full House": 1_728,
        "Flush": 480,
        "Straight": 6_120,
        "Three of a Kind": 16_128,
        "Two Pair": 36_288,
        "One Pair": 193_536,
        "High Card": 122_400,
    }
    assert sum(expected.values()) == math.comb(36, 5)
    assert categories(ours5) == expected


def best_of_every_seven(reference5: np.ndarray) -> np.ndarray:
    """The best of the 21 five-card brute-force ranks of every seven-card hand, in the order
    of itertools.combinations(DECK, 7).

    Deck indices 0..35; the five-card hand d0 < .. < d4 is found at sum C(d_i, i + 1) (its
    colex index). Hands are taken by their two lowest cards (lo, hi): the index sums over the
    five higher cards are shared by every lo below hi, so they are summed once per hi.
    """
    binom = np.array([[math.comb(n, k) for n in range(36)] for k in range(6)], dtype=np.int64)
    fives = brute.all_combinations(36, 5)
    colex = np.zeros(math.comb(36, 5), dtype=np.int16)
    colex[sum(binom[i + 1][fives[:, i]] for i in range(5))] = reference5
    best = np.zeros(math.comb(36, 7), dtype=np.int16)
    # Where the hands with lowest cards (lo, hi) start, in lexicographic order.
    start, offsets = 0, {}
    for lo in range(30):
        for hi in range(lo + 1, 31):
            offsets[lo, hi] = start
            start += math.comb(35 - hi, 5)
    subsets = list(combinations(range(7), 5))
    for hi in range(1, 31):
        above = brute.all_combinations(35 - hi, 5) + hi + 1
        partial = []  # per subset: the lowest cards it takes (0 = lo, 1 = hi), index sum
        for subset in subsets:
            lows = [p for p in subset if p < 2]
            upper = [p - 2 for p in subset if p >= 2]
            part = sum(binom[len(lows) + t + 1][above[:, q]] for t, q in enumerate(upper))
            partial.append((lows, part))
        for lo in range(hi):
            row = np.zeros(len(above), dtype=np.int16)
            for lows, part in partial:
                const = sum(math.comb((lo, hi)[p], j + 1) for j, p in enumerate(lows))
                np.maximum(row, colex[part + const], out=row)
            best[offsets[lo, hi] : offsets[lo, hi] + len(above)] = row
    return best


def test_every_seven_card_hand_matches_the_best_five_of_the_brute_force(
    reference5: np.ndarray,
) -> None:
    """All 8,347,680 seven-card hands: our rank is the best of the 21 five-card ranks that
    the brute force gives each."""
    expected = best_of_every_seven(reference5)
    ours = np.fromiter(map(rank_short_deck, combinations(DECK, 7)), dtype=np.int16)
    assert len(ours) == math.comb(36, 7) == 8_347_680
    np.testing.assert_array_equal(ours, expected)
    assert expected.min() > 1  # seven cards always beat the worst five


@pytest.mark.parametrize("size", [6, 8])
def test_six_and_eight_cards_order_like_brute_force(size: int) -> None:
    rng = random.Random(size)
    hands = [tuple(rng.sample(DECK, size)) for _ in range(1500)]
    for _ in range(600):  # flushes: five or more of one suit
        suit = rng.randrange(4)
        same = [c for c in DECK if c & 3 == suit]
        pool = rng.sample(same, rng.randint(5, min(size, 7)))
        hands.append(tuple(pool + rng.sample([c for c in DECK if c not in pool], size - len(pool))))
    brute.assert_same_order(
        [brute.best_short_deck(h) for h in hands], [rank_short_deck(h) for h in hands]
    )


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks 9s 7s 6s", "Kh Kd Kc 9h 9d"),  # a flush beats a full house
        ("6h 6d 6c 6s 7h", "As Ks Qs Js 9s"),  # four of a kind beats a flush
        ("Ah 6c 7d 8s 9h", "Ah Ad Ac Kd Qs"),  # the lowest straight beats three of a kind
        ("6c 7d 8s 9h Th", "Ah 6c 7d 8s 9h"),  # A-6-7-8-9 is the lowest straight
        ("Ah 6h 7h 8h 9h", "Ac Ad Ah As Ks"),  # and the lowest straight flush
        ("Ah Kh Qh Jh Th", "Kh Qh Jh Th 9h"),
    ],
)
def test_pinned_order(better: str, worse: str) -> None:
    assert rank_short_deck(codes(better)) > rank_short_deck(codes(worse))


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("Ah 6c 7d 8s 9h Kc", "Straight, Nine high"),
        ("Ah 6h 7h 8h 9h Kc Kd", "Straight Flush, Nine high"),
        ("Ah Kh Qh Jh Th", "Royal Flush"),
        ("As Ks 9s 7s 6s Kh Kd", "Flush, Ace-King-Nine-Seven-Six"),
        ("Jc 9d 8h 7s 6c", "High Card, Jack-Nine-Eight-Seven-Six"),
        ("Ac Ad Kh Ks Qs Qc 6d", "Two Pair, Aces and Kings, Queen kicker"),
    ],
)
def test_describe_names_the_hand(cards: str, description: str) -> None:
    assert describe_short_deck(rank_short_deck(codes(cards))) == description


def test_the_worst_and_best_classes() -> None:
    assert rank_short_deck(codes("Jc 9d 8h 7s 6c")) == 1
    assert rank_short_deck(codes("As Ks Qs Js Ts")) == 1404


@pytest.mark.parametrize(
    ("cards", "best"),
    [
        ("Ah 6c 7d 8s 9h Kc", "9h 8s 7d 6c Ah"),
        ("Kh Kd Kc 9h 9d As Qs", "Kh Kd Kc 9h 9d"),
        ("As Ks 9s 7s 6s Kh Kd", "As Ks 9s 7s 6s"),
        ("7c 7d Ah Qs Jd 9c 6h", "7d 7c Ah Qs Jd"),
    ],
)
def test_best_cards_most_significant_first(cards: str, best: str) -> None:
    assert best_short_deck(codes(cards)) == tuple(codes(best))


def test_best_cards_play_to_the_same_rank() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        hand = tuple(rng.sample(DECK, 7))
        five = best_short_deck(hand)
        assert len(five) == 5 and set(five) <= set(hand)
        assert rank_short_deck(five) == rank_short_deck(hand)


def test_pokerkit_short_deck_orders_hands_as_we_do() -> None:
    rng = random.Random(4)
    hands = [tuple(rng.sample(DECK, 7)) for _ in range(300)]
    ours = [rank_short_deck(h) for h in hands]
    theirs = [ShortDeckHoldemHand.from_game(text(h)) for h in hands]
    for i, j in combinations(range(len(hands)), 2):
        assert (ours[i] < ours[j]) == (theirs[i] < theirs[j]), (text(hands[i]), text(hands[j]))
        assert (ours[i] == ours[j]) == (theirs[i] == theirs[j])


def test_pokerkit_also_ranks_a_straight_above_three_of_a_kind_and_a_flush_above_a_full_house() -> (
    None
):
    assert ShortDeckHoldemHand("Ah6c7d8s9h") > ShortDeckHoldemHand("AhAdAcKdQs")
    assert ShortDeckHoldemHand("AsKs9s7s6s") > ShortDeckHoldemHand("KhKdKc9h9d")


def test_evaluate_short_deck_checks_and_names_the_hand() -> None:
    value = evaluate_short_deck(["As", "Ks", Card.parse("9s"), 23, "6s", "Kh"])
    assert isinstance(value, ShortDeckValue)
    assert (str(value), value.best) == (
        "Flush, Ace-King-Nine-Seven-Six",
        parse_cards("As Ks 9s 7s 6s"),
    )
    assert value > evaluate_short_deck("Kh Kd Kc 9h 9d")
    with pytest.raises(InvalidHandError, match="a short-deck hand needs at least 5 cards, got 4"):
        evaluate_short_deck("As Ks Qs Js")
    with pytest.raises(InvalidHandError, match="card '2c' is not in the short deck"):
        evaluate_short_deck("As Ks Qs Js 2c")
