import math

from bench.all7 import EXPECTED, EXPECTED_DISTINCT, count_all


def test_every_seven_card_hand_category_count_and_4824_ranks() -> None:
    counts, distinct, hands = count_all()
    assert hands == math.comb(52, 7) == 133_784_560
    assert counts == EXPECTED
    assert distinct == EXPECTED_DISTINCT
