"""The low games of engine.lowball against the plain brute force of tests/engine/brute.py:
every five-card hand (ace-to-five, eight-or-better, deuce-to-seven), every four-card hand
(badugi), random larger hands, pinned hands, and pokerkit 0.7.7's low hands."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np
import pytest
from pokerkit import BadugiHand, EightOrBetterLowHand, Hand, RegularLowHand, StandardLowHand

from engine.cards import Card, parse_cards
from engine.errors import DuplicateCardError, InvalidHandError
from engine.evaluator import rank_batch
from engine.lowball import (
    LowValue,
    best_27_low,
    best_a5_low,
    best_badugi,
    best_eight_low,
    describe_27_low,
    describe_a5_low,
    describe_badugi,
    describe_eight_low,
    evaluate_low,
    rank_27_low,
    rank_a5_low,
    rank_badugi,
    rank_eight_low,
)
from tests.engine import brute


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


def text(hand: Sequence[int]) -> str:
    return "".join(str(Card.from_code(c)) for c in hand)


@pytest.fixture(scope="module")
def fives() -> np.ndarray:
    """Every five-card hand, lexicographic (the order of itertools.combinations)."""
    return brute.all_combinations(52, 5)


def values_of(rank: Callable[[tuple[int, ...]], int], n: int, k: int) -> np.ndarray:
    """``rank`` of every k-card hand from range(n), in lexicographic order."""
    return np.fromiter(map(rank, combinations(range(n), k)), dtype=np.int64, count=math.comb(n, k))


def base13(ranks: np.ndarray) -> np.ndarray:
    return (ranks * 13 ** np.arange(ranks.shape[1])).sum(axis=1)


# ---------------------------------------------------------------------------- ace-to-five


@pytest.fixture(scope="module")
def low_classes(fives: np.ndarray) -> brute.Classes:
    """The five-card hands by their ranks, ace low: all that the brute force of ace-to-five
    and eight-or-better reads."""
    return brute.classes_of(base13(np.sort(((fives >> 2) + 1) % 13, axis=1)))


@pytest.fixture(scope="module")
def ace_to_five_values() -> np.ndarray:
    return values_of(rank_a5_low, 52, 5)


def test_ace_to_five_every_five_card_hand_matches_brute_force_in_6175_classes(
    fives: np.ndarray, low_classes: brute.Classes, ace_to_five_values: np.ndarray
) -> None:
    ours = ace_to_five_values
    reference = brute.reference_by_class(fives, low_classes, brute.ace_to_five_score)
    assert len(np.unique(ours)) == 6175 == math.comb(13 + 4, 5) - 13  # no five of a kind
    np.testing.assert_array_equal(ours, reference)  # both 1 (worst) .. 6175 (the wheel)


def test_ace_to_five_counts_the_unpaired_hands_by_combinatorics(
    ace_to_five_values: np.ndarray,
) -> None:
    ours = ace_to_five_values
    # 1,287 sets of five ranks, each in 4**5 suit patterns; straights and flushes included.
    assert int((ours > 6175 - 1287).sum()) == 1287 * 4**5
    assert int((ours == 6175).sum()) == 4**5  # the wheel


def _paired_hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    """Hands dealt from few ranks, so that pairs must play."""
    rng = random.Random(seed)
    hands = []
    for _ in range(n):
        ranks = rng.sample(range(13), rng.choice([2, 3, 4]))
        pool = [r * 4 + s for r in ranks for s in range(4)]
        hands.append(tuple(rng.sample(pool, min(size, len(pool)))))
    return [h for h in hands if len(h) >= 5]


def _random_hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), size)) for _ in range(n)]


@pytest.mark.parametrize("size", [6, 7, 8])
def test_ace_to_five_best_of_more_cards_orders_like_brute_force(size: int) -> None:
    hands = _random_hands(1000, size, seed=size) + _paired_hands(1000, size, seed=size)
    brute.assert_same_order(
        [brute.best_ace_to_five(h) for h in hands], [rank_a5_low(h) for h in hands]
    )


def test_ace_to_five_values_rise_with_the_brute_force_across_hand_sizes() -> None:
    hands = _random_hands(800, 5, 1) + _random_hands(800, 7, 2) + _paired_hands(800, 7, 3)
    brute.assert_same_order(
        [brute.best_ace_to_five(h) for h in hands], [rank_a5_low(h) for h in hands]
    )


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("Ah 2c 3d 4s 5h", "Five-Four-Three-Two-Ace"),
        ("Ah 2h 3h 4h 5h", "Five-Four-Three-Two-Ace"),  # a flush does not count
        ("6h 5c 4d 3s 2h Ac Ad", "Five-Four-Three-Two-Ace"),  # a straight does not count
        ("Kh Qc Jd Ts 9h", "King-Queen-Jack-Ten-Nine"),
        ("Ah Ac Kd 3s 2h", "One Pair, Aces, King-Three-Two kickers"),
        ("2h 2c Ad Ks Qh", "One Pair, Twos, King-Queen-Ace kickers"),
        ("Kh Kc Ks 2h 2c 3d 3h", "Two Pair, Threes and Twos, King kicker"),
        ("7h 7c 7d 7s 8h 8c 8d", "Full House, Sevens over Eights"),
        ("Kh Kc Kd Ks Qh", "Four of a Kind, Kings, Queen kicker"),
    ],
)
def test_ace_to_five_describes_the_best_low(cards: str, description: str) -> None:
    assert describe_a5_low(rank_a5_low(codes(cards))) == description


def test_ace_to_five_pairs_lose_to_any_unpaired_hand() -> None:
    worst_unpaired = rank_a5_low(codes("Kh Qc Jd Ts 9h"))
    best_pair = rank_a5_low(codes("Ah Ac 2d 3s 4h"))
    assert best_pair < worst_unpaired
    assert worst_unpaired == 6175 - 1287 + 1


@pytest.mark.parametrize(
    ("cards", "best"),
    [
        ("9d Ah 2c 7s 4h 4d Kc", "9d 7s 4h 2c Ah"),
        ("Kh Kc Ks 2h 2c 3d 3h", "3h 3d 2h 2c Ks"),
        ("Ac Ad Ah As Kc Kd 2c", "Kd Kc As Ah 2c"),
    ],
)
def test_ace_to_five_best_cards_most_significant_first(cards: str, best: str) -> None:
    assert best_a5_low(codes(cards)) == tuple(codes(best))


# ------------------------------------------------------------------------ eight-or-better


def test_low8_every_five_card_hand_matches_brute_force_in_56_classes(
    fives: np.ndarray, low_classes: brute.Classes
) -> None:
    ours = values_of(rank_eight_low, 52, 5)

    def score(hand: tuple[int, ...]) -> brute.Score:
        return brute.best_low8(hand) or ()  # no low: below every low

    reference = brute.reference_by_class(fives, low_classes, score)
    np.testing.assert_array_equal(ours, reference - 1)  # 0 for no low, then 1..56
    assert len(np.unique(ours)) == 57 and math.comb(8, 5) == 56
    # Five different ranks from ace to eight, any suits: C(8, 5) * 4**5 hands qualify.
    assert int((ours > 0).sum()) == math.comb(8, 5) * 4**5


@pytest.mark.parametrize("size", [6, 7, 8])
def test_low8_best_of_more_cards_orders_like_brute_force(size: int) -> None:
    rng = random.Random(size)
    # Mostly small cards, so that most hands have a low and many just miss.
    small = [c for c in range(52) if (c >> 2) < 7 or c >= 48]
    hands = [tuple(rng.sample(small, size)) for _ in range(2000)]
    hands += _random_hands(1000, size, seed=size)
    reference = [brute.best_low8(h) or () for h in hands]
    ours = [rank_eight_low(h) for h in hands]
    brute.assert_same_order(reference, ours)
    assert 0 < ours.count(0) < len(ours)


@pytest.mark.parametrize(
    ("cards", "value", "description"),
    [
        ("Ah 2c 3d 4s 5h Kc Kd", 56, "Five-Four-Three-Two-Ace"),
        ("8c 7d 6h 5s 4c", 1, "Eight-Seven-Six-Five-Four"),
        ("Ah 2c 3d 4s 9h Tc Jd", 0, "No qualifying low"),  # four low ranks only
        ("Ah Ac 2d 2s 3h 3c 8d", 0, "No qualifying low"),  # pairs do not help
        ("8s 6h 4d 3c Ac Ad 9h", None, "Eight-Six-Four-Three-Ace"),
    ],
)
def test_low8_pinned(cards: str, value: int | None, description: str) -> None:
    got = rank_eight_low(codes(cards))
    assert value is None or got == value
    assert describe_eight_low(got) == description


def test_low8_best_cards_highest_first_or_none() -> None:
    assert best_eight_low(codes("Ah 2c 3d 8s 7h Kc 2d")) == tuple(codes("8s 7h 3d 2d Ah"))
    assert best_eight_low(codes("Ah 2c 3d 9s Th Kc 2d")) == ()


# ------------------------------------------------------------------------- deuce-to-seven


def _rank_and_flush_keys(fives: np.ndarray) -> np.ndarray:
    ranks = fives >> 2  # rows are sorted, so these are too
    flush = (fives & 3 == (fives[:, :1] & 3)).all(axis=1)
    return base13(ranks) * 2 + flush


@pytest.fixture(scope="module")
def deuce_to_seven_values() -> np.ndarray:
    return values_of(rank_27_low, 52, 5)


def test_deuce_to_seven_every_five_card_hand_matches_brute_force_in_7462_classes(
    fives: np.ndarray, deuce_to_seven_values: np.ndarray
) -> None:
    classes = brute.classes_of(_rank_and_flush_keys(fives))
    reference = brute.reference_by_class(fives, classes, brute.deuce_to_seven_score)
    np.testing.assert_array_equal(deuce_to_seven_values, reference)  # 1 (royal) .. 7462
    assert len(np.unique(deuce_to_seven_values)) == 7462


def test_deuce_to_seven_reverses_high_poker_except_for_a2345(
    fives: np.ndarray, deuce_to_seven_values: np.ndarray
) -> None:
    high = rank_batch(fives).astype(np.int64)
    a2345 = ((fives >> 2) == [0, 1, 2, 3, 12]).all(axis=1)  # rows are sorted
    assert int(a2345.sum()) == 4**5

    def two_seven_by_high(rows: np.ndarray) -> np.ndarray:
        """The 2-7 values in the order of the high ranks, one per distinct (high, 2-7) pair."""
        pairs = np.unique(high[rows] * 8192 + deuce_to_seven_values[rows])
        assert len(np.unique(pairs >> 13)) == len(pairs)  # one 2-7 value per high rank
        return pairs & 8191

    # Without A-2-3-4-5 the 7,460 classes left keep their order, exactly reversed.
    others = two_seven_by_high(~a2345)
    assert len(others) == 7460 and (np.diff(others) < 0).all()
    # With them it is not: the wheel and the steel wheel of high poker are ace-high in 2-7.
    everything = two_seven_by_high(np.ones_like(a2345))
    assert len(everything) == 7462 and not (np.diff(everything) < 0).all()


def test_deuce_to_seven_a2345_offsuit_is_ace_high_and_beats_any_pair() -> None:
    a2345 = rank_27_low(codes("As 5d 4h 3c 2s"))
    best_pair = rank_27_low(codes("2s 2d 5h 4c 3s"))
    worst_king_high = rank_27_low(codes("Ks Qd Jh Tc 8s"))
    best_ace_high = rank_27_low(codes("As 6d 4h 3c 2s"))
    assert best_pair < a2345 < worst_king_high
    assert a2345 > best_ace_high  # the lowest ace-high hand
    assert describe_27_low(a2345) == "Ace-Five-Four-Three-Two"
    suited = rank_27_low(codes("As 5s 4s 3s 2s"))
    assert describe_27_low(suited) == "Flush, Ace-Five-Four-Three-Two"
    assert suited < rank_27_low(codes("Ks Qd Jh Tc 9s"))  # a flush is worse than a straight


def test_pokerkit_standard_low_hand_also_plays_a2345_as_ace_high() -> None:
    # pokerkit's StandardLowHand (Standard2Lookup: straights do not wrap) agrees with us:
    # A-2-3-4-5 is ace-high, not a straight, between any pair and any king-high hand.
    a2345 = StandardLowHand("As5d4h3c2s")
    assert StandardLowHand("2s2d5h4c3s") < a2345 < StandardLowHand("KsQdJhTc8s")
    assert a2345 > StandardLowHand("As6d4h3c2s")
    assert StandardLowHand("As5s4s3s2s").entry.label.value == "Flush"


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("7c 5d 4h 3s 2c", "Seven-Five-Four-Three-Two"),
        ("7c 6d 5h 4s 3c", "Straight, Seven high"),
        ("7c 5c 4c 3c 2c", "Flush, Seven-Five-Four-Three-Two"),
        ("2c 2d 7h 5s 3c", "One Pair, Twos, Seven-Five-Three kickers"),
        ("As Ks Qs Js Ts", "Royal Flush"),
        ("9s 9d 9h 9c 2s", "Four of a Kind, Nines, Two kicker"),
    ],
)
def test_deuce_to_seven_describes_the_hand(cards: str, description: str) -> None:
    assert describe_27_low(rank_27_low(codes(cards))) == description


@pytest.mark.parametrize("size", [6, 7])
def test_deuce_to_seven_best_of_more_cards_orders_like_brute_force(size: int) -> None:
    hands = _random_hands(2000, size, seed=size) + _paired_hands(500, size, seed=size)
    brute.assert_same_order(
        [brute.best_deuce_to_seven(h) for h in hands], [rank_27_low(h) for h in hands]
    )


def test_deuce_to_seven_best_cards_in_order() -> None:
    # 6-5-4-3-2 is a straight: the eight plays with the five down to the deuce.
    assert best_27_low(codes("8c 6d 5h 4s 3c 2d Kh")) == tuple(codes("8c 5h 4s 3c 2d"))
    assert best_27_low(codes("2c 2d 7h 5s 3c")) == tuple(codes("2d 2c 7h 5s 3c"))


# --------------------------------------------------------------------------------- badugi


@pytest.fixture(scope="module")
def badugi_values() -> np.ndarray:
    return values_of(rank_badugi, 52, 4)


def test_badugi_every_four_card_hand_matches_brute_force_in_1092_classes(
    badugi_values: np.ndarray,
) -> None:
    hands = brute.all_combinations(52, 4)
    # The brute force reads the ranks and which cards share a suit, not which suit: key the
    # hands by their ranks and by the pattern of equal suits among their (sorted) cards.
    suits = hands & 3
    same = [suits[:, i] == suits[:, j] for i, j in combinations(range(4), 2)]
    pattern = sum(bit.astype(np.int64) << n for n, bit in enumerate(same))
    keys = base13(hands >> 2) * 64 + pattern
    reference = brute.reference_by_class(hands, brute.classes_of(keys), brute.badugi_score)
    np.testing.assert_array_equal(badugi_values, reference)
    assert len(np.unique(badugi_values)) == 1092 == sum(math.comb(13, n) for n in range(1, 5))


def test_badugi_hands_of_each_size_match_combinatorics(badugi_values: np.ndarray) -> None:
    # Values run through the 13 one-card hands, then 78 two-card, 286 three-card, 715 four.
    bounds = np.cumsum([math.comb(13, n) for n in range(1, 5)])
    sizes = Counter((np.searchsorted(bounds, badugi_values) + 1).tolist())
    # Four cards, four ranks, four suits: 715 rank sets times 4! ways to give them suits.
    four = math.comb(13, 4) * math.factorial(4)
    # One card: all four in one suit, or all four of one rank.
    one = 4 * math.comb(13, 4) + 13
    # At most two cards play when two lines (ranks or suits) hold all four cards: at most
    # two suits (one suit, or two: C(26,4) less the one-suit hands), or at most two ranks,
    # less both at once (a 2x2 square), or one rank and one suit with two cards on each
    # line off their crossing, which is then empty.
    two_suits = 4 * math.comb(13, 4) + 6 * (math.comb(26, 4) - 2 * math.comb(13, 4))
    two_ranks = 13 + math.comb(13, 2) * (math.comb(8, 4) - 2)
    square = math.comb(13, 2) * math.comb(4, 2)
    rank_and_suit = 13 * 4 * math.comb(3, 2) * math.comb(12, 2)
    two = two_suits + two_ranks - square + rank_and_suit - one
    three = math.comb(52, 4) - four - two - one
    assert sizes == {4: four, 3: three, 2: two, 1: one}
    assert (four, three, two, one) == (17_160, 154_440, 96_252, 2_873)


@pytest.mark.parametrize("size", [5, 6])
def test_badugi_best_of_more_cards_orders_like_brute_force(size: int) -> None:
    hands = _random_hands(3000, size, seed=size)
    brute.assert_same_order([brute.badugi_score(h) for h in hands], [rank_badugi(h) for h in hands])


@pytest.mark.parametrize(
    ("cards", "description", "best"),
    [
        ("As 2h 3d 4c", "Four-card badugi, Four-Three-Two-Ace", "4c 3d 2h As"),
        ("Ks Qh Jd Tc", "Four-card badugi, King-Queen-Jack-Ten", "Ks Qh Jd Tc"),
        ("8h 5d 3s Ah", "Three-card hand, Five-Three-Ace", "5d 3s Ah"),
        ("Ad As 2d 2c", "Two-card hand, Two-Ace", "2d As"),
        ("Qd Jd 8d 4d", "One-card hand, Four", "4d"),
        ("Ad As Ah Ac", "One-card hand, Ace", "As"),
    ],
)
def test_badugi_pinned(cards: str, description: str, best: str) -> None:
    assert describe_badugi(rank_badugi(codes(cards))) == description
    assert best_badugi(codes(cards)) == tuple(codes(best))


def test_badugi_any_four_card_badugi_beats_any_three_card_hand() -> None:
    assert rank_badugi(codes("Kc Qd Jh Ts")) > rank_badugi(codes("Ac 2d 3h 4h"))
    assert rank_badugi(codes("Kc Qd Jh Ts")) == 1092 - 714


# ----------------------------------------------------------------------- pokerkit's lows


@pytest.mark.parametrize(
    ("ours", "theirs", "size"),
    [
        (rank_a5_low, lambda h: RegularLowHand.from_game(text(h)), 7),
        (rank_27_low, lambda h: StandardLowHand.from_game(text(h)), 5),
        (rank_badugi, lambda h: BadugiHand.from_game(text(h)), 4),
    ],
    ids=["ace-to-five", "deuce-to-seven", "badugi"],
)
def test_pokerkit_orders_random_hands_as_we_do(
    ours: Callable[[Sequence[int]], int], theirs: Callable[[Sequence[int]], Hand], size: int
) -> None:
    hands = _random_hands(150, size, seed=size) + _paired_hands(60, max(size, 5), seed=size)
    hands = [h[:size] if size == 4 else h for h in hands]
    values = [ours(h) for h in hands]
    pk = [theirs(h) for h in hands]
    for i in range(len(hands)):
        for j in range(i + 1, len(hands)):
            assert (values[i] < values[j]) == (pk[i] < pk[j]), (text(hands[i]), text(hands[j]))
            assert (values[i] == values[j]) == (pk[i] == pk[j]), (text(hands[i]), text(hands[j]))


def test_pokerkit_eight_or_better_agrees_on_who_qualifies_and_the_order() -> None:
    rng = random.Random(8)
    small = [c for c in range(52) if (c >> 2) < 7 or c >= 48]
    hands = [tuple(rng.sample(small, 7)) for _ in range(200)]
    pk = [EightOrBetterLowHand.from_game_or_none(text(h)) for h in hands]
    values = [rank_eight_low(h) for h in hands]
    assert [v == 0 for v in values] == [p is None for p in pk]
    qualified = [(v, p) for v, p in zip(values, pk, strict=True) if p is not None]
    for v1, p1 in qualified:
        for v2, p2 in qualified:
            assert (v1 < v2) == (p1 < p2)


# -------------------------------------------------------------------------- checked entry


def test_evaluate_low_takes_text_cards_or_codes_and_names_the_hand() -> None:
    value = evaluate_low("Ah 2c 3d 4s 5h Kc Kd", game="ace-to-five")
    assert value == evaluate_low(parse_cards("Ah 2c 3d 4s 5h Kc Kd"), game="ace-to-five")
    assert value == evaluate_low(codes("Ah 2c 3d 4s 5h Kc Kd"), game="ace-to-five")
    assert (value.value, str(value)) == (6175, "Five-Four-Three-Two-Ace")
    assert value.best == parse_cards("5h 4s 3d 2c Ah")


@pytest.mark.parametrize(
    ("cards", "game", "message"),
    [
        ("Ah 2c 3d", "ace-to-five", "an ace-to-five hand needs at least 5 cards, got 3"),
        ("Ah 2c 3d 4d", "eight-or-better", "an eight-or-better hand needs at least 5 cards, got 4"),
        ("7h 5c 4d 3s", "deuce-to-seven", "a deuce-to-seven hand needs at least 5 cards, got 4"),
        ("Ah 2c 3d", "badugi", "a badugi hand needs at least 4 cards, got 3"),
        ("Ah 2c 3d 4s 5s", "razz", "unknown low game 'razz'"),
    ],
)
def test_evaluate_low_rejects_wrong_card_counts_and_games(
    cards: str, game: str, message: str
) -> None:
    with pytest.raises(InvalidHandError, match=message):
        evaluate_low(cards, game=game)  # type: ignore[arg-type]


def test_evaluate_low_rejects_a_repeated_card() -> None:
    with pytest.raises(DuplicateCardError, match="'Ah'"):
        evaluate_low(["Ah", "Ah", "2c", "3d", "4s"], game="ace-to-five")


def test_low_values_of_different_games_do_not_compare() -> None:
    razz = evaluate_low("Ah 2c 3d 4s 5h", game="ace-to-five")
    deuce = evaluate_low("7h 5c 4d 3s 2h", game="deuce-to-seven")
    assert razz != deuce
    with pytest.raises(InvalidHandError, match="cannot compare"):
        _ = razz < deuce
    assert isinstance(razz, LowValue) and razz > evaluate_low("Ah 2c 3d 4s 6h", game="ace-to-five")


def test_best_cards_play_to_the_same_value() -> None:
    for hand in _random_hands(300, 7, seed=11) + _paired_hands(300, 7, seed=12):
        for rank, best in (
            (rank_a5_low, best_a5_low),
            (rank_27_low, best_27_low),
        ):
            five = best(hand)
            assert len(five) == 5 and set(five) <= set(hand) and rank(five) == rank(hand)
        low = best_eight_low(hand)
        if low:
            assert len(low) == 5 and set(low) <= set(hand)
            assert rank_eight_low(low) == rank_eight_low(hand)
        else:
            assert rank_eight_low(hand) == 0
        cards = best_badugi(hand)
        assert set(cards) <= set(hand) and rank_badugi(cards) == rank_badugi(hand)
