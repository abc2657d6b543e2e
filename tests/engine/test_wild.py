"""Jokers (engine.wild), fully wild and as the bug, against the plain brute force that tries
every card for each joker: every five-card hand of the 53-card deck in both ways, category
counts by combinatorics, hands with two jokers and of six or seven cards, pinned hands."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations, product

import numpy as np
import pytest

from engine.cards import Card, parse_cards
from engine.errors import DuplicateCardError, InvalidHandError
from engine.evaluator import rank7
from engine.hand_classes import CLASS_RANK
from engine.wild import (
    WildValue,
    best_joker_bug,
    best_joker_wild,
    describe_joker_bug,
    describe_joker_wild,
    evaluate_wild,
    rank_joker_bug,
    rank_joker_wild,
)
from tests.engine import brute

X1, X2 = 52, 53
MODES = {"wild": (rank_joker_wild, False), "bug": (rank_joker_bug, True)}


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


def dense(values: np.ndarray) -> np.ndarray:
    """Values as dense ranks, 1 for the lowest: to compare with the brute force's."""
    return np.unique(values, return_inverse=True)[1].reshape(-1) + 1


# The category of each value: rank7's classes, then five of a kind.
FIVE = "Five of a Kind"
CATEGORY = [""] * 7476
for (_category, _), _rank in CLASS_RANK.items():
    CATEGORY[_rank] = str(_category)
CATEGORY[7463:] = [FIVE] * 13


@pytest.fixture(scope="module")
def hands53() -> np.ndarray:
    """Every five-card hand of the 52 cards and one joker (code 52), lexicographic."""
    return brute.all_combinations(53, 5)


@pytest.fixture(scope="module")
def classes53(hands53: np.ndarray) -> brute.Classes:
    """The hands by what the brute force reads of them: the ranks (the joker's is 13; rows
    are sorted, so the joker is last) and whether the natural cards share a suit."""
    natural = hands53 < 52
    suits = hands53 & 3
    suited = ((suits == suits[:, :1]) | ~natural).all(axis=1)
    return brute.classes_of(((hands53 >> 2) * 14 ** np.arange(5)).sum(axis=1) * 2 + suited)


@pytest.fixture(scope="module", params=list(MODES))
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def values53(mode: str) -> np.ndarray:
    rank, _ = MODES[mode]
    return np.fromiter(
        map(rank, combinations(range(53), 5)), dtype=np.int64, count=math.comb(53, 5)
    )


def test_every_five_card_hand_with_one_joker_matches_brute_force(
    mode: str, hands53: np.ndarray, classes53: brute.Classes, values53: np.ndarray
) -> None:
    _, bug = MODES[mode]
    reference = brute.reference_by_class(
        hands53, classes53, lambda hand: brute.joker_score(hand, bug=bug)
    )
    np.testing.assert_array_equal(dense(values53), reference)
    # All 7,462 classes of high poker and five of a kind: of every rank, or of aces only.
    assert len(np.unique(values53)) == 7462 + (1 if bug else 13)


def _straight_sets() -> tuple[int, int]:
    """How many sets of four ranks a fifth card completes to a straight (A-2-3-4-5 to
    T-J-Q-K-A), and how many of them hold an ace."""
    windows = [{12, 0, 1, 2, 3}] + [set(range(low, low + 5)) for low in range(9)]
    fours = {frozenset(four) for w in windows for four in combinations(sorted(w), 4)}
    return len(fours), sum(12 in four for four in fours)


