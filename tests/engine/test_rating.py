"""Hands of any game, named and compared (engine.rating), and equity in board games."""

import pytest

from engine import EngineError, contest, equity, parse_cards, rate
from engine.games import GAMES


@pytest.mark.parametrize(
    ("game", "hole", "board", "names"),
    [
        ("nlhe", "Ah Kh", "Qh Jh Th 2c 3d", ("Royal Flush",)),
        ("shortdeck", "Ah Kh", "Qh 9h 6h 6c 6d", ("Flush, Ace-King-Queen-Nine-Six",)),
        ("plo", "As Ad Ah Ac", "7c 6d 5h Kd 2s", ("One Pair, Aces, King-Seven-Six kickers",)),
        ("razz", "As 2c 3d 4h 6s Kc Kd", "", ("Six-Four-Three-Two-Ace",)),
        ("27td", "7c 5d 4h 3s 2c", "", ("Seven-Five-Four-Three-Two",)),
        ("kuhn", "Ks", "", ("King high",)),
        ("leduc", "Kh", "Ks", ("Pair of Kings",)),
        ("dice", "66666", "", ("Five of a Kind, Sixes",)),
        ("stud8", "As 2c 3d 4h 9s Kc Kd", "", ("One Pair, Kings, Ace-Nine-Four kickers", "none")),
    ],
)
def test_rate_names_each_games_hand(
    game: str, hole: str, board: str, names: tuple[str, ...]
) -> None:
    assert rate(hole, board, game=game).names == names


def test_a_split_game_rates_both_halves_and_a_missing_low_is_none() -> None:
    rating = rate("As 2c 3d 4h 9s Kc Kd", game="stud8")
    assert rating.values[1] == 0 and rating.best[1] == ()
    assert rating.describe() == "high: One Pair, Kings, Ace-Nine-Four kickers; low: none"


def test_contest_compares_ranking_by_ranking() -> None:
    assert contest("Ah 2h Jc Td", "Kd 9c 9d Qc", "3s 4s 8d Kh Ks", game="plo8") == ("LOSE", "WIN")
    assert contest("66612", "55543", game="dice") == ("WIN",)
    assert contest("Kd Qd Jd 9c 7h", "Kh Qh Js 9s 7c", game="5cd") == ("DRAW",)


def test_the_plain_evaluator_and_the_nlhe_rating_agree() -> None:
    from engine import evaluate

    for cards in ("Kh Kd Ks 5c 5d 2h 3c", "9d 4c 3s 2h Ah Kd Kc", "5d 4c 3s 2h Ah 9d 9c"):
        hole, board = cards[:5], cards[6:]
        assert rate(hole, board, game="nlhe").values == (evaluate(cards).rank,)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rate("As Ks", "Qs Js", game="nlhe"), "needs 5 cards with the board, got 4"),
        (lambda: rate("As Ks Qs", game="nlhe"), "has 2 hole cards, got 3"),
        (lambda: rate("2s 3s", "Ah Kh Qh", game="shortdeck"), "'2s' is not in"),
        (lambda: rate("X1 Ks", "Ah Kh Qh", game="nlhe"), "'X1' is not in"),
        (lambda: rate("As Ks Qs Js", "Ah Kh", game="plo"), "plays three board cards"),
        (lambda: rate("As Ks", "As 2h 3h", game="nlhe"), "'As' appears more than once"),
        (lambda: contest("As Ks", "As Qs", "2h 3h 4h", game="nlhe"), "'As' is in both hands"),
        (lambda: equity(["As Ks", "As Qs"], game="shortdeck"), "'As' appears more than once"),
        (lambda: rate("6661", game="dice"), "has 5 hole cards, got 4"),
    ],
)
def test_a_hand_that_does_not_fit_the_game_says_why(call: object, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        call()  # type: ignore[operator]


def test_short_deck_equity_on_the_river_card_counts_each_board() -> None:
    hands, board = ["Ah Kh", "Qs Qd"], "Qh 9h 6c 7d"
    results = equity(hands, board, game="shortdeck")
    left = [
        c
        for c in GAMES["shortdeck"].deck.cards
        if c not in set(parse_cards(" ".join([*hands, board])))
    ]
    wins = [0, 0]
    for river in left:
        a, b = (rate(h, f"{board} {river}", game="shortdeck").values[0] for h in hands)
        wins[0] += a > b
        wins[1] += b > a
    assert [r.wins for r in results] == wins and results[0].boards == len(left) == 28


def test_hi_lo_equity_shares_the_pot_in_halves() -> None:
    scoop, other = equity(["As 2s Kd Kc", "Jh Th 9c 8c"], "3s 4h 5d Ks", game="plo8")
    # The wheel is already made, high and low, and the rundown can beat neither: every
    # river is a scoop.
    assert (scoop.boards, scoop.wins, scoop.equity, other.equity) == (40, 40, 1.0, 0.0)
    split, rest = equity(["As 2s Kd Kc", "Ah 2h Qs Qc"], "3s 4h 5d Jh", game="plo8")
    assert split.ties == rest.ties == split.boards - split.wins - rest.wins
