"""Omaha (engine.omaha): the two-plus-three rule for the high and the eight-or-better low,
against a brute force over every two hole cards with every three board cards."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from engine.cards import Card, parse_cards
from engine.errors import DuplicateCardError, InvalidHandError
from engine.evaluator import evaluate, rank_batch
from engine.hand_classes import CLASS_RANK, HandCategory
from engine.omaha import (
    OmahaValue,
    best_omaha_high,
    best_omaha_low8,
    describe_omaha_high,
    describe_omaha_low8,
    evaluate_omaha,
    rank_omaha_high,
    rank_omaha_low8,
)
from tests.engine import brute

Deal = tuple[tuple[int, ...], tuple[int, ...]]


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


def text(hand: tuple[int, ...]) -> str:
    return "".join(str(Card.from_code(c)) for c in hand)


def deals(n: int, seed: int, deck: list[int] | None = None) -> list[Deal]:
    """Random hole cards (4, 5 or 6) and boards (3, 4 or 5 cards), 4 and 5 most often."""
    rng = random.Random(seed)
    pool = list(range(52)) if deck is None else deck
    out = []
    for _ in range(n):
        holes, board = rng.choice([4, 4, 4, 5, 6]), rng.choice([3, 4, 5, 5, 5])
        cards = rng.sample(pool, holes + board)
        out.append((tuple(cards[:holes]), tuple(cards[holes:])))
    return out


def suited_deals(n: int, seed: int) -> list[Deal]:
    """Boards of three or four cards of one suit, and hole cards with none, one or two of it:
    the flushes Omaha's rule forbids or allows."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        suit = rng.randrange(4)
        same = [r * 4 + suit for r in range(13)]
        board = rng.sample(same, rng.choice([3, 4]))
        rest = [c for c in range(52) if c not in board]
        board += rng.sample([c for c in rest if c & 3 != suit], 5 - len(board))
        hole = rng.sample([c for c in same if c not in board], rng.choice([0, 1, 2]))
        hole += rng.sample([c for c in rest if c not in hole and c not in board], 4 - len(hole))
        out.append((tuple(hole), tuple(board)))
    return out


def every_two_plus_three(group: list[Deal]) -> np.ndarray:
    """Each deal's five-card hands of two hole cards and three board cards, as rows of an
    (N, hands, 5) array; all deals of the group have the same numbers of cards."""
    holes = np.array([h for h, _ in group])
    boards = np.array([b for _, b in group])
    two = list(combinations(range(holes.shape[1]), 2))
    three = list(combinations(range(boards.shape[1]), 3))
    idx_h = np.array([t for t in two for _ in three])
    idx_b = np.array([t for _ in two for t in three])
    return np.concatenate([holes[:, idx_h], boards[:, idx_b]], axis=2)


def by_shape(all_deals: list[Deal]) -> dict[tuple[int, int], list[int]]:
    shapes: dict[tuple[int, int], list[int]] = {}
    for i, (h, b) in enumerate(all_deals):
        shapes.setdefault((len(h), len(b)), []).append(i)
    return shapes


# ---------------------------------------------------------------------------------- high


def test_high_equals_the_best_two_plus_three_of_the_five_card_ranking() -> None:
    """30,000 deals: our rank is exactly the best, over every two hole cards and three board
    cards, of rank_batch's five-card rank (itself checked on every five-card hand)."""
    all_deals = deals(24_000, seed=1) + suited_deals(6_000, seed=2)
    expected = np.zeros(len(all_deals), dtype=np.int64)
    for idx in by_shape(all_deals).values():
        fives = every_two_plus_three([all_deals[i] for i in idx])
        ranks = rank_batch(fives.reshape(-1, 5)).reshape(len(idx), -1)
        expected[idx] = ranks.max(axis=1)
    ours = [rank_omaha_high(h, b) for h, b in all_deals]
    np.testing.assert_array_equal(ours, expected)


def test_high_orders_hands_like_the_plain_brute_force() -> None:
    all_deals = deals(1200, seed=3) + suited_deals(600, seed=4)
    reference = [brute.omaha_high(h, b) for h, b in all_deals]
    brute.assert_same_order(reference, [rank_omaha_high(h, b) for h, b in all_deals])


def category(rank: int) -> HandCategory:
    return next(c for (c, _), r in CLASS_RANK.items() if r == rank)


def test_four_hearts_on_the_board_and_one_in_the_hand_is_no_flush() -> None:
    hole, board = codes("Ah Kc Qd Js"), codes("2h 5h 8h Th 3c")
    assert describe_omaha_high(rank_omaha_high(hole, board)) == "High Card, Ace-King-Ten-Eight-Five"
    assert evaluate(hole + board).describe() == "Flush, Ace-Ten-Eight-Five-Two"  # hold'em
    two_hearts = codes("Ah 9h Qd Js")
    assert (
        describe_omaha_high(rank_omaha_high(two_hearts, board)) == "Flush, Ace-Ten-Nine-Eight-Five"
    )