def expected_counts(bug: bool) -> dict[str, int]:
    """Hands per category among the C(53, 5) by combinatorics: the 52-card counts, plus the
    C(52, 4) hands with the joker, by what its four natural cards are."""
    straights, with_ace = _straight_sets()  # 41 and 8
    off_suit = 4**4 - 4  # suits for four distinct ranks that are not all one
    counts = {
        "Straight Flush": 40 + 4 * straights,
        "Flush": 5_108 + 4 * (math.comb(13, 4) - straights),
        "Straight": 10_200 + straights * off_suit,
    }
    trips_kicker = 13 * 4 * 48  # three of a rank and another card
    two_pair = math.comb(13, 2) * 6 * 6
    pair_two = 13 * 6 * math.comb(12, 2) * 16  # a pair and two other ranks
    plain = math.comb(13, 4) - straights  # four ranks no card makes a straight
    if not bug:
        counts |= {
            FIVE: 13,
            "Four of a Kind": 624 + trips_kicker,
            "Full House": 3_744 + two_pair,
            "Three of a Kind": 54_912 + pair_two,
            "Two Pair": 123_552,
            "One Pair": 1_098_240 + plain * off_suit,
            "High Card": 1_302_540,
        }
        return counts
    # The bug is an ace unless it makes a straight or a flush.
    plain_with_ace = math.comb(12, 3) - with_ace
    plain_without_ace = math.comb(12, 4) - (straights - with_ace)
    counts |= {
        FIVE: 1,  # four aces and the bug
        # Three aces and a kicker; or four of another rank with an ace kicker.
        "Four of a Kind": 624 + 4 * 48 + 12,
        # Two aces and another pair; or three of another rank and an ace.
        "Full House": 3_744 + 12 * 6 * 6 + 12 * 4 * 4,
        # Two aces and two other ranks; or three of another rank and a kicker (not an ace).
        "Three of a Kind": 54_912 + 6 * math.comb(12, 2) * 16 + 12 * 4 * 44,
        # Another pair, an ace and a kicker; or two pairs without aces (the bug the kicker).
        "Two Pair": 123_552 + 12 * 6 * 4 * 44 + math.comb(12, 2) * 36,
        # Another pair and two kickers (the bug an ace kicker); or an ace and three others.
        "One Pair": 1_098_240 + 12 * 6 * math.comb(11, 2) * 16 + plain_with_ace * off_suit,
        "High Card": 1_302_540 + plain_without_ace * off_suit,
    }
    return counts


def test_category_counts_match_combinatorics(mode: str, values53: np.ndarray) -> None:
    _, bug = MODES[mode]
    expected = expected_counts(bug)
    assert sum(expected.values()) == math.comb(53, 5) == 2_869_685
    per_value = dict(zip(*np.unique(values53, return_counts=True), strict=True))
    counts: Counter[str] = Counter()
    for value, n in per_value.items():
        counts[CATEGORY[int(value)]] += int(n)
    assert counts == expected


def test_the_derived_counts() -> None:
    # Pinned, so that a change to the derivation shows. (Tables of these are published, e.g.
    # Wizard of Odds' "Poker Probabilities"; they could not be fetched to compare when this
    # was written. The seven-card test below compares with a published table.)
    assert expected_counts(bug=False) == {
        FIVE: 13,
        "Straight Flush": 204,
        "Four of a Kind": 3_120,
        "Full House": 6_552,
        "Flush": 7_804,
        "Straight": 20_532,
        "Three of a Kind": 137_280,
        "Two Pair": 123_552,
        "One Pair": 1_268_088,
        "High Card": 1_302_540,
    }
    assert expected_counts(bug=True) == {
        FIVE: 1,
        "Straight Flush": 204,
        "Four of a Kind": 828,
        "Full House": 4_368,
        "Flush": 7_804,
        "Straight": 20_532,
        "Three of a Kind": 63_360,
        "Two Pair": 138_600,
        "One Pair": 1_215_024,
        "High Card": 1_418_964,
    }


