import lzma
import random
from collections import Counter
from itertools import combinations

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
from engine.evaluator import _BATCH_CHUNK, describe_rank, rank_omaha_batch
from engine.hand_classes import CLASS_RANK
from engine.tablegen import OMAHA_PATH, TABLES_PATH, build, build_omaha
from tests.engine.reference import best_value, value5

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


def test_rank_batch_reads_any_integer_dtype_and_layout_alike() -> None:
    hands = np.array(_random_hands(5000, 7, seed=70))
    expected = rank_batch(hands).tolist()
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint64):
        assert rank_batch(hands.astype(dtype)).tolist() == expected, dtype
        assert rank_batch(np.asfortranarray(hands.astype(dtype))).tolist() == expected, dtype
    wide = np.zeros((5000, 10), dtype=np.int8)
    wide[:, 2:9] = hands
    assert rank_batch(wide[:, 2:9]).tolist() == expected  # a strided view, read in place
    assert rank_batch(hands[::-1]).tolist() == expected[::-1]
    assert rank_batch(hands[:, ::-1]).tolist() == expected
    assert rank_batch(hands.tolist()).tolist() == expected
    assert rank_batch(hands.astype(np.int8), validate=False).tolist() == expected


def test_unvalidated_garbage_gets_some_rank_and_never_an_exception() -> None:
    rng = np.random.default_rng(8)
    for size in (5, 6, 7):
        ranks = rank_batch(rng.integers(-300, 300, (20_000, size)), validate=False)
        assert ranks.shape == (20_000,) and int(ranks.max()) <= 7462
    for holes in (4, 5, 6):
        ranks = rank_omaha_batch(
            rng.integers(-300, 300, (20_000, holes)),
            rng.integers(0, 256, (20_000, 5)).astype(np.uint8),
            validate=False,
        )
        assert ranks.shape == (20_000,) and int(ranks.max()) <= 7462


def test_rank_batch_names_a_repeated_card_row_past_the_first_chunk() -> None:
    hands = np.array(_random_hands(_BATCH_CHUNK + 10, 7, seed=71), dtype=np.uint8)
    hands[_BATCH_CHUNK + 3, 6] = hands[_BATCH_CHUNK + 3, 0]
    with pytest.raises(InvalidHandError, match=f"row {_BATCH_CHUNK + 3} repeats a card"):
        rank_batch(hands)


def test_shipped_tables_match_the_builder() -> None:
    assert TABLES_PATH.read_bytes() == build()


def test_shipped_omaha_tables_match_the_builder() -> None:
    assert lzma.decompress(OMAHA_PATH.read_bytes()) == build_omaha()


# -- Omaha -------------------------------------------------------------------------------


def omaha_reference(hole: tuple[int, ...], board: tuple[int, ...]) -> tuple[int, ...]:
    """The best of every two hole cards with every three board cards, by the reference."""
    return max(value5(p + t) for p in combinations(hole, 2) for t in combinations(board, 3))