def test_three_of_a_kind_on_the_board_and_a_pocket_pair_is_a_full_house() -> None:
    board = codes("Kh Kd Ks 5c 7d")
    assert (
        describe_omaha_high(rank_omaha_high(codes("9s 9d 2c 3h"), board))
        == "Full House, Kings over Nines"
    )
    # One king in the hand makes four kings, with the best other hole card as kicker.
    four = rank_omaha_high(codes("Kc 2d 3h 4s"), board)
    assert describe_omaha_high(four) == "Four of a Kind, Kings, Four kicker"


def test_four_of_a_kind_on_the_board_plays_only_three() -> None:
    board = codes("Kh Kd Ks Kc 5c")
    assert (
        describe_omaha_high(rank_omaha_high(codes("Ah Ad 2c 3h"), board))
        == "Full House, Kings over Aces"
    )
    assert describe_omaha_high(rank_omaha_high(codes("7h 6d 2c 3h"), board)) == (
        "Three of a Kind, Kings, Seven-Six kickers"
    )


def test_a_straight_needs_two_hole_cards_and_three_board_cards() -> None:
    # Three to the straight in the hand (9-T-J) with Q-K on the board is not a straight.
    assert category(rank_omaha_high(codes("9c Td Jh 2s"), codes("Qs Kd 4c 4h 7s"))) is (
        HandCategory.ONE_PAIR
    )
    assert describe_omaha_high(rank_omaha_high(codes("Jh Td 2s 3c"), codes("Qs Kd 9c 4h 7s"))) == (
        "Straight, King high"
    )


def test_flop_and_turn_evaluate_what_is_made_so_far() -> None:
    hole = codes("Ah Kh 7c 7d")
    assert describe_omaha_high(rank_omaha_high(hole, codes("Qh Jh Th"))) == "Royal Flush"
    assert describe_omaha_high(rank_omaha_high(hole, codes("7s 2h 9c"))) == (
        "Three of a Kind, Sevens, Nine-Two kickers"
    )
    assert (
        describe_omaha_high(rank_omaha_high(hole, codes("7s 2h 9c 2d")))
        == "Full House, Sevens over Twos"
    )


# ----------------------------------------------------------------------------------- low


def _low8_of_fives(fives: np.ndarray) -> np.ndarray:
    """Each five-card row's eight-or-better value, read from a table that scores the 56
    sets of five ranks with the brute force, 0 for rows that are not five ranks <= 8."""
    lows = np.sort(((fives >> 2) + 1) % 13, axis=-1)  # ace 0 .. eight 7
    sets = list(combinations(range(8), 5))
    scores = [brute.best_low8([(low - 1) % 13 * 4 for low in s]) or () for s in sets]
    value_of = {s: v for v, s in enumerate(sorted(scores), start=1)}
    table = np.zeros(8**5, dtype=np.int64)
    for s, score in zip(sets, scores, strict=True):
        table[sum(low * 8**i for i, low in enumerate(s))] = value_of[score]
    qualifies = (lows[..., 4] < 8) & (np.diff(lows, axis=-1) > 0).all(axis=-1)
    keys = (np.minimum(lows, 7) * 8 ** np.arange(5)).sum(axis=-1)
    return np.where(qualifies, table[keys], 0)


def low_deals(n: int, seed: int) -> list[Deal]:
    """Deals from a deck rich in small cards: most have a low, many miss or are counterfeit."""
    small = [c for c in range(52) if (c >> 2) < 7 or c >= 48]
    extra = random.Random(seed).sample([c for c in range(52) if c not in small], 8)
    return deals(n, seed, small + extra)


def test_low_equals_the_best_two_plus_three_of_the_eight_or_better_table() -> None:
    all_deals = low_deals(20_000, seed=5) + deals(10_000, seed=6)
    expected = np.zeros(len(all_deals), dtype=np.int64)
    for idx in by_shape(all_deals).values():
        fives = every_two_plus_three([all_deals[i] for i in idx]).astype(np.int64)
        expected[idx] = _low8_of_fives(fives).max(axis=1)
    ours = [rank_omaha_low8(h, b) for h, b in all_deals]
    np.testing.assert_array_equal(ours, expected)
    assert 0.2 < np.mean(expected[:20_000] > 0) < 0.9  # lows made and missed


def test_low_orders_hands_like_the_plain_brute_force() -> None:
    all_deals = low_deals(1500, seed=7)
    reference = [brute.omaha_low8(h, b) or () for h, b in all_deals]
    brute.assert_same_order(reference, [rank_omaha_low8(h, b) for h, b in all_deals])


