"""Poker dice (engine.dice): every ordered throw of five dice against the plain brute force,
counts by combinatorics, pinned throws and the checked entry point."""

from __future__ import annotations

import math
from collections import Counter
from itertools import product

import numpy as np
import pytest

from engine.cards import Card, parse_dice
from engine.dice import DiceValue, best_dice, describe_dice, evaluate_dice, rank_dice
from engine.errors import InvalidCardError, InvalidHandError
from tests.engine import brute

THROWS = list(product(range(1, 7), repeat=5))  # all 6**5 = 7,776 ordered outcomes


def kind(value: int) -> str:
    return describe_dice(value).split(",")[0]


def test_every_throw_matches_the_brute_force_in_252_classes() -> None:
    ours = np.array([rank_dice(t) for t in THROWS])
    scores = [brute.dice_score(t) for t in THROWS]
    rank_of = {s: r for r, s in enumerate(sorted(set(scores)), start=1)}
    np.testing.assert_array_equal(ours, [rank_of[s] for s in scores])
    assert len(rank_of) == 252 == math.comb(6 + 5 - 1, 5)  # every multiset of five faces


def test_every_kind_counts_as_combinatorics_says() -> None:
    arrangements = math.factorial(5)
    expected = {
        "Five of a Kind": 6,
        "Four of a Kind": 6 * 5 * math.comb(5, 4),
        "Full House": 6 * 5 * math.comb(5, 3),
        "Straight": 2 * arrangements,
        "Three of a Kind": 6 * math.comb(5, 2) * arrangements // math.factorial(3),
        "Two Pair": math.comb(6, 2) * 4 * arrangements // (2 * 2),
        "One Pair": 6 * math.comb(5, 3) * arrangements // 2,
        "Nothing": (math.comb(6, 5) - 2) * arrangements,
    }
    assert expected == {
        "Five of a Kind": 6,
        "Four of a Kind": 150,
        "Full House": 300,
        "Straight": 240,
        "Three of a Kind": 1_200,
        "Two Pair": 1_800,
        "One Pair": 3_600,
        "Nothing": 480,
    }
    assert sum(expected.values()) == 6**5
    assert Counter(kind(rank_dice(t)) for t in THROWS) == expected


def test_classes_per_kind() -> None:
    classes = Counter(kind(v) for v in range(1, 253))
    assert classes == {
        "Five of a Kind": 6,
        "Four of a Kind": 6 * 5,
        "Full House": 6 * 5,
        "Straight": 2,
        "Three of a Kind": 6 * math.comb(5, 2),
        "Two Pair": math.comb(6, 2) * 4,
        "One Pair": 6 * math.comb(5, 3),
        "Nothing": math.comb(6, 5) - 2,
    }


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2 3 4 5 6", "1 2 3 4 5"),  # the six-high straight beats the five-high
        ("1 2 3 4 5", "6 6 6 5 4"),  # any straight beats three of a kind
        ("3 3 3 2 2", "2 2 2 6 6"),  # a full house by its three first
        ("3 3 3 6 6", "3 3 3 5 5"),  # then its pair
        ("6 6 1 1 2", "5 5 4 4 6"),  # two pair by the higher pair
        ("6 6 2 2 1", "6 6 1 1 5"),  # then the lower pair
        ("4 4 6 5 1", "4 4 6 3 2"),  # one pair, then the kickers from the highest
        ("6 5 4 3 1", "6 5 4 2 1"),  # nothing: the highest die, then the next
        ("1 1 1 1 1", "6 6 6 6 5"),  # five of a kind beats four
    ],
)
def test_pinned_order(better: str, worse: str) -> None:
    assert evaluate_dice(better) > evaluate_dice(worse)


def test_worst_and_best_throws() -> None:
    assert rank_dice([6, 4, 3, 2, 1]) == 1
    assert rank_dice([6, 6, 6, 6, 6]) == 252


@pytest.mark.parametrize(
    ("throw", "description", "best"),
    [
        ("5 2 5 2 5", "Full House, Fives over Twos", (5, 5, 5, 2, 2)),
        ("6 6 6 6 6", "Five of a Kind, Sixes", (6, 6, 6, 6, 6)),
        ("3 6 3 3 3", "Four of a Kind, Threes, Six kicker", (3, 3, 3, 3, 6)),
        ("4 2 6 3 5", "Straight, Six high", (6, 5, 4, 3, 2)),
        ("4 1 4 6 4", "Three of a Kind, Fours, Six-One kickers", (4, 4, 4, 6, 1)),
        ("3 6 3 1 6", "Two Pair, Sixes and Threes, One kicker", (6, 6, 3, 3, 1)),
        ("2 5 2 6 3", "One Pair, Twos, Six-Five-Three kickers", (2, 2, 6, 5, 3)),
        ("1 5 6 2 3", "Nothing, Six-Five-Three-Two-One", (6, 5, 3, 2, 1)),
    ],
)
def test_describe_and_best_faces(throw: str, description: str, best: tuple[int, ...]) -> None:
    value = evaluate_dice(throw)
    assert (str(value), value.faces) == (description, best)
    faces = [die.code - 53 for die in parse_dice(throw)]  # a die's code is 53 + its face
    assert best_dice(faces) == best


def test_best_faces_are_the_throw_and_keep_its_value() -> None:
    for throw in THROWS:
        best = best_dice(throw)
        assert sorted(best) == sorted(throw) and rank_dice(best) == rank_dice(throw)


def test_evaluate_dice_takes_text_die_cards_or_faces() -> None:
    value = evaluate_dice("66 2,1 5")
    assert isinstance(value, DiceValue)
    assert value == evaluate_dice([6, 6, 2, 1, 5]) == evaluate_dice(parse_dice("6 6 2 1 5"))
    assert evaluate_dice([Card.die(6), 6, Card.die(2), 1, 5]).value == value.value


@pytest.mark.parametrize(
    ("dice", "error", "message"),
    [
        ("6 6 2 1", InvalidHandError, "poker dice are 5 dice, got 4"),
        ("6 6 2 1 5 4", InvalidHandError, "poker dice are 5 dice, got 6"),
        ([6, 6, 2, 1, 7], InvalidCardError, "a die face is 1..6, got 7"),
        ([6, 6, 2, 1, Card.parse("As")], InvalidHandError, "card 'As' is not a die"),
        ("6 6 2 1 0", InvalidCardError, "invalid die '0' at position 5"),
    ],
)
def test_evaluate_dice_rejects_bad_throws(
    dice: str | list[int | Card], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        evaluate_dice(dice)
