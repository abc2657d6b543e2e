import importlib
from itertools import combinations

import pytest

from engine import DuplicateCardError, InvalidHandError, equity, parse_cards
from engine.equity import EXACT_LIMIT
from tests.engine.reference import value5


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


def test_results_do_not_depend_on_the_chunk_size(monkeypatch: pytest.MonkeyPatch) -> None:
    sampled = equity(["AhKh", "QsQd", "7c7d"], samples=3000, seed=5)
    exact = equity(["AhKh", "QsQd", "7c7d"], board="2c 8d", exact=True)
    monkeypatch.setattr(importlib.import_module("engine.equity"), "_CHUNK", 256)
    assert equity(["AhKh", "QsQd", "7c7d"], samples=3000, seed=5) == sampled
    assert equity(["AhKh", "QsQd", "7c7d"], board="2c 8d", exact=True) == exact


# -- Omaha -------------------------------------------------------------------------------


def reference_equity(hands: list[str], board: str) -> list[tuple[int, int]]:
    """Wins and ties of Omaha hands over every completion of ``board``, by the plain
    reference evaluator: exactly two hole cards and three board cards."""
    holes = [tuple(c.code for c in parse_cards(h)) for h in hands]
    fixed = tuple(c.code for c in parse_cards(board))
    deck = [c for c in range(52) if c not in fixed and all(c not in h for h in holes)]
    results = [[0, 0] for _ in holes]
    for rest in combinations(deck, 5 - len(fixed)):
        full = fixed + rest
        values = [
            max(value5(p + t) for p in combinations(h, 2) for t in combinations(full, 3))
            for h in holes
        ]
        best = [i for i, v in enumerate(values) if v == max(values)]
        for i in best:
            results[i][len(best) > 1] += 1
    return [(w, t) for w, t in results]


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AsAd Kh Qc", "Jh Th 9s 8s"], "2h 7h Kd"),
        (["Ah Kh 2c 3d", "Qs Qd Jc Tc", "9h 8h 7s 6s"], "4h 5h Qc Td"),
        (["Ah Kh 2c 3d 4s", "Qs Qd Jc Tc 9c"], "5h 6h 7c 8d"),
        (["Ah Kh 2c 3d 4s 5s", "Qs Qd Jc Tc 9c 9h"], "6h 7h 8c Kd"),
    ],
)
def test_omaha_exact_equity_agrees_with_the_brute_force_reference(
    hands: list[str], board: str
) -> None:
    results = equity(hands, board=board)
    assert results[0].exact
    assert [(r.wins, r.ties) for r in results] == reference_equity(hands, board)
    assert sum(r.equity for r in results) == pytest.approx(1.0)


def test_plo_preflop_exact_known_answer() -> None:
    # Counted by phevaluator's Omaha evaluator over the same boards (bench/evaluator.py).
    aces, rundown = equity(["As Ad Kh Qc", "Jh Th 9s 8s"])
    assert aces.exact and aces.boards == 1_086_008  # C(44, 5)
    assert (aces.wins, rundown.wins, aces.ties, rundown.ties) == (581_235, 504_629, 144, 144)


def test_omaha_is_inferred_from_four_cards_and_can_be_named() -> None:
    inferred = equity(["AsAdKhQc", "JhTh9s8s"], board="2h 7h Kd 3c")
    named = equity(["AsAdKhQc", "JhTh9s8s"], board="2h 7h Kd 3c", game="omaha")
    assert inferred == named and inferred[0].boards == 40
    # The same cards as hold'em hands would be a different game: two cards each.
    holdem = equity(["AsAd", "JhTh"], board="2h 7h Kd 3c", game="holdem")
    assert holdem[0].wins != inferred[0].wins


def test_omaha_monte_carlo_is_reproducible_and_close_to_exact() -> None:
    first = equity(["As Ad Kh Qc", "Jh Th 9s 8s"], samples=40_000, seed=3)
    assert first == equity(["As Ad Kh Qc", "Jh Th 9s 8s"], samples=40_000, seed=3)
    assert not first[0].exact and first[0].boards == 40_000
    exact = (581_235 + 144 / 2) / 1_086_008
    assert abs(first[0].equity - exact) < 0.01  # 4 standard errors


@pytest.mark.parametrize(
    ("hands", "game", "message"),
    [
        (["AhKhQhJh", "2c2d"], None, "hand 2 has 2 cards; an omaha hand has 4, 5 or 6"),
        (["AhKhQhJh", "2c2d3c3d4c"], "omaha", "hand 2 has 5 cards but hand 1 has 4"),
        (["AhKh", "2c2d3c3d"], None, "hand 2 has 4 cards; a hold'em hand has 2"),
        (["AhKhQhJh", "2c2d3c3d"], "holdem", "hand 1 has 4 cards; a hold'em hand has 2"),
        (["AhKh", "2c2d"], "omaha", "hand 1 has 2 cards; an omaha hand has 4"),
        (["AhKhQhJhTh9h8h", "2c2d3c3d4c4d5c"], None, "hand 1 has 7 cards; a hold'em hand has 2,"),
        (["AhKh", "2c2d"], "razz", "equity is for board games .*; not Razz"),
    ],
)
def test_bad_game_or_hand_size_is_named(hands: list[str], game: str | None, message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        equity(hands, game=game)
