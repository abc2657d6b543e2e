"""The hand tools with --game: eval, compare, showdown and equity for every kind of game."""

import json
from pathlib import Path

import pytest

from server.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_names_both_halves_of_an_omaha_hi_lo_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "--game", "plo8", "Ad 2d 7c 7s", "--board", "3s 4h 7d Kd 9s")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "high: Three of a Kind, Sevens, King-Nine kickers"
    assert lines[1] == "  cards that play: 7s 7d 7c Kd 9s"
    assert lines[3] == "low: Seven-Four-Three-Two-Ace"


def test_eval_json_of_a_dice_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "--json", "--game", "dice", "66612")
    data = json.loads(out)
    assert code == 0 and data["game"] == "dice"
    assert data["hand"]["description"] == "Three of a Kind, Sixes, Two-One kickers"
    assert data["hand"]["best"] == ["6", "6", "6", "2", "1"]


def test_compare_two_omaha_hands_on_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    # Four aces in the hand play as a pair: two hole cards only. The rundown makes a straight.
    code, out, _ = run(
        capsys, "compare", "--game", "plo", "AsAdAhAc", "Jh Th 9s 8s", "--board", "7c 6d 5h Kd 2s"
    )
    assert (code, out) == (0, "LOSE\n")


def test_compare_two_dice_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "compare", "--game", "dice", "66612", "55543")[:2] == (0, "WIN\n")
    assert run(capsys, "compare", "--game", "dice", "23456", "12345")[:2] == (0, "WIN\n")


def test_compare_names_both_halves_in_a_split_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "compare",
        "--game",
        "FO/8",
        "Ah 2h Jc Td",
        "Kd 9c 9d Qc",
        "--board",
        "3s 4s 8d Kh Ks",
    )
    assert (code, out) == (0, "high: LOSE, low: WIN\n")


def test_showdown_with_a_game_reads_hand_bar_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "razz.txt"
    path.write_text(
        "As 2c 3d 4h 6s Kc Kd | Ah 2d 3c 4s 5h Qd Jc\n"  # the wheel wins
        "Ah 2d 3c 4s 5h Qd Jc | As 2c 3d 4h 6s Kc Kd\n"
        "As 2c 3d 4h 5s Kc Kd | Ah 2d 3c 4s 5h Qd Jc\n",  # two wheels: a draw
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "showdown", "--game", "razz", str(path))
    assert code == 0
    assert out.splitlines() == ["hands: 3", "player 1 wins: 1", "player 2 wins: 1", "draws: 1"]


def test_showdown_with_a_board_game_takes_the_board_third(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "plo.txt"
    path.write_text("AsAdKhQc | JhTh9s8s | 7c 6d 5h Kd 2s\n", encoding="utf-8")
    code, out, _ = run(capsys, "showdown", "--game", "plo", str(path))
    assert code == 0 and "player 2 wins: 1" in out


def test_equity_of_omaha_hands_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "equity", "--json", "--game", "plo", "AsAdKhQc", "JhTh9s8s")
    data = json.loads(out)
    assert code == 0 and data["exact"] and data["boards"] == 1_086_008
    assert [h["wins"] for h in data["hands"]] == [581_235, 504_629]


def test_equity_of_a_split_game_shares_the_pot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "equity", "--json", "--game", "plo8", "As2sKdQd", "JhTh9c8c", "--board", "3s 7h 8d"
    )
    data = json.loads(out)
    assert code == 0 and data["boards"] == 820
    assert abs(sum(h["equity"] for h in data["hands"]) - 1) < 1e-9


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("eval", "--game", "razz", "As", "2c"), "a Razz hand has 5 to 7 cards, got 2"),
        (("eval", "--game", "holdem", "As", "2c"), "unknown game 'holdem'"),
        (("eval", "--game", "shortdeck", "2s 3c", "--board", "Ah Kd Qc"), "'2s' is not in"),
        (("eval", "--board", "Ah Kd Qc", "As", "2c"), "--board needs --game"),
        (
            ("compare", "--game", "dice", "66612", "5554"),
            "a Poker dice hand has 5 hole cards, got 4",
        ),
        (("equity", "--game", "razz", "As2s3s", "KdQdJd"), "equity is for board games"),
    ],
)
def test_bad_input_with_a_game_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