def _two_joker_hands(n: int, seed: int) -> list[tuple[int, ...]]:
    """Three natural cards and both jokers: random, suited, paired and connected."""
    rng = random.Random(seed)
    hands = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            naturals = rng.sample(range(52), 3)
        elif kind == 1:
            suit = rng.randrange(4)
            naturals = [r * 4 + suit for r in rng.sample(range(13), 3)]
        elif kind == 2:
            rank = rng.randrange(13)
            naturals = [rank * 4 + s for s in rng.sample(range(4), 2)]
            naturals.append(rng.choice([c for c in range(52) if c >> 2 != rank]))
        else:
            low = rng.randrange(-1, 9)
            ranks = rng.sample([(low + k) % 13 for k in range(5)], 3)
            naturals = [r * 4 + rng.randrange(4) for r in ranks]
        hands.append((*naturals, X1, X2))
    return hands


@pytest.mark.parametrize("mode_name", list(MODES))
def test_five_cards_with_two_jokers_order_like_brute_force(mode_name: str) -> None:
    rank, bug = MODES[mode_name]
    hands = _two_joker_hands(60, seed=1)
    brute.assert_same_order(
        [brute.joker_score(h, bug=bug) for h in hands], [rank(h) for h in hands]
    )


def test_two_jokers_everywhere_give_values_that_depend_only_on_ranks_and_suitedness() -> None:
    # Every hand with both jokers, in both ways: the value is a function of what the brute
    # force reads (so the sample above speaks for all 22,100 hands of each key).
    for rank, _ in MODES.values():
        by_key: dict[tuple[tuple[int, ...], bool], int] = {}
        for naturals in combinations(range(52), 3):
            key = (tuple(c >> 2 for c in naturals), len({c & 3 for c in naturals}) == 1)
            value = rank((*naturals, X1, X2))
            assert by_key.setdefault(key, value) == value
        assert len(by_key) == math.comb(15, 3) + math.comb(13, 3)


@pytest.mark.parametrize("mode_name", list(MODES))
@pytest.mark.parametrize(("size", "jokers", "n"), [(6, 1, 100), (7, 1, 100), (6, 2, 10)])
def test_more_cards_with_jokers_order_like_brute_force(
    mode_name: str, size: int, jokers: int, n: int
) -> None:
    rank, bug = MODES[mode_name]
    rng = random.Random(size * 10 + jokers)
    hands = []
    for i in range(n):
        if i % 2:  # four of a suit among them, for flushes
            suit = rng.randrange(4)
            naturals = [r * 4 + suit for r in rng.sample(range(13), 4)]
            rest = [c for c in range(52) if c not in naturals]
            naturals += rng.sample(rest, size - jokers - 4)
        else:
            naturals = rng.sample(range(52), size - jokers)
        hands.append((*naturals, *(X1, X2)[:jokers]))
    brute.assert_same_order([brute.best_joker(h, bug=bug) for h in hands], [rank(h) for h in hands])


def test_hands_without_jokers_rank_as_rank7() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(range(52), 7)
        assert rank_joker_wild(hand) == rank_joker_bug(hand) == rank7(*hand)
    five = codes("As Ks Qs Js Ts")
    assert rank_joker_wild(five) == rank_joker_bug(five) == 7462