@pytest.mark.parametrize(
    ("hole", "board", "low"),
    [
        # A-2 with 3-4-5 on the board: the wheel, and a five-high straight for the high.
        ("As 2d Kc Kh", "3c 4d 5h Qs Jc", "Five-Four-Three-Two-Ace"),
        # A-A-2-3 on 4-5-6: no wheel (A-2-3 would be three hole cards); A-2 plays best.
        ("As Ad 2c 3h", "4h 5d 6c Kh Qs", "Six-Five-Four-Two-Ace"),
        # Only two low cards on the board: no low, whatever the hand holds.
        ("As Ad 2c 3h", "4h 5d Kc Kh Qs", "No qualifying low"),
        # A-2 counterfeited: the board's 2 pairs the deuce, and no other low card is held.
        ("As 2d Kc Kh", "2c 3h 8d Kd Qs", "No qualifying low"),
        # The same board with A-4: 8-4-3-2-A.
        ("As 4d Kc Qh", "2c 3h 8d Kd Qs", "Eight-Four-Three-Two-Ace"),
        # A-2-3-4 in the hand, 5-6-7 on the board: two hole cards only, 7-6-5-2-A.
        ("Ac 2d 3h 4s", "5c 6d 7h Kc Kd", "Seven-Six-Five-Two-Ace"),
        # Low cards of the board paired by the hand: A-3 with 3-6-8 needs another board card.
        ("Ac 3d Kh Ks", "3c 6d 8h Qc Qd", "No qualifying low"),
    ],
)
def test_low_pinned(hole: str, board: str, low: str) -> None:
    assert describe_omaha_low8(rank_omaha_low8(codes(hole), codes(board))) == low


def test_the_wheel_is_also_the_high_straight() -> None:
    value = evaluate_omaha("As 2d Kc Kh", "3c 4d 5h Qs Jc")
    assert (value.describe_high(), value.low) == ("Straight, Five high", 56)


# ---------------------------------------------------------------------------- best cards


def test_best_cards_are_two_hole_and_three_board_cards_of_the_same_value() -> None:
    for hole, board in deals(1500, seed=8) + low_deals(1500, seed=9):
        for best, rank in ((best_omaha_high, rank_omaha_high), (best_omaha_low8, rank_omaha_low8)):
            five = best(hole, board)
            if not rank(hole, board):
                assert five == () and best is best_omaha_low8
                continue
            two = [c for c in five if c in hole]
            three = [c for c in five if c in board]
            assert (len(five), len(two), len(three)) == (5, 2, 3)
            assert rank(two, three) == rank(hole, board)


def test_best_cards_most_significant_first() -> None:
    hole, board = codes("Ah Kc Qd Js"), codes("2h 5h 8h Th 9c")
    assert best_omaha_high(hole, board) == tuple(codes("Qd Js Th 9c 8h"))
    assert best_omaha_low8(codes("Ac 2d Kh Ks"), codes("3s 4h 8c Jd Qd")) == tuple(
        codes("8c 4h 3s 2d Ac")
    )


# ------------------------------------------------------------------------- checked entry


def test_evaluate_omaha_gives_both_halves() -> None:
    value = evaluate_omaha("Ah 2h 3c Kd", ["4h", "5h", Card.parse("9h"), "Qs", 9])
    assert isinstance(value, OmahaValue)
    assert value.describe_high() == "Flush, Ace-Nine-Five-Four-Two"
    assert value.high_cards == parse_cards("Ah 9h 5h 4h 2h")
    assert (value.low, value.low_cards, value.describe_low()) == (0, (), "No qualifying low")


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("As Ah 2c", "4h 5h Kh", "an omaha hand needs 4 to 6 hole cards, got 3"),
        ("As Ah 2c 3c 4c 5c 6c", "8h 9h Kh", "an omaha hand needs 4 to 6 hole cards, got 7"),
        ("As Ah 2c 3c", "4h 5h", "an omaha board has 3 to 5 cards, got 2"),
        ("As Ah 2c 3c", "4h 5h 6h 7h 8h 9h", "an omaha board has 3 to 5 cards, got 6"),
    ],
)
def test_evaluate_omaha_rejects_wrong_card_counts(hole: str, board: str, message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        evaluate_omaha(hole, board)


def test_evaluate_omaha_rejects_a_card_both_in_the_hand_and_on_the_board() -> None:
    with pytest.raises(DuplicateCardError, match="'Ah' is both in the hand and on the board"):
        evaluate_omaha("As Ah 2c 3c", "Ah 5h 6h")


# ------------------------------------------------------------------------------ pokerkit


def test_pokerkit_omaha_orders_the_high_and_low_as_we_do() -> None:
    sample = deals(120, seed=10) + low_deals(120, seed=11)
    ours_high = [rank_omaha_high(h, b) for h, b in sample]
    ours_low = [rank_omaha_low8(h, b) for h, b in sample]
    pk_high = [OmahaHoldemHand.from_game(text(h), text(b)) for h, b in sample]
    pk_low = [OmahaEightOrBetterLowHand.from_game_or_none(text(h), text(b)) for h, b in sample]
    assert [v == 0 for v in ours_low] == [p is None for p in pk_low]
    for i, j in combinations(range(len(sample)), 2):
        assert (ours_high[i] < ours_high[j]) == (pk_high[i] < pk_high[j])
        assert (ours_high[i] == ours_high[j]) == (pk_high[i] == pk_high[j])
        low_i, low_j = pk_low[i], pk_low[j]
        if low_i is not None and low_j is not None:
            assert (ours_low[i] < ours_low[j]) == (low_i < low_j)
