import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    Card,
    DuplicateCardError,
    HandCategory,
    HandValue,
    InvalidCardError,
    InvalidHandError,
    compare,
    evaluate,
    parse_cards,
    rank7,
    rank_batch,
)
from engine.equity import _combinations
from engine.hand_classes import CLASS_RANK
from engine.tablegen import TABLES_PATH, build
from tests.engine.reference import best_value

CATEGORY_OF_RANK = np.zeros(7463, dtype=np.int64)
for (_category, _), _rank in CLASS_RANK.items():
    CATEGORY_OF_RANK[_rank] = _category


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("As Ks Qs Js Ts 2c 3d", "Royal Flush"),
        ("9h 8h 7h 6h 5h 5c 5d", "Straight Flush, Nine high"),
        ("Ad 2d 3d 4d 5d Kc Kh", "Straight Flush, Five high"),
        ("9c 9d 9h 9s Ks 2d 3c", "Four of a Kind, Nines, King kicker"),
        ("Kh Kd Ks 5c 5d 2h 3c", "Full House, Kings over Fives"),
        ("Kh Kd Ks 5c 5d 5h 3c", "Full House, Kings over Fives"),
        ("Ac Kc 9c 7c 4c 2d 2s", "Flush, Ace-King-Nine-Seven-Four"),
        ("5d 4c 3s 2h Ah 9d 9c", "Straight, Five high"),
        ("Td Jc Qs Kh Ah 9d 9c", "Straight, Ace high"),
        ("7s 7d 7c Ah Qd 3c 2c", "Three of a Kind, Sevens, Ace-Queen kickers"),
        ("Ah Ad 9c 9s Qh 3d 2c", "Two Pair, Aces and Nines, Queen kicker"),
        ("Ah Ad 9c 9s 4h 4d Qc", "Two Pair, Aces and Nines, Queen kicker"),
        ("6h 6d Ac 9s 4h 3d 2c", "One Pair, Sixes, Ace-Nine-Four kickers"),
        ("Kh Jd 9c 7s 4h 3d 2c", "High Card, King-Jack-Nine-Seven-Four"),
    ],
)
def test_describe_names_the_hand(cards: str, description: str) -> None:
    value = evaluate(cards)
    assert value.describe() == description
    assert str(value) == description


def test_royal_flush_is_its_own_category_but_orders_as_top_straight_flush() -> None:
    royal, king_high = evaluate("As Ks Qs Js Ts"), evaluate("Ks Qs Js Ts 9s")
    assert royal.category is HandCategory.ROYAL_FLUSH
    assert king_high.category is HandCategory.STRAIGHT_FLUSH
    assert royal.rank == 7462 and king_high.rank == 7461


@pytest.mark.parametrize(
    ("cards", "best_five"),
    [
        ("Kh Kd Ks 5c 5d 2h 3c", "Ks Kh Kd 5d 5c"),
        ("Ah Ad 9c 9s Qh 3d 2c", "Ah Ad 9s 9c Qh"),
        ("5d 4c 3s 2h Ah 9d 9c", "5d 4c 3s 2h Ah"),
        ("Ad 2d 3d 4d 5d Kc Kh", "5d 4d 3d 2d Ad"),
        ("6h 6d Ac 9s 4h 3d 2c", "6h 6d Ac 9s 4h"),
        ("Ac Kc 9c 7c 4c 2c 2s", "Ac Kc 9c 7c 4c"),
    ],
)
def test_best_five_in_order_of_significance(cards: str, best_five: str) -> None:
    assert evaluate(cards).best_five == parse_cards(best_five)


def test_hand_values_are_totally_ordered_and_equal_strength_is_equal() -> None:
    a, b = evaluate("Ah Kd 9c 7s 4h"), evaluate("Ad Kc 9h 7d 4s")
    assert a == b and hash(a) == hash(b) and not a < b
    assert evaluate("2c 2d 3h 4s 5c") > a
    assert sorted([evaluate("2c 2d 2h 4s 5c"), a]) == [a, evaluate("2c 2d 2h 4s 5c")]


def test_evaluate_takes_cards_strings_or_codes() -> None:
    text = "As Ks Qs Js Ts"
    assert evaluate(parse_cards(text)) == evaluate(text) == evaluate(codes(text))
    assert evaluate(text.split()).rank == 7462


def test_evaluate_more_than_seven_cards_takes_best_five() -> None:
    value = evaluate("2c 3c 4c 5c 7d 8d 9d Td Jd Ah")
    assert value.describe() == "Straight Flush, Jack high"


def test_eight_cards_with_two_flushes_pick_the_better() -> None:
    assert evaluate("2c 5c 7c 9c Jc 3h 6h 8h Th Kh").describe() == "Flush, King-Ten-Eight-Six-Three"


@pytest.mark.parametrize("cards", ["As Ks", "As Ks Qs Js", ""])
def test_evaluate_needs_five_cards(cards: str) -> None:
    with pytest.raises(InvalidHandError, match="at least 5 cards"):
        evaluate(cards)


def test_evaluate_rejects_repeated_and_bad_cards() -> None:
    with pytest.raises(DuplicateCardError, match="'As'"):
        evaluate("As As Ks Qs Js")
    with pytest.raises(InvalidCardError, match="position 5"):
        evaluate("As Ks Qs Js 1s")