@pytest.mark.parametrize(
    ("cards", "wild", "bug"),
    [
        ("Ah Ad Ac As X1", "Five of a Kind, Aces", "Five of a Kind, Aces"),
        ("Kh Kd Kc Ks X1", "Five of a Kind, Kings", "Four of a Kind, Kings, Ace kicker"),
        (
            "Kh Kd X1 7c 2s",
            "Three of a Kind, Kings, Seven-Two kickers",
            "One Pair, Kings, Ace-Seven-Two kickers",
        ),
        (
            "Kh Kd Qs Qc X1",
            "Full House, Kings over Queens",
            "Two Pair, Kings and Queens, Ace kicker",
        ),
        ("Ah Ad Kc Ks X1", "Full House, Aces over Kings", "Full House, Aces over Kings"),
        # No double-ace flush: the joker is the highest heart not held.
        ("Ah Kh 9h 4h X1", "Flush, Ace-King-Queen-Nine-Four", "Flush, Ace-King-Queen-Nine-Four"),
        ("Kh Qh 9h 4h X1", "Flush, Ace-King-Queen-Nine-Four", "Flush, Ace-King-Queen-Nine-Four"),
        ("7c X1 5d 4h 3s", "Straight, Seven high", "Straight, Seven high"),
        ("2c 3d 4h 5s X1", "Straight, Six high", "Straight, Six high"),
        ("Ah Kh Qh Jh X1", "Royal Flush", "Royal Flush"),
        ("9h 8h 7h 6h X1", "Straight Flush, Ten high", "Straight Flush, Ten high"),
        ("X1 X2 As Ad Ac", "Five of a Kind, Aces", "Five of a Kind, Aces"),
        (
            "X1 X2 Kh Kd 7c",
            "Four of a Kind, Kings, Seven kicker",
            "Two Pair, Aces and Kings, Seven kicker",
        ),
        (
            "X1 X2 9h 8h 2c",
            "Three of a Kind, Nines, Eight-Two kickers",
            "One Pair, Aces, Nine-Eight-Two kickers",
        ),
        ("X1 X2 Ah Kh Qh", "Royal Flush", "Royal Flush"),
        # With seven cards the bug may sit out: the natural full house plays.
        (
            "Kh Kd Ks Qc Qd 2s X1",
            "Four of a Kind, Kings, Queen kicker",
            "Full House, Kings over Queens",
        ),
    ],
)
def test_pinned_hands(cards: str, wild: str, bug: str) -> None:
    hand = codes(cards)
    assert describe_joker_wild(rank_joker_wild(hand)) == wild
    assert describe_joker_bug(rank_joker_bug(hand)) == bug


def test_five_of_a_kind_beats_a_royal_flush() -> None:
    assert rank_joker_wild(codes("2h 2d 2c 2s X1")) > rank_joker_wild(codes("Ah Kh Qh Jh Th"))
    assert (
        rank_joker_bug(codes("Ah Ad Ac As X1")) == 7475 == rank_joker_wild(codes("Ah Ad Ac As X1"))
    )
    assert describe_joker_wild(7467) == "Five of a Kind, Sixes"


@pytest.mark.parametrize(
    ("cards", "wild", "bug"),
    [
        ("Ah Kh Qh Jh 2c X2", "Ah Kh Qh Jh X2", "Ah Kh Qh Jh X2"),
        ("Kh Kd 7c 2s X1", "X1 Kh Kd 7c 2s", "Kh Kd X1 7c 2s"),  # X1: the Ks, or an ace
        ("Kh Kd Ks Qc Qd 2s X1", "Ks Kh Kd X1 Qd", "Ks Kh Kd Qd Qc"),
        ("Ah Ad Ac As X1", "As Ah Ad Ac X1", "As Ah Ad Ac X1"),
        ("2c 3d 4h 5s X1", "X1 5s 4h 3d 2c", "X1 5s 4h 3d 2c"),
    ],
)
def test_best_cards_place_each_joker_where_its_card_plays(cards: str, wild: str, bug: str) -> None:
    hand = codes(cards)
    assert best_joker_wild(hand) == tuple(codes(wild))
    assert best_joker_bug(hand) == tuple(codes(bug))


def test_best_cards_play_to_the_same_value() -> None:
    rng = random.Random(9)
    for i in range(600):
        hand = [*rng.sample(range(52), 5 + i % 2), *(X1, X2)[: 1 + i % 2]]
        for rank, best in ((rank_joker_wild, best_joker_wild), (rank_joker_bug, best_joker_bug)):
            five = best(hand)
            assert len(five) == 5 and set(five) <= set(hand) and rank(five) == rank(hand)


