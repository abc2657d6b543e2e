import pytest

from engine import DuplicateCardError, InvalidHandError, equity, parse_cards
from engine.equity import EXACT_LIMIT


def test_ak_suited_against_queens_preflop_exact_known_answer() -> None:
    ak, qq = equity(["AhKh", "QsQd"])
    assert ak.exact and ak.boards == 1_712_304
    assert (ak.wins, ak.ties) == (787_966, 6_732)
    assert (qq.wins, qq.ties) == (1_712_304 - 787_966 - 6_732, 6_732)
    assert round(ak.equity * 100, 4) == 46.2145
    assert ak.equity + qq.equity == pytest.approx(1.0)


def test_monte_carlo_is_reproducible_with_a_seed_and_close_to_exact() -> None:
    first = equity(["AhKh", "QsQd"], samples=50_000, seed=11)
    again = equity(["AhKh", "QsQd"], samples=50_000, seed=11)
    other = equity(["AhKh", "QsQd"], samples=50_000, seed=12)
    assert first == again
    assert first != other
    assert not first[0].exact and first[0].boards == 50_000
    # 4 standard errors of a 50,000-board estimate is about 0.9 percentage points.
    assert abs(first[0].equity - 0.462145) < 0.009


def test_board_cards_are_respected() -> None:
    # Quads on the board: the ace kicker on the river plays, the board cannot improve.
    a, b = equity(["AhKh", "QsQd"], board="2c 2d 2h 2s 7c")
    assert a.boards == 1 and a.wins == 1 and b.wins == 0


def test_river_split_pot_shares_ties() -> None:
    a, b = equity(["2c3d", "2h3s"], board="As Ks Qh Jd Tc")
    assert a.ties == b.ties == 1 and a.equity == b.equity == 0.5


def test_three_way_tie_splits_three_ways() -> None:
    results = equity(["2c3d", "2h3s", "4c4d"], board="As Ks Qh Jd Tc")
    assert [r.equity for r in results] == pytest.approx([1 / 3] * 3)


def test_dead_cards_leave_the_deck() -> None:
    a, b = equity(["AhKh", "QsQd"], board="2c 7d 9s", dead="Qh Qc")
    assert a.boards == 903  # C(43, 2): 52 cards less 4 in hands, 3 on board, 2 dead
    assert a.equity + b.equity == pytest.approx(1.0)
    # No flush or straight is possible for either hand and no queen is left, so AhKh wins
    # exactly the runouts holding one of the 6 remaining aces and kings.
    assert (a.wins, a.ties) == (903 - 37 * 36 // 2, 0)


def test_exact_is_chosen_when_cheap_and_monte_carlo_otherwise() -> None:
    assert equity(["AhKh", "QsQd"])[0].exact
    six_way = equity(["AhKh", "QsQd", "JcJd", "Tc9c", "8h8s", "2c2d"], seed=1, samples=2000)
    assert not six_way[0].exact and six_way[0].boards == 2000
    assert EXACT_LIMIT >= 2 * 1_712_304


def test_exact_can_be_forced() -> None:
    results = equity(["AhKh", "QsQd", "JcJd"], board="2c 3d 4h", exact=True)
    assert results[0].exact and results[0].boards == 43 * 42 // 2
    assert sum(r.equity for r in results) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("hands", "board", "error", "message"),
    [
        (["AhKh"], "", InvalidHandError, "at least 2 hands"),
        (["AhKhQh", "2c2d"], "", InvalidHandError, "hand 1 has 3 cards"),
        (["AhKh", "AhQd"], "", DuplicateCardError, "'Ah'"),
        (["AhKh", "QsQd"], "Qs 2c 3c", DuplicateCardError, "'Qs'"),
        (["AhKh", "QsQd"], "2c 3c 4c 5c 6c 7c", InvalidHandError, "at most 5 cards"),
    ],
)
def test_bad_equity_input_is_named(
    hands: list[str], board: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        equity(hands, board=board)


def test_samples_must_be_positive() -> None:
    with pytest.raises(InvalidHandError, match="samples must be positive"):
        equity(["AhKh", "QsQd"], samples=0)


def test_equity_accepts_parsed_cards() -> None:
    a = equity([parse_cards("Ah Kh"), parse_cards("Qs Qd")], board="2c 7d 9s 3h")
    assert a[0].boards == 44 and a[0].exact