def _omaha_deals(n: int, holes: int, seed: int) -> list[tuple[int, ...]]:
    """Random deals (hole cards, then five board cards), half of them rich in one suit and
    in connected ranks, which uniform deals rarely give."""
    rng = random.Random(seed)
    deals = [tuple(rng.sample(range(52), holes + 5)) for _ in range(n // 2)]
    while len(deals) < n:
        suit, low = rng.randrange(4), rng.randrange(9)
        pool = {r * 4 + suit for r in rng.sample(range(13), 7)}
        pool |= {(low + i) * 4 + rng.randrange(4) for i in range(5)}
        cards = rng.sample(sorted(pool), min(len(pool), holes + 5))
        cards += rng.sample([c for c in range(52) if c not in cards], holes + 5 - len(cards))
        rng.shuffle(cards)
        deals.append(tuple(cards))
    return deals


@pytest.mark.parametrize("holes", [4, 5, 6])
def test_omaha_ranks_order_hands_exactly_as_the_brute_force_reference(holes: int) -> None:
    deals = _omaha_deals({4: 3000, 5: 1500, 6: 1000}[holes], holes, seed=holes)
    ours = rank_omaha_batch(
        np.array([d[:holes] for d in deals]), np.array([d[holes:] for d in deals])
    ).tolist()
    reference = [omaha_reference(d[:holes], d[holes:]) for d in deals]
    pairs = sorted(set(zip(reference, ours, strict=True)))
    assert len({r for r, _ in pairs}) == len(pairs), "one reference value got two ranks"
    assert [rank for _, rank in pairs] == sorted(rank for _, rank in pairs)
    assert len({rank for _, rank in pairs}) == len(pairs), "two reference values share a rank"
    for value, rank in pairs:
        assert CATEGORY_OF_RANK[rank] == value[0] + 1


def test_omaha_batch_reads_any_integer_dtype_and_layout_alike() -> None:
    deals = np.array(_omaha_deals(3000, 6, seed=60))
    expected = rank_omaha_batch(deals[:, :6], deals[:, 6:]).tolist()
    for dtype in (np.int8, np.uint8, np.int64, np.uint32):
        typed = deals.astype(dtype)
        assert rank_omaha_batch(typed[:, :6], typed[:, 6:]).tolist() == expected, dtype
        fortran = np.asfortranarray(typed)
        assert rank_omaha_batch(fortran[:, :6], fortran[:, 6:]).tolist() == expected, dtype
    reordered = deals[:, [5, 4, 3, 2, 1, 0, 10, 9, 8, 7, 6]]
    assert rank_omaha_batch(reordered[:, :6], reordered[:, 6:]).tolist() == expected
    assert rank_omaha_batch(deals[:, :6].tolist(), deals[:, 6:].tolist()).tolist() == expected


def test_omaha_rank_is_the_best_rank7_scale_rank_of_two_plus_three() -> None:
    deals = _omaha_deals(2000, 4, seed=40)
    ours = rank_omaha_batch(np.array([d[:4] for d in deals]), np.array([d[4:] for d in deals]))
    for deal, rank in zip(deals, ours.tolist(), strict=True):
        pairs, triples = combinations(deal[:4], 2), list(combinations(deal[4:], 3))
        assert rank == max(rank_batch(np.array([p + t for p in pairs for t in triples])))


def omaha_rank(hole: str, board: str) -> int:
    return int(rank_omaha_batch(np.array([codes(hole)]), np.array([codes(board)]))[0])


@pytest.mark.parametrize(
    ("hole", "board", "description"),
    [
        # Four hearts on the board and one in the hand: no flush, two hole cards must play.
        ("Ah Kc 7d 2s", "Qh Jh 9h 3h 4c", "High Card, Ace-King-Queen-Jack-Nine"),
        ("Ah Kh 7d 2s", "Qh Jh 9h 3h 4c", "Flush, Ace-King-Queen-Jack-Nine"),
        # A straight flush on the board does not play; nor does a straight.
        ("Ah Kc 2c 2d", "Qh Jh Th 9h 8h", "Straight, Ace high"),
        ("2c 3d 4s 5s", "Qh Jh Th 9h 8h", "High Card, Queen-Jack-Ten-Five-Four"),
        # Trips on the board and a pocket pair: a full house.
        ("Qc Qd 7h 2s", "9h 9c 9d Kh 3s", "Full House, Nines over Queens"),
        # Quads on the board: only three of them play, and then no board card kicks.
        ("Ac Ad 7h 2s", "8h 8c 8d 8s Kh", "Full House, Eights over Aces"),
        ("Ac 3d 7h 2s", "8h 8c 8d 8s Kh", "Three of a Kind, Eights, Ace-Seven kickers"),
        # Four of a kind in the hand plays as a pair.
        ("9c 9d 9h 9s", "Ah Kd 7c 4s 2h", "One Pair, Nines, Ace-King-Seven kickers"),
        # A pair on the board and a pocket pair: two pair, not more.
        ("Ac Ad Qh Js", "7h 7c Kd 4s 2h", "Two Pair, Aces and Sevens, King kicker"),
        # Four to a straight on the board and one card to it in the hand: no straight.
        ("Ac 7d 9h 9s", "3h 4c 5d 6s Qh", "One Pair, Nines, Queen-Six-Five kickers"),
        ("7c 8d Ks Kh", "3h 4c 5d 6s Qh", "Straight, Eight high"),
        ("Ac 2d 9h 9s", "3h 4c 5d Kd Qh", "Straight, Five high"),
        # Four hearts in the hand and two on the board: no flush.
        ("Ah Kh Qh Jh", "Th 9h 2c 3d 4s", "High Card, Ace-King-Ten-Nine-Four"),
    ],
)
def test_omaha_uses_exactly_two_hole_and_three_board_cards(
    hole: str, board: str, description: str
) -> None:
    assert describe_rank(omaha_rank(hole, board)) == description


def test_omaha_royal_flush() -> None:
    assert omaha_rank("Ah Kh 2c 3d", "Qh Jh Th 4s 5c") == 7462


def test_five_and_six_hole_cards_take_the_best_two() -> None:
    five = omaha_rank("2c 3d 7s Ah 8h", "Kh Qh Jh 4s 5c")
    assert describe_rank(five) == "Flush, Ace-King-Queen-Jack-Eight"
    assert omaha_rank("2c 3d 4s 5c Kh Th", "Ah Qh Jh 9c 7d") == 7462


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        (np.zeros((2, 3), dtype=np.int64), np.zeros((2, 5), dtype=np.int64), "shape"),
        (np.zeros((2, 7), dtype=np.int64), np.zeros((2, 5), dtype=np.int64), "shape"),
        (np.zeros((2, 4), dtype=np.int64), np.zeros((2, 4), dtype=np.int64), "shape"),
        (np.zeros(4, dtype=np.int64), np.zeros(5, dtype=np.int64), "shape"),
        (np.zeros((2, 4)), np.zeros((2, 5), dtype=np.int64), "integer"),
        ([[0, 1, 2, 3]], [[4, 5, 6, 7, 52]], "0..51"),
        ([[0, 1, 2, -3]], [[4, 5, 6, 7, 8]], "0..51"),
        ([[0, 1, 2, 3], [0, 1, 2, 3]], [[4, 5, 6, 7, 8], [4, 5, 6, 7, 3]], "row 1 repeats"),
        ([[0, 1, 2, 2]], [[4, 5, 6, 7, 8]], "row 0 repeats"),
        ([[0, 1, 2, 3]], [[4, 5, 6, 7, 8], [9, 10, 11, 12, 13]], "1 rows of hole cards but 2"),
    ],
)
def test_rank_omaha_batch_rejects_bad_arrays(hole: object, board: object, message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        rank_omaha_batch(hole, board)  # type: ignore[arg-type]


@pytest.mark.parametrize("holes", [4, 5, 6])
def test_rank_omaha_batch_finds_any_repeated_card(holes: int) -> None:
    deal = list(range(0, 4 * (holes + 5), 4))
    for i, j in combinations(range(holes + 5), 2):
        cards = deal.copy()
        cards[j] = cards[i]
        with pytest.raises(InvalidHandError, match="row 0 repeats a card"):
            rank_omaha_batch(np.array([cards[:holes]]), np.array([cards[holes:]]))


def test_rank_omaha_batch_of_no_hands_is_empty() -> None:
    empty = rank_omaha_batch(np.zeros((0, 4), dtype=np.int8), np.zeros((0, 5), dtype=np.int8))
    assert empty.shape == (0,) and empty.dtype == np.uint16


def test_hand_value_repr_shows_rank_name_and_cards() -> None:
    assert repr(evaluate("As Ks Qs Js Ts")) == "<HandValue 7462 'Royal Flush' [As Ks Qs Js Ts]>"


def test_hand_value_is_immutable() -> None:
    value = evaluate("As Ks Qs Js Ts")
    with pytest.raises(AttributeError):
        value.rank = 1  # type: ignore[misc]
    assert isinstance(value, HandValue)
    assert all(isinstance(c, Card) for c in value.best_five)