def test_evaluate_wild_takes_joker_text_or_codes() -> None:
    value = evaluate_wild("Ah Kh Qh Jh X1 2c 2d")
    assert isinstance(value, WildValue)
    assert (str(value), value.value) == ("Royal Flush", 7462)
    assert [str(c) for c in value.best] == ["Ah", "Kh", "Qh", "Jh", "X1"]
    assert evaluate_wild(["Kh", "Kd", 52, "7c", Card.parse("2s")], bug=True).describe() == (
        "One Pair, Kings, Ace-Seven-Two kickers"
    )
    assert evaluate_wild("Kh Kd X2 7c 2s") > evaluate_wild("Kh Kd X2 7c 2s", bug=True)


def test_evaluate_wild_rejects_bad_hands() -> None:
    with pytest.raises(InvalidHandError, match="a hand needs at least 5 cards, got 4"):
        evaluate_wild("Ah X1 2c X2")
    with pytest.raises(DuplicateCardError, match="'X1'"):
        evaluate_wild(["Ah", 52, "X1", "2c", "3d"])
    with pytest.raises(InvalidHandError, match="a die cannot play in a poker hand, got '4'"):
        evaluate_wild(["Ah", "X1", "2c", "3d", 57])


# Brian Alspach, "7-Card Poker Hands with Joker" (31 July 2003,
# people.math.sfu.ca/~alspach/comp40/): the 154,143,080 seven-card hands of the 53 cards,
# the joker used "as an ace or as a wild card for straights and flushes", by best hand.
ALSPACH_7_CARD_BUG = {
    FIVE: 1_128,
    "Straight Flush": 210_964,
    "Four of a Kind": 307_472,
    "Full House": 4_188_528,
    "Flush": 6_172_088,
    "Straight": 11_236_028,
    "Three of a Kind": 7_470_676,
    "Two Pair": 35_553_816,
    "One Pair": 64_221_960,
    "High Card": 24_780_420,
}


def _rank_choices(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Ranks for the groups of a hand's shape (group sizes, largest first), each hand once:
    groups of one size take their ranks in increasing order."""
    choices: list[tuple[int, ...]] = [()]
    for size in sorted(set(shape), reverse=True):
        choices = [
            (*chosen, *more)
            for chosen in choices
            for more in combinations([r for r in range(13) if r not in chosen], shape.count(size))
        ]
    return choices


def test_seven_card_hands_with_the_bug_match_alspachs_table() -> None:
    """The C(52, 6) seven-card hands holding the joker (those without it are high poker's,
    bench/all7.py's counts) by class: the six natural cards' ranks, and the ranks of the suit
    holding four or more of them, if any, are all the bug's value depends on. Each class is
    ranked once, with one hand of it, and weighted by its number of hands."""
    from bench.all7 import EXPECTED

    counts: Counter[str] = Counter()
    hands = 0
    shapes = [(1,) * 6, (2, 1, 1, 1, 1), (2, 2, 1, 1), (2, 2, 2), (3, 1, 1, 1), (3, 2, 1)]
    for shape in [*shapes, (3, 3), (4, 1, 1), (4, 2)]:
        # Every way to give the groups their suits, by which groups the dominant suit holds.
        ways: Counter[tuple[int, ...]] = Counter()
        example: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
        for suits in product(*(combinations(range(4), n) for n in shape)):
            holding = [tuple(g for g, s in enumerate(suits) if suit in s) for suit in range(4)]
            dominant = next((groups for groups in holding if len(groups) >= 4), ())
            ways[dominant] += 1
            example.setdefault(dominant, suits)
        for ranks in _rank_choices(shape):
            for dominant, n in ways.items():
                hand = [
                    r * 4 + s
                    for r, group in zip(ranks, example[dominant], strict=True)
                    for s in group
                ]
                counts[CATEGORY[rank_joker_bug([*hand, X1])]] += n
                hands += n
    assert hands == math.comb(52, 6)
    with_joker = {name: n - EXPECTED.get(name, 0) for name, n in ALSPACH_7_CARD_BUG.items()}
    assert counts == with_joker