@pytest.mark.parametrize(
    ("a", "b", "outcome"),
    [
        ("2H 2D AH KC 3D", "4H 4C JC TC 3H", "LOSE"),
        ("5H 5C 6S 7S KD", "2C 3S 8S 8D TD", "LOSE"),
        ("5D 8C 9S JS AC", "2C 5C 7D 8S QH", "WIN"),
        ("2D 9C AS AH AC", "3D 6D 7D TD QD", "LOSE"),
        ("4D 6S 9H QH QC", "3D 6D 7H QD QS", "WIN"),
        ("2H 2D 4C 4D 4S", "3C 3D 3S 9S 9D", "WIN"),
        ("Ah Kd 9c 7s 4h", "Ad Kc 9h 7d 4s", "DRAW"),
    ],
)
def test_compare_from_first_hands_side(a: str, b: str, outcome: str) -> None:
    assert compare(a, b) == outcome


def test_compare_accepts_hand_values() -> None:
    assert compare(evaluate("As Ks Qs Js Ts"), "9c 9d 9h 9s 2c") == "WIN"


def test_every_five_card_hand_category_count_and_7462_ranks() -> None:
    hands = _combinations(52, 5)
    ranks = rank_batch(hands)
    assert len(ranks) == 2_598_960
    counts = Counter(CATEGORY_OF_RANK[ranks].tolist())
    assert counts == {
        HandCategory.STRAIGHT_FLUSH: 40,
        HandCategory.FOUR_OF_A_KIND: 624,
        HandCategory.FULL_HOUSE: 3_744,
        HandCategory.FLUSH: 5_108,
        HandCategory.STRAIGHT: 10_200,
        HandCategory.THREE_OF_A_KIND: 54_912,
        HandCategory.TWO_PAIR: 123_552,
        HandCategory.ONE_PAIR: 1_098_240,
        HandCategory.HIGH_CARD: 1_302_540,
    }
    assert int((ranks == 7462).sum()) == 4  # royal flushes
    assert len(np.unique(ranks)) == 7462


def test_evaluate_agrees_with_batch_on_sampled_five_card_hands() -> None:
    rng = random.Random(5)
    hands = [rng.sample(range(52), 5) for _ in range(2000)]
    assert rank_batch(np.array(hands)).tolist() == [evaluate(h).rank for h in hands]


def _random_hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), size)) for _ in range(n)]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_ranks_order_hands_exactly_as_the_brute_force_reference(size: int) -> None:
    hands = _random_hands(4000 if size == 7 else 3000, size, seed=size)
    # Mix in hands rich in flushes, straights and pairs, which a uniform sample rarely gives.
    rng = random.Random(99)
    for _ in range(1000):
        suit = rng.randrange(4)
        pool = [r * 4 + suit for r in rng.sample(range(13), 5)]
        rest = rng.sample([c for c in range(52) if c not in pool], size - 5)
        hands.append(tuple(pool + rest))
        low = rng.randrange(9)
        straight = [(low + i) * 4 + rng.randrange(4) for i in range(5)]
        rest = rng.sample([c for c in range(52) if c not in straight], size - 5)
        hands.append(tuple(straight + rest))
    ours = rank_batch(np.array(hands)).tolist()
    reference = [best_value(h) for h in hands]
    # Our rank must be a strictly order-preserving function of the reference value.
    pairs = sorted(set(zip(reference, ours, strict=True)))
    assert len({r for r, _ in pairs}) == len(pairs), "one reference value got two ranks"
    assert [rank for _, rank in pairs] == sorted(rank for _, rank in pairs)
    assert len({rank for _, rank in pairs}) == len(pairs), "two reference values share a rank"
    # And the category names agree (reference 0..8 is HandCategory - 1, royal counted as SF).
    for value, rank in pairs:
        assert CATEGORY_OF_RANK[rank] == value[0] + 1


def test_rank7_rank_batch_and_evaluate_agree() -> None:
    hands = _random_hands(30_000, 7, seed=7)
    singles = [rank7(*h) for h in hands]
    assert rank_batch(np.array(hands, dtype=np.uint8)).tolist() == singles
    assert [evaluate(h).rank for h in hands[:5000]] == singles[:5000]


@given(st.permutations(range(52)).map(lambda deck: tuple(deck[:7])))
def test_rank7_ignores_card_order(hand: tuple[int, ...]) -> None:
    assert rank7(*hand) == rank7(*reversed(hand)) == rank7(*sorted(hand))


def test_rank7_known_hands() -> None:
    assert rank7(*codes("As Ks Qs Js Ts 2c 3d")) == 7462
    assert (
        rank7(*codes("7c 5d 4h 3s 2c 8d 9h"))
        == CLASS_RANK[(HandCategory.HIGH_CARD, (7, 6, 5, 3, 2))]
    )


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (np.zeros((3, 4), dtype=np.int64), "shape"),
        (np.zeros(7, dtype=np.int64), "shape"),
        (np.full((1, 7), 0.5), "integer"),
        (np.array([[0, 1, 2, 3, 4, 5, 52]]), "0..51"),
        (np.array([[0, 1, 2, 3, 4, 5, -1]]), "0..51"),
        (np.array([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 5]]), "row 1 repeats a card"),
    ],
)
def test_rank_batch_rejects_bad_arrays(array: np.ndarray, message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        rank_batch(array)


def test_rank_batch_of_no_hands_is_empty() -> None:
    assert rank_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


def test_shipped_tables_match_the_builder() -> None:
    assert TABLES_PATH.read_bytes() == build()


def test_hand_value_repr_shows_rank_name_and_cards() -> None:
    assert repr(evaluate("As Ks Qs Js Ts")) == "<HandValue 7462 'Royal Flush' [As Ks Qs Js Ts]>"


def test_hand_value_is_immutable() -> None:
    value = evaluate("As Ks Qs Js Ts")
    with pytest.raises(AttributeError):
        value.rank = 1  # type: ignore[misc]
    assert isinstance(value, HandValue)
    assert all(isinstance(c, Card) for c in value.best_five)
